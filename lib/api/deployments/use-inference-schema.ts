"use client";

import { useQuery } from "@tanstack/react-query";
import { api } from "@/lib/api/client";
import { deploymentKeys } from "./keys";

/**
 * The deployment's inference schema (input, output, example): with the deployment key when the
 * console holds one (as a client reads it), else with the owner's session (…/schema/session).
 */
export function useInferenceSchema(deploymentId: string, revision: number | null, apiKey: string | null) {
  return useQuery({
    queryKey: [...deploymentKeys.schema(deploymentId, revision), apiKey ? "key" : "session"],
    retry: false,
    staleTime: Number.POSITIVE_INFINITY,
    queryFn: async () => {
      const path = { params: { path: { deployment_id: deploymentId } } };
      const { data } = apiKey
        ? await api.GET("/api/v1/inference/{deployment_id}/schema", {
            ...path,
            headers: { Authorization: `Bearer ${apiKey}` },
          })
        : await api.GET("/api/v1/inference/{deployment_id}/schema/session", path);
      if (!data) throw new Error("No schema returned.");
      return data;
    },
  });
}
