/**
 * Query keys of the model registry: the generated client's `["get", path, init]`, built in one place
 * so that mutations invalidate the entries the pages read.
 */
import type { QueryClient } from "@tanstack/react-query";
import { $api } from "@/lib/api/client";

export const MODELS_PATH = "/api/v1/models";
export const MODEL_PATH = "/api/v1/models/{model_id}";
export const VERSIONS_PATH = "/api/v1/models/{model_id}/versions";
export const VERSION_PATH = "/api/v1/model-versions/{version_id}";
export const LINEAGE_PATH = "/api/v1/model-versions/{version_id}/lineage";

/** Prefix keys for invalidation. */
export const registryKeys = {
  models: ["get", MODELS_PATH] as const,
  lineage: ["get", LINEAGE_PATH] as const,
};

export function modelQuery(modelId: string) {
  return $api.queryOptions("get", MODEL_PATH, { params: { path: { model_id: modelId } } });
}

export function versionsQuery(modelId: string) {
  return $api.queryOptions("get", VERSIONS_PATH, { params: { path: { model_id: modelId } } });
}

/** After a push, finalize, alias move or delete: the list, the entry, its versions and version pages. */
export function invalidateRegistry(queryClient: QueryClient) {
  for (const path of [MODELS_PATH, MODEL_PATH, VERSIONS_PATH, VERSION_PATH])
    queryClient.invalidateQueries({ queryKey: ["get", path] });
}

/** The studio page of a version (the same URL the lineage's `studioHref.modelVersion` builds). */
export function versionHref(modelId: string, versionId: string): string {
  return `/models/${encodeURIComponent(modelId)}?version=${encodeURIComponent(versionId)}`;
}
