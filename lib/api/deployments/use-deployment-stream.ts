"use client";

import { type QueryClient, useQueryClient } from "@tanstack/react-query";
import { api, type Schemas } from "@/lib/api/client";
import { useEventStream } from "@/lib/api/use-event-stream";
import { applyRequests, type LiveSamples, WINDOW_MS } from "@/lib/deployments-ui/live-metrics";
import {
  DEPLOYMENT_EVENT_KINDS,
  type DeploymentEvent,
  parseDeploymentEvent,
} from "@/lib/deployments-ui/stream-events";
import {
  deploymentKeys,
  deploymentQuery,
  LOG_TAIL,
  logsQuery,
  type MetricsWindow,
  metricsQuery,
  revisionsQuery,
} from "./keys";

type Deployment = Schemas["Deployment"];
type DeploymentLogEntry = Schemas["DeploymentLogEntry"];
type DeploymentLogs = Schemas["DeploymentLogs"];
type DeploymentMetrics = Schemas["DeploymentMetrics"];

const FLUSH_MS = 250;
/** The route's percentiles are re-read at most this often while requests arrive. */
const METRICS_REFRESH_MS = 10_000;

export type StreamStatus = "connecting" | "live" | "reconnecting";

function logEntry(e: DeploymentEvent): DeploymentLogEntry | null {
  if (e.kind === "request")
    return {
      id: e.id,
      at: e.data.at,
      kind: "request",
      route: e.data.route,
      status: e.data.status,
      latency_ms: e.data.latency_ms,
      instances: e.data.instances ?? null,
      request_id: e.data.request_id ?? null,
      error: e.data.error ?? null,
      message: null,
      weight: e.data.weight ?? 1,
    };
  if (e.kind === "log")
    return {
      id: e.id,
      at: e.data.at ?? new Date().toISOString(),
      kind: "log",
      route: null,
      status: null,
      latency_ms: null,
      instances: null,
      request_id: null,
      error: null,
      message: e.data.message,
      weight: null,
    };
  return null;
}

/** Writes a batch of events into the cache: the log tail, the metrics, the deployment, its revisions. */
function applyEvents(
  queryClient: QueryClient,
  id: string,
  events: readonly DeploymentEvent[],
  samples: Map<MetricsWindow, LiveSamples>,
) {
  const entries = events.map(logEntry).filter((e): e is DeploymentLogEntry => e !== null);
  if (entries.length > 0) {
    queryClient.setQueryData<DeploymentLogs>(logsQuery(id).queryKey, (logs) => {
      if (!logs) return logs;
      const seen = new Set(logs.items.map((i) => i.id));
      const fresh = entries.filter((e) => !seen.has(e.id)).reverse();
      return { ...logs, items: [...fresh, ...logs.items].slice(0, LOG_TAIL) };
    });
  }
  const requests = events.flatMap((e) => (e.kind === "request" ? [e.data] : []));
  if (requests.length > 0) {
    for (const window of Object.keys(WINDOW_MS) as MetricsWindow[]) {
      let held = samples.get(window);
      if (!held) {
        held = new Map();
        samples.set(window, held);
      }
      const live = held;
      queryClient.setQueryData<DeploymentMetrics>(metricsQuery(id, window).queryKey, (m) =>
        m ? applyRequests(m, requests, live, WINDOW_MS[window], Date.now()) : m,
      );
    }
  }
  const status = events.findLast((e) => e.kind === "status");
  if (status?.kind === "status") {
    queryClient.setQueryData<Deployment>(deploymentQuery(id).queryKey, (d) =>
      d && ["deploying", "ready", "failed", "paused"].includes(status.data.state)
        ? { ...d, state: status.data.state as Deployment["state"] }
        : d,
    );
  }
  if (status || events.some((e) => e.kind === "revision")) {
    void queryClient.invalidateQueries({ queryKey: deploymentQuery(id).queryKey });
    void queryClient.invalidateQueries({ queryKey: revisionsQuery(id).queryKey });
    void queryClient.invalidateQueries({ queryKey: deploymentKeys.list });
  }
}

/**
 * The deployment's live events (server-sent events) written into the query cache while the console
 * is open: requests into the metrics and the log tail, state changes and revisions into the
 * deployment. Opened once the log tail is loaded (it follows from the newest entry it holds);
 * reconnects as useEventStream does.
 */
export function useDeploymentStream(id: string, enabled: boolean): StreamStatus {
  const queryClient = useQueryClient();
  const status = useEventStream<DeploymentEvent>(id, enabled, {
    streamUrl: async () => {
      const { data } = await api.POST("/api/v1/deployments/{deployment_id}/stream-access-token", {
        params: { path: { deployment_id: id } },
      });
      return data?.stream_url ?? null;
    },
    kinds: DEPLOYMENT_EVENT_KINDS,
    parse: parseDeploymentEvent,
    startAfter: () => queryClient.getQueryData<DeploymentLogs>(logsQuery(id).queryKey)?.items[0]?.id ?? null,
    session: () => {
      const samples = new Map<MetricsWindow, LiveSamples>();
      let refreshTimer: ReturnType<typeof setTimeout> | null = null;
      return {
        apply: (events) => {
          applyEvents(queryClient, id, events, samples);
          if (events.some((e) => e.kind === "request")) {
            refreshTimer ??= setTimeout(() => {
              refreshTimer = null;
              samples.clear();
              void queryClient.invalidateQueries({ queryKey: deploymentKeys.metrics });
            }, METRICS_REFRESH_MS);
          }
        },
        stop: () => {
          if (refreshTimer) clearTimeout(refreshTimer);
        },
      };
    },
    flushMs: FLUSH_MS,
  });
  // The console has no idle or ended state: the stream is opening until it is live.
  return status === "idle" || status === "ended" ? "connecting" : status;
}
