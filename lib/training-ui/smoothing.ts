/**
 * Exponential moving average as TensorBoard draws it: `last = last·w + (1−w)·y`, debiased by
 * `1 − w^n` so that the first points are not pulled towards zero. Non-finite values are passed
 * through unchanged and do not disturb the average.
 */
export function emaSmooth(values: readonly number[], weight: number): number[] {
  const w = Math.min(Math.max(weight, 0), 0.999);
  if (w === 0) return [...values];
  const out: number[] = [];
  let last = 0;
  let count = 0;
  for (const y of values) {
    if (!Number.isFinite(y)) {
      out.push(y);
      continue;
    }
    last = last * w + (1 - w) * y;
    count += 1;
    out.push(last / (1 - w ** count));
  }
  return out;
}
