/** Log-scale axes for metric charts: a domain of whole decades and values a log axis can draw. */

/**
 * The decades enclosing every positive finite value (e.g. 0.03…2.4 → [0.01, 10]); null when there
 * is no positive value (a log axis cannot draw the series then).
 */
export function logDomain(values: Iterable<number | undefined>): [number, number] | null {
  let lo = Number.POSITIVE_INFINITY;
  let hi = Number.NEGATIVE_INFINITY;
  for (const v of values) {
    if (v === undefined || !Number.isFinite(v) || v <= 0) continue;
    if (v < lo) lo = v;
    if (v > hi) hi = v;
  }
  if (!Number.isFinite(lo)) return null;
  const low = 10 ** Math.floor(Math.log10(lo) + 1e-9);
  let high = 10 ** Math.ceil(Math.log10(hi) - 1e-9);
  if (high <= low) high = low * 10;
  return [clean(low), clean(high)];
}

/** 10 ** -3 is 0.0010000000000000002: round to the decade's own digits. */
function clean(v: number): number {
  return Number(v.toPrecision(12));
}

/** Ticks of a log axis: each decade of the domain (1e-3, 1e-2, …), at most `max` of them. */
export function logTicks(domain: [number, number], max = 8): number[] {
  const from = Math.round(Math.log10(domain[0]));
  const to = Math.round(Math.log10(domain[1]));
  const stride = Math.max(1, Math.ceil((to - from + 1) / max));
  const ticks: number[] = [];
  for (let e = from; e <= to; e += stride) ticks.push(clean(10 ** e));
  return ticks;
}

/** Rows with the values a log axis cannot draw (zero, negative) removed from the given keys. */
export function positiveOnly<R extends Record<string, number | undefined>>(
  rows: readonly R[],
  keys: readonly string[],
): R[] {
  return rows.map((row) => {
    let copy: R | null = null;
    for (const k of keys) {
      const v = row[k];
      if (v !== undefined && !(v > 0)) {
        copy ??= { ...row };
        delete copy[k];
      }
    }
    return copy ?? row;
  });
}
