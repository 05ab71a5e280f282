"use client";

import { useQuery } from "@tanstack/react-query";
import { api } from "@/lib/api/client";
import { deploymentKeys } from "./keys";

/** The deployment's inference schema (input, output, example), read with its key as a client would. */
export function useInferenceSchema(deploymentId: string, revision: number | null, apiKey: string | null) {
  return useQuery({
    queryKey: deploymentKeys.schema(deploymentId, revision),
    enabled: apiKey !== null,
    retry: false,
    staleTime: Number.POSITIVE_INFINITY,
    queryFn: async () => {
      const { data } = await api.GET("/api/v1/inference/{deployment_id}/schema", {
        params: { path: { deployment_id: deploymentId } },
        headers: { Authorization: `Bearer ${apiKey}` },
      });
      if (!data) throw new Error("No schema returned.");
      return data;
    },
  });
}
