/** Read hooks of the model registry. */
import { useQuery } from "@tanstack/react-query";
import { $api } from "@/lib/api/client";
import type { Data, ReadOptions } from "@/lib/api/read-options";
import { LINEAGE_PATH, MODELS_PATH, modelQuery, versionsQuery } from "./keys";

export function useModels(options?: ReadOptions<Data<typeof MODELS_PATH>>) {
  return $api.useQuery("get", MODELS_PATH, undefined, options);
}

export function useModel(modelId: string) {
  return useQuery(modelQuery(modelId));
}

export function useModelVersions(modelId: string) {
  return useQuery(versionsQuery(modelId));
}

export function useVersionArtifacts(versionId: string) {
  return $api.useQuery("get", "/api/v1/model-versions/{version_id}/artifacts", {
    params: { path: { version_id: versionId } },
  });
}

export function useVersionLineage(versionId: string) {
  return $api.useQuery("get", LINEAGE_PATH, { params: { path: { version_id: versionId } } });
}

export function useTaskContract(key: string, version: number) {
  return $api.useQuery("get", "/api/v1/task-contracts/{key}/versions/{version}", {
    params: { path: { key, version } },
  });
}
