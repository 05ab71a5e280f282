/**
 * The request log of deployments: inference and OpenAI-compatible calls become `request` events
 * (route, status, latency, instances, request id, the error's detail). Writing it is off the
 * request's path: calls are queued in this process and written in batches (one statement per
 * deployment and chunk, each second's lines once that second has ended: FLUSH_MS after the first
 * waiting call, or sooner when QUEUE_FLUSH_AT lines wait; on shutdown, when the database closes),
 * so a predict call never waits for its own log line. A process killed outright loses at most its
 * last two seconds of log lines, never a prediction; several processes each write their own lines
 * (the database numbers them). Old lines are pruned after REQUEST_LOG_RETENTION_DAYS (retention.ts).
 *
 * Each chunk waits for a moment when this process serves no call (up to QUIET_WAIT_MS): the
 * embedded database runs on the server's thread, so a write started mid-call would add its whole
 * duration to that call; started between calls, it delays at most the start of the next one, by
 * one small chunk. A server that is never idle (concurrent calls) gets no such moment: after the
 * wait it writes larger chunks, so the log keeps up with thousands of calls a second.
 *
 * A busy deployment's log is a sample: each second, a deployment keeps at most
 * REQUEST_LOG_LINES_PER_SECOND lines (default 50) of each outcome (success, client error, server
 * error), a uniform sample of that second's calls of that outcome, and each kept line carries
 * the number of calls it stands for (`data.weight`, above 1 only when calls were left out). The
 * metrics weigh lines by it, so their counts stay exact and their percentiles are those of every
 * call, estimated from the sample. Writing a line costs the embedded database about as much as
 * serving a call (bench/serving-bench.ts, "where the tail comes from"): without the bound, the
 * log would take most of the server's thread at a thousand calls a second.
 */
import { type Db, onBeforeCloseDb } from "../../db/client";
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

/** The most lines kept per deployment, outcome and second (REQUEST_LOG_LINES_PER_SECOND). */
export function requestLogLinesPerSecond(env: NodeJS.ProcessEnv = process.env): number {
  const n = Number(env.REQUEST_LOG_LINES_PER_SECOND);
  return Number.isSafeInteger(n) && n > 0 ? n : 50;
}

/** A logged call and the number of calls it stands for (a whole number). */
interface Line {
  record: RequestRecord;
  weight: number;
}

/** One second's calls of one deployment and outcome: a uniform sample of them (reservoir). */
interface Sample {
  second: number;
  seen: number;
  kept: RequestRecord[];
}

interface LogState {
  /** Logged calls this process is serving right now. */
  inFlight: number;
  /** Writers waiting for a moment with no call in flight. */
  quietWaiters: Set<() => void>;
  /** Samples waiting to be written, by database, then by deployment, outcome and second. */
  queue: Map<Db, Map<string, Sample>>;
  /** Lines whose write failed, written first at the next flush. */
  retry: Map<Db, Line[]>;
  queued: number;
  dropped: number;
  /** The second in which a full queue last started a flush. */
  earlyFlushSecond?: number;
  timer: ReturnType<typeof setTimeout> | null;
  flushing: Promise<void> | null;
}

const g = globalThis as unknown as { __layerlineRequestLog?: LogState };
if (!g.__layerlineRequestLog)
  g.__layerlineRequestLog = {
    inFlight: 0,
    quietWaiters: new Set(),
    queue: new Map(),
    retry: new Map(),
    queued: 0,
    dropped: 0,
    timer: null,
    flushing: null,
  };
const state: LogState = g.__layerlineRequestLog;
state.retry ??= new Map();

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

function toEvent({ record: r, weight }: Line): NewDeploymentEvent {
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
      ...(weight > 1 ? { weight } : {}),
    },
  };
}

function outcome(status: number): string {
  return status >= 500 ? "5xx" : status >= 400 ? "4xx" : "ok";
}

function schedule(): void {
  if (state.timer) return;
  state.timer = setTimeout(() => {
    state.timer = null;
    void flush(false);
  }, FLUSH_MS);
  state.timer.unref?.();
}

export function recordRequest(db: Db, record: RequestRecord): void {
  let samples = state.queue.get(db);
  if (!samples) {
    samples = new Map();
    state.queue.set(db, samples);
  }
  const second = Math.floor(record.at.getTime() / 1000);
  const key = `${record.deploymentId}|${outcome(record.status)}|${second}`;
  let sample = samples.get(key);
  if (!sample) {
    sample = { second, seen: 0, kept: [] };
    samples.set(key, sample);
  }
  sample.seen += 1;
  const limit = requestLogLinesPerSecond();
  if (sample.kept.length < limit) {
    if (state.queued >= QUEUE_MAX) {
      state.dropped += 1;
      return;
    }
    sample.kept.push(record);
    state.queued += 1;
  } else {
    // Reservoir sampling: each of the second's calls is kept with the same chance.
    const at = Math.floor(Math.random() * sample.seen);
    if (at < limit) sample.kept[at] = record;
  }
  if (state.queued >= QUEUE_FLUSH_AT && state.earlyFlushSecond !== second) {
    state.earlyFlushSecond = second; // once a second at most: the current second's lines wait for its end
    void flush(false);
  } else schedule();
}

/**
 * The samples as lines, each weighted by the calls it stands for, oldest first: those of the
 * seconds that have ended, or all of them (`all`). The others stay queued.
 */
function takeLines(samples: Map<string, Sample>, all: boolean): Line[] {
  const now = Math.floor(Date.now() / 1000);
  const lines: Line[] = [];
  for (const [key, { second, seen, kept }] of samples) {
    if (!all && second >= now) continue;
    samples.delete(key);
    state.queued -= kept.length;
    // Whole calls: the weights add up to the calls seen, none differing by more than one.
    const base = Math.floor(seen / kept.length);
    const extra = seen - base * kept.length;
    kept.forEach((record, i) => {
      lines.push({ record, weight: base + (i < extra ? 1 : 0) });
    });
  }
  return lines.sort((a, b) => a.record.at.getTime() - b.record.at.getTime());
}

async function writeBatch(db: Db, lines: Line[]): Promise<Line[]> {
  const byDeployment = new Map<string, Line[]>();
  for (const line of lines) {
    const list = byDeployment.get(line.record.deploymentId) ?? [];
    list.push(line);
    byDeployment.set(line.record.deploymentId, list);
  }
  const failed: Line[] = [];
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

// Lines still queued are written when the process-wide database closes (the server's shutdown).
onBeforeCloseDb("request-log", () => flushRequestLog());

/** Writes every queued call now (tests and shutdown call it; otherwise the timer does). */
export function flushRequestLog(): Promise<void> {
  return flush(true);
}

/** Writes the lines of the seconds that have ended (a second's sample is complete), or all. */
async function flush(all: boolean): Promise<void> {
  while (state.flushing) await state.flushing;
  if (state.queued === 0) return;
  const batches = new Map<Db, Line[]>();
  for (const [db, lines] of state.retry) {
    batches.set(db, [...lines]);
    state.queued -= lines.length;
  }
  state.retry = new Map();
  for (const [db, samples] of state.queue) {
    batches.set(db, [...(batches.get(db) ?? []), ...takeLines(samples, all)]);
    if (samples.size === 0) state.queue.delete(db);
  }
  state.flushing = (async () => {
    for (const [db, lines] of batches) {
      const failed = await writeBatch(db, lines);
      await pruneRequestLogHourly(db);
      if (failed.length > 0) {
        // Kept for the next flush (the database may be back by then).
        state.retry.set(db, [...failed, ...(state.retry.get(db) ?? [])]);
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
