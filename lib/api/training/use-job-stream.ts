"use client";

import { type QueryClient, useQueryClient } from "@tanstack/react-query";
import { api, type Schemas } from "@/lib/api/client";
import { type StreamStatus, useEventStream } from "@/lib/api/use-event-stream";
import { patchJob } from "@/lib/training-ui/job-events";
import { appendLogLines, type LogFilter } from "@/lib/training-ui/log-tail";
import { mergePoints } from "@/lib/training-ui/series";
import {
  isTerminal,
  parseStreamEvent,
  STREAM_EVENT_KINDS,
  type StreamEvent,
} from "@/lib/training-ui/stream-events";
import { checkpointsQuery, jobQuery, metricsQuery, summaryQuery, trainingKeys } from "./keys";

type TrainingJob = Schemas["TrainingJob"];
type MetricsPage = Schemas["MetricsPage"];
type MetricPoint = Schemas["MetricPoint"];
type LogLine = Schemas["TrainingLogLine"];

/** Events are written into the cache in batches, at most this often (a replay is thousands of them). */
const FLUSH_MS = 200;
/** Log lines a tail keeps. */
export const LOG_TAIL_MAX = 2000;

export type { StreamStatus };

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
 * that nothing arriving meanwhile is lost), following from the history's cursor; reconnects as
 * useEventStream does, and ends after a terminal status.
 */
export function useJobStream(jobId: string, enabled: boolean): StreamStatus {
  const queryClient = useQueryClient();
  return useEventStream<StreamEvent>(jobId, enabled, {
    streamUrl: async () => {
      const { data } = await api.POST("/api/v1/training/jobs/{job_id}/stream-access-token", {
        params: { path: { job_id: jobId } },
      });
      return data?.stream_url ?? null;
    },
    kinds: STREAM_EVENT_KINDS,
    parse: parseStreamEvent,
    // The history already holds everything up to its cursor (a long job has a million events).
    startAfter: () =>
      queryClient.getQueryData<MetricsPage>(metricsQuery(jobId).queryKey)?.last_event_id ?? null,
    session: () => ({ apply: (events) => applyStreamEvents(queryClient, jobId, events) }),
    flushMs: FLUSH_MS,
    isLast: (event) => (event.kind === "status" ? isTerminal(event.data.status) : null),
    onOpen: () => {
      // What the job and its log tail were fetched with may predate the history's cursor: read them
      // once more now that the stream covers everything after it.
      void queryClient.invalidateQueries({ queryKey: jobQuery(jobId).queryKey });
      void queryClient.invalidateQueries({ queryKey: trainingKeys.logTails(jobId) });
    },
    // A job that ended before the stream opened (it failed at once) has nothing left to stream: read
    // it again, so the page shows its end and the stream stops (it follows queued and running jobs).
    onRetry: () => {
      void queryClient.invalidateQueries({ queryKey: jobQuery(jobId).queryKey });
      void queryClient.invalidateQueries({ queryKey: trainingKeys.logTails(jobId) });
    },
  });
}
