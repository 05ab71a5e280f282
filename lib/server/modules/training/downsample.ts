/**
 * M4 downsampling of a metric series (Jugel et al., "M4: a visualization-oriented time series data
 * aggregation"): the step range is cut into ⌊maxPoints / 4⌋ equal buckets and each bucket keeps its
 * first, last, minimum and maximum point, so a chart drawn from the result shows the same extremes as
 * one drawn from every point. Pure; `metrics.ts` runs the same bucketing in SQL, and the tests check that
 * both agree.
 */

export interface StepPoint {
  step: number;
  value: number;
}

/** Buckets used for `maxPoints` (each keeps at most 4 points). */
export function m4BucketCount(maxPoints: number): number {
  if (!Number.isInteger(maxPoints) || maxPoints < 4) throw new RangeError("maxPoints must be an integer ≥ 4");
  return Math.floor(maxPoints / 4);
}

/**
 * The bucket of `step` in a series spanning `lo`..`hi` (inclusive) cut into `buckets`. Double-precision
 * arithmetic, exactly as the SQL version computes it.
 */
export function m4Bucket(step: number, lo: number, hi: number, buckets: number): number {
  return Math.min(buckets - 1, Math.floor(((step - lo) * buckets) / (hi - lo + 1)));
}

/**
 * At most `maxPoints` points of `points` (one series), sorted by step (ties in input order), each input
 * point at most once. Ties between equal values keep the earliest point. A series that already fits is
 * returned whole (sorted).
 */
export function downsampleM4<T extends StepPoint>(points: readonly T[], maxPoints: number): T[] {
  const buckets = m4BucketCount(maxPoints);
  const sorted = points
    .map((point, index) => ({ point, index }))
    .sort((a, b) => a.point.step - b.point.step || a.index - b.index)
    .map((p) => p.point);
  if (sorted.length <= maxPoints) return sorted;
  const lo = sorted[0].step;
  const hi = sorted[sorted.length - 1].step;
  const keep = new Set<number>();
  let bucket = -1;
  let first = 0;
  let last = 0;
  let min = 0;
  let max = 0;
  const flush = () => {
    if (bucket < 0) return;
    keep.add(first).add(last).add(min).add(max);
  };
  for (let i = 0; i < sorted.length; i++) {
    const b = m4Bucket(sorted[i].step, lo, hi, buckets);
    if (b !== bucket) {
      flush();
      bucket = b;
      first = last = min = max = i;
      continue;
    }
    last = i;
    if (sorted[i].value < sorted[min].value) min = i;
    if (sorted[i].value > sorted[max].value) max = i;
  }
  flush();
  return [...keep].sort((a, b) => a - b).map((i) => sorted[i]);
}
