/** API views of training rows, typed by the response schemas (their one definition). */
import type { z } from "@hono/zod-openapi";
import type { TrainingCheckpointRow, TrainingJobRow } from "../../db/schema";
import type { checkpointSchema, trainingJobSchema } from "./training.schemas";

export type TrainingJobView = z.infer<typeof trainingJobSchema>;
export type CheckpointView = z.infer<typeof checkpointSchema>;

const iso = (d: Date | null) => d?.toISOString() ?? null;

export function toJobView(row: TrainingJobRow): TrainingJobView {
  const resolved = row.resolvedRuntime;
  return {
    id: row.id,
    name: row.name,
    project_id: row.projectId,
    project_name: row.projectName,
    version_id: row.versionId,
    dataset_id: row.datasetId,
    dataset_version_id: row.datasetVersionId,
    state: row.state,
    runtime: row.runtime,
    resolved_runtime:
      resolved === "pytorch" || resolved === "tfjs" || resolved === "external" ? resolved : null,
    strategy: row.strategy,
    recipe_id: row.recipeId,
    base_model_id: row.baseModelId,
    base_model_name: row.fineTune?.base_model_name ?? null,
    config: {
      epochs: row.config.epochs,
      batch_size: row.config.batch_size,
      learning_rate: row.config.learning_rate,
      optimizer: row.config.optimizer,
      weight_decay: row.config.weight_decay,
      seed: row.config.seed,
      validation_split: row.config.validation_split,
    },
    status_history: row.statusHistory,
    reason: row.reason,
    progress: row.progress ?? null,
    metrics: row.metrics,
    waiting_for_slot: row.state === "queued" && !row.dispatched && row.runtime !== "external",
    cancel_requested: row.cancelRequested,
    compute_seconds: Math.round(row.computeSeconds * 1000) / 1000,
    credits_charged: row.creditsChargedMilli / 1000,
    artifact:
      row.artifactFormat === "onnx" || row.artifactFormat === "tfjs"
        ? {
            format: row.artifactFormat,
            files: row.artifactFiles.map((f) => ({
              name: f.name,
              size_bytes: f.size_bytes,
              sha256: f.sha256,
            })),
          }
        : null,
    restart_count: row.restartCount,
    last_event_id: row.lastEventId,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
    started_at: iso(row.startedAt),
    finished_at: iso(row.finishedAt),
  };
}

export function toCheckpointView(row: TrainingCheckpointRow): CheckpointView {
  return {
    id: row.id,
    job_id: row.jobId,
    epoch: row.epoch,
    step: row.step,
    metrics: row.metrics,
    is_best: row.isBest,
    size_bytes: row.sizeBytes,
    sha256: row.sha256,
    created_at: row.createdAt.toISOString(),
  };
}
