"use client";

import { useQueryClient } from "@tanstack/react-query";
import { Play } from "lucide-react";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { type FormEvent, useMemo, useRef, useState } from "react";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { Modal } from "@/components/ui/modal";
import { $api } from "@/lib/api/client";
import { useDatasetVersion } from "@/lib/api/datasets/queries";
import { useProject } from "@/lib/api/projects/queries";
import { JOBS_PATH, jobQuery, trainingKeys } from "@/lib/api/training/keys";
import { useDatasetFit, useRuntimes } from "@/lib/api/training/queries";
import { type Augmentation, DEFAULT_IMAGE_RESIZE, type ImageResizeMode, type TrainingConfig } from "@/lib/ml";
import {
  CONFIG_FIELDS,
  type ConfigTexts,
  configFromTexts,
  initialTexts,
  splitServerErrors,
  validateTexts,
} from "@/lib/training-ui/config-form";
import { LayerlineError } from "@/sdk/src/errors";
import { AugmentationPanel, NO_AUGMENTATION } from "./augmentation-panel";
import { ConfigField } from "./config-fields";
import { DatasetPicker } from "./dataset-picker";
import { EstimatePanel } from "./estimate-panel";
import { RecipePicker, type TrainingRecipe } from "./recipe-picker";
import { RuntimePicker } from "./runtime-picker";
import { SplitInfo } from "./split-info";
import { StrategyPicker } from "./strategy-picker";
import type { DatasetFit, TrainingRuntime } from "./types";

/** The editor's save state, so that a job never trains a diagram older than what is on screen. */
export type EditorSaveState = "saved" | "saving" | "failed";

/** Fits the project's model to a dataset as one undoable editor step, saved (the editor's "Fit to dataset"). */
export type FitModel = (dataset: DatasetFit) => Promise<void>;

function TrainForm({
  projectId,
  projectConfig,
  saveState,
  onClose,
  onFitModel,
}: {
  projectId: string;
  projectConfig: Partial<TrainingConfig> | undefined;
  saveState: EditorSaveState;
  onClose: () => void;
  onFitModel?: FitModel;
}) {
  const router = useRouter();
  const queryClient = useQueryClient();
  const fit = useDatasetFit({ project_id: projectId });
  const runtimes = useRuntimes();
  const [picked, setPicked] = useState<string | null>(null);
  const [texts, setTexts] = useState<ConfigTexts>(() => initialTexts(projectConfig));
  const [runtime, setRuntime] = useState<TrainingRuntime>("auto");
  const [name, setName] = useState("");
  const [recipeId, setRecipeId] = useState<string | null>(null);
  const [strategy, setStrategy] = useState("single");
  const [augmentation, setAugmentation] = useState<Augmentation>(() => ({
    ...NO_AUGMENTATION,
    ...projectConfig?.augmentation,
  }));
  const [resize, setResize] = useState<ImageResizeMode>(projectConfig?.resize ?? DEFAULT_IMAGE_RESIZE);
  /** Fields edited since the server's answer: their server message no longer applies. */
  const [edited, setEdited] = useState<Set<string>>(new Set());
  const idempotency = useRef<{ body: string; key: string } | null>(null);

  const create = $api.useMutation("post", JOBS_PATH, {
    onSuccess: (job) => {
      queryClient.setQueryData(jobQuery(job.id).queryKey, job);
      queryClient.invalidateQueries({ queryKey: trainingKeys.jobs });
      router.push(`/training/${job.id}`);
    },
  });

  // The first dataset that fits is picked for you (the built-in one a template was made for, often).
  const items = fit.data?.items;
  const datasetId = picked ?? items?.find((d) => d.fits)?.dataset_id ?? null;
  const dataset = items?.find((d) => d.dataset_id === datasetId) ?? null;

  // An image ZIP (its profile has pictures) gets the picture settings; a table of pixels does not.
  const maybePictures = dataset?.task === "image_classification" && !dataset.builtin;
  const version = useDatasetVersion(dataset?.dataset_id ?? "", dataset?.dataset_version_id ?? null, {
    enabled: maybePictures && Boolean(dataset?.dataset_version_id),
  });
  const pictures = maybePictures ? (version.data?.profile?.images ?? null) : null;
  const project = useProject(projectId);
  const inputShape = project.data?.graph.nodes.find((n) => n.type === "Input")?.params.shape;
  const rgbInput = Array.isArray(inputShape) && inputShape[0] === 3;
  const typedErrors = useMemo(() => validateTexts(texts), [texts]);
  const config = useMemo(() => configFromTexts(texts), [texts]);
  const apiError = create.error instanceof LayerlineError ? create.error : null;
  const server = splitServerErrors(apiError?.status === 422 ? apiError.problem?.errors : undefined);
  const fieldError = (f: string) => typedErrors[f] ?? (edited.has(f) ? undefined : server.fields[f]);
  const outOfCredits = apiError?.status === 402;

  const pickRecipe = (recipe: TrainingRecipe | null) => {
    setRecipeId(recipe?.id ?? null);
    setTexts(initialTexts(recipe ? recipe.config : projectConfig));
    const source = recipe ? recipe.config : projectConfig;
    setAugmentation({ ...NO_AUGMENTATION, ...source?.augmentation });
    setResize(source?.resize ?? DEFAULT_IMAGE_RESIZE);
    setEdited(new Set(CONFIG_FIELDS.map((f) => f.name)));
  };

  const setText = (field: string, text: string) => {
    setTexts((t) => ({ ...t, [field]: text }));
    setEdited((s) => new Set(s).add(field));
  };

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!dataset || !config || saveState === "saving") return;
    const body = {
      project_id: projectId,
      dataset_id: dataset.dataset_id,
      ...(dataset.dataset_version_id ? { dataset_version_id: dataset.dataset_version_id } : {}),
      ...(name.trim() ? { name: name.trim() } : {}),
      config: pictures
        ? {
            ...config,
            augmentation: { ...augmentation, color_jitter: rgbInput ? augmentation.color_jitter : 0 },
            resize,
          }
        : config,
      runtime,
      strategy,
      ...(recipeId ? { recipe_id: recipeId } : {}),
    };
    // One key per submitted body: a retry after a lost answer replays; a changed form is a new job.
    const serialized = JSON.stringify(body);
    const lostAnswer =
      create.error !== null && !(create.error instanceof LayerlineError && create.error.status < 500);
    if (!idempotency.current || idempotency.current.body !== serialized || !lostAnswer) {
      idempotency.current = { body: serialized, key: crypto.randomUUID() };
    }
    setEdited(new Set());
    create.mutate({ body, params: { header: { "Idempotency-Key": idempotency.current.key } } });
  };

  const busy = create.isPending || create.isSuccess;
  const blocked = !dataset || !config || saveState === "saving" || busy;
  return (
    <form onSubmit={submit} aria-label="Training job">
      <div className="space-y-5">
        {saveState === "saving" ? (
          <Alert tone="warn">Saving your latest changes first: the job trains the diagram as saved.</Alert>
        ) : saveState === "failed" ? (
          <Alert tone="warn">
            Your latest changes are not saved: the job would train the diagram as last saved.
          </Alert>
        ) : null}
        <RecipePicker projectId={projectId} value={recipeId} onPick={pickRecipe} />
        <DatasetPicker
          items={items}
          loading={fit.isPending}
          value={datasetId}
          onChange={(id) => {
            setPicked(id);
            setEdited((s) => new Set(s).add("dataset_id"));
          }}
          onFit={
            onFitModel
              ? async (d) => {
                  // Fitted, saved and re-checked: the dataset is then picked, ready to train on.
                  await onFitModel(d);
                  setPicked(d.dataset_id);
                  setEdited((s) => new Set(s).add("dataset_id"));
                }
              : undefined
          }
          error={fit.error ? fit.error.detail : fieldError("dataset_id")}
        />
        {dataset ? (
          <SplitInfo
            dataset={dataset}
            validationSplit={config?.validation_split ?? null}
            seed={config?.seed ?? null}
          />
        ) : null}
        <fieldset>
          <legend className="mb-2 text-sm font-medium">Configuration</legend>
          <p className="-mt-1 mb-3 text-xs text-muted">
            From the project&apos;s training settings; changes here apply to this job only.
          </p>
          <div className="grid gap-x-4 gap-y-3 sm:grid-cols-2">
            {CONFIG_FIELDS.map((f) => (
              <ConfigField
                key={f.name}
                field={f}
                text={texts[f.name] ?? ""}
                error={fieldError(f.name)}
                onChange={(t) => setText(f.name, t)}
              />
            ))}
          </div>
        </fieldset>
        {pictures ? (
          <AugmentationPanel
            value={augmentation}
            onChange={setAugmentation}
            resize={resize}
            onResize={setResize}
            rgb={rgbInput}
            sample={pictures.samples.find((p) => p.thumbnail)?.thumbnail ?? null}
          />
        ) : null}
        <RuntimePicker
          list={runtimes.data}
          value={runtime}
          onChange={(r) => {
            setRuntime(r);
            // Only the PyTorch project runs distributed: another runtime goes back to one process.
            if (r !== "auto" && r !== "pytorch") setStrategy("single");
            setEdited((s) => new Set(s).add("runtime"));
          }}
          error={fieldError("runtime")}
        />
        <StrategyPicker
          value={strategy}
          runtime={runtime}
          onChange={(next) => {
            setStrategy(next);
            setEdited((s) => new Set(s).add("strategy"));
          }}
          error={fieldError("strategy")}
        />
        <EstimatePanel
          projectId={projectId}
          datasetId={dataset?.dataset_id ?? null}
          datasetVersionId={dataset?.dataset_version_id ?? null}
          config={config}
          runtime={runtime}
        />
        <Field
          label="Job name"
          hint="Optional: by default “<project> on <dataset>”."
          value={name}
          maxLength={200}
          onChange={(e) => setName(e.target.value)}
          error={fieldError("name")}
        />
        {outOfCredits ? (
          <Alert>
            {apiError?.message}{" "}
            <Link href="/account" className="font-medium underline">
              See your credits
            </Link>
          </Alert>
        ) : apiError && (apiError.status !== 422 || server.other.length > 0) ? (
          <Alert>
            <p>{apiError.message}</p>
            {server.other.length > 0 ? (
              <ul className="mt-1 list-disc pl-5 text-xs">
                {server.other.map((m) => (
                  <li key={m}>{m}</li>
                ))}
              </ul>
            ) : null}
          </Alert>
        ) : create.error && !apiError ? (
          <Alert>Could not reach the server. Try again: the job will not be started twice.</Alert>
        ) : null}
      </div>
      {/* The dialog body scrolls; its actions stay in view at the bottom. */}
      <div className="sticky -bottom-4 -mx-5 -mb-4 mt-5 flex items-center justify-end gap-2 border-t border-border bg-panel px-5 py-3">
        <Button variant="ghost" onClick={onClose}>
          Cancel
        </Button>
        <Button type="submit" disabled={blocked}>
          <Play aria-hidden className="h-4 w-4" />
          {busy ? "Starting…" : "Start training"}
        </Button>
      </div>
    </form>
  );
}

/** The Train dialog of the editor: dataset, configuration and runtime, then the job's page. */
export function TrainDialog({
  open,
  onClose,
  projectId,
  projectConfig,
  saveState,
  onFitModel,
}: {
  open: boolean;
  onClose: () => void;
  projectId: string;
  projectConfig: Partial<TrainingConfig> | undefined;
  saveState: EditorSaveState;
  /** The editor's "Fit to dataset", offered for the datasets that do not fit. */
  onFitModel?: FitModel;
}) {
  return (
    <Modal
      open={open}
      onClose={onClose}
      size="lg"
      title="Train"
      description="Train this architecture on a dataset; its charts and logs appear live on the job's page."
    >
      <TrainForm
        projectId={projectId}
        projectConfig={projectConfig}
        saveState={saveState}
        onClose={onClose}
        onFitModel={onFitModel}
      />
    </Modal>
  );
}
