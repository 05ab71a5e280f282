/**
 * Tables: features and target from the column roles, the version's explicit split or a seeded random
 * one, missing numbers imputed, categories one-hot encoded and numbers standardised (image pixels
 * scaled) with statistics of the training rows only, class labels numbered in sorted order.
 */
import type { TrainingConfig } from "../../../ml/graph-types";
import type { InheritedEncoding, Preprocessing, PreprocessingStep } from "../../db/schema/training";
import { ValidationError } from "../../errors";
import {
  fmtShape,
  MAX_CATEGORIES,
  type ModelIO,
  numel,
  sortLabels,
  type TableColumns,
  targetProblem,
  taskMismatch,
  taskOf,
} from "./dataset-fit";
import {
  type PreparedSplit,
  type ResolvedVersion,
  readTable,
  splitRows,
  writePrepared,
} from "./prepared-dataset";

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
export async function materializeTable(
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
