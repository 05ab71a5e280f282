/**
 * Query keys of the datasets area: prefix keys of the generated client's `["get", path, init]` for
 * invalidation, and the keys of the queries that do not go through it (every value of one column,
 * read in pages).
 */

export const BROWSE_PATH = "/api/v1/datasets/browse";
export const DATASET_PATH = "/api/v1/datasets/{dataset_id}";
export const DATASET_VERSIONS_PATH = "/api/v1/datasets/{dataset_id}/versions";
export const DATASET_VERSION_PATH = "/api/v1/datasets/{dataset_id}/versions/{version_id}";
export const DATASET_PREVIEW_PATH = "/api/v1/datasets/{dataset_id}/preview";
export const QUOTA_PATH = "/api/v1/datasets/storage/quota";
export const DATASET_TASK_PATH = "/api/v1/datasets/tasks/{task_id}";

export const datasetKeys = {
  browse: ["get", BROWSE_PATH] as const,
  detail: ["get", DATASET_PATH] as const,
  versions: ["get", DATASET_VERSIONS_PATH] as const,
  version: ["get", DATASET_VERSION_PATH] as const,
  preview: ["get", DATASET_PREVIEW_PATH] as const,
  quota: ["get", QUOTA_PATH] as const,
  column: (datasetId: string, versionId: string, column: string) =>
    ["dataset-column", datasetId, versionId, column] as const,
};

/** Prefix keys whose cached answers change when a dataset changes. */
export const DATASET_QUERY_KEYS = [
  datasetKeys.browse,
  datasetKeys.detail,
  datasetKeys.versions,
  datasetKeys.version,
  datasetKeys.preview,
] as const;
