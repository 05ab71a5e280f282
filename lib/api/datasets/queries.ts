/** Read hooks of the datasets area. */
import { $api } from "@/lib/api/client";
import type { Data, QueryParams, ReadOptions } from "@/lib/api/read-options";
import {
  BROWSE_PATH,
  DATASET_PATH,
  DATASET_PREVIEW_PATH,
  DATASET_TASK_PATH,
  DATASET_VERSION_PATH,
  DATASET_VERSIONS_PATH,
  QUOTA_PATH,
} from "./keys";

export function useDataset(datasetId: string) {
  return $api.useQuery("get", DATASET_PATH, { params: { path: { dataset_id: datasetId } } });
}

export function useDatasetVersion(
  datasetId: string,
  versionId: string | null,
  options?: ReadOptions<Data<typeof DATASET_VERSION_PATH>>,
) {
  return $api.useQuery(
    "get",
    DATASET_VERSION_PATH,
    { params: { path: { dataset_id: datasetId, version_id: versionId ?? "" } } },
    options,
  );
}

export function useDatasetVersions(
  datasetId: string,
  query: QueryParams<typeof DATASET_VERSIONS_PATH>,
  options?: ReadOptions<Data<typeof DATASET_VERSIONS_PATH>>,
) {
  return $api.useQuery(
    "get",
    DATASET_VERSIONS_PATH,
    { params: { path: { dataset_id: datasetId }, query } },
    options,
  );
}

export function useDatasetPreview(
  datasetId: string,
  query: QueryParams<typeof DATASET_PREVIEW_PATH>,
  options?: ReadOptions<Data<typeof DATASET_PREVIEW_PATH>>,
) {
  return $api.useQuery(
    "get",
    DATASET_PREVIEW_PATH,
    { params: { path: { dataset_id: datasetId }, query } },
    options,
  );
}

/** Datasets to browse (one page). */
export function useDatasetList(
  query: QueryParams<typeof BROWSE_PATH>,
  options?: ReadOptions<Data<typeof BROWSE_PATH>>,
) {
  return $api.useQuery("get", BROWSE_PATH, { params: { query } }, options);
}

/** Datasets to browse, `pageSize` at a time (offset paging by `skip`). */
export function useDatasetPages(query: QueryParams<typeof BROWSE_PATH>, pageSize: number) {
  return $api.useInfiniteQuery(
    "get",
    BROWSE_PATH,
    { params: { query: { ...query, limit: pageSize } } },
    {
      pageParamName: "skip",
      initialPageParam: 0,
      getNextPageParam: (last, all) =>
        last.length < pageSize ? undefined : all.reduce((n, p) => n + p.length, 0),
    },
  );
}

export function useStorageQuota() {
  return $api.useQuery("get", QUOTA_PATH);
}

/** A dataset task (URL import, PII scan), read while `taskId` is set. */
export function useDatasetTask(taskId: string | null, options?: ReadOptions<Data<typeof DATASET_TASK_PATH>>) {
  return $api.useQuery(
    "get",
    DATASET_TASK_PATH,
    { params: { path: { task_id: taskId ?? "" } } },
    { enabled: taskId !== null, ...options },
  );
}
