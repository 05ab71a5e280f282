/**
 * How a candidate is scored against the logged calls it never saw (the held-out calls):
 *
 * - Quality is agreement with the logged outputs. Classification: accuracy (exact match of the
 *   trimmed label). Generation: the mean character-level normalised Levenshtein similarity,
 *   `1 − distance(a, b) / max(|a|, |b|)` (1 = identical, 0 = nothing in common; two empty strings
 *   are identical).
 * - Latency: the measured milliseconds per call (p50 and p95, nearest-rank).
 * - Cost model: a candidate runs on the service's CPU, so its cost per 1,000 calls is the measured
 *   mean CPU time per call × 1,000 × the price of a CPU-second (AUDIT_CPU_SECOND_USD, default
 *   $0.000048/s, about the on-demand price of one vCPU-second of a general-purpose cloud VM),
 *   plus a fixed per-call overhead (AUDIT_PER_CALL_USD, default $0.0000002) for the request itself.
 */

export interface CostModel {
  cpu_second_usd: number;
  per_call_usd: number;
}

export const DEFAULT_COST_MODEL: CostModel = { cpu_second_usd: 0.000048, per_call_usd: 0.0000002 };

export function costModelFromEnv(env: Record<string, string | undefined>): CostModel {
  const read = (name: string, fallback: number) => {
    const v = Number(env[name]);
    return env[name] !== undefined && Number.isFinite(v) && v >= 0 ? v : fallback;
  };
  return {
    cpu_second_usd: read("AUDIT_CPU_SECOND_USD", DEFAULT_COST_MODEL.cpu_second_usd),
    per_call_usd: read("AUDIT_PER_CALL_USD", DEFAULT_COST_MODEL.per_call_usd),
  };
}

/** Estimated USD per 1,000 calls for a mean CPU time per call. */
export function estimatedCostPer1k(meanCpuMs: number, model: CostModel = DEFAULT_COST_MODEL): number {
  return 1000 * ((meanCpuMs / 1000) * model.cpu_second_usd + model.per_call_usd);
}

export function levenshtein(a: string, b: string): number {
  if (a === b) return 0;
  const s = [...a];
  const t = [...b];
  if (s.length === 0) return t.length;
  if (t.length === 0) return s.length;
  let prev = Array.from({ length: t.length + 1 }, (_, j) => j);
  let cur = new Array<number>(t.length + 1).fill(0);
  for (let i = 1; i <= s.length; i++) {
    cur[0] = i;
    for (let j = 1; j <= t.length; j++) {
      const cost = s[i - 1] === t[j - 1] ? 0 : 1;
      cur[j] = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost);
    }
    [prev, cur] = [cur, prev];
  }
  return prev[t.length];
}

/** 1 − Levenshtein distance / the longer length (characters). */
export function textSimilarity(a: string, b: string): number {
  const n = Math.max([...a].length, [...b].length);
  return n === 0 ? 1 : 1 - levenshtein(a, b) / n;
}

export function accuracy(predicted: readonly string[], expected: readonly string[]): number {
  if (expected.length === 0) return 0;
  let ok = 0;
  for (let i = 0; i < expected.length; i++) if (predicted[i]?.trim() === expected[i].trim()) ok++;
  return ok / expected.length;
}

export function meanSimilarity(predicted: readonly string[], expected: readonly string[]): number {
  if (expected.length === 0) return 0;
  let sum = 0;
  for (let i = 0; i < expected.length; i++) sum += textSimilarity(predicted[i] ?? "", expected[i]);
  return sum / expected.length;
}

/** Agreement for a task: accuracy (classification) or mean normalised Levenshtein similarity. */
export function agreement(
  task: "classification" | "generation",
  predicted: readonly string[],
  expected: readonly string[],
): { metric: "accuracy" | "levenshtein_similarity"; value: number } {
  return task === "classification"
    ? { metric: "accuracy", value: accuracy(predicted, expected) }
    : { metric: "levenshtein_similarity", value: meanSimilarity(predicted, expected) };
}

/** Nearest-rank percentile (p in 0–100) of the finite values, or null when there are none. */
export function percentile(values: readonly number[], p: number): number | null {
  const xs = values.filter((v) => Number.isFinite(v)).sort((a, b) => a - b);
  if (xs.length === 0) return null;
  const rank = Math.min(xs.length, Math.max(1, Math.ceil((p / 100) * xs.length)));
  return xs[rank - 1];
}

export function mean(values: readonly number[]): number | null {
  const xs = values.filter((v) => Number.isFinite(v));
  return xs.length === 0 ? null : xs.reduce((s, v) => s + v, 0) / xs.length;
}

/** At most `n` values, evenly spaced over the sorted values (for latency distributions). */
export function sampleSorted(values: readonly number[], n = 200): number[] {
  const xs = values.filter((v) => Number.isFinite(v)).sort((a, b) => a - b);
  if (xs.length <= n) return xs;
  return Array.from({ length: n }, (_, i) => xs[Math.round((i * (xs.length - 1)) / (n - 1))]);
}

/** What a workload costs and how fast it answers today, from its logged calls. */
export interface CurrentStats {
  calls: number;
  cost_per_1k: number | null;
  latency_p50_ms: number | null;
  latency_p95_ms: number | null;
}

export function currentStats(
  calls: readonly { cost: number | null; latency_ms: number | null }[],
): CurrentStats {
  const costs = calls.map((c) => c.cost).filter((c): c is number => c !== null);
  const latencies = calls.map((c) => c.latency_ms).filter((c): c is number => c !== null);
  const m = mean(costs);
  return {
    calls: calls.length,
    cost_per_1k: m === null ? null : m * 1000,
    latency_p50_ms: percentile(latencies, 50),
    latency_p95_ms: percentile(latencies, 95),
  };
}
