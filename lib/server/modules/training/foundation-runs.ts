/**
 * Fine-tuning runs (POST/GET /training/foundation-runs): a training job with `base_model_id` set.
 * It goes through the same runner, states, metrics, logs, checkpoints, stream and artifact as any
 * job; what differs is how it starts (fine-tune-args.ts: train.py's --init-weights, --replace,
 * --freeze, --lr-schedule) and how its dataset is encoded (a language model keeps its vocabulary, a
 * table model its feature encoding, an image model its pictures' size, resize mode and normalisation).
 *
 * The run's architecture is the base model's graph, with the head's output units set to the
 * dataset's class count when its labels differ from the base model's (those head layers are
 * "replaced": started afresh). Each run gets its own project, "<base> fine-tuned on <dataset>",
 * holding that architecture and configuration, so the run opens in the editor and shows in the
 * jobs lists like any other job.
 */
import { z } from "@hono/zod-openapi";
import type { BaseModelEntry } from "../../../ml/catalog/types";
import { WEIGHTED_LAYER_TYPES } from "../../../ml/catalog/types";
import { validateForCodegen } from "../../../ml/codegen";
import type { ArchitectureGraph, TrainingConfig } from "../../../ml/graph-types";
import { analyzeGraph } from "../../../ml/infer-graph";
import { findRecipe, RECIPES } from "../../../ml/recipes";
import type { Db } from "../../db/client";
import type { TrainingJobRow, UserRow } from "../../db/schema";
import type { FineTuneSettings, InheritedEncoding, InheritedImageEncoding } from "../../db/schema/training";
import { ConflictError, DomainError, NotFoundError, ValidationError } from "../../errors";
import { resolveBaseModel, verifyCatalogWeights } from "../catalog/base-model-sources";
import { findBaseModel } from "../catalog/base-models";
import { insertProject } from "../projects/projects";
import { type DatasetFit, type DatasetFitInput, describeDatasetFit, sortLabels } from "./dataset-fit";
import { pythonHasTorch } from "./executors/pytorch";
import type { createFoundationRunBodySchema, foundationRunSchema } from "./foundation-runs.schemas";
import { datasetFitInputOf as fitInputOf } from "./job-fit";
import { findOwnedJob } from "./job-rows";
import { assertHasCredits, checkStrategy, datasetVersionFor, queueJob } from "./jobs";
import { toJobView } from "./views";

export type CreateFoundationRunInput = z.infer<typeof createFoundationRunBodySchema>;
export type FoundationRunView = z.infer<typeof foundationRunSchema>;

/** The class names of the dataset's target when its profile lists them all, and how many there are. */
function datasetClasses(ds: DatasetFitInput): { count: number; labels: string[] | null } | null {
  if (ds.schema.format === "image_zip") {
    // An image ZIP's classes are its class folders (materialize-images.ts numbers them sorted).
    const names = ds.profile.images?.classes.map((c) => c.name) ?? [];
    return names.length > 0 ? { count: names.length, labels: sortLabels(names) } : null;
  }
  const target = ds.target ?? Object.entries(ds.roles).find(([, role]) => role === "target")?.[0] ?? null;
  const stats = target ? ds.profile.columns.find((c) => c.name === target) : undefined;
  if (!stats?.distinct) return null;
  const top = stats.top_values ?? [];
  if (top.length === stats.distinct)
    return { count: stats.distinct, labels: sortLabels(top.map((t) => t.value)) };
  // Integer classes with no gap (0…9): the profile's range names them all.
  const { min, max } = stats;
  if (
    stats.type === "integer" &&
    typeof min === "number" &&
    typeof max === "number" &&
    max - min + 1 === stats.distinct
  )
    return {
      count: stats.distinct,
      labels: Array.from({ length: stats.distinct }, (_, i) => String(min + i)),
    };
  return { count: stats.distinct, labels: null };
}

const sameLabels = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && a.every((x, i) => x === b[i]);

function datasetError(message: string): ValidationError {
  return new ValidationError(message, [{ path: "body.dataset_id", message }]);
}

/**
 * The run's architecture: the base graph, with the head's class-count layer resized to the
 * dataset's classes when the labels differ (the head is then replaced: not loaded from the base).
 */
export function planRunGraph(
  base: BaseModelEntry,
  ds: DatasetFitInput,
): { graph: ArchitectureGraph; replaced: string[]; labels: string[] | null } {
  const graph = structuredClone(base.graph);
  const isText = ds.schema.format === "text";
  if (base.task === "language_modeling") {
    if (!isText)
      throw datasetError(
        `“${base.name}” is a language model: choose a text dataset (this one is a ${ds.schema.format} table).`,
      );
    return { graph, replaced: [], labels: null };
  }
  if (isText)
    throw datasetError(
      `“${base.name}” takes ${base.input}; this is a text dataset: choose a table whose features match.`,
    );
  if (!base.labels) return { graph, replaced: [], labels: null };
  const classes = datasetClasses(ds);
  if (!classes)
    throw datasetError(
      ds.schema.format === "image_zip"
        ? "The image dataset has no readable class folders (see its profile)."
        : "The dataset has no target column with classes: set its column roles.",
    );
  const differ = classes.labels
    ? !sameLabels(classes.labels, base.labels)
    : classes.count !== base.labels.length;
  if (!differ) return { graph, replaced: [], labels: classes.labels ?? base.labels };
  const output = graph.nodes.find((n) => n.type === "Output");
  const binary = output?.params.loss === "binary_cross_entropy";
  const heads = graph.nodes.filter((n) => base.head.includes(n.id));
  const sized = heads.filter((n) => n.type === "Dense" && n.params.units === base.labels?.length);
  if (!binary && sized.length === 0)
    throw new ConflictError(
      `The catalog entry of “${base.name}” names no head layer with one unit per class.`,
    );
  if (binary && classes.count !== 2)
    throw datasetError(
      `“${base.name}” is a binary classifier; the dataset's target has ${classes.count} classes.`,
    );
  for (const node of binary ? [] : sized.slice(-1)) node.params = { ...node.params, units: classes.count };
  return { graph, replaced: heads.map((n) => n.id), labels: classes.labels };
}

/** Whether a dataset fits a base model to fine-tune (its head resized), and if not why. */
export function baseModelFit(base: BaseModelEntry, ds: DatasetFitInput): DatasetFit {
  try {
    const { graph } = planRunGraph(base, ds);
    if (base.task !== "language_modeling")
      return describeDatasetFit(graph, analyzeGraph(graph), ds, inheritedImageEncoding(base)?.resize);
    return { fits: true, task: "language_modeling", features: 0, classes: base.vocab?.length ?? null };
  } catch (err) {
    if (err instanceof DomainError) return { fits: false, reason: err.message };
    throw err;
  }
}

const names = z.array(z.string());
const numbers = z.array(z.number());
const imputeStep = z.object({ kind: z.literal("impute"), columns: names, values: numbers });
const transformStep = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("standardize"), columns: names, mean: numbers, std: numbers }),
  z.object({ kind: z.literal("scale"), columns: names, factor: z.number() }),
]);

/**
 * How the base model encoded its numeric features (its recorded preprocessing), for a run on a
 * table with the same feature columns; null when it was not recorded or is not of that form.
 */
export function inheritedEncoding(base: BaseModelEntry): InheritedEncoding | null {
  const steps = base.preprocessing?.steps ?? [];
  const impute = imputeStep.safeParse(steps.find((st) => st.kind === "impute"));
  const transform = transformStep.safeParse(
    steps.find((st) => st.kind === "standardize" || st.kind === "scale"),
  );
  if (!impute.success || !transform.success) return null;
  const features = impute.data.columns;
  const t = transform.data;
  const aligned =
    t.columns.length === features.length &&
    t.columns.every((c, i) => c === features[i]) &&
    impute.data.values.length === features.length &&
    (t.kind === "scale" || (t.mean.length === features.length && t.std.length === features.length));
  if (!aligned) return null;
  return {
    features,
    impute: impute.data.values,
    transform:
      t.kind === "scale"
        ? { kind: "scale", factor: t.factor }
        : { kind: "standardize", mean: t.mean, std: t.std },
  };
}

const imageStep = z.object({
  kind: z.literal("image"),
  channels: z.union([z.literal(1), z.literal(3)]),
  height: z.number().int().positive(),
  width: z.number().int().positive(),
  resize: z.enum(["stretch", "crop", "pad"]),
  mean: numbers,
  std: numbers,
});

/**
 * How an image base model decoded and normalised its pictures (its recorded `image` step), for a
 * run on an image ZIP; null when the base model has no such step (or its statistics do not match
 * its channels).
 */
export function inheritedImageEncoding(base: BaseModelEntry): InheritedImageEncoding | null {
  const step = imageStep.safeParse(base.preprocessing?.steps.find((st) => st.kind === "image"));
  if (!step.success) return null;
  const { channels, mean, std } = step.data;
  const valid = (v: number[]) => v.length === channels && v.every(Number.isFinite);
  if (!valid(mean) || !valid(std) || std.some((x) => x <= 0)) return null;
  return { ...step.data };
}

/** Freeze as given, checked against the graph (layer ids with weights). */
function checkFreeze(graph: ArchitectureGraph, freeze: CreateFoundationRunInput["freeze"]) {
  if (typeof freeze === "string") return freeze;
  const weighted = new Set(graph.nodes.filter((n) => WEIGHTED_LAYER_TYPES.has(n.type)).map((n) => n.id));
  const unknown = freeze.filter((id) => !weighted.has(id));
  if (unknown.length > 0)
    throw new ValidationError(
      `No layer with weights has the id ${unknown.map((u) => `“${u}”`).join(", ")}.`,
      [{ path: "body.freeze", message: `Layers with weights: ${[...weighted].join(", ")}` }],
    );
  if (freeze.length === weighted.size)
    throw new ValidationError("Every layer would be frozen: nothing would train.", [
      { path: "body.freeze", message: "Leave at least one layer with weights unfrozen" },
    ]);
  return [...new Set(freeze)];
}

/** base model config < recipe config < the request's overrides. */
function runConfig(base: BaseModelEntry, input: CreateFoundationRunInput): TrainingConfig {
  let config: TrainingConfig = { ...base.config };
  if (input.recipe_id !== undefined) {
    const recipe = findRecipe(input.recipe_id);
    if (!recipe)
      throw new ValidationError(`Unknown recipe "${input.recipe_id}".`, [
        { path: "body.recipe_id", message: `One of: ${RECIPES.map((r) => r.id).join(", ")}` },
      ]);
    const taskOk =
      recipe.task === base.task ||
      (recipe.task !== "language_modeling" &&
        recipe.task !== "regression" &&
        base.task !== "language_modeling" &&
        base.task !== "regression");
    if (!taskOk)
      throw new ValidationError(`The recipe “${recipe.name}” is for ${recipe.task}, not ${base.task}.`, [
        { path: "body.recipe_id", message: `The base model's task is ${base.task}` },
      ]);
    config = { ...config, ...recipe.config };
  }
  return { ...config, ...input.config };
}

export async function createFoundationRun(
  db: Db,
  user: UserRow,
  input: CreateFoundationRunInput,
): Promise<FoundationRunView> {
  const resolved = await resolveBaseModel(db, user.id, input.base_model_id);
  const base = resolved.entry;
  checkStrategy(user, input.strategy, input.runtime);
  const image = base.task === "language_modeling" ? null : inheritedImageEncoding(base);
  const runConfigured = runConfig(base, input);
  // Pictures reach the Input as the base model's did, unless the request says otherwise.
  const config: TrainingConfig = image
    ? { ...runConfigured, resize: input.config?.resize ?? image.resize }
    : runConfigured;
  const dataset = await datasetVersionFor(db, user, input.dataset_id, input.dataset_version_id);
  const fit = await fitInputOf(db, user, dataset.id, dataset.versionId);
  const { graph, replaced, labels } = planRunGraph(base, fit);
  if (base.task !== "language_modeling") {
    const verdict = describeDatasetFit(graph, analyzeGraph(graph), fit, config.resize);
    if (!verdict.fits) throw datasetError(verdict.reason);
  }
  if (input.freeze === "base" && base.head.length === 0)
    throw new ValidationError(`“${base.name}” has no head to train apart: freeze none or name layers.`, [
      { path: "body.freeze", message: "This base model has no head layers" },
    ]);
  const freeze = checkFreeze(graph, input.freeze);
  const codegen = validateForCodegen(graph, config, "pytorch");
  if (!codegen.valid) {
    const first = codegen.issues.find((i) => i.severity === "error");
    throw new ValidationError(`The run cannot be trained: ${first?.message ?? "invalid configuration"}`, [
      { path: "body.config", message: first?.message ?? "invalid" },
    ]);
  }
  if (!(await pythonHasTorch()))
    throw new ConflictError(
      "Fine-tuning runs need PyTorch, and this service's workers cannot import torch: they can only train from scratch (POST /training/jobs with runtime tfjs).",
    );
  // Refuses missing or altered catalog weights now rather than when the run starts.
  await verifyCatalogWeights(resolved);
  await assertHasCredits(db, user.id);

  const settings: FineTuneSettings = {
    base_model_name: base.name,
    base_weights_sha256: base.weights.sha256,
    base_task: base.task,
    base_head: base.head,
    base_source: resolved.source,
    freeze,
    lr_schedule: input.lr_schedule,
    warmup_epochs: input.warmup_epochs,
    replaced_layers: replaced,
    base_labels: base.labels,
    labels,
    vocabulary: base.task === "language_modeling" ? base.vocab : null,
    encoding:
      base.task === "language_modeling"
        ? null
        : fit.schema.format === "image_zip"
          ? image
          : inheritedEncoding(base),
  };
  const projectName = `${base.name} fine-tuned on ${dataset.name}`.slice(0, 200);
  const project = await insertProject(db, user.id, {
    name: projectName,
    description: `Fine-tuning run from the base model “${base.name}” (${base.id}) on ${dataset.name}.`,
    graph,
    training_config: config,
  });
  const job = await queueJob(db, user.id, {
    projectId: project.id,
    projectName: project.name,
    versionId: null,
    name: input.name ?? projectName,
    graph,
    config,
    datasetId: dataset.id,
    datasetVersionId: dataset.versionId,
    runtime: input.runtime,
    strategy: input.strategy,
    recipeId: input.recipe_id ?? null,
    baseModelId: base.id,
    fineTune: settings,
  });
  return getFoundationRun(db, user.id, job.id);
}

export function toFoundationRunView(row: TrainingJobRow): FoundationRunView {
  const f = row.fineTune;
  if (!row.baseModelId || !f) throw new NotFoundError("Fine-tuning run");
  return {
    ...toJobView(row),
    base_model: {
      id: row.baseModelId,
      name: f.base_model_name,
      task: f.base_task ?? findBaseModel(row.baseModelId)?.task ?? "unknown",
      source: f.base_source ?? { kind: "catalog" },
    },
    fine_tune: {
      freeze: f.freeze,
      lr_schedule: f.lr_schedule,
      warmup_epochs: f.warmup_epochs,
      replaced_layers: f.replaced_layers,
      base_labels: f.base_labels,
      labels: row.preprocessing?.labels && !f.vocabulary ? row.preprocessing.labels : f.labels,
      vocabulary_size: f.vocabulary?.length ?? null,
      base_weights_sha256: f.base_weights_sha256,
    },
    job_url: `/api/v1/training/jobs/${encodeURIComponent(row.id)}`,
  };
}

/** A run of the caller's (a job that is not a fine-tuning run → 404). */
export async function getFoundationRun(db: Db, ownerId: string, runId: string): Promise<FoundationRunView> {
  return toFoundationRunView(await findOwnedJob(db, ownerId, runId));
}
