/**
 * Query keys of the deployments area: the generated client's `["get", path, init]`, built in one
 * place so that mutations and the event stream write into the entries the pages read.
 */
import { $api } from "@/lib/api/client";

export const DEPLOYMENTS_PATH = "/api/v1/deployments";

export function deploymentQuery(id: string) {
  return $api.queryOptions("get", "/api/v1/deployments/{deployment_id}", {
    params: { path: { deployment_id: id } },
  });
}

export function revisionsQuery(id: string) {
  return $api.queryOptions("get", "/api/v1/deployments/{deployment_id}/revisions", {
    params: { path: { deployment_id: id } },
  });
}

export const deploymentKeys = {
  /** Every page of the deployments list (prefix key for invalidation). */
  list: ["get", DEPLOYMENTS_PATH] as const,
  /** Every window of every deployment's metrics (prefix key for invalidation). */
  metrics: ["get", "/api/v1/deployments/{deployment_id}/metrics"] as const,
  /** The inference schema, read with the deployment key (so not one generated query). */
  schema: (id: string, revision: number | null) => ["deployment-schema", id, revision] as const,
};

export type MetricsWindow = "1h" | "24h" | "7d";

export function metricsQuery(id: string, window: MetricsWindow) {
  return $api.queryOptions("get", "/api/v1/deployments/{deployment_id}/metrics", {
    params: { path: { deployment_id: id }, query: { window } },
  });
}

/** Entries the log tail reads first and keeps. */
export const LOG_TAIL = 200;

export function logsQuery(id: string) {
  return $api.queryOptions("get", "/api/v1/deployments/{deployment_id}/logs", {
    params: { path: { deployment_id: id }, query: { limit: LOG_TAIL } },
  });
}
