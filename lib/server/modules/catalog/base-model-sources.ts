/**
 * Where a fine-tuning run's base model comes from: `base_model_id` names an entry of the curated
 * catalog (e.g. "digits-cnn-0-4"), one of the caller's registry model versions ("mv_…"), or a hub
 * model the caller may see ("hub_…"). A registry version or hub model is a base model when it
 * carries PyTorch weights (`weights.pt`, a state_dict: PyTorch jobs export it beside model.onnx)
 * and its architecture (manifest.json's `architecture`, or the hub model's own, or the job it was
 * pushed from). Its catalog-style entry is derived from its manifest: labels, vocabulary, the
 * recorded preprocessing (reused so the weights see inputs encoded as in training) and a head (the
 * last layer with weights before the output).
 *
 * The weights are read when a run starts, copied into the run's working directory and checked
 * against the SHA-256 recorded when the run was created: a version or hub file changed or removed
 * in between fails the run with that reason rather than training from other bytes.
 */
import { createHash } from "node:crypto";
import fs from "node:fs";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { ReadableStream as NodeReadableStream } from "node:stream/web";
import { and, desc, eq } from "drizzle-orm";
import { z } from "zod";
import type { BaseModelEntry, BaseModelTask } from "../../../ml/catalog/types";
import { WEIGHTED_LAYER_TYPES } from "../../../ml/catalog/types";
import type { ArchitectureGraph, TrainingConfig } from "../../../ml/graph-types";
import { analyzeGraph } from "../../../ml/infer-graph";
import type { Db } from "../../db/client";
import {
  hubModelFiles,
  hubModels,
  modelArtifacts,
  modelVersions,
  registeredModels,
  trainingJobs,
  users,
} from "../../db/schema";
import { isHubModelVisible } from "../../db/schema/hub";
import type { FineTuneSettings, PreprocessingStep } from "../../db/schema/training";
import { ConflictError, NotFoundError } from "../../errors";
import { blobStore } from "../../storage/blob-stores";
import { baseModelWeightsFile, findBaseModel } from "./base-models";

/** The file a registry version or hub model carries its PyTorch weights in. */
export const WEIGHTS_FILE = "weights.pt";

export type BaseModelSource = NonNullable<FineTuneSettings["base_source"]>;

/** Where the verified weights are read from: the catalog's directory, or a stored blob. */
type WeightsLocation = { kind: "catalog"; entry: BaseModelEntry } | { kind: "blob"; blobKey: string };

export interface ResolvedBaseModel {
  entry: BaseModelEntry;
  source: BaseModelSource;
  weights: WeightsLocation;
}

/** What of a manifest.json makes a base model (the rest is ignored). */
const manifestSchema = z.object({
  task: z.string().nullable().optional(),
  job_id: z.string().optional(),
  dataset_id: z.string().optional(),
  input_features: z.array(z.object({ name: z.string() })).default([]),
  input: z.object({
    shape: z.array(z.number().int()),
    dtype: z.enum(["float32", "int64"]),
    preprocessing: z.array(z.object({ kind: z.string() }).passthrough()).default([]),
  }),
  output: z.object({ kind: z.string(), labels: z.array(z.string()).optional() }).passthrough(),
  metrics: z.record(z.string(), z.number()).default({}),
  architecture: z
    .object({ graph: z.custom<ArchitectureGraph>(), training_config: z.custom<TrainingConfig>() })
    .optional(),
});
type Manifest = z.infer<typeof manifestSchema>;

/** The last layers with weights before the Output: the head a run replaces when its labels differ. */
export function headOf(graph: ArchitectureGraph): string[] {
  const byId = new Map(graph.nodes.map((n) => [n.id, n]));
  const output = graph.nodes.find((n) => n.type === "Output");
  const head: string[] = [];
  const seen = new Set<string>();
  let frontier = output ? [output.id] : [];
  while (frontier.length > 0 && head.length === 0) {
    const next: string[] = [];
    for (const id of frontier)
      for (const e of graph.edges)
        if (e.target === id && !seen.has(e.source)) {
          seen.add(e.source);
          const node = byId.get(e.source);
          if (!node) continue;
          if (WEIGHTED_LAYER_TYPES.has(node.type)) head.push(node.id);
          else next.push(node.id);
        }
    frontier = next;
  }
  return head;
}

/** Classifiers whose graph convolves 2-D inputs are image classifiers. */
function taskOf(manifest: Manifest, graph: ArchitectureGraph): BaseModelTask {
  if (manifest.task === "language_modeling") return "language_modeling";
  if (manifest.task === "regression") return "regression";
  return graph.nodes.some((n) => n.type === "Conv2D") ? "image_classification" : "classification";
}

function describeIO(manifest: Manifest, task: BaseModelTask): { input: string; output: string } {
  const labels = manifest.output.labels ?? [];
  const features = manifest.input_features.map((f) => f.name);
  if (task === "language_modeling")
    return { input: "text (one token per character)", output: "the next character's probabilities" };
  const input =
    features.length > 0
      ? `${features.length} feature${features.length === 1 ? "" : "s"}: ${features.slice(0, 6).join(", ")}${features.length > 6 ? ", …" : ""}`
      : `a tensor of shape [${manifest.input.shape.join(", ")}]`;
  const output =
    labels.length > 0 ? `one of ${labels.length} classes: ${labels.slice(0, 6).join(", ")}` : "a value";
  return { input, output };
}

interface DerivedInput {
  id: string;
  name: string;
  description: string;
  license: string;
  graph: ArchitectureGraph;
  config: TrainingConfig;
  manifest: Manifest;
  weights: { bytes: number; sha256: string };
  producedBy: string;
}

/** A catalog-style entry for a trained model (its figures are the ones its manifest recorded). */
export function derivedEntry(d: DerivedInput): BaseModelEntry {
  const m = d.manifest;
  const task = taskOf(m, d.graph);
  const vocabStep = m.input.preprocessing.find((s) => s.kind === "char_tokens") as
    | Extract<PreprocessingStep, { kind: "char_tokens" }>
    | undefined;
  const split = m.input.preprocessing.find((s) => s.kind === "split") as
    | Extract<PreprocessingStep, { kind: "split" }>
    | undefined;
  const rows = split ? split.train + split.validation + split.test : 0;
  // Held-out figures: the test split's when there was one, else the validation split's.
  const evaluationSplit = Object.keys(m.metrics).some((k) => k.startsWith("test_")) ? "test" : "validation";
  const prefix = evaluationSplit === "test" ? "test_" : "val_";
  const heldOut = Object.fromEntries(
    Object.entries(m.metrics).flatMap(([k, v]) =>
      k.startsWith(prefix) ? [[k.slice(prefix.length), v]] : [],
    ),
  );
  return {
    id: d.id,
    name: d.name,
    task,
    description: d.description,
    graph: d.graph,
    config: d.config,
    params: analyzeGraph(d.graph).totalParams,
    ...describeIO(m, task),
    features: task === "language_modeling" ? null : m.input_features.map((f) => f.name),
    // A language model's output labels are its vocabulary: that is `vocab`, not classes.
    labels:
      task !== "language_modeling" && m.output.kind === "labels" && m.output.labels ? m.output.labels : null,
    vocab: vocabStep ? vocabStep.vocabulary : null,
    head: task === "language_modeling" ? [] : headOf(d.graph),
    license: d.license,
    training_data: {
      dataset_id: m.dataset_id ?? "unknown",
      description: m.dataset_id
        ? `Trained by ${d.producedBy} on dataset ${m.dataset_id}.`
        : `The dataset it was trained on by ${d.producedBy}.`,
      attribution: "",
      rows,
    },
    evaluation: {
      split: evaluationSplit,
      rows: split ? (evaluationSplit === "test" ? split.test : split.validation) : 0,
      metrics: heldOut,
    },
    weights: { file: WEIGHTS_FILE, format: "pytorch_state_dict", ...d.weights },
    built_with: { script: d.producedBy, seed: d.config.seed ?? 0, torch: "" },
    preprocessing: { input_shape: m.input.shape, input_dtype: m.input.dtype, steps: m.input.preprocessing },
  };
}

function noWeights(what: string): ConflictError {
  return new ConflictError(
    `${what} carries no PyTorch weights (${WEIGHTS_FILE}), so it cannot be a base model: models trained on the PyTorch runtime export them; TF.js models do not.`,
  );
}

function parseManifest(raw: unknown, what: string): Manifest {
  const parsed = manifestSchema.safeParse(raw);
  if (!parsed.success)
    throw new ConflictError(`${what} has no usable manifest.json (input, output and preprocessing).`);
  return parsed.data;
}

/** The architecture a model was trained with: its manifest's, else its source job's (if still there). */
async function architectureOf(
  db: Db,
  ownerId: string,
  manifest: Manifest,
  jobId: string | null,
  what: string,
): Promise<{ graph: ArchitectureGraph; config: TrainingConfig }> {
  if (manifest.architecture)
    return { graph: manifest.architecture.graph, config: manifest.architecture.training_config };
  if (jobId) {
    const [job] = await db
      .select({ graph: trainingJobs.graph, config: trainingJobs.config })
      .from(trainingJobs)
      .where(and(eq(trainingJobs.id, jobId), eq(trainingJobs.ownerId, ownerId)))
      .limit(1);
    if (job) return job;
  }
  throw new ConflictError(`${what} does not record the architecture it was trained with.`);
}

type ModelVersionRow = typeof modelVersions.$inferSelect;
type ModelArtifactRow = typeof modelArtifacts.$inferSelect;

/** A ready version with its complete weights.pt, described as a base model (409 without an architecture). */
async function versionAsBase(
  db: Db,
  callerId: string,
  version: ModelVersionRow,
  modelName: string,
  weights: ModelArtifactRow & { blobKey: string },
): Promise<ResolvedBaseModel> {
  const what = `Version ${version.number} of “${modelName}”`;
  const manifest = parseManifest(version.artifactManifest, what);
  const arch = await architectureOf(db, callerId, manifest, version.jobId, what);
  return {
    entry: derivedEntry({
      id: version.id,
      name: `${modelName} v${version.number}`,
      description: version.description || `Version ${version.number} of the registry model ${modelName}.`,
      license: "Your own model (registry)",
      ...arch,
      manifest,
      weights: { bytes: weights.sizeBytes, sha256: weights.sha256 },
      producedBy: version.jobId ? `training job ${version.jobId}` : "an uploaded artifact",
    }),
    source: {
      kind: "model_version",
      registry_model_id: version.modelId,
      registry_model_name: modelName,
      version: version.number,
    },
    weights: { kind: "blob", blobKey: weights.blobKey },
  };
}

const completeWeights = and(eq(modelArtifacts.name, WEIGHTS_FILE), eq(modelArtifacts.state, "complete"));

async function fromModelVersion(db: Db, callerId: string, versionId: string): Promise<ResolvedBaseModel> {
  // The caller's own version only: another account's is not found (never revealed).
  const [row] = await db
    .select({ version: modelVersions, modelName: registeredModels.name })
    .from(modelVersions)
    .innerJoin(registeredModels, eq(registeredModels.id, modelVersions.modelId))
    .where(and(eq(modelVersions.id, versionId), eq(registeredModels.ownerId, callerId)))
    .limit(1);
  if (!row) throw new NotFoundError("Model version");
  const { version, modelName } = row;
  const what = `Version ${version.number} of “${modelName}”`;
  if (version.state !== "ready")
    throw new ConflictError(`${what} is not finalized; finalize it before fine-tuning from it.`);
  const [weights] = await db
    .select()
    .from(modelArtifacts)
    .where(and(eq(modelArtifacts.versionId, version.id), completeWeights))
    .limit(1);
  if (!weights?.blobKey) throw noWeights(what);
  return versionAsBase(db, callerId, version, modelName, { ...weights, blobKey: weights.blobKey });
}

/**
 * Every finalized version of the caller's registry that is a base model (complete weights.pt and a
 * known architecture), newest first. Versions without them are left out, not refused.
 */
export async function listRegistryBaseModels(db: Db, callerId: string): Promise<ResolvedBaseModel[]> {
  const rows = await db
    .select({ version: modelVersions, modelName: registeredModels.name, weights: modelArtifacts })
    .from(modelVersions)
    .innerJoin(registeredModels, eq(registeredModels.id, modelVersions.modelId))
    .innerJoin(modelArtifacts, and(eq(modelArtifacts.versionId, modelVersions.id), completeWeights))
    .where(and(eq(registeredModels.ownerId, callerId), eq(modelVersions.state, "ready")))
    .orderBy(desc(modelVersions.createdAt), desc(modelVersions.id));
  const bases: ResolvedBaseModel[] = [];
  for (const { version, modelName, weights } of rows) {
    if (!weights.blobKey) continue;
    try {
      bases.push(
        await versionAsBase(db, callerId, version, modelName, { ...weights, blobKey: weights.blobKey }),
      );
    } catch (err) {
      if (!(err instanceof ConflictError)) throw err;
    }
  }
  return bases;
}

/** A manifest's bytes (null when missing or past 4 MB: no manifest is that large). */
async function readSmallBlob(key: string): Promise<Buffer | null> {
  const blob = await blobStore().get(key);
  if (!blob) return null;
  if (blob.size > 4 * 1024 * 1024) {
    await blob.stream.cancel();
    return null;
  }
  return Buffer.from(await new Response(blob.stream).arrayBuffer());
}

async function fromHubModel(db: Db, callerId: string, hubModelId: string): Promise<ResolvedBaseModel> {
  const [model] = await db.select().from(hubModels).where(eq(hubModels.id, hubModelId)).limit(1);
  if (!model || !isHubModelVisible(model, callerId)) throw new NotFoundError("Hub model");
  const what = `The hub model “${model.name}”`;
  const files = await db.select().from(hubModelFiles).where(eq(hubModelFiles.modelId, model.id));
  const weights = files.find((f) => f.path === WEIGHTS_FILE);
  if (!weights) throw noWeights(what);
  const manifestFile = files.find((f) => f.path === "manifest.json");
  const manifestBytes = manifestFile ? await readSmallBlob(manifestFile.blobKey) : null;
  let raw: unknown = null;
  try {
    raw = manifestBytes ? JSON.parse(manifestBytes.toString("utf8")) : null;
  } catch {
    raw = null;
  }
  const manifest = parseManifest(raw, what);
  const graph = model.architecture ?? manifest.architecture?.graph;
  const config = model.trainingConfig ?? manifest.architecture?.training_config;
  if (!graph || !config)
    throw new ConflictError(`${what} does not record the architecture it was trained with.`);
  const [owner] = await db
    .select({ username: users.username })
    .from(users)
    .where(eq(users.id, model.ownerId))
    .limit(1);
  const username = owner?.username ?? "unknown";
  return {
    entry: derivedEntry({
      id: model.id,
      name: model.name,
      description: model.description || `A model shared on the hub by ${username}.`,
      license: model.license ?? "Not stated by its owner",
      graph,
      config,
      manifest,
      weights: { bytes: weights.sizeBytes, sha256: weights.sha256 },
      producedBy: `${username} on the hub`,
    }),
    source: { kind: "hub_model", hub_model_id: model.id, owner: username },
    weights: { kind: "blob", blobKey: weights.blobKey },
  };
}

/**
 * The base model `id` names, as the caller may use it: a catalog entry, the caller's registry
 * version, or a hub model visible to the caller. 404 when there is none; 409 when it carries no
 * weights or architecture.
 */
export async function resolveBaseModel(db: Db, callerId: string, id: string): Promise<ResolvedBaseModel> {
  const curated = findBaseModel(id);
  if (curated)
    return { entry: curated, source: { kind: "catalog" }, weights: { kind: "catalog", entry: curated } };
  if (id.startsWith("mv_")) return fromModelVersion(db, callerId, id);
  if (id.startsWith("hub_")) return fromHubModel(db, callerId, id);
  throw new NotFoundError("Base model");
}

/** Refuses a curated base model whose weights file is missing or altered (checked once per process). */
export async function verifyCatalogWeights(resolved: ResolvedBaseModel): Promise<void> {
  if (resolved.weights.kind === "catalog") await baseModelWeightsFile(resolved.weights.entry);
}

/**
 * The base weights as a local file, checked against `sha256`: the catalog's file itself, or a copy
 * of the stored blob written to `file`.
 */
export async function baseWeightsFile(
  resolved: ResolvedBaseModel,
  sha256: string,
  file: string,
): Promise<string> {
  const { entry, weights } = resolved;
  if (entry.weights.sha256 !== sha256)
    throw new ConflictError(
      `The weights of the base model “${entry.name}” changed since this run was created; start a new run.`,
    );
  if (weights.kind === "catalog") return baseModelWeightsFile(weights.entry);
  const blob = await blobStore().get(weights.blobKey);
  if (!blob)
    throw new ConflictError(`The weights of the base model “${entry.name}” are missing on this server.`);
  const hash = createHash("sha256");
  await pipeline(
    Readable.fromWeb(blob.stream as unknown as NodeReadableStream<Uint8Array>),
    async function* (chunks: AsyncIterable<Buffer>) {
      for await (const chunk of chunks) {
        hash.update(chunk);
        yield chunk;
      }
    },
    fs.createWriteStream(file),
  );
  if (hash.digest("hex") !== sha256)
    throw new ConflictError(
      `The stored weights of the base model “${entry.name}” do not match their recorded SHA-256.`,
    );
  return file;
}
