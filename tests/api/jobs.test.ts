import { eq, inArray, sql } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { type Db, getDb, openDb } from "@/lib/server/db/client";
import { jobs } from "@/lib/server/db/schema";
import { ConflictError, NotFoundError, ValidationError } from "@/lib/server/errors";
import { randomBase62 } from "@/lib/server/ids";
import {
  claimNextJob,
  enqueueJob,
  getJob,
  type Job,
  recoverStaleJobs,
  requestCancel,
} from "@/lib/server/jobs/queue";
import { defineJobType } from "@/lib/server/jobs/registry";
import {
  ensureInProcessRunner,
  type JobRunner,
  type JobRunnerOptions,
  RetryableJobError,
  startJobRunner,
  stopInProcessRunner,
} from "@/lib/server/jobs/runner";
import { startTestApp } from "../helpers";

await startTestApp();
const db = await getDb();

/** Job type names unique to this run, so runs sharing one PostgreSQL database never see each other's jobs. */
const run = randomBase62(6);
const typeName = (name: string) => `test.${name}.${run}`;

const runners: JobRunner[] = [];
function startRunner(types: string[], options: Partial<JobRunnerOptions> = {}): JobRunner {
  const runner = startJobRunner({
    db,
    types,
    concurrency: 2,
    pollIntervalMs: 50,
    heartbeatIntervalMs: 100,
    progressIntervalMs: 20,
    retryBaseDelayMs: 10,
    log: () => {},
    ...options,
  });
  runners.push(runner);
  return runner;
}

afterEach(async () => {
  await Promise.all(runners.splice(0).map((r) => r.stop({ graceMs: 2000 })));
});

async function waitFor<T>(
  read: () => Promise<T>,
  done: (value: T) => boolean,
  what: string,
  timeoutMs = 15_000,
) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}: ${JSON.stringify(value)}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

const waitForState = (id: string, ...states: Job["state"][]) =>
  waitFor(
    () => getJob(db, id),
    (job) => states.includes(job.state),
    `job ${id} to be ${states.join(" or ")}`,
  );

function deferred() {
  let resolve = () => {};
  const promise = new Promise<void>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

/** Resolves when the signal fires, then throws its reason (what a well-behaved handler does). */
function untilAborted(signal: AbortSignal): Promise<never> {
  return new Promise((_, reject) => {
    if (signal.aborted) reject(signal.reason);
    signal.addEventListener("abort", () => reject(signal.reason), { once: true });
  });
}

// ---------------------------------------------------------------------------------------------------

const halfway = new Map<number, ReturnType<typeof deferred>>();
const square = defineJobType({
  type: typeName("square"),
  payload: z.object({ n: z.number().int(), label: z.string().default("square") }),
  run: async ({ n, label }, ctx) => {
    await ctx.reportProgress(0.5, `${label}: halfway`);
    await halfway.get(n)?.promise;
    ctx.log(`squared ${n}`);
    return { square: n * n, label };
  },
});

describe("job lifecycle", () => {
  it("runs an enqueued job to success with its result and progress 1", async () => {
    const gate = deferred();
    halfway.set(7, gate);
    const job = await enqueueJob(db, square, { n: 7 }, { ownerId: "usr_test" });
    expect(job).toMatchObject({ state: "queued", attempts: 0, maxAttempts: 3, ownerId: "usr_test" });
    expect(job.id).toMatch(/^tsk_/);
    expect(job.payload).toEqual({ n: 7, label: "square" });

    startRunner([square.type]);
    const midway = await waitFor(
      () => getJob(db, job.id),
      (j) => j.progress === 0.5,
      "progress 0.5",
    );
    expect(midway).toMatchObject({ state: "running", progressMessage: "square: halfway", attempts: 1 });
    expect(midway.lockedBy).toBeTruthy();
    expect(midway.heartbeatAt).toBeInstanceOf(Date);
    gate.resolve();

    const done = await waitForState(job.id, "succeeded", "failed");
    expect(done).toMatchObject({
      state: "succeeded",
      progress: 1,
      result: { square: 49, label: "square" },
      error: null,
    });
    expect(done.finishedAt).toBeInstanceOf(Date);
    expect(done.lockedBy).toBeNull();
  });

  it("rejects an invalid payload on enqueue, with the field that is wrong", async () => {
    const before = await db.select().from(jobs).where(eq(jobs.type, square.type));
    const err = await enqueueJob(db, square, { n: 1.5 }, { ownerId: null }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ValidationError);
    expect((err as ValidationError).errors?.[0]?.path).toBe("payload.n");
    await expect(enqueueJob(db, square.type, { n: "7" }, { ownerId: null })).rejects.toBeInstanceOf(
      ValidationError,
    );
    await expect(enqueueJob(db, typeName("nope"), {}, { ownerId: null })).rejects.toThrow(/Unknown job type/);
    const after = await db.select().from(jobs).where(eq(jobs.type, square.type));
    expect(after.length).toBe(before.length);
  });

  it("fails a job whose stored payload no longer validates when it is claimed", async () => {
    const job = await enqueueJob(
      db,
      square,
      { n: 3 },
      { ownerId: null, runAfter: new Date(Date.now() + 3_600_000) },
    );
    await db
      .update(jobs)
      .set({ payload: { n: "three" }, runAfter: new Date(0) })
      .where(eq(jobs.id, job.id));
    startRunner([square.type]);
    const failed = await waitForState(job.id, "failed", "succeeded");
    expect(failed.error).toMatch(/^Invalid payload: payload\.n: /);
  });

  it("retries a retryable failure with backoff, then fails with its message", async () => {
    let calls = 0;
    const flaky = defineJobType({
      type: typeName("flaky"),
      payload: z.object({}),
      run: async () => {
        calls += 1;
        throw new RetryableJobError("upstream busy");
      },
    });
    const job = await enqueueJob(db, flaky, {}, { ownerId: null });
    startRunner([flaky.type]);
    const failed = await waitForState(job.id, "failed", "succeeded");
    expect(failed).toMatchObject({ attempts: 3, error: "upstream busy" });
    expect(calls).toBe(3);
  });

  it("succeeds on a retry, and fails at once (message only, no stack) on a non-retryable error", async () => {
    const attemptsSeen: number[] = [];
    const eventually = defineJobType({
      type: typeName("eventually"),
      payload: z.object({ failTimes: z.number() }),
      run: async ({ failTimes }, ctx) => {
        attemptsSeen.push(ctx.attempt);
        if (ctx.attempt <= failTimes)
          throw new RetryableJobError(`attempt ${ctx.attempt} failed`, { retryAfterMs: 5 });
        if (failTimes < 0) throw new TypeError("bad input shape");
        return "ok";
      },
    });
    const retried = await enqueueJob(db, eventually, { failTimes: 2 }, { ownerId: null, maxAttempts: 4 });
    const broken = await enqueueJob(db, eventually, { failTimes: -1 }, { ownerId: null });
    startRunner([eventually.type]);
    const ok = await waitForState(retried.id, "succeeded", "failed");
    expect(ok).toMatchObject({ attempts: 3, result: "ok", error: null });
    const failed = await waitForState(broken.id, "failed", "succeeded");
    expect(failed).toMatchObject({ attempts: 1, error: "bad input shape" });
    expect(attemptsSeen.filter((a) => a === 1).length).toBe(2);
  });
});

describe("cancellation", () => {
  const waiting: string[] = [];
  const observed = new Map<string, { reason: unknown; isCancelled: boolean }>();
  const patient = defineJobType({
    type: typeName("patient"),
    payload: z.object({ ignoreSignal: z.boolean().default(false) }),
    run: async ({ ignoreSignal }, ctx) => {
      waiting.push(ctx.jobId);
      await ctx.reportProgress(0.25, "waiting");
      if (ignoreSignal) {
        await new Promise((r) => setTimeout(r, 300));
        return "finished anyway";
      }
      try {
        return await untilAborted(ctx.signal);
      } catch (err) {
        observed.set(ctx.jobId, { reason: ctx.signal.reason, isCancelled: ctx.isCancelled() });
        throw err;
      }
    },
  });

  it("cancels a queued job at once; it never runs", async () => {
    const job = await enqueueJob(db, patient, {}, { ownerId: "usr_a" });
    const cancelled = await requestCancel(db, job.id, "usr_a");
    expect(cancelled).toMatchObject({ state: "cancelled", cancelRequested: true });
    expect(cancelled.finishedAt).toBeInstanceOf(Date);
    startRunner([patient.type]);
    await new Promise((r) => setTimeout(r, 200));
    expect(waiting).not.toContain(job.id);
    expect((await getJob(db, job.id)).state).toBe("cancelled");
  });

  it("cancels a running job: the handler sees its signal, the runner records cancelled", async () => {
    const job = await enqueueJob(db, patient, {}, { ownerId: "usr_a" });
    startRunner([patient.type], { heartbeatIntervalMs: 60_000 });
    await waitForState(job.id, "running");
    await waitFor(async () => waiting.includes(job.id), Boolean, "handler start");
    const flagged = await requestCancel(db, job.id, "usr_a");
    expect(flagged).toMatchObject({ state: "running", cancelRequested: true });
    // The heartbeat is a minute away: the in-process signal alone must stop the handler.
    const done = await waitForState(job.id, "cancelled", "failed", "succeeded");
    expect(done.state).toBe("cancelled");
    expect(done.result).toBeNull();
    expect(observed.get(job.id)).toMatchObject({ reason: { reason: "cancelled" }, isCancelled: true });
  });

  it("sees a cancellation made by another process through the heartbeat", async () => {
    const job = await enqueueJob(db, patient, {}, { ownerId: "usr_a" });
    startRunner([patient.type]);
    await waitFor(async () => waiting.includes(job.id), Boolean, "handler start");
    // What requestCancel does from another process: only the row changes.
    await db.update(jobs).set({ cancelRequested: true }).where(eq(jobs.id, job.id));
    const done = await waitForState(job.id, "cancelled", "failed", "succeeded");
    expect(done.state).toBe("cancelled");
    expect(done.progress).toBe(0.25);
  });

  it("records cancelled even when the handler ignores the signal and returns", async () => {
    const job = await enqueueJob(db, patient, { ignoreSignal: true }, { ownerId: null });
    startRunner([patient.type]);
    await waitFor(async () => waiting.includes(job.id), Boolean, "handler start");
    await requestCancel(db, job.id);
    const done = await waitForState(job.id, "cancelled", "succeeded");
    expect(done).toMatchObject({ state: "cancelled", result: null });
  });

  it("refuses to cancel a finished job (409), and hides other owners' jobs (404)", async () => {
    const job = await enqueueJob(db, square, { n: 2 }, { ownerId: "usr_a" });
    await expect(requestCancel(db, job.id, "usr_b")).rejects.toBeInstanceOf(NotFoundError);
    await expect(getJob(db, job.id, "usr_b")).rejects.toBeInstanceOf(NotFoundError);
    await expect(getJob(db, job.id, "usr_a", patient.type)).rejects.toBeInstanceOf(NotFoundError);
    startRunner([square.type]);
    await waitForState(job.id, "succeeded");
    await expect(requestCancel(db, job.id, "usr_a")).rejects.toBeInstanceOf(ConflictError);
    const cancelled = await enqueueJob(db, patient, {}, { ownerId: "usr_a" });
    await requestCancel(db, cancelled.id, "usr_a");
    await expect(requestCancel(db, cancelled.id, "usr_a")).rejects.toBeInstanceOf(ConflictError);
  });

  it("on a graceful stop past its grace period, interrupts the handler and queues the job again", async () => {
    const job = await enqueueJob(db, patient, {}, { ownerId: null });
    const runner = startRunner([patient.type]);
    await waitFor(async () => waiting.includes(job.id), Boolean, "handler start");
    await runner.stop({ graceMs: 50 });
    const released = await getJob(db, job.id);
    expect(released).toMatchObject({ state: "queued", attempts: 0, lockedBy: null });
    expect(observed.get(job.id)).toMatchObject({ reason: { reason: "shutdown" } });
    await requestCancel(db, job.id);
  });
});

describe("recovery after a crash", () => {
  const recovering = defineJobType({
    type: typeName("recovering"),
    payload: z.object({ value: z.string() }),
    run: async ({ value }, ctx) => ({ value, attempt: ctx.attempt }),
  });

  /** What a process that died mid-job leaves behind. */
  async function crashWhileRunning(job: Job, attempts: number, heartbeatAgeMs: number) {
    await db
      .update(jobs)
      .set({
        state: "running",
        attempts,
        lockedBy: "worker:dead-host:1234",
        lockedAt: sql`now() - interval '1 hour'`,
        heartbeatAt: sql`now() - ${heartbeatAgeMs}::integer * interval '1 millisecond'`,
      })
      .where(eq(jobs.id, job.id));
  }

  it("queues a stale running job again, and a runner completes it", async () => {
    const job = await enqueueJob(db, recovering, { value: "survived" }, { ownerId: null });
    await crashWhileRunning(job, 1, 10 * 60_000);
    startRunner([recovering.type], { staleAfterMs: 60_000 });
    const done = await waitForState(job.id, "succeeded", "failed");
    expect(done).toMatchObject({ attempts: 2, result: { value: "survived", attempt: 2 } });
  });

  it("leaves fresh running jobs alone, and fails a stale one whose attempts are used up", async () => {
    const fresh = await enqueueJob(db, recovering, { value: "fresh" }, { ownerId: null });
    const exhausted = await enqueueJob(db, recovering, { value: "late" }, { ownerId: null, maxAttempts: 2 });
    const cancelling = await enqueueJob(db, recovering, { value: "cancel" }, { ownerId: null });
    await crashWhileRunning(fresh, 1, 1_000);
    await crashWhileRunning(exhausted, 2, 10 * 60_000);
    await crashWhileRunning(cancelling, 1, 10 * 60_000);
    await db.update(jobs).set({ cancelRequested: true }).where(eq(jobs.id, cancelling.id));

    const counts = await recoverStaleJobs(db, 60_000);
    expect(counts.failed).toBeGreaterThanOrEqual(1);
    expect(counts.cancelled).toBeGreaterThanOrEqual(1);
    expect((await getJob(db, fresh.id)).state).toBe("running");
    const failed = await getJob(db, exhausted.id);
    expect(failed).toMatchObject({ state: "failed", lockedBy: null });
    expect(failed.error).toMatch(/stopped responding.*2 attempts/);
    expect((await getJob(db, cancelling.id)).state).toBe("cancelled");

    // A runner does not recover its own jobs (its handler may just have blocked the event loop).
    await db
      .update(jobs)
      .set({ heartbeatAt: sql`now() - interval '2 minutes'`, lockedBy: "worker:me" })
      .where(eq(jobs.id, fresh.id));
    await recoverStaleJobs(db, 60_000, { exceptWorkerId: "worker:me" });
    expect((await getJob(db, fresh.id)).state).toBe("running");

    // Its worker is gone for good: later it turns stale too.
    await db
      .update(jobs)
      .set({ heartbeatAt: sql`now() - interval '2 minutes'` })
      .where(eq(jobs.id, fresh.id));
    await recoverStaleJobs(db, 60_000);
    expect((await getJob(db, fresh.id)).state).toBe("queued");
    await requestCancel(db, fresh.id);
  });
});

describe("several runners", () => {
  it("claims each job exactly once when claims race (FOR UPDATE SKIP LOCKED)", async () => {
    const claimOnly = defineJobType({
      type: typeName("claim-only"),
      payload: z.object({ i: z.number() }),
      run: async () => null,
    });
    const other = await secondConnection();
    try {
      const created = await Promise.all(
        Array.from({ length: 20 }, (_, i) => enqueueJob(db, claimOnly, { i }, { ownerId: null })),
      );
      const claims = await Promise.all(
        Array.from({ length: 30 }, (_, i) =>
          claimNextJob(i % 2 ? db : other.db, `racer-${i}`, [claimOnly.type]),
        ),
      );
      const ids = claims.flatMap((c) => (c ? [c.job.id] : []));
      expect(ids.length).toBe(20);
      expect(new Set(ids)).toEqual(new Set(created.map((j) => j.id)));
    } finally {
      await db.update(jobs).set({ state: "cancelled" }).where(eq(jobs.type, claimOnly.type));
      await other.close();
    }
  });

  it("two runners with concurrency 3 run 20 jobs, each exactly once, never more than 6 at a time", async () => {
    const runs = new Map<number, number>();
    let active = 0;
    let peak = 0;
    const work = defineJobType({
      type: typeName("work"),
      payload: z.object({ i: z.number() }),
      run: async ({ i }) => {
        runs.set(i, (runs.get(i) ?? 0) + 1);
        active += 1;
        peak = Math.max(peak, active);
        await new Promise((r) => setTimeout(r, 20 + (i % 5) * 10));
        active -= 1;
        return i;
      },
    });
    const other = await secondConnection();
    try {
      const created = await Promise.all(
        Array.from({ length: 20 }, (_, i) => enqueueJob(db, work, { i }, { ownerId: null })),
      );
      startRunner([work.type], { concurrency: 3, workerId: "runner-a" });
      startRunner([work.type], { concurrency: 3, workerId: "runner-b", db: other.db });
      const ids = created.map((j) => j.id);
      const done = await waitFor(
        () => db.select().from(jobs).where(inArray(jobs.id, ids)),
        (rows) => rows.every((r) => r.state === "succeeded" || r.state === "failed"),
        "all 20 jobs",
      );
      expect(done.every((r) => r.state === "succeeded" && r.attempts === 1)).toBe(true);
      expect([...runs.keys()].sort((a, b) => a - b)).toEqual(Array.from({ length: 20 }, (_, i) => i));
      expect([...runs.values()].every((n) => n === 1)).toBe(true);
      expect(peak).toBeGreaterThan(1);
      expect(peak).toBeLessThanOrEqual(6);
    } finally {
      await Promise.all(runners.splice(0).map((r) => r.stop()));
      await other.close();
    }
  });

  it("starts a freshly enqueued job at once instead of waiting for the next poll", async () => {
    startRunner([square.type], { pollIntervalMs: 60_000 });
    await new Promise((r) => setTimeout(r, 300)); // the runner is idle, asleep for a minute
    const started = Date.now();
    const job = await enqueueJob(db, square, { n: 12 }, { ownerId: null });
    const done = await waitForState(job.id, "succeeded", "failed");
    expect(done.result).toEqual({ square: 144, label: "square" });
    expect(Date.now() - started).toBeLessThan(5_000);
  });
});

describe("the in-process runner", () => {
  it("is one per process, runs registered types, and stays off when workers are external", async () => {
    const saved = { workers: process.env.LAYERLINE_WORKERS, url: process.env.DATABASE_URL };
    try {
      process.env.LAYERLINE_WORKERS = "external";
      expect(await ensureInProcessRunner()).toBeNull();
      delete process.env.LAYERLINE_WORKERS;
      // On a shared PostgreSQL test database this runner must not act as the only one.
      if (process.env.TEST_DATABASE_URL) process.env.DATABASE_URL = process.env.TEST_DATABASE_URL;
      const first = await ensureInProcessRunner();
      expect(first).not.toBeNull();
      expect(await ensureInProcessRunner()).toBe(first);
      const job = await enqueueJob(db, square, { n: 5, label: "in-process" }, { ownerId: null });
      const done = await waitForState(job.id, "succeeded", "failed");
      expect(done.result).toEqual({ square: 25, label: "in-process" });
    } finally {
      await stopInProcessRunner({ graceMs: 1000 });
      if (saved.workers === undefined) delete process.env.LAYERLINE_WORKERS;
      else process.env.LAYERLINE_WORKERS = saved.workers;
      if (saved.url === undefined) delete process.env.DATABASE_URL;
      else process.env.DATABASE_URL = saved.url;
    }
  });
});

/** A second connection pool on PostgreSQL (real concurrency between runners); PGlite has one connection. */
async function secondConnection(): Promise<{ db: Db; close: () => Promise<void> }> {
  const url = process.env.TEST_DATABASE_URL;
  if (!url) return { db, close: async () => {} };
  const open = await openDb({ kind: "postgres", url });
  return { db: open.db, close: open.close };
}
