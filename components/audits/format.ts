/** Number formatting for the audit pages (pure). */

export function usd(v: number | null | undefined): string {
  if (v === null || v === undefined) return "–";
  if (v === 0) return "$0";
  if (Math.abs(v) >= 1) return `$${v.toFixed(2)}`;
  if (Math.abs(v) >= 0.01) return `$${v.toFixed(3)}`;
  return `$${v.toPrecision(2)}`;
}

export function pct(v: number | null | undefined, digits = 1): string {
  return v === null || v === undefined ? "–" : `${v.toFixed(digits)}%`;
}

export function quality(v: number | null | undefined): string {
  return v === null || v === undefined ? "–" : `${(v * 100).toFixed(1)}%`;
}

export function ms(v: number | null | undefined): string {
  if (v === null || v === undefined) return "–";
  if (v < 1) return `${v.toFixed(2)} ms`;
  if (v < 10) return `${v.toFixed(1)} ms`;
  return `${Math.round(v)} ms`;
}

export const METRIC_LABEL: Record<string, string> = {
  accuracy: "accuracy",
  levenshtein_similarity: "text similarity",
};
