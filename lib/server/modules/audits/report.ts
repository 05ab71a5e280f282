/**
 * The audit report (GET /audits/{id}/report and, without private data, GET /audits/shared/{token}):
 * per workload today's cost and latency against each candidate's measured quality, latency and
 * estimated cost, the savings of each, and the recommended candidate (lib/audits/summary.ts).
 * A shared report carries no ids of runs or datasets, and examples of calls only when the owner
 * published the inputs (`publish_inputs`).
 */
import type { z } from "@hono/zod-openapi";
import { bestCandidate, savingsOf } from "../../../audits/summary";
import type { Db } from "../../db/client";
import type { AuditRow } from "../../db/schema";
import { getJobRow } from "../training/job-rows";
import { auditByShareToken, candidatesOf, findOwnedAudit, stepsOf, workloadsOf } from "./audits";
import type { reportSchema } from "./audits.schemas";
import { candidateState, iso, stepView } from "./views";

export type ReportView = z.infer<typeof reportSchema>;

export const COST_MODEL_TEXT =
  "Today's cost is the mean logged cost per call × 1,000. A candidate's is estimated from its measured " +
  "CPU time per call on this service × the price of a CPU-second (AUDIT_CPU_SECOND_USD, default " +
  "$0.000048) plus a per-call overhead (AUDIT_PER_CALL_USD, default $0.0000002), × 1,000. Quality is " +
  "agreement with the logged outputs on held-out calls: accuracy for classification, mean " +
  "character-level normalised Levenshtein similarity for generation.";

async function buildReport(db: Db, a: AuditRow, shared: boolean): Promise<ReportView> {
  const [workloads, steps, candidates] = await Promise.all([
    workloadsOf(db, [a.id]),
    stepsOf(db, a.id),
    candidatesOf(db, [a.id]),
  ]);
  const showInputs = !shared || a.publishInputs;
  let totalCalls = 0;
  let currentSum: number | null = null;
  let bestSum: number | null = null;
  const out: ReportView["workloads"] = [];
  for (const w of workloads) {
    const mine = candidates.filter((c) => c.workloadId === w.id);
    const rows = [];
    for (const c of mine) {
      const run = c.runId ? await getJobRow(db, c.runId) : null;
      const e = c.evaluation;
      rows.push({
        id: c.id,
        recipe_id: c.recipeId,
        base_model_id: c.baseModelId,
        state: candidateState(c, run),
        run_id: shared ? null : c.runId,
        quality: e?.quality ?? null,
        metric: e?.metric ?? null,
        latency_p50_ms: e?.latency_p50_ms ?? null,
        latency_p95_ms: e?.latency_p95_ms ?? null,
        latency_samples: e?.latency_samples ?? [],
        cost_per_1k: e?.cost_per_1k ?? null,
        savings: savingsOf(w.stats.cost_per_1k, e?.cost_per_1k ?? null),
        examples: showInputs ? (e?.examples ?? []) : [],
      });
    }
    const best = bestCandidate(rows);
    totalCalls += w.stats.calls;
    if (w.stats.cost_per_1k !== null) {
      currentSum = (currentSum ?? 0) + w.stats.cost_per_1k * w.stats.calls;
      const b = best?.cost_per_1k ?? w.stats.cost_per_1k;
      bestSum = (bestSum ?? 0) + b * w.stats.calls;
    }
    out.push({
      id: w.id,
      name: w.name,
      task: w.task,
      model: w.model,
      labels: w.labels ?? null,
      current: {
        calls: w.stats.calls,
        cost_per_1k: w.stats.cost_per_1k,
        latency_p50_ms: w.stats.latency_p50_ms,
        latency_p95_ms: w.stats.latency_p95_ms,
      },
      current_latency_samples: w.stats.latency_samples,
      candidates: rows,
      best_candidate_id: best?.id ?? null,
      best_savings: best ? best.savings : { per_1k: null, percent: null },
    });
  }
  const currentPer1k = currentSum === null || totalCalls === 0 ? null : currentSum / totalCalls;
  const bestPer1k = bestSum === null || totalCalls === 0 ? null : bestSum / totalCalls;
  return {
    audit: {
      id: a.id,
      name: a.name,
      source: a.source,
      state: a.state,
      created_at: a.createdAt.toISOString(),
      completed_at: iso(a.completedAt),
      summary: a.summary ?? null,
    },
    steps: steps.map(stepView),
    workloads: out,
    totals: {
      calls: totalCalls,
      current_cost_per_1k: currentPer1k,
      best_cost_per_1k: bestPer1k,
      savings_percent: savingsOf(currentPer1k, bestPer1k).percent,
    },
    quality_metrics: { classification: "accuracy", generation: "levenshtein_similarity" },
    cost_model: COST_MODEL_TEXT,
    inputs_published: a.publishInputs,
  };
}

export async function auditReport(db: Db, ownerId: string, id: string): Promise<ReportView> {
  return buildReport(db, await findOwnedAudit(db, ownerId, id), false);
}

export async function sharedAuditReport(db: Db, token: string): Promise<ReportView> {
  return buildReport(db, await auditByShareToken(db, token), true);
}
