/**
 * Query keys of the dataset queries that do not go through the generated client (the whole file,
 * parsed in the browser). The generated client's keys are `["get", path, init]`.
 */
export const datasetKeys = {
  rows: (datasetId: string, versionId: string) => ["dataset-rows", datasetId, versionId] as const,
};

/** Paths whose cached answers change when a dataset changes (prefix keys for invalidation). */
export const DATASET_QUERY_PATHS = [
  "/api/v1/datasets/browse",
  "/api/v1/datasets/{dataset_id}",
  "/api/v1/datasets/{dataset_id}/versions",
  "/api/v1/datasets/{dataset_id}/versions/{version_id}",
  "/api/v1/datasets/{dataset_id}/preview",
] as const;
