/** Predictions and targets of a classification or regression evaluation → its metrics and result. */
import type { EvaluationResult } from "../../db/schema/evaluations";
import type { ModelManifest, Prediction } from "../training/artifact-reader";
import {
  accuracyOf,
  confusionMatrix,
  macroAverages,
  meanAuc,
  perClassMetrics,
  regressionMetrics,
  rocCurves,
  samplePairs,
} from "./metrics";

/** Predictions and targets → the stored metrics and result. */
export function summarize(
  manifest: ModelManifest,
  targets: readonly (string | number)[],
  predictions: readonly Prediction[],
): { metrics: Record<string, number>; result: EvaluationResult } {
  const rows = targets.length;
  if (manifest.output.kind === "value") {
    const predicted = predictions.map((p) => ("value" in p ? p.value : Number.NaN));
    const m = regressionMetrics(targets as number[], predicted);
    return {
      metrics: { ...m, rows },
      result: {
        kind: "regression",
        rows,
        target: manifest.output.target,
        points: samplePairs(targets as number[], predicted),
      },
    };
  }
  const labels = Object.keys((predictions[0] as { probabilities: Record<string, number> }).probabilities);
  const index = new Map(labels.map((l, k) => [l, k] as const));
  const truth = targets.map((t) => index.get(String(t)) ?? -1);
  const classified = predictions as { label: string; probabilities: Record<string, number> }[];
  const predicted = classified.map((p) => index.get(p.label) ?? -1);
  const matrix = confusionMatrix(truth, predicted, labels.length);
  const perClass = perClassMetrics(matrix, labels);
  const macro = macroAverages(perClass);
  const roc = rocCurves(
    classified.map((p) => labels.map((l) => p.probabilities[l] ?? 0)),
    truth,
    labels,
  );
  const auc = meanAuc(roc);
  // Rows whose true class the model cannot output (another dataset) are not in the matrix, but they
  // are errors all the same: accuracy counts them.
  const unknown = truth.filter((t) => t < 0).length;
  const inMatrix = rows - unknown;
  return {
    metrics: {
      accuracy: rows > 0 ? (accuracyOf(matrix) * inMatrix) / rows : 0,
      ...(unknown > 0 ? { rows_with_unknown_class: unknown } : {}),
      macro_precision: macro.precision,
      macro_recall: macro.recall,
      macro_f1: macro.f1,
      ...(auc === null ? {} : { roc_auc: auc }),
      rows,
    },
    result: { kind: "classification", rows, labels, confusion_matrix: matrix, per_class: perClass, roc },
  };
}
