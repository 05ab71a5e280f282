import { formatCompact } from "./format";

/** Column profile statistics turned into what the charts and bar lists draw. */

export interface HistogramBin {
  lo: number;
  hi: number;
  count: number;
}

export interface HistogramDatum {
  /** "4.3–4.48": the bin's range, for tooltips and axis ticks. */
  label: string;
  lo: number;
  hi: number;
  count: number;
  /** Share of all counted values, 0..1. */
  share: number;
}

/** Bins (equal width, from the profile) as chart data; integer-only columns get integer bounds. */
export function histogramData(bins: readonly HistogramBin[], integer = false): HistogramDatum[] {
  const total = bins.reduce((a, b) => a + b.count, 0);
  const fmt = (v: number) => (integer ? formatCompact(Math.round(v)) : formatCompact(v));
  return bins.map((b) => ({
    label: `${fmt(b.lo)}–${fmt(b.hi)}`,
    lo: b.lo,
    hi: b.hi,
    count: b.count,
    share: total > 0 ? b.count / total : 0,
  }));
}

/** Bins merged pairwise until there are at most `max` (for small charts). */
export function coarsenBins(bins: readonly HistogramBin[], max: number): HistogramBin[] {
  let out = [...bins];
  while (out.length > max) {
    const next: HistogramBin[] = [];
    for (let i = 0; i < out.length; i += 2) {
      const a = out[i];
      const b = out[i + 1];
      next.push(b ? { lo: a.lo, hi: b.hi, count: a.count + b.count } : a);
    }
    out = next;
  }
  return out;
}

export interface BarListItem {
  label: string;
  count: number;
  /** Share of all non-missing values, 0..1. */
  share: number;
  /** Length of the bar relative to the longest, 0..1. */
  width: number;
  /** The remaining values lumped together. */
  other?: boolean;
}

/**
 * The most frequent values as a bar list, plus one "Other values" bar for the rest of `total`
 * (non-missing values) when they are not all listed.
 */
export function topValueBars(
  top: readonly { value: string; count: number }[],
  total: number,
  limit = 6,
): BarListItem[] {
  const shown = top.slice(0, limit);
  const listed = shown.reduce((a, b) => a + b.count, 0);
  const rest = Math.max(0, total - listed);
  const items = shown.map((t) => ({ label: t.value === "" ? "(empty)" : t.value, count: t.count }));
  if (rest > 0) items.push({ label: "Other values", count: rest });
  const longest = Math.max(1, ...items.map((i) => i.count));
  return items.map((item, k) => ({
    ...item,
    share: total > 0 ? item.count / total : 0,
    width: item.count / longest,
    ...(rest > 0 && k === items.length - 1 ? { other: true } : {}),
  }));
}
