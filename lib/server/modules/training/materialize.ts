/**
 * Prepares a dataset version for one training job: the "materialised dataset" directory that the
 * generated train.py / train.mjs read with `--data-dir` (format: lib/ml/codegen/README.md).
 *
 * Tables: features and target from the column roles, the version's explicit split or a seeded random
 * one, missing numbers imputed, categories one-hot encoded and numbers standardised (image pixels
 * scaled) with statistics of the training rows only, class labels numbered in sorted order.
 * Text: one token per character, windows of the model's input length predicting the next character,
 * split by position. Everything done is returned as the job's `Preprocessing`, in order, so that
 * serving (artifact-reader.ts) can apply exactly the same steps to raw instances.
 *
 * `describeDatasetFit` answers the same question without reading any data (from the schema, roles
 * and profile): does this dataset fit this model, and if not, why.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { ArchitectureGraph, TrainingConfig } from "../../../ml/graph-types";
import { type AnalyzableGraph, analyzeGraph, type GraphAnalysis } from "../../../ml/infer-graph";
import type { Db } from "../../db/client";
import type {
  ColumnRole,
  DatasetProfile,
  DatasetSchemaInfo,
  SchemaColumn,
  StoredSplits,
} from "../../db/schema/datasets";
import type { InheritedEncoding, Preprocessing, PreprocessingStep } from "../../db/schema/training";
import { NotFoundError, ValidationError } from "../../errors";
import { readableDataset, versionOf } from "../datasets/access";
import {
  type BuiltinImageLayout,
  builtinPath,
  builtinVersionData,
  builtinVersionId,
} from "../datasets/builtin";
import { ident, safeEngineMessage, sourceSql, type TableSource, withDuckDb } from "../datasets/duckdb";
import { datasetBlobPath, refOfKey } from "../datasets/ingest";
import { MAX_CLASSES_FOR_INTEGER_TARGET } from "../datasets/roles";

/** The most values (rows × columns) a job reads into memory. */
export const MAX_MATERIALIZED_VALUES = 50_000_000;
/** A categorical feature with more categories than this is refused (mark it ignored instead). */
export const MAX_CATEGORIES = 100;
/** Text windows beyond this many are taken with a stride. */
export const MAX_TEXT_WINDOWS = 200_000;
/** The largest text corpus (in characters) a character model is trained on. */
export const MAX_TEXT_CHARACTERS = 20_000_000;

export const PREPARED_DATASET_FORMAT = "layerline-prepared-dataset";

/** What a model takes and gives, as the dataset must match it. */
export interface ModelIO {
  inputShape: number[];
  inputDtype: "float32" | "int64";
  outputShape: number[];
  loss: "cross_entropy" | "binary_cross_entropy" | "mse";
  /** Smallest Embedding vocabulary, when the Input holds token ids. */
  vocabSize: number | null;
}

const numel = (shape: readonly number[]) => shape.reduce((a, b) => a * b, 1);
const fmtShape = (shape: readonly number[]) => `[${shape.join(", ")}]`;

/** The model's Input and Output as analysed, or why they cannot be used. */
export function modelIO(
  graph: AnalyzableGraph,
  analysis: GraphAnalysis,
): { ok: true; io: ModelIO } | { ok: false; reason: string } {
  const inputs = graph.nodes.filter((n) => n.type === "Input");
  const outputs = graph.nodes.filter((n) => n.type === "Output");
  if (inputs.length !== 1 || outputs.length !== 1)
    return { ok: false, reason: "The model needs exactly one Input and one Output." };
  const firstError = analysis.issues.find((i) => i.severity === "error");
  if (firstError) return { ok: false, reason: `The model has errors: ${firstError.message}` };
  const [input, output] = [inputs[0], outputs[0]];
  const inputShape = analysis.shapes[input.id];
  const outputShape = analysis.shapes[output.id];
  const inParams = analysis.resolvedParams[input.id];
  const outParams = analysis.resolvedParams[output.id];
  if (!inputShape || !outputShape || !inParams || !outParams)
    return { ok: false, reason: "The model's shapes cannot be inferred." };
  const inputDtype = inParams.dtype === "int64" ? "int64" : "float32";
  const loss =
    outParams.loss === "binary_cross_entropy" || outParams.loss === "mse" ? outParams.loss : "cross_entropy";
  const vocabs = graph.nodes.flatMap((n) => {
    const p = analysis.resolvedParams[n.id];
    return n.type === "Embedding" && p && typeof p.num_embeddings === "number" ? [p.num_embeddings] : [];
  });
  return {
    ok: true,
    io: {
      inputShape,
      inputDtype,
      outputShape,
      loss,
      vocabSize: inputDtype === "int64" && vocabs.length > 0 ? Math.min(...vocabs) : null,
    },
  };
}

// ---------------------------------------------------------------------------------------------
// Which columns are used, and how (shared by describeDatasetFit and materializeDataset).

type FeatureKind = "number" | "category";

interface TableColumns {
  kind: "table";
  features: { name: string; kind: FeatureKind }[];
  target: SchemaColumn;
}

interface TextColumns {
  kind: "text";
  column: string;
}

/** What describeDatasetFit needs to know about a dataset version. */
export interface DatasetFitInput {
  /** The dataset's task, when known (classification, regression, image_classification, language_modeling). */
  task: string | null;
  /** Column roles as stored on the dataset (uploaded datasets; `{}` for built-ins). */
  roles: Record<string, ColumnRole>;
  schema: DatasetSchemaInfo;
  profile: DatasetProfile;
  /** Built-ins: their target column (other columns are features). Null for uploaded datasets. */
  target: string | null;
  /** Built-ins whose feature columns are the pixels of an image (digits), else null. */
  image: BuiltinImageLayout | null;
}

function effectiveRoles(
  schema: DatasetSchemaInfo,
  roles: Record<string, ColumnRole>,
  builtinTarget: string | null,
): Record<string, ColumnRole> {
  if (builtinTarget === null) return roles;
  return Object.fromEntries(
    schema.columns.map((c) => [c.name, c.name === builtinTarget ? "target" : "feature"] as const),
  );
}

function planColumns(
  schema: DatasetSchemaInfo,
  roles: Record<string, ColumnRole>,
): { ok: true; columns: TableColumns | TextColumns } | { ok: false; reason: string } {
  if (schema.format === "text") {
    return { ok: true, columns: { kind: "text", column: schema.columns[0]?.name ?? "text" } };
  }
  if (schema.format === "image_zip") {
    return {
      ok: false,
      reason:
        "Image ZIP datasets cannot be trained by the managed runtimes yet; use a table of pixel columns.",
    };
  }
  const targets = schema.columns.filter((c) => roles[c.name] === "target");
  if (targets.length !== 1) {
    return {
      ok: false,
      reason:
        targets.length === 0
          ? "The dataset has no target column: give one column the role “target”."
          : "The dataset has more than one target column.",
    };
  }
  const features: TableColumns["features"] = [];
  for (const c of schema.columns) {
    const role = roles[c.name];
    if (c === targets[0] || (role !== undefined && role !== "feature")) continue;
    if (c.type === "integer" || c.type === "float" || c.type === "boolean") {
      features.push({ name: c.name, kind: "number" });
    } else if (c.type === "string") {
      features.push({ name: c.name, kind: "category" });
    } else if (role === "feature") {
      return {
        ok: false,
        reason: `Column “${c.name}” (${c.source_type}) cannot be a feature: give it the role “ignored”.`,
      };
    }
  }
  if (features.length === 0) return { ok: false, reason: "The dataset has no feature columns." };
  return { ok: true, columns: { kind: "table", features, target: targets[0] } };
}

/** Sorted class names: numerically when every name is a number, else by code point. */
export function sortLabels(names: Iterable<string>): string[] {
  const list = [...new Set(names)];
  const numeric = list.every((n) => n.trim() !== "" && Number.isFinite(Number(n)));
  return numeric ? list.sort((a, b) => Number(a) - Number(b)) : list.sort();
}

// ---------------------------------------------------------------------------------------------
// describeDatasetFit

export type DatasetFit =
  | {
      fits: true;
      task: Preprocessing["task"];
      /** Values per sample the model receives (after encoding). */
      features: number;
      /** Classes (classification), vocabulary size (text), else null. */
      classes: number | null;
    }
  | { fits: false; reason: string };

function taskMismatch(io: ModelIO, what: string): string {
  return io.inputDtype === "int64"
    ? `The model takes token ids (an int64 Input feeding an Embedding); ${what}.`
    : `The model takes float features; ${what}.`;
}

/** Encoded values per sample and what each feature contributes, from a profile. */
function profiledWidth(
  columns: TableColumns,
  profile: DatasetProfile,
): { width: number; parts: string[]; tooMany: string | null } {
  let width = 0;
  const parts: string[] = [];
  for (const f of columns.features) {
    if (f.kind === "number") {
      width += 1;
      continue;
    }
    const distinct = profile.columns.find((c) => c.name === f.name)?.distinct ?? 0;
    if (distinct > MAX_CATEGORIES) {
      return {
        width,
        parts,
        tooMany: `Column “${f.name}” has ${distinct} distinct values, too many to one-hot encode (at most ${MAX_CATEGORIES}): give it the role “ignored”.`,
      };
    }
    width += distinct;
    parts.push(`${f.name} one-hot ×${distinct}`);
  }
  return { width, parts, tooMany: null };
}

/**
 * Whether a dataset (schema, roles, profile; nothing is read) fits a model, and if not why, in a
 * sentence for the Train dialog. The same rules as materializeDataset, which re-checks them on the
 * data itself (a category that only appears outside the training rows is not one-hot encoded, so
 * the count of one-hot inputs can then be lower than the profile suggests).
 */
export function describeDatasetFit(
  graph: ArchitectureGraph | AnalyzableGraph,
  analysis: GraphAnalysis,
  ds: DatasetFitInput,
): DatasetFit {
  const model = modelIO(graph, analysis);
  if (!model.ok) return { fits: false, reason: model.reason };
  const io = model.io;
  const planned = planColumns(ds.schema, effectiveRoles(ds.schema, ds.roles, ds.target));
  if (!planned.ok) return { fits: false, reason: planned.reason };
  const columns = planned.columns;

  if (columns.kind === "text") {
    const text = ds.profile.text;
    const vocabulary = (text?.distinct_characters ?? 0) + ((text?.lines ?? 0) > 1 ? 1 : 0);
    const problem = textModelProblem(io, vocabulary, text?.characters ?? 0);
    return problem
      ? { fits: false, reason: problem }
      : { fits: true, task: "language_modeling", features: io.inputShape[0], classes: vocabulary };
  }

  if (io.inputDtype === "int64")
    return { fits: false, reason: taskMismatch(io, "this dataset is a table of features") };
  const { width, parts, tooMany } = profiledWidth(columns, ds.profile);
  if (tooMany) return { fits: false, reason: tooMany };
  if (width !== numel(io.inputShape)) {
    const detail = parts.length > 0 ? ` (${parts.join(", ")})` : "";
    return {
      fits: false,
      reason: `The model's Input takes ${numel(io.inputShape)} values per sample ${fmtShape(io.inputShape)}; the dataset gives ${width}${detail}.`,
    };
  }
  const stats = ds.profile.columns.find((c) => c.name === columns.target.name);
  const distinct = stats?.distinct ?? 0;
  const problem = targetProblem(io, columns.target, distinct);
  if (problem) return { fits: false, reason: problem };
  return {
    fits: true,
    task: taskOf(io),
    features: width,
    classes: io.loss === "mse" ? null : distinct,
  };
}

function taskOf(io: ModelIO): Preprocessing["task"] {
  if (io.loss === "mse") return "regression";
  return io.loss === "binary_cross_entropy" ? "binary_classification" : "classification";
}

/** Why the target does not suit the model's Output, or null. */
function targetProblem(io: ModelIO, target: SchemaColumn, classes: number): string | null {
  const out = fmtShape(io.outputShape);
  switch (io.loss) {
    case "cross_entropy":
      if ((target.type === "float" || target.type === "integer") && classes > MAX_CLASSES_FOR_INTEGER_TARGET)
        return `The target “${target.name}” holds ${classes} distinct numbers (a regression target), but the model's Output is a classifier (cross_entropy): use mse and one output unit.`;
      if (classes !== io.outputShape[0])
        return `The target “${target.name}” has ${classes} classes but the model's Output gives ${io.outputShape[0]} logits ${out}: make the last Dense layer ${classes} units.`;
      return null;
    case "binary_cross_entropy":
      if (numel(io.outputShape) !== 1)
        return `The model's Output ${out} is multi-label (binary_cross_entropy over ${numel(io.outputShape)} values); a single target column needs one output unit.`;
      if (classes !== 2)
        return `The target “${target.name}” has ${classes} classes; binary_cross_entropy needs exactly 2 (use cross_entropy for more).`;
      return null;
    case "mse":
      if (numel(io.outputShape) !== 1)
        return `The model's Output ${out} gives ${numel(io.outputShape)} values; a regression on one target column needs one.`;
      if (target.type !== "integer" && target.type !== "float" && target.type !== "boolean")
        return `The target “${target.name}” is not numeric (${target.source_type}), but the model is a regression (mse): use cross_entropy with one unit per class.`;
      return null;
  }
}

/** Why a character model does not suit this text, or null. */
function textModelProblem(io: ModelIO, vocabulary: number, characters: number): string | null {
  if (io.inputDtype !== "int64" || io.vocabSize === null)
    return taskMismatch(
      io,
      "this is a text dataset: start the model with an int64 Input of token ids and an Embedding",
    );
  if (io.inputShape.length !== 1)
    return `A text model's Input is one sequence of token ids [T]; this model's is ${fmtShape(io.inputShape)}.`;
  if (io.loss !== "cross_entropy" || io.outputShape.length !== 1)
    return `A text model predicts the next character: its Output must be cross_entropy logits [C]; this model's is ${io.loss} ${fmtShape(io.outputShape)}.`;
  if (io.outputShape[0] < vocabulary)
    return `The text has ${vocabulary} distinct characters but the model's Output gives ${io.outputShape[0]} logits: make the last Dense layer at least ${vocabulary} units.`;
  if (io.vocabSize < vocabulary)
    return `The text has ${vocabulary} distinct characters but the Embedding holds ${io.vocabSize}: give it at least ${vocabulary} entries.`;
  if (characters <= io.inputShape[0] + 1)
    return `The text (${characters} characters) is shorter than one window of ${io.inputShape[0]} characters.`;
  return null;
}

// ---------------------------------------------------------------------------------------------
// Reading the version

interface ResolvedVersion {
  file: string;
  schema: DatasetSchemaInfo;
  roles: Record<string, ColumnRole>;
  splits: StoredSplits | null;
  image: BuiltinImageLayout | null;
}

export async function resolveVersion(
  db: Db,
  ownerId: string,
  datasetId: string,
  versionId: string,
): Promise<ResolvedVersion> {
  const ref = await readableDataset(db, { id: ownerId }, datasetId);
  if (ref.kind === "builtin") {
    const b = ref.builtin;
    if (versionId !== builtinVersionId(b)) throw new NotFoundError("Dataset version");
    const data = await builtinVersionData(b);
    return {
      file: builtinPath(b),
      schema: data.schema,
      roles: effectiveRoles(data.schema, data.roles, b.target),
      splits: null,
      image: b.image ?? null,
    };
  }
  const v = await versionOf(db, datasetId, versionId);
  return {
    file: datasetBlobPath(refOfKey(v.blobKey)),
    schema: v.schema,
    roles: ref.row.roles,
    splits: v.splits ?? null,
    image: null,
  };
}

/** Column-major values: numbers (NaN when missing) for numeric columns, strings (or null) otherwise. */
async function readTable(
  v: ResolvedVersion,
  columns: { name: string; as: "number" | "string" }[],
): Promise<{ rows: number; values: (Float64Array | (string | null)[])[] }> {
  const source: TableSource = {
    format: v.schema.format as TableSource["format"],
    file: v.file,
    dialect: v.schema.dialect,
    columns: v.schema.columns,
  };
  const select = columns
    .map((c) =>
      c.as === "number" ? `TRY_CAST(${ident(c.name)} AS DOUBLE)` : `CAST(${ident(c.name)} AS VARCHAR)`,
    )
    .join(", ");
  let raw: unknown[][];
  try {
    raw = await withDuckDb(async (con) => {
      const count = await con.runAndReadAll(`SELECT count(*) FROM ${sourceSql(source)}`);
      const rows = Number(count.getRowsJS()[0]?.[0] ?? 0);
      if (rows * columns.length > MAX_MATERIALIZED_VALUES) {
        throw new ValidationError(
          `The dataset has ${rows} rows × ${columns.length} columns; the managed runtimes read at most ${MAX_MATERIALIZED_VALUES.toLocaleString("en")} values.`,
        );
      }
      const reader = await con.runAndReadAll(`SELECT ${select} FROM ${sourceSql(source)}`);
      return reader.getColumnsJS();
    });
  } catch (err) {
    if (err instanceof ValidationError) throw err;
    throw new ValidationError(`The dataset could not be read: ${safeEngineMessage(err)}`);
  }
  const rows = raw[0]?.length ?? 0;
  const values = columns.map((c, k) => {
    const col = raw[k] ?? [];
    if (c.as === "string") return col.map((x) => (x === null || x === undefined ? null : String(x)));
    const out = new Float64Array(rows);
    for (let i = 0; i < rows; i++) {
      const x = col[i];
      out[i] = typeof x === "number" ? x : typeof x === "bigint" ? Number(x) : Number.NaN;
    }
    return out;
  });
  return { rows, values };
}

// ---------------------------------------------------------------------------------------------
// Splits

/** Seeded pseudo-random numbers in [0, 1) (mulberry32, as in the generated train.mjs). */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function shuffle<T>(items: T[], next: () => number): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(next() * (i + 1));
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

interface RowSplits {
  train: number[];
  validation: number[];
  test: number[];
  method: "explicit" | "random";
}

/** Row indices per split among `kept` rows (file order indices). */
function splitRows(kept: number[], stored: StoredSplits | null, config: TrainingConfig): RowSplits {
  if (stored) {
    const keep = new Set(kept);
    const only = (rows: number[]) => rows.filter((r) => keep.has(r));
    return {
      train: only(stored.train),
      validation: only(stored.validation ?? []),
      test: only(stored.test ?? []),
      method: "explicit",
    };
  }
  const order = shuffle(kept, random(config.seed));
  const heldOut = Math.floor(order.length * config.validation_split);
  return {
    train: order.slice(heldOut).sort((a, b) => a - b),
    validation: order.slice(0, heldOut).sort((a, b) => a - b),
    test: [],
    method: "random",
  };
}

// ---------------------------------------------------------------------------------------------
// Writing

type SplitName = "train" | "validation" | "test";
const FILE_SUFFIX: Record<SplitName, string> = { train: "train", validation: "val", test: "test" };

interface PreparedSplit {
  rows: number;
  x: Float32Array | Int32Array;
  y: Float32Array | Int32Array;
  /** Tables: the row (0-based, file order) of each sample. */
  index?: Int32Array;
}

function writeArray(file: string, values: Float32Array | Int32Array): void {
  if (os.endianness() !== "LE") {
    const view = new DataView(new ArrayBuffer(values.length * 4));
    values.forEach((v, i) => {
      if (values instanceof Int32Array) view.setInt32(i * 4, v, true);
      else view.setFloat32(i * 4, v, true);
    });
    fs.writeFileSync(file, new Uint8Array(view.buffer));
    return;
  }
  fs.writeFileSync(file, new Uint8Array(values.buffer, values.byteOffset, values.byteLength));
}

function writePrepared(
  dir: string,
  p: Preprocessing,
  xDtype: "float32" | "int32",
  y: { dtype: "float32" | "int32"; shape: number[] },
  splits: Record<SplitName, PreparedSplit>,
): void {
  fs.mkdirSync(dir, { recursive: true });
  const entries: Record<string, { rows: number; x: string; y: string; index?: string }> = {};
  for (const name of ["train", "validation", "test"] as const) {
    const s = splits[name];
    if (name === "test" && s.rows === 0) continue;
    const files = { x: `x_${FILE_SUFFIX[name]}.bin`, y: `y_${FILE_SUFFIX[name]}.bin` };
    writeArray(path.join(dir, files.x), s.x);
    writeArray(path.join(dir, files.y), s.y);
    entries[name] = { rows: s.rows, ...files };
    if (s.index) {
      const index = `i_${FILE_SUFFIX[name]}.bin`;
      writeArray(path.join(dir, index), s.index);
      entries[name].index = index;
    }
  }
  const info = {
    format: PREPARED_DATASET_FORMAT,
    version: 1,
    task: p.task,
    x: { dtype: xDtype, shape: p.input_shape },
    y,
    labels: p.labels,
    features: p.input_features,
    splits: entries,
  };
  fs.writeFileSync(path.join(dir, "dataset.json"), `${JSON.stringify(info, null, 2)}\n`);
  fs.writeFileSync(path.join(dir, "preprocessing.json"), `${JSON.stringify(p, null, 2)}\n`);
}

// ---------------------------------------------------------------------------------------------
// Tables

function mean(values: Float64Array, rows: number[]): { mean: number; std: number } {
  let sum = 0;
  let n = 0;
  for (const r of rows) {
    const x = values[r];
    if (Number.isFinite(x)) {
      sum += x;
      n += 1;
    }
  }
  const m = n > 0 ? sum / n : 0;
  let sq = 0;
  for (const r of rows) {
    const x = values[r];
    if (Number.isFinite(x)) sq += (x - m) ** 2;
  }
  const std = n > 0 ? Math.sqrt(sq / n) : 0;
  return { mean: m, std: std > 1e-12 && Number.isFinite(std) ? std : 1 };
}

/**
 * `inherit` (fine-tuning a table model): when the features are exactly the base model's numeric
 * columns, they are imputed and standardised (or scaled) with the base model's statistics, marked
 * `source: "base_model"`; otherwise with the training rows' own, as for any job.
 */
async function materializeTable(
  v: ResolvedVersion,
  columns: TableColumns,
  io: ModelIO,
  config: TrainingConfig,
  dir: string,
  inherit: InheritedEncoding | null = null,
): Promise<Preprocessing> {
  if (io.inputDtype === "int64")
    throw new ValidationError(taskMismatch(io, "this dataset is a table of features"));
  const classification = io.loss !== "mse";
  const read = await readTable(v, [
    ...columns.features.map((f) => ({
      name: f.name,
      as: f.kind === "number" ? ("number" as const) : ("string" as const),
    })),
    { name: columns.target.name, as: classification ? "string" : "number" },
  ]);
  const featureValues = read.values.slice(0, -1);
  const targetValues = read.values[read.values.length - 1];

  // Rows with a target.
  const kept: number[] = [];
  for (let r = 0; r < read.rows; r++) {
    const t = targetValues[r];
    if (typeof t === "number" ? Number.isFinite(t) : t !== null && t !== undefined) kept.push(r);
  }
  const split = splitRows(kept, v.splits, config);
  if (split.train.length === 0) throw new ValidationError("The training split has no rows with a target.");

  // Statistics of the training rows.
  const steps: PreprocessingStep[] = [
    {
      kind: "select_columns",
      features: columns.features.map((f) => f.name),
      target: columns.target.name,
    },
    { kind: "drop_missing", rows_dropped: read.rows - kept.length },
    {
      kind: "split",
      method: split.method,
      seed: split.method === "random" ? config.seed : null,
      train: split.train.length,
      validation: split.validation.length,
      test: split.test.length,
    },
  ];
  const numeric: { name: string; values: Float64Array; mean: number; std: number }[] = [];
  const categorical: { name: string; values: (string | null)[]; categories: string[] }[] = [];
  columns.features.forEach((f, k) => {
    const values = featureValues[k];
    if (values instanceof Float64Array) {
      numeric.push({ name: f.name, values, ...mean(values, split.train) });
    } else {
      const seen = new Set<string>();
      for (const r of split.train) {
        const x = values[r];
        if (x !== null) seen.add(x);
      }
      if (seen.size > MAX_CATEGORIES)
        throw new ValidationError(
          `Column “${f.name}” has ${seen.size} distinct values in the training rows, too many to one-hot encode (at most ${MAX_CATEGORIES}): give it the role “ignored”.`,
        );
      categorical.push({ name: f.name, values, categories: [...seen].sort() });
    }
  });
  const inherited =
    inherit &&
    categorical.length === 0 &&
    numeric.length === inherit.features.length &&
    numeric.every((c, i) => c.name === inherit.features[i])
      ? inherit
      : null;
  if (inherited) {
    numeric.forEach((c, i) => {
      c.mean = inherited.impute[i];
      if (inherited.transform.kind === "standardize") c.std = inherited.transform.std[i];
    });
  }
  if (numeric.length > 0) {
    steps.push({
      kind: "impute",
      columns: numeric.map((c) => c.name),
      values: numeric.map((c) => c.mean),
    });
  }
  for (const c of categorical) steps.push({ kind: "one_hot", column: c.name, categories: c.categories });

  // Encoded feature names, in column order (a category expands in place).
  const inputFeatures: string[] = [];
  for (const f of columns.features) {
    const cat = categorical.find((c) => c.name === f.name);
    if (cat) for (const category of cat.categories) inputFeatures.push(`${f.name}=${category}`);
    else inputFeatures.push(f.name);
  }
  const width = inputFeatures.length;
  if (width !== numel(io.inputShape)) {
    const parts = categorical.map((c) => `${c.name} one-hot ×${c.categories.length}`);
    throw new ValidationError(
      `The model's Input takes ${numel(io.inputShape)} values per sample ${fmtShape(io.inputShape)}; the dataset gives ${width}${parts.length > 0 ? ` (${parts.join(", ")})` : ""}.`,
    );
  }

  // Pixels (built-in image tables) are scaled to [0, 1]; other numbers standardised.
  const image =
    v.image &&
    categorical.length === 0 &&
    numeric.length === v.image.width * v.image.height * v.image.channels
      ? v.image
      : null;
  const inheritedScale = inherited?.transform.kind === "scale" ? inherited.transform.factor : null;
  const inheritedMean = inherited?.transform.kind === "standardize" ? inherited.transform.mean : null;
  const source = inherited ? { source: "base_model" as const } : {};
  const center = new Map(numeric.map((c, i) => [c, inheritedMean?.[i] ?? c.mean] as const));
  if (numeric.length > 0) {
    steps.push(
      inheritedScale !== null
        ? { kind: "scale", columns: numeric.map((c) => c.name), factor: inheritedScale, ...source }
        : image && !inherited
          ? { kind: "scale", columns: numeric.map((c) => c.name), factor: 1 / image.max_value }
          : {
              kind: "standardize",
              columns: numeric.map((c) => c.name),
              mean: inheritedMean ?? numeric.map((c) => c.mean),
              std: numeric.map((c) => c.std),
              ...source,
            },
    );
  }

  // Target.
  let labels: string[] | null = null;
  let targetStats: { mean: number; std: number } | null = null;
  if (classification) {
    const names = kept.map((r) => targetValues[r] as string);
    labels = sortLabels(names);
    const problem = targetProblem(io, columns.target, labels.length);
    if (problem) throw new ValidationError(problem);
    steps.push({ kind: "encode_labels", column: columns.target.name, labels });
  } else {
    const problem = targetProblem(io, columns.target, 0);
    if (problem) throw new ValidationError(problem);
    targetStats = mean(targetValues as Float64Array, split.train);
    steps.push({ kind: "standardize_target", column: columns.target.name, ...targetStats });
  }
  steps.push({ kind: "reshape", shape: io.inputShape });

  // Encode.
  const labelIndex = new Map((labels ?? []).map((l, i) => [l, i] as const));
  const encoders = columns.features.map(
    (f) =>
      numeric.find((c) => c.name === f.name) ??
      (categorical.find((c) => c.name === f.name) as (typeof categorical)[number]),
  );
  const encode = (rows: number[]): PreparedSplit => {
    const x = new Float32Array(rows.length * width);
    const y = io.loss === "cross_entropy" ? new Int32Array(rows.length) : new Float32Array(rows.length);
    rows.forEach((r, i) => {
      let k = i * width;
      for (const e of encoders) {
        if ("mean" in e) {
          const raw = Number.isFinite(e.values[r]) ? e.values[r] : e.mean;
          x[k++] =
            inheritedScale !== null
              ? raw * inheritedScale
              : image && !inherited
                ? raw / image.max_value
                : (raw - (center.get(e) ?? e.mean)) / e.std;
        } else {
          const value = e.values[r];
          for (const category of e.categories) x[k++] = value === category ? 1 : 0;
        }
      }
      const t = targetValues[r];
      if (classification) y[i] = labelIndex.get(t as string) ?? 0;
      else if (targetStats) y[i] = ((t as number) - targetStats.mean) / targetStats.std;
    });
    return { rows: rows.length, x, y, index: Int32Array.from(rows) };
  };

  const p: Preprocessing = {
    task: taskOf(io),
    input_features: inputFeatures,
    raw_features: [
      ...columns.features.map((f) => {
        const cat = categorical.find((c) => c.name === f.name);
        return cat
          ? { name: f.name, type: "category" as const, categories: cat.categories }
          : { name: f.name, type: "number" as const };
      }),
    ],
    target: columns.target.name,
    labels,
    input_shape: io.inputShape,
    input_dtype: "float32",
    steps,
    rows: { train: split.train.length, validation: split.validation.length, test: split.test.length },
  };
  writePrepared(
    dir,
    p,
    "float32",
    io.loss === "cross_entropy" ? { dtype: "int32", shape: [] } : { dtype: "float32", shape: io.outputShape },
    { train: encode(split.train), validation: encode(split.validation), test: encode(split.test) },
  );
  return p;
}

// ---------------------------------------------------------------------------------------------
// Text

/** Placeholder names of output classes beyond the vocabulary (never a target). */
export const UNUSED_CLASS_PREFIX = "<unused ";

/**
 * `baseVocabulary` (fine-tuning a language model): the text is encoded with the base model's
 * vocabulary instead of its own, so the Embedding and the Output keep their shapes; characters
 * outside it are dropped (as serving skips them) and counted in the `char_tokens` step.
 */
async function materializeText(
  v: ResolvedVersion,
  columns: TextColumns,
  io: ModelIO,
  config: TrainingConfig,
  dir: string,
  baseVocabulary: string[] | null = null,
): Promise<Preprocessing> {
  const stat = await fs.promises.stat(v.file);
  if (stat.size > MAX_TEXT_CHARACTERS * 4)
    throw new ValidationError(
      `The text is too large for a character model (at most ${MAX_TEXT_CHARACTERS} characters).`,
    );
  const content = await fs.promises.readFile(v.file, "utf8");
  const lines = content.split("\n").map((l) => (l.endsWith("\r") ? l.slice(0, -1) : l));
  if (lines.length > 0 && lines[lines.length - 1] === "") lines.pop();

  let parts: Record<SplitName, string>;
  let method: "explicit" | "sequential";
  if (v.splits) {
    const join = (rows: number[]) =>
      rows
        .filter((r) => r >= 0 && r < lines.length)
        .map((r) => lines[r])
        .join("\n");
    parts = {
      train: join(v.splits.train),
      validation: join(v.splits.validation ?? []),
      test: join(v.splits.test ?? []),
    };
    method = "explicit";
  } else {
    const chars = Array.from(lines.join("\n"));
    const cut = Math.round(chars.length * (1 - config.validation_split));
    parts = { train: chars.slice(0, cut).join(""), validation: chars.slice(cut).join(""), test: "" };
    method = "sequential";
  }
  const all = Array.from(`${parts.train}${parts.validation}${parts.test}`);
  if (all.length > MAX_TEXT_CHARACTERS)
    throw new ValidationError(
      `The text is too large for a character model (at most ${MAX_TEXT_CHARACTERS} characters).`,
    );
  const vocabulary = baseVocabulary ?? [...new Set(all)].sort();
  const index = new Map(vocabulary.map((ch, i) => [ch, i] as const));
  const dropped = baseVocabulary ? all.filter((ch) => !index.has(ch)).length : 0;
  const trainLength = Array.from(parts.train).filter((ch) => index.has(ch)).length;
  const problem = textModelProblem(io, vocabulary.length, trainLength);
  if (problem) throw new ValidationError(problem);
  const T = io.inputShape[0];

  const windows = (text: string): PreparedSplit => {
    const ids = Array.from(text).flatMap((ch) => {
      const id = index.get(ch);
      return id === undefined ? [] : [id];
    });
    const count = Math.max(0, ids.length - T);
    const stride = Math.max(1, Math.ceil(count / MAX_TEXT_WINDOWS));
    const n = Math.ceil(count / stride);
    const x = new Int32Array(n * T);
    const y = new Int32Array(n);
    for (let w = 0; w < n; w++) {
      const start = w * stride;
      for (let t = 0; t < T; t++) x[w * T + t] = ids[start + t];
      y[w] = ids[start + T];
    }
    return { rows: n, x, y };
  };
  const prepared = {
    train: windows(parts.train),
    validation: windows(parts.validation),
    test: windows(parts.test),
  };
  const labels = [
    ...vocabulary,
    ...Array.from(
      { length: io.outputShape[0] - vocabulary.length },
      (_, i) => `${UNUSED_CLASS_PREFIX}${i + 1}>`,
    ),
  ];
  const p: Preprocessing = {
    task: "language_modeling",
    input_features: Array.from({ length: T }, (_, i) => `token_${i}`),
    raw_features: [{ name: columns.column, type: "text" }],
    target: null,
    labels,
    input_shape: io.inputShape,
    input_dtype: "int64",
    steps: [
      { kind: "select_columns", features: [columns.column], target: null },
      {
        kind: "split",
        method,
        seed: null,
        train: prepared.train.rows,
        validation: prepared.validation.rows,
        test: prepared.test.rows,
      },
      baseVocabulary
        ? { kind: "char_tokens", vocabulary, sequence_length: T, source: "base_model", dropped }
        : { kind: "char_tokens", vocabulary, sequence_length: T },
    ],
    rows: { train: prepared.train.rows, validation: prepared.validation.rows, test: prepared.test.rows },
  };
  writePrepared(dir, p, "int32", { dtype: "int32", shape: [] }, prepared);
  return p;
}

// ---------------------------------------------------------------------------------------------

/**
 * Writes the prepared dataset of a job into `dir` (dataset.json, x_/y_<split>.bin and
 * preprocessing.json) and returns what was done. Throws ValidationError when the dataset does not
 * fit the model (with the reason), NotFoundError when the dataset or version is not readable.
 */
export async function materializeDataset(
  db: Db,
  input: {
    ownerId: string;
    datasetId: string;
    datasetVersionId: string;
    graph: ArchitectureGraph;
    config: TrainingConfig;
    dir: string;
    /** Fine-tuning a language model: encode the text with this (the base model's) vocabulary. */
    vocabulary?: string[] | null;
    /** Fine-tuning a table model: the base model's feature encoding (see materializeTable). */
    encoding?: InheritedEncoding | null;
  },
): Promise<Preprocessing> {
  const model = modelIO(input.graph, analyzeGraph(input.graph));
  if (!model.ok) throw new ValidationError(model.reason);
  const v = await resolveVersion(db, input.ownerId, input.datasetId, input.datasetVersionId);
  const planned = planColumns(v.schema, v.roles);
  if (!planned.ok) throw new ValidationError(planned.reason);
  return planned.columns.kind === "text"
    ? materializeText(v, planned.columns, model.io, input.config, input.dir, input.vocabulary ?? null)
    : materializeTable(v, planned.columns, model.io, input.config, input.dir, input.encoding ?? null);
}

// ---------------------------------------------------------------------------------------------
// Evaluation

/** Raw rows of one split of a dataset version, as a user would send them to a deployment. */
export interface EvaluationRows {
  /** Objects keyed by raw feature name: numbers (null when missing), categories as strings. */
  instances: Record<string, number | string | null>[];
  /** The target of each row: a class name (classification) or a number (regression). */
  targets: (string | number)[];
}

/**
 * The raw rows of a split, for evaluations (services/evaluations): the job's columns (its
 * preprocessing), rows with a target, and the version's explicit split or the seeded random split
 * this job's configuration gives, exactly as materializeTable made it. Tables only.
 */
export async function readEvaluationRows(
  db: Db,
  input: {
    ownerId: string;
    datasetId: string;
    datasetVersionId: string;
    preprocessing: Preprocessing;
    config: TrainingConfig;
    split: SplitName | "all";
  },
): Promise<EvaluationRows> {
  const p = input.preprocessing;
  if (p.task === "language_modeling" || !p.target)
    throw new ValidationError("Only table datasets (classification and regression) can be evaluated.");
  const v = await resolveVersion(db, input.ownerId, input.datasetId, input.datasetVersionId);
  const classification = p.labels !== null;
  const read = await readTable(v, [
    ...p.raw_features.map((f) => ({
      name: f.name,
      as: f.type === "number" ? ("number" as const) : ("string" as const),
    })),
    { name: p.target, as: classification ? "string" : "number" },
  ]);
  const targetValues = read.values[read.values.length - 1];
  const kept: number[] = [];
  for (let r = 0; r < read.rows; r++) {
    const t = targetValues[r];
    if (typeof t === "number" ? Number.isFinite(t) : t !== null && t !== undefined) kept.push(r);
  }
  const split = splitRows(kept, v.splits, input.config);
  const rows = input.split === "all" ? kept : split[input.split];
  return {
    instances: rows.map((r) => {
      const instance: Record<string, number | string | null> = {};
      p.raw_features.forEach((f, k) => {
        const x = read.values[k][r];
        instance[f.name] = typeof x === "number" ? (Number.isFinite(x) ? x : null) : (x ?? null);
      });
      return instance;
    }),
    targets: rows.map((r) => targetValues[r] as string | number),
  };
}
