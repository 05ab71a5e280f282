"use client";

import { useQueryClient } from "@tanstack/react-query";
import { CheckCircle2, PackagePlus } from "lucide-react";
import Link from "next/link";
import { type FormEvent, useId, useState } from "react";
import type { TrainingJob } from "@/components/training/types";
import { Alert } from "@/components/ui/alert";
import { Button, buttonClass } from "@/components/ui/button";
import { Field, inputClass } from "@/components/ui/field";
import { Modal } from "@/components/ui/modal";
import { api } from "@/lib/api/client";
import { invalidateRegistry, versionHref } from "@/lib/api/registry/keys";
import { useModels } from "@/lib/api/registry/queries";
import { LayerlineError } from "@/sdk/src/errors";
import type { ModelVersion } from "./types";

/** A registry name from a project's ("Iris MLP" → "iris-mlp"). */
export function modelNameFor(projectName: string): string {
  const slug = projectName
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 100);
  return slug || "model";
}

type Step = "model" | "version" | "finalize";
const STEP_TEXT: Record<Step, string> = {
  model: "Creating the model…",
  version: "Copying the model files…",
  finalize: "Finalizing…",
};

/**
 * "Push to registry" on a succeeded job's or run's page (nothing for any other job): into an existing model or a new one (named
 * after the project), then push the job's files as a version and finalize it; links to the version.
 */
export function PushToRegistryButton({ job }: { job: TrainingJob }) {
  if (job.state !== "succeeded" || !job.artifact) return null;
  return (
    <PushDialogButton jobId={job.id} projectName={job.project_name} isRun={job.base_model_id !== null} />
  );
}

function PushDialogButton({
  jobId,
  projectName,
  isRun,
}: {
  jobId: string;
  projectName: string;
  isRun: boolean;
}) {
  const queryClient = useQueryClient();
  const [open, setOpen] = useState(false);
  const [target, setTarget] = useState<"existing" | "new">("new");
  const [existingId, setExistingId] = useState("");
  const [name, setName] = useState("");
  const [step, setStep] = useState<Step | null>(null);
  const [error, setError] = useState<LayerlineError | Error | null>(null);
  const [pushed, setPushed] = useState<ModelVersion | null>(null);
  const selectId = useId();
  const models = useModels({ enabled: open });
  const list = models.data ?? [];

  const start = () => {
    setName(modelNameFor(projectName));
    setError(null);
    setPushed(null);
    setStep(null);
    setOpen(true);
  };

  // Three calls in sequence (create?, push, finalize): a failure names the step; what was created stays
  // (an entry, or a pending version the model page can finalize).
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setError(null);
    try {
      let modelId = existingId;
      if (target === "new") {
        setStep("model");
        const created = await api.POST("/api/v1/models", { body: { name: name.trim() } });
        if (!created.data) throw new Error("The model was not created.");
        modelId = created.data.id;
        setTarget("existing");
        setExistingId(modelId);
      }
      setStep("version");
      const version = await api.POST("/api/v1/models/{model_id}/versions", {
        params: { path: { model_id: modelId } },
        body: { job_id: jobId },
      });
      if (!version.data) throw new Error("The version was not pushed.");
      setStep("finalize");
      const ready = await api.POST("/api/v1/model-versions/{version_id}/finalize", {
        params: { path: { version_id: version.data.id } },
      });
      setPushed(ready.data ?? version.data);
    } catch (err) {
      setError(err instanceof Error ? err : new Error("The push failed."));
    } finally {
      setStep(null);
      invalidateRegistry(queryClient);
    }
  };

  const fieldError = error instanceof LayerlineError ? error.fieldError("name") : undefined;
  const canSubmit = step === null && (target === "new" ? name.trim() !== "" : existingId !== "");
  const pushedModel = pushed ? (list.find((m) => m.id === pushed.model_id)?.name ?? name) : "";

  return (
    <>
      <Button variant="secondary" size="sm" onClick={start}>
        <PackagePlus aria-hidden className="h-4 w-4" /> Push to registry
      </Button>
      <Modal
        open={open}
        onClose={() => setOpen(false)}
        dismissable={step === null}
        title="Push to the model registry"
        description={`The ${isRun ? "run" : "job"}'s model files and manifest become a new, finalized version with their checksums and lineage.`}
        size="sm"
        footer={
          pushed ? (
            <>
              <Button variant="secondary" onClick={() => setOpen(false)}>
                Close
              </Button>
              <Link href={versionHref(pushed.model_id, pushed.id)} className={buttonClass("primary")}>
                Open the version
              </Link>
            </>
          ) : (
            <>
              <Button variant="secondary" onClick={() => setOpen(false)} disabled={step !== null}>
                Cancel
              </Button>
              <Button type="submit" form="push-registry-form" disabled={!canSubmit}>
                <PackagePlus aria-hidden className="h-4 w-4" /> {step ? STEP_TEXT[step] : "Push"}
              </Button>
            </>
          )
        }
      >
        {pushed ? (
          <Alert tone="ok">
            <span className="inline-flex items-center gap-1.5">
              <CheckCircle2 aria-hidden className="h-4 w-4" />
              Pushed as {pushedModel} v{pushed.version}
              {pushed.state === "ready" ? ", finalized." : " (pending: finalize it on the model's page)."}
            </span>
          </Alert>
        ) : (
          <form id="push-registry-form" onSubmit={submit} className="space-y-3">
            <fieldset className="space-y-2">
              <legend className="mb-1 text-sm font-medium">Model</legend>
              <label className="flex items-center gap-2 text-sm">
                <input
                  type="radio"
                  name="push-target"
                  checked={target === "new"}
                  onChange={() => setTarget("new")}
                  disabled={step !== null}
                />
                A new model
              </label>
              <label className="flex items-center gap-2 text-sm">
                <input
                  type="radio"
                  name="push-target"
                  checked={target === "existing"}
                  onChange={() => setTarget("existing")}
                  disabled={step !== null || list.length === 0}
                />
                An existing model{list.length === 0 && models.isSuccess ? " (you have none yet)" : ""}
              </label>
            </fieldset>
            {target === "new" ? (
              <Field
                label="Model name"
                value={name}
                maxLength={100}
                onChange={(e) => setName(e.target.value)}
                error={fieldError}
                disabled={step !== null}
                autoFocus
              />
            ) : (
              <div className="space-y-1">
                <label htmlFor={selectId} className="block text-sm font-medium">
                  Existing model
                </label>
                <select
                  id={selectId}
                  value={existingId}
                  onChange={(e) => setExistingId(e.target.value)}
                  className={inputClass}
                  disabled={step !== null}
                >
                  <option value="">Choose a model…</option>
                  {list.map((m) => (
                    <option key={m.id} value={m.id}>
                      {m.name}
                      {m.latest_version !== null ? ` (latest v${m.latest_version})` : ""}
                    </option>
                  ))}
                </select>
              </div>
            )}
            {error && !fieldError ? <Alert>{error.message}</Alert> : null}
          </form>
        )}
      </Modal>
    </>
  );
}
