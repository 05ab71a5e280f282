"use client";

import { $api } from "@/lib/api/client";

/** The curated base models (GET /foundation-catalog), the wizard's first step. */
export function useBaseModels() {
  return $api.useQuery("get", "/api/v1/foundation-catalog");
}

export type BaseModel = NonNullable<ReturnType<typeof useBaseModels>["data"]>["items"][number];
