"use client";

import { useQuery } from "@tanstack/react-query";
import { $api } from "@/lib/api/client";

/** Whether a dataset version has rows in an explicit test split (null while unknown). */
export function useHasTest(datasetId: string, versionId: string | null): boolean | null {
  const version = useQuery({
    ...$api.queryOptions("get", "/api/v1/datasets/{dataset_id}/versions/{version_id}", {
      params: { path: { dataset_id: datasetId, version_id: versionId ?? "" } },
    }),
    enabled: versionId !== null,
  });
  if (!version.data) return null;
  return (version.data.splits?.test ?? 0) > 0;
}
