"use client";

import { type QueryClient, useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef, useState } from "react";
import { api } from "@/lib/api/client";
import {
  DEPLOYMENTS_PATH,
  deploymentQuery,
  LOG_TAIL,
  logsQuery,
  type MetricsWindow,
  metricsQuery,
  revisionsQuery,
} from "@/lib/api/deployments/keys";
import { applyRequests, type LiveSamples, WINDOW_MS } from "@/lib/deployments-ui/live-metrics";
import {
  DEPLOYMENT_EVENT_KINDS,
  type DeploymentEvent,
  parseDeploymentEvent,
} from "@/lib/deployments-ui/stream-events";
import { resumeUrl } from "@/lib/training-ui/stream-events";
import type { Deployment, DeploymentLogEntry, DeploymentLogs, DeploymentMetrics } from "./types";

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
    void queryClient.invalidateQueries({ queryKey: ["get", DEPLOYMENTS_PATH] });
  }
}

/**
 * The deployment's live events (server-sent events) written into the query cache while the console
 * is open: requests into the metrics and the log tail, state changes and revisions into the
 * deployment. Opened once the log tail is loaded (it follows from the newest entry it holds); on an
 * error it reopens with a fresh token after the last event seen, with a growing pause.
 */
export function useDeploymentStream(id: string, enabled: boolean): StreamStatus {
  const queryClient = useQueryClient();
  const [status, setStatus] = useState<StreamStatus>("connecting");
  const lastId = useRef<number | null>(null);

  useEffect(() => {
    if (!enabled) return;
    let source: EventSource | null = null;
    let stopped = false;
    let retry: ReturnType<typeof setTimeout> | null = null;
    let flushTimer: ReturnType<typeof setTimeout> | null = null;
    let refreshTimer: ReturnType<typeof setTimeout> | null = null;
    let failures = 0;
    const buffer: DeploymentEvent[] = [];
    const samples = new Map<MetricsWindow, LiveSamples>();

    const flush = () => {
      flushTimer = null;
      if (buffer.length === 0) return;
      const events = buffer.splice(0);
      applyEvents(queryClient, id, events, samples);
      if (events.some((e) => e.kind === "request")) {
        refreshTimer ??= setTimeout(() => {
          refreshTimer = null;
          samples.clear();
          void queryClient.invalidateQueries({
            queryKey: ["get", "/api/v1/deployments/{deployment_id}/metrics"],
          });
        }, METRICS_REFRESH_MS);
      }
    };
    const onMessage = (e: MessageEvent<string>) => {
      const event = parseDeploymentEvent(e.type, e.lastEventId, e.data);
      if (!event || (lastId.current !== null && event.id <= lastId.current)) return;
      lastId.current = event.id;
      failures = 0;
      buffer.push(event);
      flushTimer ??= setTimeout(flush, FLUSH_MS);
    };
    const open = async () => {
      setStatus(failures === 0 ? "connecting" : "reconnecting");
      if (lastId.current === null) {
        const logs = queryClient.getQueryData<DeploymentLogs>(logsQuery(id).queryKey);
        lastId.current = logs?.items[0]?.id ?? null;
      }
      try {
        const { data } = await api.POST("/api/v1/deployments/{deployment_id}/stream-access-token", {
          params: { path: { deployment_id: id } },
        });
        if (stopped || !data) return;
        const es = new EventSource(resumeUrl(data.stream_url, lastId.current));
        source = es;
        for (const kind of DEPLOYMENT_EVENT_KINDS) es.addEventListener(kind, onMessage);
        es.onopen = () => setStatus("live");
        es.onerror = () => {
          es.close();
          if (source === es) source = null;
          if (!stopped) scheduleRetry();
        };
      } catch {
        if (!stopped) scheduleRetry();
      }
    };
    const scheduleRetry = () => {
      failures += 1;
      setStatus("reconnecting");
      retry = setTimeout(open, Math.min(15_000, 500 * 2 ** Math.min(failures, 5)));
    };
    void open();
    return () => {
      stopped = true;
      source?.close();
      if (retry) clearTimeout(retry);
      if (flushTimer) clearTimeout(flushTimer);
      if (refreshTimer) clearTimeout(refreshTimer);
      flush();
    };
  }, [enabled, id, queryClient]);

  return status;
}
