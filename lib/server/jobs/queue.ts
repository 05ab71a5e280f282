import { and, eq, inArray, lte, type SQL, sql } from "drizzle-orm";
import type { PgUpdateSetSource } from "drizzle-orm/pg-core";
import type { z } from "zod";
import type { Db } from "../db/client";
import { type Job, type JobState, jobs } from "../db/schema";
import { ConflictError, NotFoundError, ValidationError } from "../errors";
import { isPostgresServer, notifyPayload } from "../events/pg-listen";
import { newId } from "../ids";
import { findJobType, type JobType } from "./registry";

/**
 * The jobs table as a queue: every state change is one UPDATE guarded by the state it expects, so
 * concurrent runners, cancellations and stale-job recovery never overwrite each other. The runner
 * (runner.ts) drives the `*ForRunner` functions; services use enqueue, get and cancel.
 *
 * One piece (past ~400 lines): every state change of a job row is here, so the guards that keep
 * concurrent writers apart can be read together.
 */

export type { Job, JobState };

export interface EnqueueOptions {
  /** The user the job belongs to (getJob/requestCancel check it); null for system jobs. */
  ownerId: string | null;
  /** Not started before this time (default: now). */
  runAfter?: Date;
  /** Runs allowed, counting retries and recoveries after a crash (default 3). */
  maxAttempts?: number;
}

const MAX_ERROR_LENGTH = 2000;

function parsePayload(jobType: JobType, payload: unknown): z.ZodSafeParseResult<unknown> {
  return jobType.payload.safeParse(payload);
}

function describeIssues(error: z.ZodError): string {
  return error.issues.map((i) => `${["payload", ...i.path.map(String)].join(".")}: ${i.message}`).join("; ");
}

/** Validates the payload with the job type's schema and stores a queued job. */
export async function enqueueJob<S extends z.ZodType>(
  db: Db,
  jobType: JobType<S, unknown>,
  payload: z.input<S>,
  options: EnqueueOptions,
): Promise<Job>;
/** Same, naming a job type registered in this process. */
export async function enqueueJob(
  db: Db,
  type: string,
  payload: unknown,
  options: EnqueueOptions,
): Promise<Job>;
export async function enqueueJob(
  db: Db,
  typeOrJobType: string | JobType,
  payload: unknown,
  options: EnqueueOptions,
): Promise<Job> {
  const jobType = typeof typeOrJobType === "string" ? findJobType(typeOrJobType) : typeOrJobType;
  if (!jobType)
    throw new Error(
      `Unknown job type "${String(typeOrJobType)}" (is it imported in lib/server/job-types.ts?)`,
    );
  const parsed = parsePayload(jobType, payload);
  if (!parsed.success) {
    throw new ValidationError(
      `Invalid payload for job type ${jobType.type}.`,
      parsed.error.issues.map((i) => ({
        path: ["payload", ...i.path.map(String)].join("."),
        message: i.message,
      })),
    );
  }
  const maxAttempts = options.maxAttempts ?? 3;
  if (!Number.isInteger(maxAttempts) || maxAttempts < 1)
    throw new Error("maxAttempts must be an integer ≥ 1");
  const [job] = await db
    .insert(jobs)
    .values({
      id: newId("tsk"),
      type: jobType.type,
      payload: parsed.data ?? null,
      ownerId: options.ownerId,
      maxAttempts,
      ...(options.runAfter ? { runAfter: options.runAfter } : {}),
    })
    .returning();
  await announceClaimable(db);
  return job;
}

/** A job by id; NotFoundError when it does not exist, belongs to another owner, or is of another type. */
export async function getJob(db: Db, id: string, ownerId?: string, type?: string): Promise<Job> {
  const [job] = await db.select().from(jobs).where(eq(jobs.id, id));
  if (
    !job ||
    (ownerId !== undefined && job.ownerId !== ownerId) ||
    (type !== undefined && job.type !== type)
  ) {
    throw new NotFoundError("Job");
  }
  return job;
}

/**
 * Cancels a job: a queued one is cancelled at once; a running one is flagged, its handler's signal
 * fires (at once in this process, within a heartbeat elsewhere) and the runner marks it cancelled when
 * the handler returns. A finished job cannot be cancelled (ConflictError). Returns the job after the change.
 */
export async function requestCancel(db: Db, id: string, ownerId?: string, type?: string): Promise<Job> {
  const current = await getJob(db, id, ownerId, type);
  const [job] = await db
    .update(jobs)
    .set({
      state: sql`case when ${jobs.state} = 'queued' then 'cancelled' else ${jobs.state} end`,
      finishedAt: sql`case when ${jobs.state} = 'queued' then now() else ${jobs.finishedAt} end`,
      cancelRequested: true,
      updatedAt: sql`now()`,
    })
    .where(and(eq(jobs.id, current.id), inArray(jobs.state, ["queued", "running"])))
    .returning();
  if (!job) {
    const finished = await getJob(db, id);
    throw new ConflictError(
      `The job has already finished (${finished.state}); it can no longer be cancelled.`,
    );
  }
  if (job.state === "running") abortLocally(job.id);
  return job;
}

/** The API representation of a job (snake_case, ISO timestamps); capabilities may add their own fields. */
export interface JobView {
  id: string;
  type: string;
  state: JobState;
  progress: number;
  progress_message: string | null;
  result: unknown;
  error: string | null;
  attempts: number;
  max_attempts: number;
  cancel_requested: boolean;
  created_at: string;
  updated_at: string;
  finished_at: string | null;
}

export function toJobView(job: Job): JobView {
  return {
    id: job.id,
    type: job.type,
    state: job.state,
    progress: job.progress,
    progress_message: job.progressMessage,
    result: job.result ?? null,
    error: job.error,
    attempts: job.attempts,
    max_attempts: job.maxAttempts,
    cancel_requested: job.cancelRequested,
    created_at: job.createdAt.toISOString(),
    updated_at: job.updatedAt.toISOString(),
    finished_at: job.finishedAt?.toISOString() ?? null,
  };
}

// ---------------------------------------------------------------------------------------------------
// Claiming and recovery

export interface ClaimedJob {
  job: Job;
  jobType: JobType;
  /** The payload as parsed by the job type's schema on claim. */
  payload: unknown;
}

/**
 * Claims the oldest due queued job of one of `types` for `workerId`: one
 * `UPDATE … WHERE id = (SELECT … FOR UPDATE SKIP LOCKED LIMIT 1) RETURNING *`, so two runners never get
 * the same job. A job whose payload no longer validates is failed and the next one is tried.
 */
export async function claimNextJob(
  db: Db,
  workerId: string,
  types: readonly string[],
): Promise<ClaimedJob | null> {
  const known = types.filter((t) => findJobType(t));
  if (known.length === 0) return null;
  for (;;) {
    const next = db
      .select({ id: jobs.id })
      .from(jobs)
      .where(and(eq(jobs.state, "queued"), lte(jobs.runAfter, sql`now()`), inArray(jobs.type, known)))
      .orderBy(jobs.createdAt, jobs.id)
      .limit(1)
      .for("update", { skipLocked: true });
    const [job] = await db
      .update(jobs)
      .set({
        state: "running",
        attempts: sql`${jobs.attempts} + 1`,
        lockedBy: workerId,
        lockedAt: sql`now()`,
        heartbeatAt: sql`now()`,
        updatedAt: sql`now()`,
      })
      .where(and(eq(jobs.id, next), eq(jobs.state, "queued")))
      .returning();
    if (!job) return null;
    const jobType = findJobType(job.type);
    if (!jobType) throw new Error(`Job type ${job.type} disappeared from the registry`);
    const parsed = parsePayload(jobType, job.payload);
    if (parsed.success) return { job, jobType, payload: parsed.data };
    await db
      .update(jobs)
      .set({
        ...finishedFields("failed"),
        error: truncate(`Invalid payload: ${describeIssues(parsed.error)}`),
      })
      .where(heldBy({ id: job.id, workerId, attempt: job.attempts }));
  }
}

export interface RecoveryCounts {
  requeued: number;
  failed: number;
  cancelled: number;
}

/**
 * Jobs left running by a process that stopped heartbeating (it died, or the server restarted) for at
 * least `staleAfterMs`: back to the queue if attempts remain, else failed with an explanation;
 * cancelled if cancellation had been requested. Safe to run from several processes at once.
 */
export async function recoverStaleJobs(
  db: Db,
  staleAfterMs: number,
  options: { exceptWorkerId?: string } = {},
): Promise<RecoveryCounts> {
  const stale = and(
    eq(jobs.state, "running"),
    // A runner never recovers its own jobs: it knows they are alive, even if a handler that blocked the
    // event loop delayed their heartbeat.
    options.exceptWorkerId ? sql`${jobs.lockedBy} is distinct from ${options.exceptWorkerId}` : undefined,
    lte(
      sql`coalesce(${jobs.heartbeatAt}, ${jobs.lockedAt}, ${jobs.updatedAt})`,
      sql`now() - ${Math.max(0, staleAfterMs)}::double precision * interval '1 millisecond'`,
    ),
  );
  const released = { lockedBy: null, lockedAt: null, heartbeatAt: null, updatedAt: sql`now()` };
  const cancelled = await db
    .update(jobs)
    .set({ ...finishedFields("cancelled"), ...released })
    .where(and(stale, eq(jobs.cancelRequested, true)))
    .returning({ id: jobs.id });
  const requeued = await db
    .update(jobs)
    .set({
      ...released,
      state: "queued",
      runAfter: sql`now()`,
      error: "The worker running this job stopped responding; the job was queued again.",
    })
    .where(and(stale, sql`${jobs.attempts} < ${jobs.maxAttempts}`))
    .returning({ id: jobs.id });
  const failed = await db
    .update(jobs)
    .set({
      ...finishedFields("failed"),
      ...released,
      error: sql`'The worker running this job stopped responding, and all ' || ${jobs.attempts} || ' attempts are used up.'`,
    })
    .where(stale)
    .returning({ id: jobs.id });
  if (requeued.length > 0) await announceClaimable(db);
  return { requeued: requeued.length, failed: failed.length, cancelled: cancelled.length };
}

// ---------------------------------------------------------------------------------------------------
// Writes by the runner that holds a job. Each is fenced on (id, worker, attempt, running): a runner
// that lost its job (recovered as stale while it was stuck) changes nothing and learns it from the result.

export interface JobLease {
  id: string;
  workerId: string;
  /** `attempts` as set by the claim. */
  attempt: number;
}

function heldBy(lease: JobLease): SQL | undefined {
  return and(
    eq(jobs.id, lease.id),
    eq(jobs.lockedBy, lease.workerId),
    eq(jobs.attempts, lease.attempt),
    eq(jobs.state, "running"),
  );
}

function finishedFields(state: "succeeded" | "failed" | "cancelled") {
  return { state, finishedAt: sql`now()`, updatedAt: sql`now()`, lockedBy: null, lockedAt: null } as const;
}

function truncate(message: string): string {
  return message.length > MAX_ERROR_LENGTH ? `${message.slice(0, MAX_ERROR_LENGTH - 1)}…` : message;
}

/** Keeps the lease alive; returns whether cancellation was requested, or null if the job was lost. */
export async function heartbeatForRunner(
  db: Db,
  lease: JobLease,
  progress?: { fraction: number; message: string | null },
): Promise<{ cancelRequested: boolean } | null> {
  const [row] = await db
    .update(jobs)
    .set({
      heartbeatAt: sql`now()`,
      updatedAt: sql`now()`,
      ...(progress ? { progress: progress.fraction, progressMessage: progress.message } : {}),
    })
    .where(heldBy(lease))
    .returning({ cancelRequested: jobs.cancelRequested });
  return row ?? null;
}

export type JobOutcome =
  | { kind: "succeeded"; result: unknown }
  | { kind: "failed"; error: string }
  | { kind: "retry"; error: string; delayMs: number }
  | { kind: "cancelled" }
  /** Interrupted by a shutdown: back to the queue without using up an attempt. */
  | { kind: "released" };

/**
 * Writes the outcome of a run. A pending cancellation wins over success, failure and retry (the
 * handler stopped; the user asked for it to stop). Returns the final state, or null if the job was lost.
 */
export async function finishForRunner(
  db: Db,
  lease: JobLease,
  outcome: JobOutcome,
): Promise<JobState | null> {
  const ifCancelRequested = (otherwise: JobState) =>
    sql<JobState>`case when ${jobs.cancelRequested} then 'cancelled' else ${otherwise} end`;
  const finishedAt = (finishing: boolean) =>
    finishing ? sql`now()` : sql`case when ${jobs.cancelRequested} then now() else null end`;
  let set: PgUpdateSetSource<typeof jobs>;
  switch (outcome.kind) {
    case "succeeded":
      set = {
        state: ifCancelRequested("succeeded"),
        result: sql`case when ${jobs.cancelRequested} then null else ${JSON.stringify(outcome.result ?? null)}::text::jsonb end`,
        progress: sql`case when ${jobs.cancelRequested} then ${jobs.progress} else 1 end`,
        error: null,
        finishedAt: finishedAt(true),
      };
      break;
    case "failed":
      set = {
        state: ifCancelRequested("failed"),
        error: truncate(outcome.error),
        finishedAt: finishedAt(true),
      };
      break;
    case "retry":
      set = {
        state: ifCancelRequested("queued"),
        error: truncate(outcome.error),
        runAfter: sql`now() + ${Math.max(0, outcome.delayMs)}::double precision * interval '1 millisecond'`,
        heartbeatAt: null,
        finishedAt: finishedAt(false),
      };
      break;
    case "released":
      set = {
        state: ifCancelRequested("queued"),
        attempts: sql`${jobs.attempts} - 1`,
        runAfter: sql`now()`,
        heartbeatAt: null,
        finishedAt: finishedAt(false),
      };
      break;
    case "cancelled":
      set = { state: "cancelled", finishedAt: finishedAt(true) };
      break;
  }
  const [row] = await db
    .update(jobs)
    .set({ ...set, updatedAt: sql`now()`, lockedBy: null, lockedAt: null })
    .where(heldBy(lease))
    .returning({ state: jobs.state });
  if (row?.state === "queued") await announceClaimable(db);
  return row?.state ?? null;
}

// ---------------------------------------------------------------------------------------------------
// In-process signals: runners in this process wake up when a job is enqueued, and a handler running in
// this process is aborted as soon as its job is cancelled (other processes see it on their heartbeat).

const local = globalThis as unknown as {
  __layerlineJobWakers?: Set<() => void>;
  __layerlineJobAborters?: Map<string, () => void>;
};

function wakers(): Set<() => void> {
  local.__layerlineJobWakers ??= new Set();
  return local.__layerlineJobWakers;
}

function aborters(): Map<string, () => void> {
  local.__layerlineJobAborters ??= new Map();
  return local.__layerlineJobAborters;
}

/** Calls `wake` whenever a job becomes claimable in this process; returns an unsubscribe function. */
export function onJobEnqueued(wake: () => void): () => void {
  wakers().add(wake);
  return () => wakers().delete(wake);
}

export function notifyEnqueued(): void {
  for (const wake of wakers()) wake();
}

/**
 * The channel on which a job that became claimable is announced to the runners of other processes
 * (workers on other machines): PostgreSQL only; they LISTEN to it, and still poll in case a
 * notification is lost while their connection is down.
 */
export const JOBS_CHANNEL = "layerline_jobs";

/**
 * Wakes this process's runners at once, and on PostgreSQL every other process's (NOTIFY; inside a
 * transaction it is delivered when the transaction commits, when the job becomes visible).
 */
async function announceClaimable(db: Db): Promise<void> {
  notifyEnqueued();
  if (!isPostgresServer(db)) return;
  try {
    await db.execute(sql`select pg_notify(${JOBS_CHANNEL}, ${notifyPayload(db, "claimable")})`);
  } catch (err) {
    // Outside a transaction the job is stored: other processes' runners find it on their next poll
    // (inside one, the transaction fails with it).
    console.error("[jobs] could not notify other processes:", err instanceof Error ? err.message : err);
  }
}

/** Registers how to abort a job running in this process; returns an unregister function. */
export function onLocalCancel(jobId: string, abort: () => void): () => void {
  aborters().set(jobId, abort);
  return () => {
    if (aborters().get(jobId) === abort) aborters().delete(jobId);
  };
}

function abortLocally(jobId: string): void {
  aborters().get(jobId)?.();
}
