"use client";

import { useDatasetVersion } from "@/lib/api/datasets/queries";

/** Whether a dataset version has rows in an explicit test split (null while unknown). */
export function useHasTest(datasetId: string, versionId: string | null): boolean | null {
  const version = useDatasetVersion(datasetId, versionId, { enabled: versionId !== null });
  if (!version.data) return null;
  return (version.data.splits?.test ?? 0) > 0;
}
