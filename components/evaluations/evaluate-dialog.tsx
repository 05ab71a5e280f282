"use client";

import { useState } from "react";
import { errorMessage } from "@/components/training/error-message";
import type { TrainingJob } from "@/components/training/types";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { inputClass } from "@/components/ui/field";
import { Modal } from "@/components/ui/modal";
import { useDatasetList, useDatasetVersions } from "@/lib/api/datasets/queries";
import type { EvaluationSplit } from "@/lib/evaluations-ui/present";
import { SplitRadios } from "./split-radios";
import { useCreateEvaluation } from "./use-create-evaluation";
import { useHasTest } from "./use-has-test";

const TABLE_FORMATS = new Set(["csv", "tsv", "jsonl", "json", "parquet"]);

/**
 * "Evaluate": a split of the job's own dataset version by default, or of another dataset (of the
 * same kind: a table for a table model, a text for a text model) and version. Opens the new
 * evaluation's page once it is queued.
 */
export function EvaluateDialog({
  job,
  open,
  onClose,
}: {
  job: TrainingJob;
  open: boolean;
  onClose: () => void;
}) {
  const [datasetId, setDatasetId] = useState(job.dataset_id);
  const [versionChoice, setVersionChoice] = useState<string | null>(null);
  const [split, setSplit] = useState<EvaluationSplit>("validation");
  const create = useCreateEvaluation();

  const datasets = useDatasetList({ limit: 100 }, { enabled: open });
  const versions = useDatasetVersions(datasetId, { limit: 100 }, { enabled: open });
  const own = datasets.data?.find((d) => d.id === job.dataset_id);
  const textModel = own?.format === "text";
  const choices = (datasets.data ?? []).filter(
    (d) => d.id === job.dataset_id || (textModel ? d.format === "text" : TABLE_FORMATS.has(d.format)),
  );
  const defaultVersion =
    datasetId === job.dataset_id
      ? job.dataset_version_id
      : (datasets.data?.find((d) => d.id === datasetId)?.current_version_id ?? null);
  const versionId = versionChoice ?? defaultVersion;
  const hasTest = useHasTest(datasetId, versionId);
  const chosenSplit = split === "test" && hasTest === false ? "validation" : split;

  const submit = () =>
    create.mutate(
      {
        body: {
          job_id: job.id,
          split: chosenSplit,
          ...(datasetId === job.dataset_id ? {} : { dataset_id: datasetId }),
          ...(versionId && versionId !== job.dataset_version_id ? { dataset_version_id: versionId } : {}),
        },
      },
      { onSuccess: onClose },
    );

  return (
    <Modal
      open={open}
      onClose={onClose}
      title="Evaluate the model"
      description="Runs the job's exported model, as a deployment would serve it, on a dataset split."
      footer={
        <>
          <Button variant="ghost" onClick={onClose}>
            Cancel
          </Button>
          <Button onClick={submit} disabled={create.isPending || versionId === null}>
            {create.isPending ? "Starting…" : "Evaluate"}
          </Button>
        </>
      }
    >
      <div className="space-y-5">
        <SplitRadios value={chosenSplit} onChange={setSplit} hasTest={hasTest} />
        <div className="grid gap-3 sm:grid-cols-2">
          <div className="space-y-1">
            <label htmlFor="evaluation-dataset" className="block text-sm font-medium">
              Dataset
            </label>
            <select
              id="evaluation-dataset"
              className={inputClass}
              value={datasetId}
              onChange={(e) => {
                setDatasetId(e.target.value);
                setVersionChoice(null);
              }}
            >
              {choices.length === 0 ? <option value={job.dataset_id}>{job.dataset_id}</option> : null}
              {choices.map((d) => (
                <option key={d.id} value={d.id}>
                  {d.name}
                  {d.id === job.dataset_id ? " (trained on)" : ""}
                </option>
              ))}
            </select>
          </div>
          <div className="space-y-1">
            <label htmlFor="evaluation-version" className="block text-sm font-medium">
              Version
            </label>
            <select
              id="evaluation-version"
              className={inputClass}
              value={versionId ?? ""}
              onChange={(e) => setVersionChoice(e.target.value)}
            >
              {versions.data?.items.length ? null : (
                <option value={versionId ?? ""}>{versionId ?? "–"}</option>
              )}
              {versions.data?.items.map((v) => (
                <option key={v.id} value={v.id}>
                  v{v.number}
                  {v.id === job.dataset_version_id && datasetId === job.dataset_id ? " (trained on)" : ""}
                  {v.is_current ? " · current" : ""}
                </option>
              ))}
            </select>
          </div>
        </div>
        <p className="text-xs text-muted">
          Another dataset must have the columns the model was trained on; otherwise the evaluation fails and
          says which are missing.
        </p>
        {create.isError ? <Alert>{errorMessage(create.error)}</Alert> : null}
      </div>
    </Modal>
  );
}
