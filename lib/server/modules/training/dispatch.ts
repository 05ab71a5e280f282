/**
 * The plan's `concurrent_training_jobs`: jobs above it wait in `queued` (never refused) and are handed
 * to the runner, oldest first, as slots free up. One owner's dispatch is serialised by a transaction-
 * scoped advisory lock, so several servers and workers on PostgreSQL never exceed the limit.
 *
 * Also the `training.run` job type: it runs one job (run-job.ts), then dispatches the owner's next.
 */
import { and, asc, count, eq, inArray, ne, sql } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "../../db/client";
import { trainingJobs, users } from "../../db/schema";
import { enqueueJob } from "../../jobs/queue";
import { defineJobType } from "../../jobs/registry";
import { planOf } from "../../plans";
import { getJobRow } from "./job-rows";
import { runTrainingJob } from "./run-job";

export const trainingRunJob = defineJobType({
  type: "training.run",
  payload: z.object({ training_job_id: z.string().min(1) }),
  long: true,
  async run(payload, ctx) {
    const outcome = await runTrainingJob(ctx.db, payload.training_job_id, ctx);
    const job = await getJobRow(ctx.db, payload.training_job_id);
    if (job) await dispatchQueuedJobs(ctx.db, job.ownerId);
    return { outcome };
  },
});

export async function dispatchQueuedJobs(db: Db, ownerId: string): Promise<number> {
  return db.transaction(async (tx) => {
    const t = tx as unknown as Db;
    await t.execute(sql`select pg_advisory_xact_lock(hashtext(${`training:${ownerId}`}))`);
    const [user] = await t.select({ plan: users.plan }).from(users).where(eq(users.id, ownerId));
    if (!user) return 0;
    const limit = planOf(user.plan).limits.concurrent_training_jobs;
    const managed = ne(trainingJobs.runtime, "external");
    const [{ busy }] = await t
      .select({ busy: count() })
      .from(trainingJobs)
      .where(
        and(
          eq(trainingJobs.ownerId, ownerId),
          managed,
          eq(trainingJobs.dispatched, true),
          inArray(trainingJobs.state, ["queued", "running"]),
        ),
      );
    const free = limit - Number(busy);
    if (free <= 0) return 0;
    const waiting = await t
      .select({ id: trainingJobs.id })
      .from(trainingJobs)
      .where(
        and(
          eq(trainingJobs.ownerId, ownerId),
          managed,
          eq(trainingJobs.dispatched, false),
          eq(trainingJobs.state, "queued"),
        ),
      )
      .orderBy(asc(trainingJobs.createdAt), asc(trainingJobs.id))
      .limit(free);
    for (const { id } of waiting) {
      const task = await enqueueJob(t, trainingRunJob, { training_job_id: id }, { ownerId, maxAttempts: 3 });
      await t
        .update(trainingJobs)
        .set({ dispatched: true, runnerTaskId: task.id, updatedAt: new Date() })
        .where(eq(trainingJobs.id, id));
    }
    return waiting.length;
  });
}
