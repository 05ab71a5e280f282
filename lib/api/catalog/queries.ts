/** Read hooks of the foundation catalog. */
import { $api } from "@/lib/api/client";
import type { Data, QueryParams, ReadOptions } from "@/lib/api/read-options";
import { BASE_MODEL_PATH, CATALOG_PATH } from "./keys";

/** Base models (the curated catalog, or the caller's registry versions with `source: "registry"`). */
export function useBaseModelList(
  query?: QueryParams<typeof CATALOG_PATH>,
  options?: ReadOptions<Data<typeof CATALOG_PATH>>,
) {
  return $api.useQuery("get", CATALOG_PATH, query ? { params: { query } } : undefined, options);
}

export function useBaseModel(
  baseModelId: string | null,
  options?: ReadOptions<Data<typeof BASE_MODEL_PATH>>,
) {
  return $api.useQuery(
    "get",
    BASE_MODEL_PATH,
    { params: { path: { base_model_id: baseModelId ?? "" } } },
    options,
  );
}
