/** Rows → API views for audits, workloads, steps and candidates. */
import type { z } from "@hono/zod-openapi";
import { savingsOf } from "../../../audits/summary";
import type {
  AuditCandidateRow,
  AuditRow,
  AuditStepRow,
  AuditWorkloadRow,
  TrainingJobRow,
} from "../../db/schema";
import type { auditSchema, candidateSchema, stepSchema, workloadSchema } from "./audits.schemas";

export type AuditView = z.infer<typeof auditSchema>;
export type CandidateView = z.infer<typeof candidateSchema>;
export type WorkloadView = z.infer<typeof workloadSchema>;
export type StepView = z.infer<typeof stepSchema>;

export const iso = (d: Date | null) => (d ? d.toISOString() : null);

export function stepView(s: AuditStepRow): StepView {
  return { id: s.id, name: s.name, status: s.status, message: s.message, at: s.at.toISOString() };
}

export function workloadView(w: AuditWorkloadRow): WorkloadView {
  const st = w.stats;
  return {
    id: w.id,
    name: w.name,
    task: w.task,
    model: w.model,
    labels: w.labels ?? null,
    training_calls: st.training_calls,
    holdout_calls: st.holdout_calls,
    dataset_id: w.datasetId,
    current: {
      calls: st.calls,
      cost_per_1k: st.cost_per_1k,
      latency_p50_ms: st.latency_p50_ms,
      latency_p95_ms: st.latency_p95_ms,
    },
  };
}

export type CandidateState = CandidateView["state"];

export function candidateState(c: AuditCandidateRow, run: TrainingJobRow | null): CandidateState {
  if (c.evaluation) return "evaluated";
  if (!run) return "failed";
  if (run.state === "succeeded") return "trained";
  if (run.state === "cancelled") return "cancelled";
  if (run.state === "failed" || run.state === "timed_out") return "failed";
  return "training";
}

export function candidateView(
  c: AuditCandidateRow,
  run: TrainingJobRow | null,
  workload: AuditWorkloadRow | undefined,
): CandidateView {
  return {
    id: c.id,
    audit_id: c.auditId,
    workload_id: c.workloadId,
    recipe_id: c.recipeId,
    base_model_id: c.baseModelId,
    state: candidateState(c, run),
    run: run
      ? {
          id: run.id,
          state: run.state,
          reason: run.reason ?? null,
          url: `/api/v1/training/foundation-runs/${encodeURIComponent(run.id)}`,
        }
      : null,
    deployment_id: c.deploymentId,
    evaluation: c.evaluation ?? null,
    savings: savingsOf(workload?.stats.cost_per_1k ?? null, c.evaluation?.cost_per_1k ?? null),
    created_at: c.createdAt.toISOString(),
  };
}

export function auditView(
  a: AuditRow,
  workloads: AuditWorkloadRow[],
  steps: AuditStepRow[],
  candidates: AuditCandidateRow[],
): AuditView {
  let best: number | null = null;
  for (const c of candidates) {
    const w = workloads.find((x) => x.id === c.workloadId);
    const s = savingsOf(w?.stats.cost_per_1k ?? null, c.evaluation?.cost_per_1k ?? null).percent;
    if (s !== null && (best === null || s > best)) best = s;
  }
  return {
    id: a.id,
    name: a.name,
    source: a.source,
    state: a.state,
    publish_inputs: a.publishInputs,
    shared: a.shareTokenHash !== null,
    summary: a.summary ?? null,
    workloads: workloads.map(workloadView),
    steps: steps.map(stepView),
    candidate_count: candidates.length,
    best_savings_percent: best,
    created_at: a.createdAt.toISOString(),
    updated_at: a.updatedAt.toISOString(),
    completed_at: iso(a.completedAt),
  };
}
