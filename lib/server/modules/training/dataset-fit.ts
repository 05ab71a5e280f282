/**
 * Does this dataset fit this model, and if not, why: from the schema, roles and profile only (no
 * data read). Also the column plan (which columns are features and target, and how) that
 * materialisation follows, so the answer and the prepared data always agree.
 */

import { fmtShape, type ModelIO, modelIO, numel, taskMismatch } from "../../../ml/fit-model-io";
import type { ArchitectureGraph, ImageResizeMode } from "../../../ml/graph-types";
import type { AnalyzableGraph, GraphAnalysis } from "../../../ml/infer-graph";
import type { ColumnRole, DatasetProfile, DatasetSchemaInfo, SchemaColumn } from "../../db/schema/datasets";
import type { Preprocessing } from "../../db/schema/training";
import type { BuiltinImageLayout } from "../datasets/builtin";
import { MAX_CLASSES_FOR_INTEGER_TARGET } from "../datasets/roles";
import { describeImageFit } from "./image-fit";

/** A categorical feature with more categories than this is refused (mark it ignored instead). */
export const MAX_CATEGORIES = 100;

// What a model takes and gives: lib/ml/fit-model-io.ts (shared with the editor's "Fit to dataset").
export { fmtShape, type ModelIO, modelIO, numel, taskMismatch } from "../../../ml/fit-model-io";

// ---------------------------------------------------------------------------------------------
// Which columns are used, and how (shared by describeDatasetFit and materializeDataset).

type FeatureKind = "number" | "category";

export interface TableColumns {
  kind: "table";
  features: { name: string; kind: FeatureKind }[];
  target: SchemaColumn;
}

export interface TextColumns {
  kind: "text";
  column: string;
}

/** An image ZIP: the picture is the input, its class folder the target (materialize-images.ts). */
export interface ImageColumns {
  kind: "images";
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

export function effectiveRoles(
  schema: DatasetSchemaInfo,
  roles: Record<string, ColumnRole>,
  builtinTarget: string | null,
): Record<string, ColumnRole> {
  if (builtinTarget === null) return roles;
  return Object.fromEntries(
    schema.columns.map((c) => [c.name, c.name === builtinTarget ? "target" : "feature"] as const),
  );
}

export function planColumns(
  schema: DatasetSchemaInfo,
  roles: Record<string, ColumnRole>,
): { ok: true; columns: TableColumns | TextColumns | ImageColumns } | { ok: false; reason: string } {
  if (schema.format === "text") {
    return { ok: true, columns: { kind: "text", column: schema.columns[0]?.name ?? "text" } };
  }
  if (schema.format === "image_zip") return { ok: true, columns: { kind: "images" } };
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
      /** What will be done to the data to fit (image datasets: conversion, resizing, skipped files). */
      notes?: string[];
    }
  | { fits: false; reason: string };

/** Encoded values per sample and what each feature contributes, from a profile. */
export function profiledWidth(
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
  resize?: ImageResizeMode,
): DatasetFit {
  const model = modelIO(graph, analysis);
  if (!model.ok) return { fits: false, reason: model.reason };
  const io = model.io;
  const planned = planColumns(ds.schema, effectiveRoles(ds.schema, ds.roles, ds.target));
  if (!planned.ok) return { fits: false, reason: planned.reason };
  const columns = planned.columns;

  if (columns.kind === "images") {
    const verdict = describeImageFit(io, ds.profile.images, resize);
    return verdict.fits ? { ...verdict, task: "classification" } : verdict;
  }

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

export function taskOf(io: ModelIO): Preprocessing["task"] {
  if (io.loss === "mse") return "regression";
  return io.loss === "binary_cross_entropy" ? "binary_classification" : "classification";
}

/** Why the target does not suit the model's Output, or null. */
export function targetProblem(io: ModelIO, target: SchemaColumn, classes: number): string | null {
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
export function textModelProblem(io: ModelIO, vocabulary: number, characters: number): string | null {
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
