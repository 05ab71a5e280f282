/**
 * Evaluation metrics, pure: classification (accuracy, confusion matrix, per-class precision, recall
 * and F1 with macro averages, one-vs-rest ROC curves and their AUC), regression (MSE, MAE, R²) and
 * language models (perplexity from the mean loss). No I/O; unit-tested in metrics.test.ts.
 */
import type { ClassMetrics, RocCurve, RocPoint } from "../../db/schema/evaluations";

/** The most points a stored ROC curve keeps. */
export const MAX_ROC_POINTS = 200;

const ratio = (a: number, b: number) => (b > 0 ? a / b : 0);

/** matrix[i][j]: rows of true class i predicted as class j (indices into the label list). */
export function confusionMatrix(
  truth: readonly number[],
  predicted: readonly number[],
  classes: number,
): number[][] {
  const m = Array.from({ length: classes }, () => new Array<number>(classes).fill(0));
  truth.forEach((t, i) => {
    const p = predicted[i];
    if (t >= 0 && t < classes && p >= 0 && p < classes) m[t][p] += 1;
  });
  return m;
}

/** Share of rows on the diagonal (0 for an empty matrix). */
export function accuracyOf(matrix: readonly number[][]): number {
  let right = 0;
  let total = 0;
  matrix.forEach((row, i) => {
    row.forEach((n, j) => {
      total += n;
      if (i === j) right += n;
    });
  });
  return ratio(right, total);
}

/** Precision, recall and F1 of each class (0 where undefined: no predictions or no rows). */
export function perClassMetrics(matrix: readonly number[][], labels: readonly string[]): ClassMetrics[] {
  return labels.map((label, k) => {
    const tp = matrix[k]?.[k] ?? 0;
    const support = (matrix[k] ?? []).reduce((a, b) => a + b, 0);
    const predicted = matrix.reduce((a, row) => a + (row[k] ?? 0), 0);
    const precision = ratio(tp, predicted);
    const recall = ratio(tp, support);
    const f1 = ratio(2 * precision * recall, precision + recall);
    return { label, precision, recall, f1, support };
  });
}

/** Unweighted means of precision, recall and F1 over the classes that have rows. */
export function macroAverages(perClass: readonly ClassMetrics[]): {
  precision: number;
  recall: number;
  f1: number;
} {
  const present = perClass.filter((c) => c.support > 0);
  const mean = (f: (c: ClassMetrics) => number) =>
    ratio(
      present.reduce((a, c) => a + f(c), 0),
      present.length,
    );
  return { precision: mean((c) => c.precision), recall: mean((c) => c.recall), f1: mean((c) => c.f1) };
}

/**
 * The ROC curve of scores for a positive class: one point per distinct threshold (ties move together),
 * from (0, 0) to (1, 1). Null when the rows hold only one of positive and negative.
 */
export function rocCurve(scores: readonly number[], positive: readonly boolean[]): RocPoint[] | null {
  const P = positive.filter(Boolean).length;
  const N = positive.length - P;
  if (P === 0 || N === 0) return null;
  const order = scores.map((_, i) => i).sort((a, b) => scores[b] - scores[a]);
  const points: RocPoint[] = [{ fpr: 0, tpr: 0 }];
  let tp = 0;
  let fp = 0;
  for (let k = 0; k < order.length; k++) {
    const i = order[k];
    if (positive[i]) tp += 1;
    else fp += 1;
    const next = order[k + 1];
    if (next === undefined || scores[next] !== scores[i]) points.push({ fpr: fp / N, tpr: tp / P });
  }
  return points;
}

/** Area under a curve by the trapezoid rule (points in increasing fpr). */
export function trapezoidAuc(points: readonly RocPoint[]): number {
  let area = 0;
  for (let k = 1; k < points.length; k++) {
    area += ((points[k].fpr - points[k - 1].fpr) * (points[k].tpr + points[k - 1].tpr)) / 2;
  }
  return area;
}

/** At most `max` points, always keeping the first and last (evenly spaced by index). */
export function downsampleCurve(points: readonly RocPoint[], max = MAX_ROC_POINTS): RocPoint[] {
  if (points.length <= max) return [...points];
  const out: RocPoint[] = [];
  for (let k = 0; k < max; k++) out.push(points[Math.round((k * (points.length - 1)) / (max - 1))]);
  return out;
}

/**
 * One-vs-rest ROC curves: for a binary task only the positive class (labels[1]), otherwise one per
 * class with rows of both kinds. `probabilities[i][k]` is row i's probability of class k. The AUC is
 * computed on the full curve, the stored points are downsampled.
 */
export function rocCurves(
  probabilities: readonly (readonly number[])[],
  truth: readonly number[],
  labels: readonly string[],
): RocCurve[] {
  const classes = labels.length === 2 ? [1] : labels.map((_, k) => k);
  return classes.flatMap((k) => {
    const curve = rocCurve(
      probabilities.map((p) => p[k] ?? 0),
      truth.map((t) => t === k),
    );
    return curve ? [{ label: labels[k], auc: trapezoidAuc(curve), points: downsampleCurve(curve) }] : [];
  });
}

/** Binary: the positive class's AUC; otherwise the unweighted mean of the one-vs-rest AUCs (null when none). */
export function meanAuc(curves: readonly RocCurve[]): number | null {
  return curves.length === 0 ? null : curves.reduce((a, c) => a + c.auc, 0) / curves.length;
}

/** Mean squared error, mean absolute error and R² (1 − SS_res / SS_tot; 0 when the truth is constant). */
export function regressionMetrics(
  truth: readonly number[],
  predicted: readonly number[],
): { mse: number; mae: number; r2: number; rmse: number } {
  const n = truth.length;
  if (n === 0) return { mse: 0, mae: 0, r2: 0, rmse: 0 };
  let se = 0;
  let ae = 0;
  for (let i = 0; i < n; i++) {
    const d = truth[i] - predicted[i];
    se += d * d;
    ae += Math.abs(d);
  }
  const mean = truth.reduce((a, b) => a + b, 0) / n;
  const ssTot = truth.reduce((a, y) => a + (y - mean) ** 2, 0);
  const mse = se / n;
  return { mse, mae: ae / n, r2: ssTot > 0 ? 1 - se / ssTot : 0, rmse: Math.sqrt(mse) };
}

/** exp(mean loss): the perplexity of a language model's per-token cross-entropy losses (natural log). */
export function perplexity(losses: readonly number[]): number {
  if (losses.length === 0) return Number.NaN;
  return Math.exp(losses.reduce((a, b) => a + b, 0) / losses.length);
}

/** Running next-token cross-entropy (natural log, softmax over every logit) and accuracy. */
export interface TokenLossTotals {
  /** Sum of −log p(target) over the tokens seen. */
  lossSum: number;
  /** Tokens whose most likely class was the target. */
  correct: number;
  tokens: number;
}

/**
 * Adds a batch of logits (count × width, row-major) with each row's target class to `totals`: the
 * same loss as training's cross_entropy (log-softmax over all outputs, unused classes included).
 */
export function addTokenLosses(
  totals: TokenLossTotals,
  logits: ArrayLike<number>,
  width: number,
  targets: ArrayLike<number>,
): TokenLossTotals {
  for (let i = 0; i < targets.length; i++) {
    const offset = i * width;
    let max = Number.NEGATIVE_INFINITY;
    let best = 0;
    for (let k = 0; k < width; k++) {
      const v = logits[offset + k];
      if (v > max) {
        max = v;
        best = k;
      }
    }
    let sum = 0;
    for (let k = 0; k < width; k++) sum += Math.exp(logits[offset + k] - max);
    const target = targets[i];
    totals.lossSum += Math.log(sum) + max - logits[offset + target];
    if (best === target) totals.correct += 1;
    totals.tokens += 1;
  }
  return totals;
}

/** Mean loss, perplexity (exp of the mean loss), bits per character and next-token accuracy. */
export function languageModelMetrics(totals: TokenLossTotals): {
  loss: number;
  perplexity: number;
  bits_per_character: number;
  accuracy: number;
} {
  const loss = ratio(totals.lossSum, totals.tokens);
  return {
    loss,
    perplexity: Math.exp(loss),
    bits_per_character: loss / Math.LN2,
    accuracy: ratio(totals.correct, totals.tokens),
  };
}

/** At most `max` (actual, predicted) pairs for a scatter plot, evenly spaced by row. */
export function samplePairs(
  actual: readonly number[],
  predicted: readonly number[],
  max = 500,
): { actual: number; predicted: number }[] {
  const n = Math.min(actual.length, predicted.length);
  const take = Math.min(n, max);
  return Array.from({ length: take }, (_, k) => {
    const i = take === n ? k : Math.floor((k * n) / take);
    return { actual: actual[i], predicted: predicted[i] };
  });
}
