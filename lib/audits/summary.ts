/**
 * The audit's bottom line per workload: today's cost and latency against each evaluated
 * candidate's quality, latency and estimated cost, and the savings of the best candidate that
 * keeps quality above a floor (default 0.9 of perfect agreement).
 */
import type { CurrentStats } from "./metrics";

export interface CandidateResult {
  id: string;
  recipe_id: string;
  base_model_id: string;
  quality: number | null;
  latency_p50_ms: number | null;
  cost_per_1k: number | null;
}

export interface Savings {
  /** USD saved per 1,000 calls (null when either cost is unknown). */
  per_1k: number | null;
  /** Share of today's cost saved, 0–100 (null when unknown). */
  percent: number | null;
}

export function savingsOf(current: number | null, candidate: number | null): Savings {
  if (current === null || candidate === null) return { per_1k: null, percent: null };
  const per1k = current - candidate;
  return { per_1k: per1k, percent: current > 0 ? (per1k / current) * 100 : null };
}

/** The candidate to recommend: the cheapest above the quality floor, else the best quality. */
export function bestCandidate<T extends CandidateResult>(
  candidates: readonly T[],
  qualityFloor = 0.9,
): T | null {
  const scored = candidates.filter((c) => c.quality !== null);
  if (scored.length === 0) return null;
  const good = scored.filter((c) => (c.quality ?? 0) >= qualityFloor);
  if (good.length > 0)
    return [...good].sort(
      (a, b) => (a.cost_per_1k ?? Number.POSITIVE_INFINITY) - (b.cost_per_1k ?? Number.POSITIVE_INFINITY),
    )[0];
  return [...scored].sort((a, b) => (b.quality ?? 0) - (a.quality ?? 0))[0];
}

export interface WorkloadSummary {
  workload: string;
  current: CurrentStats;
  best: { candidate_id: string; quality: number | null; cost_per_1k: number | null; savings: Savings } | null;
}

export function summarizeWorkload(
  workload: string,
  current: CurrentStats,
  candidates: readonly CandidateResult[],
  qualityFloor = 0.9,
): WorkloadSummary {
  const best = bestCandidate(candidates, qualityFloor);
  return {
    workload,
    current,
    best: best
      ? {
          candidate_id: best.id,
          quality: best.quality,
          cost_per_1k: best.cost_per_1k,
          savings: savingsOf(current.cost_per_1k, best.cost_per_1k),
        }
      : null,
  };
}

/** One sentence for the audit's summary. */
export function summaryText(summaries: readonly WorkloadSummary[]): string {
  const parts = summaries.map((s) => {
    if (!s.best) return `${s.workload}: no evaluated candidate`;
    const q = s.best.quality === null ? "?" : `${(s.best.quality * 100).toFixed(1)}%`;
    const pct =
      s.best.savings.percent === null ? "unknown savings" : `${s.best.savings.percent.toFixed(1)}% cheaper`;
    return `${s.workload}: best candidate agrees ${q}, ${pct}`;
  });
  return parts.join("; ") || "No workloads.";
}
