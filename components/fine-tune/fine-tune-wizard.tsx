"use client";

import { useQueryClient } from "@tanstack/react-query";
import { ArrowLeft, ArrowRight, Play } from "lucide-react";
import Link from "next/link";
import { useRouter, useSearchParams } from "next/navigation";
import { useMemo, useRef, useState } from "react";
import { DatasetPicker } from "@/components/training/dataset-picker";
import { errorMessage } from "@/components/training/error-message";
import type { TrainingRecipe } from "@/components/training/recipe-picker";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { $api } from "@/lib/api/client";
import { jobQuery, trainingKeys } from "@/lib/api/training/keys";
import { useDatasetFit, useRecipes } from "@/lib/api/training/queries";
import {
  type ConfigTexts,
  configFromTexts,
  initialTexts,
  splitServerErrors,
  validateTexts,
} from "@/lib/training-ui/config-form";
import {
  FINE_TUNE_STEPS,
  type FineTuneState,
  type FineTuneStep,
  type FreezeChoice,
  INITIAL_FINE_TUNE,
  type LrSchedule,
  parseWarmup,
  reachableStep,
  runBody,
  stepBlocker,
} from "@/lib/training-ui/fine-tune-form";
import { LayerlineError } from "@/sdk/src/errors";
import { BaseModelStep } from "./base-model-step";
import { EstimateStep } from "./estimate-step";
import { RecipeStep } from "./recipe-step";
import { type BaseModel, useBaseModels } from "./use-base-models";
import { WizardSteps } from "./wizard-steps";

const RUNS_PATH = "/api/v1/training/foundation-runs";

/**
 * /training/fine-tune: base model → dataset → recipe → estimate → start, then the run's live page.
 * `?base=<id>` (from the catalog, a registry version or a hub model) preselects a base model and
 * opens the dataset step; `?dataset=<id>` (from a dataset's page) preselects the dataset for whichever
 * base model fits it.
 */
export function FineTuneWizard() {
  const router = useRouter();
  const queryClient = useQueryClient();
  const params = useSearchParams();
  const linkedBase = params.get("base");
  const linkedDataset = params.get("dataset");
  const models = useBaseModels(linkedBase);
  const recipes = useRecipes();

  const [wanted, setWanted] = useState<FineTuneStep>(linkedBase ? "dataset" : "base");
  const [form, setForm] = useState<Omit<FineTuneState, "config">>({
    ...INITIAL_FINE_TUNE,
    baseModelId: linkedBase,
    datasetId: linkedDataset,
  });
  /** The configuration as typed, for the base model it was typed for. */
  const [typed, setTyped] = useState<{ baseId: string; texts: ConfigTexts } | null>(null);
  const [edited, setEdited] = useState<Set<string>>(new Set());
  const idempotency = useRef<{ body: string; key: string } | null>(null);

  const model: BaseModel | null = models.items?.find((m) => m.id === form.baseModelId) ?? null;
  const texts = useMemo(
    () => (model && typed?.baseId === model.id ? typed.texts : initialTexts(model?.config)),
    [model, typed],
  );
  const config = useMemo(() => configFromTexts(texts), [texts]);
  const fit = useDatasetFit({ base_model_id: model?.id ?? "" }, { enabled: model !== null });
  const dataset = fit.data?.items.find((d) => d.dataset_id === form.datasetId && d.fits) ?? null;
  // A dataset chosen before the base model counts only once it fits the base model chosen.
  const state: FineTuneState = {
    ...form,
    baseModelId: model?.id ?? null,
    datasetId: dataset?.dataset_id ?? null,
    datasetVersionId: dataset ? (form.datasetVersionId ?? dataset.dataset_version_id) : null,
    config,
  };
  const step = reachableStep(wanted, state);
  const recipe = recipes.data?.items.find((r) => r.id === form.recipeId) ?? null;

  const create = $api.useMutation("post", RUNS_PATH, {
    onSuccess: (run) => {
      queryClient.setQueryData(jobQuery(run.id).queryKey, run);
      queryClient.invalidateQueries({ queryKey: trainingKeys.jobs });
      router.push(`/training/${run.id}`);
    },
  });
  const apiError = create.error instanceof LayerlineError ? create.error : null;
  const server = splitServerErrors(apiError?.status === 422 ? apiError.problem?.errors : undefined);
  const typedErrors = validateTexts(texts);
  // At the last step every field's message is shown together (the fields are on earlier steps).
  const serverMessages = [...Object.entries(server.fields).map(([f, m]) => `${f}: ${m}`), ...server.other];
  const fieldError = (f: string) => typedErrors[f] ?? (edited.has(f) ? undefined : server.fields[f]);

  const update = (patch: Partial<Omit<FineTuneState, "config">>) => setForm((f) => ({ ...f, ...patch }));
  const setTexts = (next: ConfigTexts, fields: string[]) => {
    if (model) setTyped({ baseId: model.id, texts: next });
    setEdited((s) => new Set([...s, ...fields]));
  };
  const pickBase = (m: BaseModel) => {
    if (m.id === form.baseModelId) return;
    update({
      baseModelId: m.id,
      datasetId: linkedDataset,
      datasetVersionId: null,
      recipeId: null,
      freeze: { kind: "none" },
    });
    setTyped(null);
    const query = new URLSearchParams({ base: m.id, ...(linkedDataset ? { dataset: linkedDataset } : {}) });
    router.replace(`/training/fine-tune?${query}`, { scroll: false });
  };
  const pickRecipe = (r: TrainingRecipe | null) => {
    update({ recipeId: r?.id ?? null });
    setTexts(initialTexts({ ...model?.config, ...r?.config }), Object.keys(texts));
  };

  const index = FINE_TUNE_STEPS.findIndex((s) => s.id === step);
  const blocker = stepBlocker(step, state);
  const body = runBody(state);
  const busy = create.isPending || create.isSuccess;

  const start = () => {
    if (!body || busy) return;
    // One key per submitted body: a retry after a lost answer replays; a changed form is a new run.
    const serialized = JSON.stringify(body);
    const lostAnswer =
      create.error !== null && !(create.error instanceof LayerlineError && create.error.status < 500);
    if (!idempotency.current || idempotency.current.body !== serialized || !lostAnswer)
      idempotency.current = { body: serialized, key: crypto.randomUUID() };
    setEdited(new Set());
    create.mutate({ body, params: { header: { "Idempotency-Key": idempotency.current.key } } });
  };

  const linkedMissing = models.isSuccess && linkedBase !== null && form.baseModelId === linkedBase && !model;
  return (
    <div className="max-w-6xl">
      <WizardSteps current={step} reachable={(s) => reachableStep(s, state) === s} onGo={setWanted} />
      <Card className="p-5">
        <h2 className="mb-4 text-lg font-semibold">{FINE_TUNE_STEPS[index].title}</h2>
        {linkedMissing && step === "base" ? (
          <div className="mb-4">
            <Alert tone="warn">
              {models.linkedError
                ? models.linkedError
                : `No base model “${linkedBase}” on this server: choose another.`}
            </Alert>
          </div>
        ) : null}
        {step === "base" ? (
          <BaseModelStep
            models={models.items}
            loading={models.isPending}
            error={models.error ? errorMessage(models.error) : null}
            value={model?.id ?? null}
            onChange={pickBase}
          />
        ) : step === "dataset" ? (
          <div className="space-y-3">
            <p className="text-sm text-muted">
              Datasets whose inputs match {model?.name}: {model?.input}. A different label set gets a new
              head.
            </p>
            <DatasetPicker
              items={fit.data?.items}
              loading={fit.isPending}
              value={dataset?.dataset_id ?? null}
              onChange={(id) => {
                const d = fit.data?.items.find((x) => x.dataset_id === id);
                update({ datasetId: id, datasetVersionId: d?.dataset_version_id ?? null });
                setEdited((s) => new Set(s).add("dataset_id"));
              }}
              error={fit.error ? fit.error.detail : fieldError("dataset_id")}
            />
          </div>
        ) : step === "recipe" && model ? (
          <RecipeStep
            model={model}
            recipes={recipes.data?.items ?? []}
            recipeId={form.recipeId}
            onRecipe={pickRecipe}
            texts={texts}
            fieldError={fieldError}
            onText={(f, t) => setTexts({ ...texts, [f]: t }, [f])}
            freeze={form.freeze}
            onFreeze={(freeze: FreezeChoice) => {
              update({ freeze });
              setEdited((s) => new Set(s).add("freeze"));
            }}
            lrSchedule={form.lrSchedule}
            onSchedule={(lrSchedule: LrSchedule) => update({ lrSchedule })}
            warmupText={form.warmupText}
            onWarmup={(warmupText) => update({ warmupText })}
          />
        ) : step === "estimate" && model && dataset && config ? (
          <EstimateStep
            model={model}
            datasetName={dataset.name}
            datasetId={dataset.dataset_id}
            datasetVersionId={dataset.dataset_version_id}
            recipeName={recipe?.name ?? null}
            config={config}
            freeze={form.freeze}
            lrSchedule={form.lrSchedule}
            warmup={(() => {
              const w = parseWarmup(form.warmupText);
              return w.ok ? w.value : 0;
            })()}
            name={form.name}
            onName={(name) => {
              update({ name });
              setEdited((s) => new Set(s).add("name"));
            }}
            nameError={fieldError("name")}
          />
        ) : null}
        {apiError?.status === 402 ? (
          <div className="mt-5">
            <Alert>
              {apiError.message}{" "}
              <Link href="/account" className="font-medium underline">
                See your credits
              </Link>
            </Alert>
          </div>
        ) : apiError ? (
          <div className="mt-5">
            <Alert>
              <p>{apiError.message}</p>
              {serverMessages.length > 0 ? (
                <ul className="mt-1 list-disc pl-5 text-xs">
                  {serverMessages.map((m) => (
                    <li key={m}>{m}</li>
                  ))}
                </ul>
              ) : null}
            </Alert>
          </div>
        ) : create.error && !apiError ? (
          <div className="mt-5">
            <Alert>Could not reach the server. Try again: the run will not be started twice.</Alert>
          </div>
        ) : null}
        <div className="mt-6 flex flex-wrap items-center justify-between gap-3 border-t border-border pt-4">
          <div>
            {index > 0 ? (
              <Button variant="ghost" onClick={() => setWanted(FINE_TUNE_STEPS[index - 1].id)}>
                <ArrowLeft aria-hidden className="h-4 w-4" /> Back
              </Button>
            ) : null}
          </div>
          <div className="flex items-center gap-3">
            {blocker ? <span className="text-xs text-muted">{blocker}</span> : null}
            {step === "estimate" ? (
              <Button onClick={start} disabled={!body || busy}>
                <Play aria-hidden className="h-4 w-4" />
                {busy ? "Starting…" : "Start fine-tuning"}
              </Button>
            ) : (
              <Button onClick={() => setWanted(FINE_TUNE_STEPS[index + 1].id)} disabled={blocker !== null}>
                Next <ArrowRight aria-hidden className="h-4 w-4" />
              </Button>
            )}
          </div>
        </div>
      </Card>
    </div>
  );
}
