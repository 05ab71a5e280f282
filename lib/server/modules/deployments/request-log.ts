/**
 * The request log of deployments: every inference and OpenAI-compatible call becomes a `request`
 * event (route, status, latency, instances, request id, the error's detail). Writing it is off the
 * request's path: calls are queued in this process and written in batches (one transaction per
 * deployment per flush, FLUSH_MS apart or sooner when QUEUE_FLUSH_AT calls wait), so a predict
 * call never waits for its own log line. A process that dies loses at most its last FLUSH_MS of log
 * lines, never a prediction. Old lines are pruned after REQUEST_LOG_RETENTION_DAYS (retention.ts).
 *
 * Each chunk waits for a moment when this process serves no call (up to QUIET_WAIT_MS): the
 * embedded database runs on the server's thread, so a write started mid-call would add its whole
 * duration to that call; started between calls, it delays at most the start of the next one, by
 * one small chunk. A server that is never idle (concurrent calls) gets no such moment: after the
 * wait it writes larger chunks, so the log keeps up with thousands of calls a second.
 */
import type { Db } from "../../db/client";
import type { RequestRecord } from "../../db/schema";
import { appendDeploymentEvents, type NewDeploymentEvent } from "../../events/deployment-events";
import { pruneRequestLogHourly } from "./retention";

export const FLUSH_MS = 1000;
const QUEUE_FLUSH_AT = 500;
/** Calls written per statement between calls: small enough not to hold up the next call for long. */
const WRITE_CHUNK = 10;
/** Calls written per statement when no quiet moment came. */
const BUSY_WRITE_CHUNK = 50;
/** Calls kept while the database is unreachable; older ones are dropped (and counted). */
const QUEUE_MAX = 50_000;
/** Longest a chunk waits for a moment with no call in flight before it is written anyway. */
const QUIET_WAIT_MS = 5;

interface LogState {
  /** Logged calls this process is serving right now. */
  inFlight: number;
  /** Writers waiting for a moment with no call in flight. */
  quietWaiters: Set<() => void>;
  queue: Map<Db, RequestRecord[]>;
  queued: number;
  dropped: number;
  timer: ReturnType<typeof setTimeout> | null;
  flushing: Promise<void> | null;
}

const g = globalThis as unknown as { __layerlineRequestLog?: LogState };
if (!g.__layerlineRequestLog)
  g.__layerlineRequestLog = {
    inFlight: 0,
    quietWaiters: new Set(),
    queue: new Map(),
    queued: 0,
    dropped: 0,
    timer: null,
    flushing: null,
  };
const state: LogState = g.__layerlineRequestLog;

/** A logged call starts (the request-logging middleware): log writes hold off until none is in flight. */
export function callStarted(): void {
  state.inFlight += 1;
}

export function callEnded(): void {
  state.inFlight = Math.max(0, state.inFlight - 1);
  if (state.inFlight > 0 || state.quietWaiters.size === 0) return;
  const waiters = [...state.quietWaiters];
  state.quietWaiters.clear();
  for (const wake of waiters) wake();
}

/**
 * Resolves true at a moment when no logged call is in flight, or false after QUIET_WAIT_MS. It
 * first lets the event loop take in waiting connections (calls that arrived during the last write).
 */
async function quietMoment(): Promise<boolean> {
  await new Promise((resolve) => setImmediate(resolve));
  if (state.inFlight === 0) return true;
  return new Promise((resolve) => {
    const wake = () => {
      clearTimeout(timer);
      resolve(true);
    };
    const timer = setTimeout(() => {
      state.quietWaiters.delete(wake);
      resolve(false);
    }, QUIET_WAIT_MS);
    state.quietWaiters.add(wake);
  });
}

function toEvent(r: RequestRecord): NewDeploymentEvent {
  return {
    kind: "request",
    at: r.at,
    route: r.route,
    status: r.status,
    latencyMs: r.latencyMs,
    data: {
      at: r.at.toISOString(),
      route: r.route,
      status: r.status,
      latency_ms: Math.round(r.latencyMs * 100) / 100,
      instances: r.instances,
      request_id: r.requestId,
      error: r.error,
    },
  };
}

function schedule(): void {
  if (state.timer) return;
  state.timer = setTimeout(() => {
    state.timer = null;
    void flushRequestLog();
  }, FLUSH_MS);
  state.timer.unref?.();
}

export function recordRequest(db: Db, record: RequestRecord): void {
  if (state.queued >= QUEUE_MAX) {
    state.dropped += 1;
    return;
  }
  const list = state.queue.get(db) ?? [];
  list.push(record);
  state.queue.set(db, list);
  state.queued += 1;
  if (state.queued >= QUEUE_FLUSH_AT) void flushRequestLog();
  else schedule();
}

async function writeBatch(db: Db, records: RequestRecord[]): Promise<RequestRecord[]> {
  const byDeployment = new Map<string, RequestRecord[]>();
  for (const r of records) {
    const list = byDeployment.get(r.deploymentId) ?? [];
    list.push(r);
    byDeployment.set(r.deploymentId, list);
  }
  const failed: RequestRecord[] = [];
  for (const [deploymentId, list] of byDeployment) {
    for (let i = 0; i < list.length; ) {
      const quiet = await quietMoment();
      const chunk = list.slice(i, i + (quiet ? WRITE_CHUNK : BUSY_WRITE_CHUNK));
      i += chunk.length;
      try {
        await appendDeploymentEvents(db, deploymentId, chunk.map(toEvent));
      } catch (err) {
        console.error("[request-log] write failed:", err instanceof Error ? err.message : err);
        failed.push(...chunk);
      }
    }
  }
  return failed;
}

/** Writes every queued call now (tests and shutdown call it; otherwise the timer does). */
export async function flushRequestLog(): Promise<void> {
  while (state.flushing) await state.flushing;
  if (state.queued === 0) return;
  const batches = [...state.queue.entries()];
  state.queue = new Map();
  state.queued = 0;
  state.flushing = (async () => {
    for (const [db, records] of batches) {
      const failed = await writeBatch(db, records);
      await pruneRequestLogHourly(db);
      if (failed.length > 0) {
        // Kept for the next flush (the database may be back by then).
        const list = state.queue.get(db) ?? [];
        list.unshift(...failed);
        state.queue.set(db, list);
        state.queued += failed.length;
      }
    }
  })();
  try {
    await state.flushing;
  } finally {
    state.flushing = null;
    if (state.queued > 0) schedule();
  }
}
