/**
 * Query keys of the dataset queries that do not go through the generated client (every value of one
 * column, read in pages). The generated client's keys are `["get", path, init]`.
 */
export const datasetKeys = {
  column: (datasetId: string, versionId: string, column: string) =>
    ["dataset-column", datasetId, versionId, column] as const,
};

/** Paths whose cached answers change when a dataset changes (prefix keys for invalidation). */
export const DATASET_QUERY_PATHS = [
  "/api/v1/datasets/browse",
  "/api/v1/datasets/{dataset_id}",
  "/api/v1/datasets/{dataset_id}/versions",
  "/api/v1/datasets/{dataset_id}/versions/{version_id}",
  "/api/v1/datasets/{dataset_id}/preview",
] as const;
