/**
 * Training job state changes: one guarded UPDATE (the job must be in one of the expected states), the
 * change appended to `status_history`, and a `status` event for the stream. Returns the updated row, or
 * null when the job was not in an expected state (someone else changed it first).
 */
import { and, eq, inArray, sql } from "drizzle-orm";
import type { PgUpdateSetSource } from "drizzle-orm/pg-core";
import type { Db } from "../../db/client";
import { type TrainingJobRow, type TrainingState, trainingJobs } from "../../db/schema";
import { appendTrainingEvents } from "../../events/training-events";

export const TERMINAL_STATES: readonly TrainingState[] = ["succeeded", "failed", "cancelled", "timed_out"];
export const ACTIVE_STATES: readonly TrainingState[] = ["queued", "running"];

export function isTerminal(state: TrainingState): boolean {
  return TERMINAL_STATES.includes(state);
}

export interface TransitionOptions {
  from: readonly TrainingState[];
  to: TrainingState;
  reason?: string | null;
  /** Extra columns written in the same UPDATE (values or SQL expressions). */
  set?: PgUpdateSetSource<typeof trainingJobs>;
}

export async function transitionJob(
  db: Db,
  jobId: string,
  opts: TransitionOptions,
): Promise<TrainingJobRow | null> {
  const at = new Date();
  const reason = opts.reason ?? null;
  const change = { status: opts.to, at: at.toISOString(), reason };
  const [row] = await db
    .update(trainingJobs)
    .set({
      ...opts.set,
      state: opts.to,
      statusHistory: sql`${trainingJobs.statusHistory} || ${JSON.stringify([change])}::jsonb`,
      reason: isTerminal(opts.to) ? reason : opts.to === "queued" ? null : sql`${trainingJobs.reason}`,
      updatedAt: at,
      ...(isTerminal(opts.to) ? { finishedAt: at } : {}),
      ...(opts.to === "running" ? { startedAt: sql`coalesce(${trainingJobs.startedAt}, now())` } : {}),
      ...(opts.to === "queued" ? { finishedAt: null } : {}),
    })
    .where(and(eq(trainingJobs.id, jobId), inArray(trainingJobs.state, [...opts.from])))
    .returning();
  if (!row) return null;
  await appendTrainingEvents(db, jobId, [{ kind: "status", data: change }]);
  return row;
}

/** Appends a status-history entry without changing the state (e.g. "resumed after a worker restart"). */
export async function noteJobStatus(db: Db, job: TrainingJobRow, reason: string): Promise<void> {
  const change = { status: job.state, at: new Date().toISOString(), reason };
  await db
    .update(trainingJobs)
    .set({
      statusHistory: sql`${trainingJobs.statusHistory} || ${JSON.stringify([change])}::jsonb`,
      updatedAt: new Date(),
    })
    .where(eq(trainingJobs.id, job.id));
  await appendTrainingEvents(db, job.id, [{ kind: "status", data: change }]);
}
