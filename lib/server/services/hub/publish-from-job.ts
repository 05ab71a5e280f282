/**
 * Publishing a finished training job (or fine-tuning run) to the hub: its artifact files and
 * manifest are copied into hub blobs (the hub model outlives the job), its architecture becomes the
 * model's DAG, its metrics the evaluation figures, and a model card is written for the owner to edit.
 */
import { createHash } from "node:crypto";
import type { Db } from "../../db/client";
import type { HubEvaluation, TrainingJobRow } from "../../db/schema";
import { ConflictError } from "../../errors";
import { newId } from "../../ids";
import { copyBlob, parseBlobKey, putBlob } from "../../storage/blob-store";
import { findOwnedJob } from "../training/job-rows";

const TASK_NAMES: Record<string, string> = {
  classification: "tabular-classification",
  binary_classification: "tabular-classification",
  regression: "tabular-regression",
  language_modeling: "text-generation",
};

function hubTask(job: TrainingJobRow): string | null {
  const task = job.preprocessing?.task;
  if (!task) return null;
  if (task === "classification" && job.preprocessing && job.preprocessing.input_shape.length > 1)
    return "image-classification";
  return TASK_NAMES[task] ?? null;
}

function formatMetric(v: number): string {
  return Number.isInteger(v) ? String(v) : v.toPrecision(4);
}

/** The generated model card: what it does, its data, its figures and how to use it. */
export function generateModelCard(job: TrainingJobRow, modelId: string, task: string | null): string {
  const p = job.preprocessing;
  const metrics = Object.entries(job.metrics).sort(([a], [b]) => a.localeCompare(b));
  const lines = [
    `# ${job.projectName}`,
    "",
    `A ${task ?? "machine-learning"} model trained with Layerline` +
      (job.baseModelId ? `, fine-tuned from the base model \`${job.baseModelId}\`.` : "."),
    "",
    "## Task",
    "",
    `- Task: ${task ?? "not recorded"}`,
    ...(p?.target ? [`- Target: \`${p.target}\``] : []),
    ...(p?.labels ? [`- Classes: ${p.labels.map((l) => `\`${l}\``).join(", ")}`] : []),
    ...(p ? [`- Inputs: ${p.raw_features.map((f) => `\`${f.name}\` (${f.type})`).join(", ")}`] : []),
    "",
    "## Data",
    "",
    `- Dataset: \`${job.datasetId}\` (version \`${job.datasetVersionId}\`)`,
    ...(p ? [`- Rows: ${p.rows.train} train, ${p.rows.validation} validation, ${p.rows.test} test`] : []),
    `- Training: ${job.config.epochs} epochs, batch size ${job.config.batch_size}, learning rate ${job.config.learning_rate} (${job.resolvedRuntime ?? job.runtime})`,
    "",
    "## Metrics",
    "",
    ...(metrics.length > 0
      ? ["| Metric | Value |", "|---|---|", ...metrics.map(([k, v]) => `| ${k} | ${formatMetric(v)} |`)]
      : ["No metrics were recorded."]),
    "",
    "## How to use it",
    "",
    "Download the files (a signed link, valid 15 minutes):",
    "",
    "```bash",
    `curl -X POST -H "Authorization: Bearer $LAYERLINE_KEY" "$LAYERLINE_URL/api/v1/hub/models/${modelId}/download"`,
    "# then fetch the returned url: a ZIP of every file",
    "```",
    "",
    "Open its architecture in the studio as a new project of yours:",
    "",
    "```bash",
    `curl -X POST -H "Authorization: Bearer $LAYERLINE_KEY" "$LAYERLINE_URL/api/v1/hub/models/${modelId}/use-in-studio"`,
    "```",
    "",
    "`manifest.json` describes the inputs, their preprocessing and the outputs, so the model can be served without training code.",
    "",
  ];
  return lines.join("\n");
}

export interface HubFileInsert {
  id: string;
  modelId: string;
  path: string;
  sizeBytes: number;
  sha256: string;
  blobKey: string;
  contentType: string;
}

export async function publicationFromJob(db: Db, ownerId: string, jobId: string, modelId: string) {
  const job = await findOwnedJob(db, ownerId, jobId);
  if (job.state !== "succeeded")
    throw new ConflictError(`The training job is ${job.state}; only a succeeded job can be published.`);
  if (!job.artifactManifest || !job.artifactFormat || job.artifactFiles.length === 0)
    throw new ConflictError("The training job has no model artifact to publish.");
  const files: HubFileInsert[] = [];
  for (const f of job.artifactFiles) {
    const id = newId("hbf");
    if (!(await copyBlob(parseBlobKey(f.blob_key), { area: "hub", id })))
      throw new ConflictError(`The job's artifact file ${f.name} is missing.`);
    files.push({
      id: newId("hf"),
      modelId,
      path: f.name,
      sizeBytes: f.size_bytes,
      sha256: f.sha256,
      blobKey: `hub/${id}`,
      contentType: f.name.endsWith(".json") ? "application/json" : "application/octet-stream",
    });
  }
  const manifest = Buffer.from(JSON.stringify(job.artifactManifest, null, 2), "utf8");
  const stored = await putBlob({ area: "hub", id: newId("hbf") }, manifest);
  files.push({
    id: newId("hf"),
    modelId,
    path: "manifest.json",
    sizeBytes: stored.size,
    sha256: createHash("sha256").update(manifest).digest("hex"),
    blobKey: stored.key,
    contentType: "application/json",
  });
  const task = hubTask(job);
  const framework =
    typeof job.artifactManifest.framework === "string" ? job.artifactManifest.framework : null;
  const evaluation: HubEvaluation = { metrics: job.metrics, dataset: job.datasetId, split: "validation" };
  return {
    files,
    values: {
      name: job.projectName,
      description: `${task ?? "Model"} trained on ${job.datasetId}${job.baseModelId ? `, fine-tuned from ${job.baseModelId}` : ""}.`,
      task,
      framework,
      license: null as string | null,
      tags: [task, framework, job.artifactFormat].filter((t): t is string => !!t),
      category: task,
      card: generateModelCard(job, modelId, task),
      architecture: job.graph,
      trainingConfig: job.config,
      evaluation,
      baseModel: job.baseModelId,
      sourceJobId: job.id,
    },
  };
}
