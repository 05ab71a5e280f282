import os from "node:os";
import { type Db, getDb, targetFromEnv } from "../db/client";
import { DomainError } from "../errors";
import { listenChannel } from "../events/pg-listen";
import { randomBase62 } from "../ids";
import {
  type ClaimedJob,
  claimNextJob,
  finishForRunner,
  heartbeatForRunner,
  JOBS_CHANNEL,
  type JobLease,
  type JobOutcome,
  notifyEnqueued,
  onJobEnqueued,
  onLocalCancel,
  recoverStaleJobs,
} from "./queue";
import { type JobContext, registeredJobTypes } from "./registry";

/**
 * Runs queued jobs: claims up to `concurrency` at a time, keeps their heartbeat fresh, writes the
 * outcome, and puts back jobs whose process died. Embedded mode runs one runner inside the server
 * (`ensureInProcessRunner`); with PostgreSQL, `npm run worker` processes can run them instead.
 * Handlers must not block the event loop for long stretches (yield between batches): while it is
 * blocked, no heartbeat is written, and after `staleAfterMs` another process takes the job over.
 *
 * One piece (past ~400 lines): the claim, heartbeat, retry and shutdown loop is one state machine.
 */

/** Throw this from a handler for a failure worth retrying (network, busy upstream): retried with backoff. */
export class RetryableJobError extends Error {
  readonly retryAfterMs: number | undefined;
  constructor(message: string, options: { retryAfterMs?: number; cause?: unknown } = {}) {
    super(message, { cause: options.cause });
    this.name = "RetryableJobError";
    this.retryAfterMs = options.retryAfterMs;
  }
}

type StopReason = "cancelled" | "lost" | "shutdown";

/** The reason a handler's `signal` carries. */
export class JobAbortedError extends Error {
  constructor(readonly reason: StopReason) {
    super(
      reason === "cancelled"
        ? "The job was cancelled."
        : reason === "lost"
          ? "The job was taken over after its heartbeat went stale."
          : "The worker is shutting down.",
    );
    this.name = "JobAbortedError";
  }
}

export type JobLog = (level: "info" | "error", message: string) => void;

export interface JobRunnerOptions {
  db: Db;
  /** Written to `locked_by`; unique per runner (default: host, pid and a random suffix). */
  workerId?: string;
  /** Jobs run at the same time (default 2). */
  concurrency?: number;
  /** How often to look for due jobs when nothing wakes the runner (default 1000 ms). */
  pollIntervalMs?: number;
  /**
   * Job types this runner takes: a list, or a lane (`{ long }`: the long-running types, or the others),
   * read on each claim (default: every type registered in the process).
   */
  types?: readonly string[] | { long: boolean };
  /** Heartbeat of running jobs, which also picks up cancellation from other processes (default 3000 ms). */
  heartbeatIntervalMs?: number;
  /** A running job without a heartbeat for this long is recovered (default 30 000 ms). */
  staleAfterMs?: number;
  /** How often to look for stale jobs (default 15 000 ms; also once at start). */
  recoverIntervalMs?: number;
  /**
   * This runner is the only one that can exist for the database (embedded PGlite, owned by one
   * process): every job found running at start was left by a previous process and is recovered at once.
   */
  soleRunner?: boolean;
  /** Least interval between progress writes of one job (default 1000 ms). */
  progressIntervalMs?: number;
  /** Retry backoff: base · 2^(attempt−1), ±20 %, capped (defaults 5000 ms and 300 000 ms). */
  retryBaseDelayMs?: number;
  retryMaxDelayMs?: number;
  /** Keep the Node.js process alive while idle (workers); the in-process runner does not (default false). */
  keepProcessAlive?: boolean;
  log?: JobLog;
}

export interface JobRunner {
  readonly workerId: string;
  /**
   * Stops claiming and waits for running handlers. With `graceMs`, handlers still running after that
   * long see their signal fire; a job interrupted that way goes back to the queue without using up an attempt.
   */
  stop(options?: { graceMs?: number }): Promise<void>;
}

const consoleLog: JobLog = (level, message) =>
  level === "error" ? console.error(`[jobs] ${message}`) : console.info(`[jobs] ${message}`);

export function defaultWorkerId(role: string): string {
  return `${role}:${os.hostname()}:${process.pid}:${randomBase62(6)}`;
}

function errorMessage(err: unknown): string {
  if (err instanceof Error) return err.message || err.name;
  return String(err);
}

function unrefIf(timer: NodeJS.Timeout, unref: boolean): NodeJS.Timeout {
  if (unref) timer.unref();
  return timer;
}

export function startJobRunner(options: JobRunnerOptions): JobRunner {
  const db = options.db;
  const workerId = options.workerId ?? defaultWorkerId("runner");
  const concurrency = Math.max(1, options.concurrency ?? 2);
  const pollIntervalMs = options.pollIntervalMs ?? 1000;
  const heartbeatIntervalMs = options.heartbeatIntervalMs ?? 3000;
  const staleAfterMs = options.staleAfterMs ?? 30_000;
  const recoverIntervalMs = options.recoverIntervalMs ?? 15_000;
  const progressIntervalMs = options.progressIntervalMs ?? 1000;
  const retryBaseDelayMs = options.retryBaseDelayMs ?? 5000;
  const retryMaxDelayMs = options.retryMaxDelayMs ?? 300_000;
  const unref = !options.keepProcessAlive;
  const log = options.log ?? consoleLog;
  const lane = options.types;
  const types = () =>
    Array.isArray(lane) ? lane : registeredJobTypes(lane as { long: boolean } | undefined);

  const running = new Set<Promise<void>>();
  const interrupters = new Map<string, () => void>();
  let stopping = false;
  let stopped: Promise<void> | undefined;

  // Sleep until the poll interval passes or something wakes the runner (enqueue, a freed slot, stop).
  let wakePending = false;
  let wakeSleeper: (() => void) | undefined;
  const wakeUp = () => {
    wakePending = true;
    wakeSleeper?.();
  };
  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      if (wakePending) return resolve();
      const done = () => {
        clearTimeout(timer);
        wakeSleeper = undefined;
        resolve();
      };
      const timer = unrefIf(setTimeout(done, ms), unref);
      wakeSleeper = done;
    });
  const unsubscribe = onJobEnqueued(wakeUp);
  // Jobs enqueued by other processes (servers on other machines): woken by their NOTIFY, and on every
  // (re)connection of the LISTEN, since notifications sent while it was down are lost.
  const unlisten = listenChannel(db, JOBS_CHANNEL, { onOther: wakeUp, onConnect: wakeUp });

  async function recover(threshold: number) {
    const counts = await recoverStaleJobs(db, threshold, { exceptWorkerId: workerId });
    if (counts.requeued + counts.failed + counts.cancelled > 0) {
      log(
        "info",
        `recovered stale jobs: ${counts.requeued} queued again, ${counts.failed} failed, ${counts.cancelled} cancelled`,
      );
    }
  }

  function retryDelay(err: RetryableJobError, attempt: number): number {
    if (err.retryAfterMs !== undefined) return err.retryAfterMs;
    const exponential = Math.min(retryBaseDelayMs * 2 ** (attempt - 1), retryMaxDelayMs);
    return Math.round(exponential * (0.8 + Math.random() * 0.4));
  }

  async function execute({ job, jobType, payload }: ClaimedJob): Promise<void> {
    const lease: JobLease = { id: job.id, workerId, attempt: job.attempts };
    const label = `job ${job.id} (${job.type}, attempt ${job.attempts}/${job.maxAttempts})`;
    const controller = new AbortController();
    let stopReason: StopReason | undefined;
    const abort = (reason: StopReason) => {
      if (controller.signal.aborted) return;
      stopReason = reason;
      controller.abort(new JobAbortedError(reason));
    };
    const unregisterCancel = onLocalCancel(job.id, () => abort("cancelled"));
    interrupters.set(job.id, () => abort("shutdown"));

    const observe = (beat: { cancelRequested: boolean } | null) => {
      if (beat === null) abort("lost");
      else if (beat.cancelRequested) abort("cancelled");
    };
    const progress = progressWriter(progressIntervalMs, unref, async (p) => {
      observe(await heartbeatForRunner(db, lease, p));
    });
    const heartbeat = repeat(heartbeatIntervalMs, unref, async () => {
      observe(await heartbeatForRunner(db, lease));
    });

    const ctx: JobContext = {
      db,
      jobId: job.id,
      attempt: job.attempts,
      signal: controller.signal,
      isCancelled: () => controller.signal.aborted,
      reportProgress: progress.report,
      log: (message) => log("info", `[${job.id} ${job.type}] ${message}`),
    };

    let outcome: JobOutcome;
    try {
      outcome = { kind: "succeeded", result: await jobType.run(payload, ctx) };
    } catch (err) {
      if (stopReason === "cancelled") outcome = { kind: "cancelled" };
      else if (stopReason === "shutdown") outcome = { kind: "released" };
      else if (err instanceof RetryableJobError && job.attempts < job.maxAttempts) {
        outcome = { kind: "retry", error: errorMessage(err), delayMs: retryDelay(err, job.attempts) };
      } else {
        outcome = { kind: "failed", error: errorMessage(err) };
        // Expected failures (domain errors: bad input, limits) are recorded without a stack trace.
        if (
          !(err instanceof RetryableJobError) &&
          !(err instanceof DomainError) &&
          err instanceof Error &&
          err.stack
        ) {
          log("error", `${label} failed: ${err.stack}`);
        }
      }
    } finally {
      heartbeat.stop();
      unregisterCancel();
      interrupters.delete(job.id);
    }
    await progress.flush().catch(() => {});
    try {
      const state = await finishForRunner(db, lease, outcome);
      if (state === null)
        log("error", `${label}: lost to stale-job recovery; its outcome (${outcome.kind}) was dropped`);
      else if (state === "queued")
        log("info", `${label}: ${outcome.kind === "released" ? "released" : "will retry"}`);
      else if (state === "failed" && outcome.kind === "failed")
        log("info", `${label} failed: ${outcome.error}`);
    } catch (err) {
      // The heartbeat stops with the handler: stale-job recovery will put the job back.
      log("error", `${label}: could not record its outcome (${outcome.kind}): ${errorMessage(err)}`);
    }
  }

  function track(work: Promise<void>) {
    running.add(work);
    void work
      .catch((err) => log("error", `job runner error: ${errorMessage(err)}`))
      .finally(() => {
        running.delete(work);
        wakeUp();
      });
  }

  const loop = (async () => {
    let nextRecoveryAt = 0;
    let firstRecovery = true;
    while (!stopping) {
      wakePending = false;
      try {
        if (Date.now() >= nextRecoveryAt) {
          await recover(firstRecovery && options.soleRunner ? 0 : staleAfterMs);
          firstRecovery = false;
          nextRecoveryAt = Date.now() + recoverIntervalMs;
        }
        while (!stopping && running.size < concurrency) {
          const claimed = await claimNextJob(db, workerId, types());
          if (!claimed) break;
          track(execute(claimed));
        }
      } catch (err) {
        log("error", `job runner ${workerId}: ${errorMessage(err)}`);
      }
      if (!stopping) await sleep(Math.max(0, Math.min(pollIntervalMs, nextRecoveryAt - Date.now())));
    }
  })();

  return {
    workerId,
    stop(stopOptions = {}) {
      stopped ??= (async () => {
        stopping = true;
        unsubscribe();
        unlisten();
        wakeUp();
        await loop;
        const grace =
          stopOptions.graceMs === undefined
            ? undefined
            : setTimeout(() => {
                for (const interrupt of interrupters.values()) interrupt();
              }, stopOptions.graceMs);
        await Promise.allSettled([...running]);
        clearTimeout(grace);
      })();
      return stopped;
    },
  };
}

/** Calls `task` every `intervalMs` (never overlapping) until stopped; errors are ignored. */
function repeat(intervalMs: number, unref: boolean, task: () => Promise<void>): { stop(): void } {
  let active = true;
  let timer: NodeJS.Timeout | undefined;
  const tick = async () => {
    await task().catch(() => {});
    if (active) timer = unrefIf(setTimeout(tick, intervalMs), unref);
  };
  timer = unrefIf(setTimeout(tick, intervalMs), unref);
  return {
    stop() {
      active = false;
      clearTimeout(timer);
    },
  };
}

interface Progress {
  fraction: number;
  message: string | null;
}

/** Progress writes at most every `intervalMs`, in order; the latest value is always written in the end. */
function progressWriter(intervalMs: number, unref: boolean, write: (p: Progress) => Promise<void>) {
  let current: Progress = { fraction: 0, message: null };
  let unwritten = false;
  let lastWriteAt = 0;
  let timer: NodeJS.Timeout | undefined;
  let chain: Promise<void> = Promise.resolve();

  const flush = (): Promise<void> => {
    clearTimeout(timer);
    timer = undefined;
    if (!unwritten) return chain;
    unwritten = false;
    lastWriteAt = Date.now();
    const value = current;
    chain = chain.then(() => write(value)).catch(() => {});
    return chain;
  };

  const report = (fraction: number, message?: string): Promise<void> => {
    const clamped = Number.isFinite(fraction) ? Math.min(1, Math.max(0, fraction)) : current.fraction;
    current = { fraction: clamped, message: message ?? current.message };
    unwritten = true;
    const wait = lastWriteAt + intervalMs - Date.now();
    if (wait <= 0) return flush();
    timer ??= unrefIf(setTimeout(flush, wait), unref);
    return Promise.resolve();
  };

  return { report, flush };
}

// ---------------------------------------------------------------------------------------------------
// One runner per process in embedded mode

const inProcess = globalThis as unknown as {
  __layerlineJobRunner?: Promise<JobRunner | null>;
  __layerlineWorkersWarned?: boolean;
  __layerlineJobTypesRegistered?: boolean;
};

/** Called by lib/server/job-types.ts once every job type of the application is registered. */
export function jobTypesRegistered(): void {
  inProcess.__layerlineJobTypesRegistered = true;
}

function envInt(value: string | undefined, fallback: number): number {
  const n = Number(value);
  return Number.isInteger(n) && n > 0 ? n : fallback;
}

/**
 * Starts this process's runner on first call (later calls return the same one), taking every job type
 * registered in the process: lib/server/job-types.ts must have been loaded (the app and the server start
 * import it; jobs/ knows no job type), else the runner does not start and says so. Does nothing when LAYERLINE_WORKERS=external (separate `npm run worker`
 * processes run the jobs; PostgreSQL only). Concurrency: LAYERLINE_JOB_CONCURRENCY (default 2).
 */
export function ensureInProcessRunner(): Promise<JobRunner | null> {
  if (process.env.LAYERLINE_WORKERS === "external") {
    if (targetFromEnv().kind !== "postgres" && !inProcess.__layerlineWorkersWarned) {
      inProcess.__layerlineWorkersWarned = true;
      consoleLog(
        "error",
        "LAYERLINE_WORKERS=external needs DATABASE_URL: no worker can open the embedded database",
      );
    }
    return Promise.resolve(null);
  }
  inProcess.__layerlineJobRunner ??= (async () => {
    if (!inProcess.__layerlineJobTypesRegistered) {
      throw new Error("the job types are not registered (import lib/server/job-types.ts first)");
    }
    const db = await getDb();
    return startRunnerLanes({
      db,
      workerId: defaultWorkerId("server"),
      soleRunner: targetFromEnv().kind !== "postgres",
    });
  })().catch((err: unknown) => {
    inProcess.__layerlineJobRunner = undefined;
    consoleLog("error", `could not start the job runner: ${errorMessage(err)}`);
    return null;
  });
  return inProcess.__layerlineJobRunner;
}

/**
 * Two lanes of runners sharing one worker id (so neither recovers the other's jobs as stale): short
 * jobs (LAYERLINE_JOB_CONCURRENCY at a time, default 2) and long ones such as training
 * (LAYERLINE_TRAINING_CONCURRENCY, default 2), so a long job never holds a short one's slot.
 */
export function startRunnerLanes(
  options: Omit<JobRunnerOptions, "types" | "concurrency" | "workerId"> & { workerId: string },
): JobRunner {
  const short = startJobRunner({
    ...options,
    types: { long: false },
    concurrency: envInt(process.env.LAYERLINE_JOB_CONCURRENCY, 2),
  });
  const long = startJobRunner({
    ...options,
    types: { long: true },
    concurrency: envInt(process.env.LAYERLINE_TRAINING_CONCURRENCY, 2),
  });
  return {
    workerId: options.workerId,
    stop: async (stopOptions) => {
      await Promise.all([short.stop(stopOptions), long.stop(stopOptions)]);
    },
  };
}

/** Stops this process's runner, if one was started (shutdown, tests). */
export async function stopInProcessRunner(options?: { graceMs?: number }): Promise<void> {
  const runner = await inProcess.__layerlineJobRunner;
  inProcess.__layerlineJobRunner = undefined;
  await runner?.stop(options);
}

/** Wakes the runners of this process so that a job just made due starts now (enqueueJob does this itself). */
export function kickRunner(): void {
  notifyEnqueued();
}
