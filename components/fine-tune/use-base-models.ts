"use client";

import { errorMessage } from "@/components/training/error-message";
import { useBaseModel, useBaseModelList } from "@/lib/api/catalog/queries";

/**
 * The wizard's base models, in this order: the model `?base=` links to when it is in neither list
 * (a hub model, or a registry version that cannot be a base: its reason is `linkedError`), the
 * caller's registry versions that carry weights (GET /foundation-catalog?source=registry), then the
 * curated catalog.
 */
export function useBaseModels(linked: string | null) {
  const catalog = useBaseModelList({ limit: 100 });
  const registry = useBaseModelList({ limit: 100, source: "registry" });
  const listed = [...(registry.data?.items ?? []), ...(catalog.data?.items ?? [])];
  const inLists = listed.some((m) => m.id === linked);
  const wantLinked = linked !== null && catalog.isSuccess && registry.isSuccess && !inLists;
  const one = useBaseModel(linked, { enabled: wantLinked, retry: false });
  const loaded = catalog.data && registry.data;
  const items = loaded ? [...(wantLinked && one.data ? [one.data] : []), ...listed] : undefined;
  return {
    items,
    isPending: catalog.isPending || registry.isPending || (wantLinked && one.isPending),
    isSuccess: catalog.isSuccess && registry.isSuccess && (!wantLinked || !one.isPending),
    error: catalog.error ?? registry.error,
    /** Why the linked model cannot be a base model (not found, no weights…), when it cannot. */
    linkedError: wantLinked && one.error ? errorMessage(one.error) : null,
  };
}

export type BaseModel = NonNullable<ReturnType<typeof useBaseModels>["items"]>[number];
