/**
 * Query options of the evaluations area, built from the generated client so that the card, the page
 * and the create mutation share the same cache entries. An evaluation that has not finished is
 * refetched every second until it has.
 */

import type { Schemas } from "@/lib/api/client";
import { $api } from "@/lib/api/client";
import { isFinished } from "@/lib/evaluations-ui/present";

type Evaluation = Schemas["Evaluation"];
type EvaluationList = Schemas["EvaluationList"];

export const EVALUATIONS_OF_JOB_PATH = "/api/v1/training/jobs/{job_id}/evaluations";
const POLL_MS = 1000;

/** Prefix keys for invalidation. */
export const evaluationKeys = {
  ofJob: ["get", EVALUATIONS_OF_JOB_PATH] as const,
};

export function evaluationQuery(evaluationId: string) {
  return {
    ...$api.queryOptions("get", "/api/v1/training/evaluations/{evaluation_id}", {
      params: { path: { evaluation_id: evaluationId } },
    }),
    refetchInterval: (query: { state: { data?: Evaluation } }) => {
      const state = query.state.data?.state;
      return state && isFinished(state) ? false : POLL_MS;
    },
  };
}

export function jobEvaluationsQuery(jobId: string) {
  return {
    ...$api.queryOptions("get", EVALUATIONS_OF_JOB_PATH, { params: { path: { job_id: jobId } } }),
    refetchInterval: (query: { state: { data?: EvaluationList } }) =>
      query.state.data?.items.some((e) => !isFinished(e.state)) ? POLL_MS : false,
  };
}
