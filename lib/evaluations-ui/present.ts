/**
 * Presentation of evaluations, pure (shared by the card and the page, unit-tested): split names,
 * the headline figures of each kind of result, and the heat-map shading of a confusion matrix.
 */

export type EvaluationSplit = "validation" | "test" | "train" | "all";
export type EvaluationState = "queued" | "running" | "succeeded" | "failed";

/** The splits in the order the studio offers them. */
export const SPLITS: readonly EvaluationSplit[] = ["validation", "test", "train", "all"];

const SPLIT_LABELS: Record<EvaluationSplit, string> = {
  validation: "Validation",
  test: "Test",
  train: "Train",
  all: "All rows",
};

export function splitLabel(split: EvaluationSplit): string {
  return SPLIT_LABELS[split];
}

export function isFinished(state: EvaluationState): boolean {
  return state === "succeeded" || state === "failed";
}

export type ResultKind = "classification" | "regression" | "language_modeling";

export interface Headline {
  key: string;
  label: string;
  value: string;
  hint?: string;
}

/** 0.9333 → "93.3%" (one decimal; "100%" and "0%" exact). */
export function formatShare(v: number | undefined): string {
  if (v === undefined || !Number.isFinite(v)) return "–";
  const p = v * 100;
  if (p === 100 || p === 0) return `${p}%`;
  return `${p.toFixed(1)}%`;
}

/** A metric to four significant digits (grouped thousands above 1,000). */
export function formatMetric(v: number | undefined): string {
  if (v === undefined || !Number.isFinite(v)) return "–";
  const abs = Math.abs(v);
  if (abs >= 1000) return v.toLocaleString("en-US", { maximumFractionDigits: 1 });
  if (abs !== 0 && abs < 1e-3) return v.toExponential(2);
  return String(Number(v.toPrecision(4)));
}

/** A score between 0 and 1 (precision, recall, F1, AUC), or a loss, to three decimals, so that figures align. */
export function formatScore(v: number | undefined): string {
  if (v === undefined || !Number.isFinite(v)) return "–";
  return v.toFixed(3);
}

/**
 * A square plot's shared axis: `lo`..`hi` widened to round numbers, with about `count` ticks at a
 * step of 1, 2 or 5 × a power of ten.
 */
export function niceAxis(lo: number, hi: number, count = 5): { domain: [number, number]; ticks: number[] } {
  if (!Number.isFinite(lo) || !Number.isFinite(hi)) return { domain: [0, 1], ticks: [0, 0.5, 1] };
  if (hi <= lo) {
    const pad = Math.abs(lo) > 0 ? Math.abs(lo) * 0.1 : 1;
    [lo, hi] = [lo - pad, hi + pad];
  }
  const raw = (hi - lo) / Math.max(1, count - 1);
  const power = 10 ** Math.floor(Math.log10(raw));
  const step = ([1, 2, 5, 10].find((m) => m * power >= raw) ?? 10) * power;
  const start = Math.floor(lo / step) * step;
  const end = Math.ceil(hi / step) * step;
  const ticks: number[] = [];
  for (let t = start; t <= end + step / 2; t += step) ticks.push(Number(t.toPrecision(12)));
  return { domain: [ticks[0], ticks[ticks.length - 1]], ticks };
}

/** Counts of residuals (predicted − actual) in about `bins` equal-width bins. */
export function residualHistogram(
  points: readonly { actual: number; predicted: number }[],
  bins = 20,
): { from: number; to: number; count: number }[] {
  if (points.length === 0) return [];
  const residuals = points.map((p) => p.predicted - p.actual);
  const bound = Math.max(...residuals.map(Math.abs)) || 1;
  const axis = niceAxis(-bound, bound, bins + 1);
  const [lo, hi] = axis.domain;
  const width = (hi - lo) / (axis.ticks.length - 1);
  const out = axis.ticks
    .slice(0, -1)
    .map((from) => ({ from, to: Number((from + width).toPrecision(12)), count: 0 }));
  for (const r of residuals) {
    const k = Math.min(out.length - 1, Math.max(0, Math.floor((r - lo) / width)));
    out[k].count += 1;
  }
  return out;
}

/** The figures shown first for a result kind, from the evaluation's `metrics`. */
export function headlines(kind: ResultKind, metrics: Record<string, number>): Headline[] {
  switch (kind) {
    case "classification":
      return [
        { key: "accuracy", label: "Accuracy", value: formatShare(metrics.accuracy) },
        {
          key: "macro_f1",
          label: "Macro F1",
          value: formatMetric(metrics.macro_f1),
          hint: "Mean over classes",
        },
        {
          key: "roc_auc",
          label: "ROC AUC",
          value: formatScore(metrics.roc_auc),
          hint: "Mean one-vs-rest",
        },
        { key: "macro_precision", label: "Macro precision", value: formatScore(metrics.macro_precision) },
        { key: "macro_recall", label: "Macro recall", value: formatScore(metrics.macro_recall) },
      ];
    case "regression":
      return [
        {
          key: "r2",
          label: "R²",
          value: formatMetric(metrics.r2),
          hint: "1 is perfect; 0 predicts the mean",
        },
        { key: "mse", label: "MSE", value: formatMetric(metrics.mse), hint: "Mean squared error" },
        { key: "rmse", label: "RMSE", value: formatMetric(metrics.rmse), hint: "In the target's units" },
        { key: "mae", label: "MAE", value: formatMetric(metrics.mae), hint: "Mean absolute error" },
      ];
    case "language_modeling":
      return [
        {
          key: "loss",
          label: "Loss",
          value: formatScore(metrics.loss),
          hint: "Cross-entropy per character",
        },
        {
          key: "perplexity",
          label: "Perplexity",
          value: formatMetric(metrics.perplexity),
          hint: "exp(loss)",
        },
        {
          key: "bits_per_character",
          label: "Bits per character",
          value: formatScore(metrics.bits_per_character),
          hint: "loss ÷ ln 2",
        },
        { key: "accuracy", label: "Next-character accuracy", value: formatShare(metrics.accuracy) },
      ];
  }
}

/** The one figure a list shows for an evaluation (accuracy, R² or perplexity). */
export function mainFigure(metrics: Record<string, number>): { label: string; value: string } | null {
  if (metrics.perplexity !== undefined)
    return { label: "Perplexity", value: formatMetric(metrics.perplexity) };
  if (metrics.accuracy !== undefined) return { label: "Accuracy", value: formatShare(metrics.accuracy) };
  if (metrics.r2 !== undefined) return { label: "R²", value: formatMetric(metrics.r2) };
  return null;
}

/** The largest share of the accent colour a cell gets: keeps its number readable in both themes. */
export const MAX_HEAT = 0.6;

export interface HeatCell {
  count: number;
  /** count ÷ the row's total (the share of that true class), 0 for an empty row. */
  share: number;
  /** 0..MAX_HEAT: how much accent colour the cell gets. */
  heat: number;
}

/** Row-normalised shading: each row shows where that true class's rows went. */
export function heatMap(matrix: readonly (readonly number[])[]): HeatCell[][] {
  return matrix.map((row) => {
    const total = row.reduce((a, b) => a + b, 0);
    return row.map((count) => {
      const share = total > 0 ? count / total : 0;
      return { count, share, heat: share * MAX_HEAT };
    });
  });
}
