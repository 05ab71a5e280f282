/** Read hooks of the evaluations area (each follows an unfinished evaluation every second). */
import { useQuery } from "@tanstack/react-query";
import { $api } from "@/lib/api/client";
import { isFinished } from "@/lib/evaluations-ui/present";
import { evaluationQuery, jobEvaluationsQuery } from "./keys";

export function useEvaluation(evaluationId: string) {
  return useQuery(evaluationQuery(evaluationId));
}

/** A job's evaluations, read once `enabled` (the job has a model to evaluate). */
export function useJobEvaluations(jobId: string, enabled: boolean) {
  return useQuery({ ...jobEvaluationsQuery(jobId), enabled });
}

/** The evaluations of a registry version's job. */
export function useVersionEvaluations(versionId: string) {
  return $api.useQuery(
    "get",
    "/api/v1/model-versions/{version_id}/evaluations",
    { params: { path: { version_id: versionId } } },
    { refetchInterval: (q) => (q.state.data?.items.some((e) => !isFinished(e.state)) ? 1000 : false) },
  );
}
