import { sql } from "drizzle-orm";
import { boolean, check, index, integer, jsonb, pgTable, real, text } from "drizzle-orm/pg-core";
import { timestamps, tstz } from "./columns";

export const JOB_STATES = ["queued", "running", "succeeded", "failed", "cancelled"] as const;
export type JobState = (typeof JOB_STATES)[number];

/**
 * Durable background jobs (lib/server/jobs/): code generation, dataset fetches, PII scans, training.
 * A runner claims a queued job (`FOR UPDATE SKIP LOCKED`), marks it running with its worker id, keeps
 * `heartbeat_at` fresh while the handler runs and writes the outcome. A running job whose heartbeat
 * stops (the process died) is put back in the queue, or failed once its attempts are used up.
 * `payload` and `result` are validated by the job type's zod schema (lib/server/jobs/registry.ts).
 */
export const jobs = pgTable(
  "jobs",
  {
    id: text("id").primaryKey(),
    type: text("type").notNull(),
    payload: jsonb("payload").$type<unknown>().notNull(),
    state: text("state", { enum: JOB_STATES }).notNull().default("queued"),
    /** Fraction done, 0..1; 1 once the job succeeded. */
    progress: real("progress").notNull().default(0),
    progressMessage: text("progress_message"),
    result: jsonb("result").$type<unknown>(),
    /** Last error message (no stack): why the job failed, or why the previous attempt did. */
    error: text("error"),
    /** The user the job belongs to; null for system jobs. */
    ownerId: text("owner_id"),
    /** Runs started so far (incremented on claim). */
    attempts: integer("attempts").notNull().default(0),
    maxAttempts: integer("max_attempts").notNull().default(3),
    /** Not claimed before this time (delayed jobs, retry backoff). */
    runAfter: tstz("run_after").notNull().defaultNow(),
    lockedBy: text("locked_by"),
    lockedAt: tstz("locked_at"),
    heartbeatAt: tstz("heartbeat_at"),
    cancelRequested: boolean("cancel_requested").notNull().default(false),
    ...timestamps(),
    finishedAt: tstz("finished_at"),
  },
  (t) => [
    index("jobs_state_run_after_idx").on(t.state, t.runAfter),
    index("jobs_owner_idx").on(t.ownerId),
    check("jobs_state_check", sql`${t.state} in ('queued', 'running', 'succeeded', 'failed', 'cancelled')`),
    check("jobs_progress_check", sql`${t.progress} >= 0 and ${t.progress} <= 1`),
    check("jobs_max_attempts_check", sql`${t.maxAttempts} >= 1`),
  ],
);

export type Job = typeof jobs.$inferSelect;
