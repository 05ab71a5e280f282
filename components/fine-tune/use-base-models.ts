"use client";

import { errorMessage } from "@/components/training/error-message";
import { $api } from "@/lib/api/client";

/**
 * The wizard's base models: the curated catalog (GET /foundation-catalog), plus the model `?base=`
 * links to when it is not in it: one of the caller's registry versions or a hub model
 * (GET /foundation-catalog/{id}), listed first.
 */
export function useBaseModels(linked: string | null) {
  const catalog = $api.useQuery("get", "/api/v1/foundation-catalog", { params: { query: { limit: 100 } } });
  const inCatalog = catalog.data?.items.some((m) => m.id === linked) ?? false;
  const wantLinked = linked !== null && catalog.isSuccess && !inCatalog;
  const one = $api.useQuery(
    "get",
    "/api/v1/foundation-catalog/{base_model_id}",
    { params: { path: { base_model_id: linked ?? "" } } },
    { enabled: wantLinked, retry: false },
  );
  const items = catalog.data
    ? [...(wantLinked && one.data ? [one.data] : []), ...catalog.data.items]
    : undefined;
  return {
    items,
    isPending: catalog.isPending || (wantLinked && one.isPending),
    isSuccess: catalog.isSuccess && (!wantLinked || !one.isPending),
    error: catalog.error,
    /** Why the linked model cannot be a base model (not found, no weights…), when it cannot. */
    linkedError: wantLinked && one.error ? errorMessage(one.error) : null,
  };
}

export type BaseModel = NonNullable<ReturnType<typeof useBaseModels>["items"]>[number];
