"use client";

import { useResourceEstimate } from "@/lib/api/training/queries";
import type { TrainingConfig } from "@/lib/ml";
import type { TrainingRuntime } from "./types";
import { useDebounced } from "./use-debounced";

const compact = new Intl.NumberFormat("en", { notation: "compact", maximumFractionDigits: 1 });

function bytes(n: number): string {
  if (n < 1024) return `${n} B`;
  const units = ["KB", "MB", "GB", "TB"];
  let v = n / 1024;
  let i = 0;
  while (v >= 1024 && i < units.length - 1) {
    v /= 1024;
    i += 1;
  }
  return `${v.toFixed(v < 10 ? 1 : 0)} ${units[i]}`;
}

function duration(seconds: number): string {
  if (seconds < 60) return `${Math.max(1, Math.round(seconds))} s`;
  if (seconds < 3600) return `${Math.round(seconds / 60)} min`;
  return `${(seconds / 3600).toFixed(1)} h`;
}

/**
 * What the job will cost (POST /training/estimate-resources), refreshed as the form settles: a
 * project's architecture, or a base model's (a fine-tuning run before it exists).
 */
export function EstimatePanel({
  projectId,
  baseModelId,
  datasetId,
  datasetVersionId,
  config,
  runtime,
}: {
  projectId?: string;
  baseModelId?: string;
  datasetId: string | null;
  datasetVersionId: string | null;
  config: Partial<TrainingConfig> | null;
  runtime: TrainingRuntime;
}) {
  const body = useDebounced(
    {
      ...(baseModelId ? { base_model_id: baseModelId } : { project_id: projectId }),
      ...(datasetId ? { dataset_id: datasetId } : {}),
      ...(datasetVersionId ? { dataset_version_id: datasetVersionId } : {}),
      ...(config ? { config } : {}),
      runtime,
    },
    400,
  );
  const estimate = useResourceEstimate(body);
  const e = estimate.data;
  const cells: [string, string][] = e
    ? [
        ["Parameters", compact.format(e.params)],
        ["FLOPs / sample", compact.format(e.flops_per_sample)],
        ["Memory", bytes(e.memory.total_bytes)],
        ["Time", e.seconds === null ? "—" : `~${duration(e.seconds)}`],
        ["Credits", e.credits === null ? "—" : `~${e.credits < 0.01 ? "<0.01" : e.credits.toFixed(2)}`],
      ]
    : [];
  const source = e?.calibration
    ? e.calibration.source === "same_shape_jobs"
      ? `from your ${e.calibration.jobs} earlier ${e.calibration.jobs === 1 ? "job" : "jobs"} of this shape`
      : e.calibration.source === "measured_jobs"
        ? `calibrated on ${e.calibration.jobs} jobs of this service`
        : "calibrated by a benchmark on the runner"
    : e?.runtime === "external"
      ? "your own hardware: no time estimate"
      : null;
  return (
    <section aria-label="Estimate" className="rounded-md border border-border p-3">
      <div className="mb-2 flex items-baseline justify-between gap-2">
        <h3 className="text-sm font-medium">Estimate</h3>
        {source ? <span className="text-xs text-muted">{source}</span> : null}
      </div>
      {estimate.error ? (
        <p className="text-xs text-muted">No estimate: {estimate.error.detail}</p>
      ) : !e ? (
        <p className="text-xs text-muted">Estimating…</p>
      ) : (
        <dl className="grid grid-cols-3 gap-x-4 gap-y-2 sm:grid-cols-5">
          {cells.map(([label, value]) => (
            <div key={label}>
              <dt className="text-xs text-muted">{label}</dt>
              <dd className="text-sm font-medium tabular-nums">{value}</dd>
            </div>
          ))}
        </dl>
      )}
    </section>
  );
}
