"use client";

import { api } from "@/lib/api/client";

/**
 * One predict call from the console: with the deployment key when the user gave one (exactly as a
 * client calls), else as the signed-in owner (…/predict/session, the web session).
 */
export async function predictFromConsole(deploymentId: string, inputs: unknown[], apiKey: string | null) {
  const init = { params: { path: { deployment_id: deploymentId } }, body: { inputs } };
  const { data } = apiKey
    ? await api.POST("/api/v1/inference/{deployment_id}/predict", {
        ...init,
        headers: { Authorization: `Bearer ${apiKey}` },
      })
    : await api.POST("/api/v1/inference/{deployment_id}/predict/session", init);
  if (!data) throw new Error("No prediction returned.");
  return data;
}
