/**
 * Publishing a finished training job (or fine-tuning run) to the hub: its artifact files and
 * manifest are copied into hub blobs (the hub model outlives the job), its architecture becomes the
 * model's DAG, its metrics the evaluation figures, and a model card is written for the owner to edit.
 */
import { and, desc, eq } from "drizzle-orm";
import { mdCode, mdText } from "../../../ml/codegen/literals";
import type { Db } from "../../db/client";
import {
  type HubEvaluation,
  modelArtifacts,
  registeredModels,
  type TrainingJobRow,
  trainingEvaluations,
} from "../../db/schema";
import { ConflictError } from "../../errors";
import { newId } from "../../ids";
import { blobStore } from "../../storage/blob-stores";
import { StorageBudget } from "../account/storage-quota";
import { imageSamplePredictions } from "../evaluations/sample-predictions";
import { findOwnedVersion } from "../registry/views";
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
    `# ${mdText(job.projectName)}`,
    "",
    `A ${task ?? "machine-learning"} model trained with Layerline` +
      (job.baseModelId ? `, fine-tuned from the base model ${mdCode(job.baseModelId)}.` : "."),
    "",
    "## Task",
    "",
    `- Task: ${task ?? "not recorded"}`,
    ...(p?.target ? [`- Target: ${mdCode(p.target)}`] : []),
    ...(p?.labels ? [`- Classes: ${p.labels.map(mdCode).join(", ")}`] : []),
    ...(p
      ? [`- Inputs: ${p.raw_features.map((f) => `${mdCode(f.name)} (${mdText(f.type)})`).join(", ")}`]
      : []),
    "",
    "## Data",
    "",
    `- Dataset: ${mdCode(job.datasetId)} (version ${mdCode(job.datasetVersionId)})`,
    ...(p ? [`- Rows: ${p.rows.train} train, ${p.rows.validation} validation, ${p.rows.test} test`] : []),
    `- Training: ${job.config.epochs} epochs, batch size ${job.config.batch_size}, learning rate ${job.config.learning_rate} (${job.resolvedRuntime ?? job.runtime})`,
    "",
    "## Metrics",
    "",
    ...(metrics.length > 0
      ? [
          "| Metric | Value |",
          "|---|---|",
          ...metrics.map(([k, v]) => `| ${mdText(k)} | ${formatMetric(v)} |`),
        ]
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

/**
 * The figures a hub page shows for a job's model, each under the split it was measured on: its
 * latest succeeded evaluation on its own dataset (the artifact a deployment serves, on a chosen split),
 * else the held-out
 * figures its manifest recorded for the exported weights (test when there was a test split, else
 * validation), never the training split's.
 */
async function heldOutFigures(
  db: Db,
  job: TrainingJobRow,
): Promise<{ metrics: Record<string, number>; dataset: string | null; split: string | null }> {
  const [latest] = await db
    .select()
    .from(trainingEvaluations)
    .where(
      and(
        eq(trainingEvaluations.jobId, job.id),
        eq(trainingEvaluations.datasetId, job.datasetId),
        eq(trainingEvaluations.state, "succeeded"),
      ),
    )
    .orderBy(desc(trainingEvaluations.finishedAt))
    .limit(1);
  if (latest) {
    const { rows: _rows, ...metrics } = latest.metrics;
    return { metrics, dataset: latest.datasetId, split: latest.split };
  }
  const recorded = (job.artifactManifest?.metrics ?? job.metrics) as Record<string, unknown>;
  const numbers = Object.entries(recorded).filter((e): e is [string, number] => typeof e[1] === "number");
  const prefix = numbers.some(([k]) => k.startsWith("test_")) ? "test_" : "val_";
  const metrics = Object.fromEntries(
    numbers.filter(([k]) => k.startsWith(prefix)).map(([k, v]) => [k.slice(prefix.length), v]),
  );
  return { metrics, dataset: job.datasetId, split: prefix === "test_" ? "test" : "validation" };
}

export async function publicationFromJob(db: Db, ownerId: string, jobId: string, modelId: string) {
  const job = await findOwnedJob(db, ownerId, jobId);
  if (job.state !== "succeeded")
    throw new ConflictError(`The training job is ${job.state}; only a succeeded job can be published.`);
  if (!job.artifactManifest || !job.artifactFormat || job.artifactFiles.length === 0)
    throw new ConflictError("The training job has no model artifact to publish.");
  // The copies are the owner's stored bytes too (the manifest is small beside them).
  (await StorageBudget.of(db, ownerId)).check(job.artifactFiles.reduce((sum, f) => sum + f.size_bytes, 0));
  const files: HubFileInsert[] = [];
  for (const f of job.artifactFiles) {
    const id = newId("hbf");
    if (!(await blobStore().copy(f.blob_key, `hub/${id}`)))
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
  const stored = await blobStore().put(`hub/${newId("hbf")}`, manifest);
  files.push({
    id: newId("hf"),
    modelId,
    path: "manifest.json",
    sizeBytes: stored.size,
    sha256: stored.sha256,
    blobKey: stored.key,
    contentType: "application/json",
  });
  const task = hubTask(job);
  const framework =
    typeof job.artifactManifest.framework === "string" ? job.artifactManifest.framework : null;
  // An image model shows a few of its pictures with their predictions on its page.
  const samples = await imageSamplePredictions(db, job);
  const evaluation: HubEvaluation = {
    ...(await heldOutFigures(db, job)),
    ...(samples ? { samples } : {}),
  };
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

/** A bare model version's card: its model, figures and how to fetch it. */
function versionCard(
  modelName: string,
  version: number,
  description: string,
  metrics: Record<string, number>,
) {
  const rows = Object.entries(metrics).sort(([a], [b]) => a.localeCompare(b));
  return [
    `# ${mdText(modelName)}`,
    "",
    description || `Version ${version} of the registry model ${mdText(modelName)}, published with Layerline.`,
    "",
    "## Metrics",
    "",
    ...(rows.length > 0
      ? ["| Metric | Value |", "|---|---|", ...rows.map(([k, v]) => `| ${mdText(k)} | ${formatMetric(v)} |`)]
      : ["No metrics were recorded."]),
    "",
  ].join("\n");
}

/**
 * Publishing a finalized registry model version: one pushed from a job or run is published as that
 * job (its artifact is the version's), noting the version; a bare version publishes its uploaded
 * artifacts with a card made from its figures.
 */
export async function publicationFromModelVersion(
  db: Db,
  ownerId: string,
  versionId: string,
  modelId: string,
) {
  const version = await findOwnedVersion(db, ownerId, versionId);
  if (version.state !== "ready")
    throw new ConflictError("The model version is not finalized; finalize it before publishing.");
  const [registered] = await db
    .select({ name: registeredModels.name })
    .from(registeredModels)
    .where(eq(registeredModels.id, version.modelId))
    .limit(1);
  const modelName = registered?.name ?? "model";
  if (version.jobId) {
    const pub = await publicationFromJob(db, ownerId, version.jobId, modelId);
    return {
      ...pub,
      values: { ...pub.values, name: modelName },
      notes: `Published from version ${version.number} of the registry model ${modelName}.`,
    };
  }
  const artifacts = await db
    .select()
    .from(modelArtifacts)
    .where(and(eq(modelArtifacts.versionId, version.id), eq(modelArtifacts.state, "complete")));
  (await StorageBudget.of(db, ownerId)).check(artifacts.reduce((sum, a) => sum + a.sizeBytes, 0));
  const files: HubFileInsert[] = [];
  for (const a of artifacts) {
    if (!a.blobKey) continue;
    const id = newId("hbf");
    if (!(await blobStore().copy(a.blobKey, `hub/${id}`)))
      throw new ConflictError(`The version's artifact ${a.name} is missing.`);
    files.push({
      id: newId("hf"),
      modelId,
      path: a.name,
      sizeBytes: a.sizeBytes,
      sha256: a.sha256,
      blobKey: `hub/${id}`,
      contentType: a.contentType,
    });
  }
  if (files.length === 0) throw new ConflictError("The model version has no artifacts to publish.");
  const framework =
    typeof version.artifactManifest?.framework === "string" ? version.artifactManifest.framework : null;
  return {
    files,
    notes: `Published from version ${version.number} of the registry model ${modelName}.`,
    values: {
      name: modelName,
      description: version.description || `Version ${version.number} of ${modelName}.`,
      task: null as string | null,
      framework,
      license: null as string | null,
      tags: [framework, version.artifactFormat].filter((t): t is string => !!t),
      category: null as string | null,
      card: versionCard(modelName, version.number, version.description, version.metrics),
      architecture: null,
      trainingConfig: null,
      evaluation: { metrics: version.metrics, dataset: null, split: null } as HubEvaluation,
      baseModel: null as string | null,
      sourceJobId: null as string | null,
    },
  };
}
