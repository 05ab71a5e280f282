/** Read hooks of the deployments area (the event stream writes into the same entries). */
import { useQuery } from "@tanstack/react-query";
import { $api } from "@/lib/api/client";
import type { Data, QueryParams, ReadOptions } from "@/lib/api/read-options";
import {
  DEPLOYMENTS_PATH,
  deploymentQuery,
  logsQuery,
  type MetricsWindow,
  metricsQuery,
  revisionsQuery,
} from "./keys";

export function useDeployments(
  query: QueryParams<typeof DEPLOYMENTS_PATH>,
  options?: ReadOptions<Data<typeof DEPLOYMENTS_PATH>>,
) {
  return $api.useQuery("get", DEPLOYMENTS_PATH, { params: { query } }, options);
}

export function useDeployment(deploymentId: string) {
  return useQuery(deploymentQuery(deploymentId));
}

export function useDeploymentRevisions(deploymentId: string) {
  return useQuery(revisionsQuery(deploymentId));
}

export function useDeploymentLogs(deploymentId: string) {
  return useQuery(logsQuery(deploymentId));
}

export function useDeploymentMetrics(deploymentId: string, window: MetricsWindow) {
  return useQuery(metricsQuery(deploymentId, window));
}
