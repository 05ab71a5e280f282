/**
 * Query keys of the training area. The generated client's keys are `["get", path, init]`; these
 * helpers build the exact ones the pages use, so that the event stream writes into the same cache
 * entries (setQueryData) and mutations invalidate the right ones.
 */
import { $api } from "@/lib/api/client";
import type { LogFilter } from "@/lib/training-ui/log-tail";
import { HISTORY_MAX_POINTS, type StepWindow } from "@/lib/training-ui/zoom";

export const JOBS_PATH = "/api/v1/training/jobs";

export function jobQuery(jobId: string) {
  return $api.queryOptions("get", "/api/v1/training/jobs/{job_id}", { params: { path: { job_id: jobId } } });
}

/** The job's metric history, every series downsampled to HISTORY_MAX_POINTS (or one zoomed window). */
export function metricsQuery(jobId: string, window: StepWindow | null = null, name?: string) {
  return $api.queryOptions("get", "/api/v1/training/jobs/{job_id}/metrics", {
    params: {
      path: { job_id: jobId },
      query: { max_points: HISTORY_MAX_POINTS, name, ...(window ?? {}) },
    },
  });
}

export function checkpointsQuery(jobId: string) {
  return $api.queryOptions("get", "/api/v1/training/jobs/{job_id}/checkpoints", {
    params: { path: { job_id: jobId } },
  });
}

export function summaryQuery(jobId: string) {
  return $api.queryOptions("get", "/api/v1/training/jobs/{job_id}/metrics/summary", {
    params: { path: { job_id: jobId } },
  });
}

/** Prefix keys for invalidation, and the log tail (last lines matching a filter): read in pages, so
 * not one generated query. */
export const trainingKeys = {
  /** Every page of the jobs list. */
  jobs: ["get", JOBS_PATH] as const,
  /** Every dataset-fit verdict (a project's model changed: "Fit to dataset"). */
  datasetFit: ["get", "/api/v1/training/dataset-fit"] as const,
  logTail: (jobId: string, filter: LogFilter) => ["training-log-tail", jobId, filter] as const,
  logTails: (jobId: string) => ["training-log-tail", jobId] as const,
};
