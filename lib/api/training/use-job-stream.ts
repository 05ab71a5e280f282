"use client";

import { type QueryClient, useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef, useState } from "react";
import { api } from "@/lib/api/client";
import {
  checkpointsQuery,
  jobQuery,
  metricsQuery,
  summaryQuery,
  trainingKeys,
} from "@/lib/api/training/keys";
import { patchJob } from "@/lib/training-ui/job-events";
import { appendLogLines, type LogFilter } from "@/lib/training-ui/log-tail";
import { mergePoints } from "@/lib/training-ui/series";
import {
  isTerminal,
  parseStreamEvent,
  resumeUrl,
  STREAM_EVENT_KINDS,
  type StreamEvent,
} from "@/lib/training-ui/stream-events";
import type { LogLine, MetricPoint, MetricsPage, TrainingJob } from "./types";

/** Events are written into the cache in batches, at most this often (a replay is thousands of them). */
const FLUSH_MS = 200;
/** Log lines a tail keeps. */
export const LOG_TAIL_MAX = 2000;

export type StreamStatus = "idle" | "connecting" | "live" | "reconnecting" | "ended";

/**
 * Applies a batch of stream events to the query cache: metric points into the metric history, log
 * lines into every log tail of the job (those whose filter they pass), status and progress into the
 * job. Status events older than the job's last recorded change (a replay) change nothing.
 */
export function applyStreamEvents(queryClient: QueryClient, jobId: string, events: readonly StreamEvent[]) {
  const points: MetricPoint[] = [];
  const lines: LogLine[] = [];
  let refreshJob = false;
  let refreshCheckpoints = false;
  for (const e of events) {
    if (e.kind === "metric") {
      points.push({
        name: e.data.name,
        step: e.data.step,
        epoch: e.data.epoch ?? null,
        value: e.data.value,
        timestamp: e.data.timestamp ?? new Date().toISOString(),
      });
    } else if (e.kind === "log") {
      lines.push({ id: e.id, ...e.data });
    } else if (e.kind === "checkpoint") {
      refreshCheckpoints = true;
    }
  }
  if (points.length > 0) {
    queryClient.setQueryData<MetricsPage>(metricsQuery(jobId).queryKey, (page) =>
      page ? mergePoints(page, points) : page,
    );
  }
  if (lines.length > 0) {
    for (const [key] of queryClient.getQueriesData<LogLine[]>({ queryKey: trainingKeys.logTails(jobId) })) {
      const filter = (key[2] ?? {}) as LogFilter;
      queryClient.setQueryData<readonly LogLine[]>(key, (held) =>
        held ? appendLogLines(held, lines, filter, LOG_TAIL_MAX) : held,
      );
    }
  }
  queryClient.setQueryData<TrainingJob>(jobQuery(jobId).queryKey, (job) => {
    if (!job) return job;
    const patched = patchJob(job, events);
    if (patched.statusChanged) refreshJob = true;
    return patched.job;
  });
  if (refreshJob) {
    // Timings, runtime, artifact and charges come with the job: read it once per change of state.
    queryClient.invalidateQueries({ queryKey: jobQuery(jobId).queryKey });
    queryClient.invalidateQueries({ queryKey: trainingKeys.jobs });
    queryClient.invalidateQueries({ queryKey: summaryQuery(jobId).queryKey });
    refreshCheckpoints = true;
  }
  if (refreshCheckpoints) queryClient.invalidateQueries({ queryKey: checkpointsQuery(jobId).queryKey });
}

/**
 * The job's live events (server-sent events), written straight into the query cache: no second store
 * and no polling. Opened while `enabled` (the job is queued or running and its history is loaded, so
 * that nothing arriving meanwhile is lost). The stream token is good for five minutes: on an error the
 * stream is reopened with a fresh token, resuming after the last event seen (`last_event_id`), with a
 * growing pause between attempts. It ends after a terminal status.
 */
export function useJobStream(jobId: string, enabled: boolean): StreamStatus {
  const queryClient = useQueryClient();
  const [status, setStatus] = useState<StreamStatus>("idle");
  /** Highest event id applied, kept across reconnections and restarts of the job. */
  const lastId = useRef<number | null>(null);

  useEffect(() => {
    if (!enabled) {
      setStatus((s) => (s === "idle" ? s : "ended"));
      return;
    }
    let source: EventSource | null = null;
    let stopped = false;
    let retry: ReturnType<typeof setTimeout> | null = null;
    let flushTimer: ReturnType<typeof setTimeout> | null = null;
    let failures = 0;
    let ended = false;
    const buffer: StreamEvent[] = [];

    const flush = () => {
      flushTimer = null;
      if (buffer.length === 0) return;
      applyStreamEvents(queryClient, jobId, buffer.splice(0));
    };
    const onMessage = (e: MessageEvent<string>) => {
      const event = parseStreamEvent(e.type, e.lastEventId, e.data);
      if (!event || (lastId.current !== null && event.id <= lastId.current)) return;
      lastId.current = event.id;
      failures = 0;
      if (event.kind === "status") ended = isTerminal(event.data.status);
      buffer.push(event);
      flushTimer ??= setTimeout(flush, FLUSH_MS);
    };

    const open = async () => {
      setStatus(failures === 0 && lastId.current === null ? "connecting" : "reconnecting");
      // The history already holds everything up to its cursor: follow from there, not from the start
      // (a long job has a million events).
      if (lastId.current === null) {
        const history = queryClient.getQueryData<MetricsPage>(metricsQuery(jobId).queryKey);
        if (history) lastId.current = history.last_event_id;
      }
      try {
        const { data } = await api.POST("/api/v1/training/jobs/{job_id}/stream-access-token", {
          params: { path: { job_id: jobId } },
        });
        if (stopped || !data) return;
        const es = new EventSource(resumeUrl(data.stream_url, lastId.current));
        source = es;
        for (const kind of STREAM_EVENT_KINDS) es.addEventListener(kind, onMessage);
        es.onopen = () => {
          setStatus("live");
          // What the job and its log tail were fetched with may predate the history's cursor: read
          // them once more now that the stream covers everything after it.
          void queryClient.invalidateQueries({ queryKey: jobQuery(jobId).queryKey });
          void queryClient.invalidateQueries({ queryKey: trainingKeys.logTails(jobId) });
        };
        es.onerror = () => {
          // The server closes the stream after a terminal status; otherwise the token may have
          // expired (EventSource would retry with it): reopen with a fresh one, from the last id.
          es.close();
          if (source === es) source = null;
          if (stopped) return;
          if (ended) {
            flush();
            setStatus("ended");
            return;
          }
          scheduleRetry();
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
      flush();
    };
  }, [enabled, jobId, queryClient]);

  return status;
}
