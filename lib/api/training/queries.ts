/** Read hooks of the training area. */
import { useQuery } from "@tanstack/react-query";
import { $api } from "@/lib/api/client";
import type { Body, Data, QueryParams, ReadOptions } from "@/lib/api/read-options";
import type { StepWindow } from "@/lib/training-ui/zoom";
import { checkpointsQuery, JOBS_PATH, metricsQuery } from "./keys";

const JOB_PATH = "/api/v1/training/jobs/{job_id}";
const RECIPES_PATH = "/api/v1/training/recipes";
const DATASET_FIT_PATH = "/api/v1/training/dataset-fit";

export function useJobs(query: QueryParams<typeof JOBS_PATH>, options?: ReadOptions<Data<typeof JOBS_PATH>>) {
  return $api.useQuery("get", JOBS_PATH, { params: { query } }, options);
}

/** One job (the same cache entry as jobQuery, which the event stream writes into). */
export function useJob(jobId: string | null, options?: ReadOptions<Data<typeof JOB_PATH>>) {
  return $api.useQuery("get", JOB_PATH, { params: { path: { job_id: jobId ?? "" } } }, options);
}

export function useRecipes(
  query?: QueryParams<typeof RECIPES_PATH>,
  options?: ReadOptions<Data<typeof RECIPES_PATH>>,
) {
  return $api.useQuery("get", RECIPES_PATH, query ? { params: { query } } : undefined, options);
}

/** Which datasets fit a project (or a base model) and why the others do not. */
export function useDatasetFit(
  query: QueryParams<typeof DATASET_FIT_PATH>,
  options?: ReadOptions<Data<typeof DATASET_FIT_PATH>>,
) {
  return $api.useQuery("get", DATASET_FIT_PATH, { params: { query } }, options);
}

export function useRuntimes() {
  return $api.useQuery("get", "/api/v1/training/runtimes");
}

export function useAllowedStrategies() {
  return $api.useQuery("get", "/api/v1/training/allowed-strategies");
}

/** The resources a training configuration needs (a POST read as a query, keyed by its body). */
export function useResourceEstimate(body: Body<"/api/v1/training/estimate-resources">) {
  return $api.useQuery("post", "/api/v1/training/estimate-resources", { body });
}

/** The job's metric history (every series downsampled), or one zoomed step window when given. */
export function useMetricHistory(jobId: string, window: StepWindow | null = null, enabled = true) {
  return useQuery({ ...metricsQuery(jobId, window), enabled });
}

export function useCheckpoints(jobId: string) {
  return useQuery(checkpointsQuery(jobId));
}
