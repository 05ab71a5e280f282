"use client";

import { CircleCheck, Ruler } from "lucide-react";
import Link from "next/link";
import { useId, useMemo, useState } from "react";
import { MismatchList } from "@/components/training/mismatch-list";
import type { DatasetFit } from "@/components/training/types";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Modal } from "@/components/ui/modal";
import { useDatasetFit } from "@/lib/api/training/queries";
import { formatCount, taskLabel } from "@/lib/datasets-ui/format";
import { useEditorStore } from "./editor-store-context";
import { usePlanFit } from "./use-fit-model";

/** The dataset to offer first: one of the user's own (they came with it), else the first listed. */
function firstChoice(items: DatasetFit[]): string | null {
  return (items.find((d) => !d.builtin) ?? items[0])?.dataset_id ?? null;
}

function FitForm({
  projectId,
  onClose,
  onFit,
}: {
  projectId: string;
  onClose: () => void;
  onFit: (dataset: DatasetFit) => Promise<void>;
}) {
  const fit = useDatasetFit({ project_id: projectId });
  const items = fit.data?.items ?? [];
  const [picked, setPicked] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const selectId = useId();
  const datasetId = picked ?? firstChoice(items);
  const dataset = items.find((d) => d.dataset_id === datasetId) ?? null;
  // The diagram on screen (unsaved edits included), measured against the dataset.
  const planFit = usePlanFit();
  const rev = useEditorStore((s) => s.rev);
  // biome-ignore lint/correctness/useExhaustiveDependencies: rev is the diagram's version: a new plan when it changes.
  const plan = useMemo(() => (dataset?.shape ? planFit(dataset.shape) : null), [dataset, planFit, rev]);
  const own = items.filter((d) => !d.builtin);
  const builtin = items.filter((d) => d.builtin);

  const apply = async () => {
    if (!dataset) return;
    setBusy(true);
    setError(null);
    try {
      await onFit(dataset);
      onClose();
    } catch {
      setError("The model was fitted on screen but could not be saved: the editor retries when you edit it.");
    } finally {
      setBusy(false);
    }
  };

  const nothingToDo = plan !== null && plan.mismatches.length === 0;
  const canFit = plan?.changed === true && plan.fits;
  return (
    <div className="space-y-4">
      {fit.isPending ? (
        <p className="text-sm text-muted" role="status">
          Reading your datasets…
        </p>
      ) : fit.error ? (
        <Alert>{fit.error.detail ?? "Could not list the datasets."}</Alert>
      ) : items.length === 0 ? (
        <p className="text-sm text-muted">
          No dataset yet.{" "}
          <Link href="/datasets" className="text-accent hover:underline">
            Upload one
          </Link>
          .
        </p>
      ) : (
        <div>
          <label htmlFor={selectId} className="mb-1 block text-sm font-medium">
            Dataset
          </label>
          <select
            id={selectId}
            value={datasetId ?? ""}
            onChange={(e) => setPicked(e.target.value)}
            className="h-9 w-full rounded-md border border-border bg-panel px-2 text-sm"
          >
            {own.length > 0 ? (
              <optgroup label="Your datasets">
                {own.map((d) => (
                  <option key={d.dataset_id} value={d.dataset_id}>
                    {d.name}
                  </option>
                ))}
              </optgroup>
            ) : null}
            <optgroup label="Built-in">
              {builtin.map((d) => (
                <option key={d.dataset_id} value={d.dataset_id}>
                  {d.name}
                </option>
              ))}
            </optgroup>
          </select>
          {dataset ? (
            <p className="mt-1 text-xs text-muted">
              {[
                dataset.task ? taskLabel(dataset.task) : null,
                dataset.rows !== null ? `${formatCount(dataset.rows)} rows` : null,
              ]
                .filter(Boolean)
                .join(" · ")}
            </p>
          ) : null}
        </div>
      )}

      {dataset && !dataset.shape ? (
        <Alert tone="warn">
          No model can be sized to this dataset yet: {dataset.reason ?? "its roles are incomplete."}{" "}
          <Link href={`/datasets/${dataset.dataset_id}`} className="font-medium underline">
            Open the dataset
          </Link>
        </Alert>
      ) : null}

      {plan && nothingToDo ? (
        <p className="flex items-center gap-2 rounded-md border border-ok/40 bg-ok-soft px-3 py-2 text-sm text-ok">
          <CircleCheck aria-hidden className="h-4 w-4 shrink-0" />
          The model already fits “{dataset?.name}”: nothing to change.
        </p>
      ) : null}

      {plan && !nothingToDo ? (
        <section aria-label="What differs" className="rounded-md border border-border bg-panel-2/40 p-3">
          <h3 className="mb-2 text-sm font-medium">
            {plan.mismatches.length === 1 ? "1 mismatch" : `${plan.mismatches.length} mismatches`} with “
            {dataset?.name}”
          </h3>
          <MismatchList mismatches={plan.mismatches} />
          <p className="mt-3 border-t border-border pt-2 text-xs text-muted">
            {canFit
              ? "Only the Input, the Embeddings, the last Dense layer and the Output change; the rest of your diagram stays as it is. One step: Ctrl+Z undoes it."
              : "This diagram cannot be fitted to this dataset. New project → From a dataset builds a model sized to it."}
          </p>
        </section>
      ) : null}

      {error ? <Alert>{error}</Alert> : null}

      <div className="flex justify-end gap-2 border-t border-border pt-3">
        <Button variant="ghost" onClick={onClose}>
          {nothingToDo ? "Close" : "Cancel"}
        </Button>
        <Button onClick={apply} disabled={!canFit || busy}>
          <Ruler aria-hidden className="h-4 w-4" />
          {busy ? "Fitting…" : "Fit the model"}
        </Button>
      </div>
    </div>
  );
}

/** "Fit to dataset": every mismatch between the diagram and a dataset, then the model adapted in one step. */
export function FitDatasetDialog({
  open,
  onClose,
  projectId,
  onFit,
}: {
  open: boolean;
  onClose: () => void;
  projectId: string;
  onFit: (dataset: DatasetFit) => Promise<void>;
}) {
  return (
    <Modal
      open={open}
      onClose={onClose}
      title="Fit to dataset"
      description="Adapt the model's inputs and outputs to a dataset: what differs is listed first."
    >
      <FitForm projectId={projectId} onClose={onClose} onFit={onFit} />
    </Modal>
  );
}
