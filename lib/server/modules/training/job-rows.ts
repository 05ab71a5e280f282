import { and, eq } from "drizzle-orm";
import type { Db } from "../../db/client";
import { type TrainingJobRow, trainingJobs } from "../../db/schema";
import { NotFoundError } from "../../errors";

/** The caller's job, or 404 (also for another account's job: never reveal that it exists). */
export async function findOwnedJob(db: Db, ownerId: string, jobId: string): Promise<TrainingJobRow> {
  const [row] = await db
    .select()
    .from(trainingJobs)
    .where(and(eq(trainingJobs.id, jobId), eq(trainingJobs.ownerId, ownerId)))
    .limit(1);
  if (!row) throw new NotFoundError("Training job");
  return row;
}

/** A job by id, whoever owns it (workers, upload tokens). */
export async function getJobRow(db: Db, jobId: string): Promise<TrainingJobRow | null> {
  const [row] = await db.select().from(trainingJobs).where(eq(trainingJobs.id, jobId)).limit(1);
  return row ?? null;
}
