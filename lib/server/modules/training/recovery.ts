/**
 * The training recovery pass, run at start and then periodically by every server and worker:
 * - a managed job whose runner task ended (its attempts used up after worker deaths, or cancelled
 *   behind its back) is never left queued or running: it is failed with the task's reason, or
 *   cancelled when that was asked;
 * - jobs waiting for a slot are dispatched (a dispatch lost to a crash is redone);
 * - blobs orphaned by a crash are swept through the blob store (either driver): what interrupted
 *   writes left (temporary files, incomplete multipart uploads, direct uploads' staging objects never
 *   completed) and checkpoint or artifact objects no row references, once older than `orphanAgeMs`
 *   (zero in embedded mode at start, when no other process can be writing).
 */
import { and, eq, inArray, isNotNull, ne, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import { jobs, trainingCheckpoints, trainingJobs } from "../../db/schema";
import { deleteBlobAndLocalFile } from "../../storage/blob-cache";
import type { BlobStore } from "../../storage/blob-driver";
import { blobStore } from "../../storage/blob-stores";
import { STAGING_PREFIX } from "../../storage/presigned";
import { dispatchQueuedJobs } from "./dispatch";
import { transitionJob } from "./state";

export interface TrainingRecoveryCounts {
  failed: number;
  cancelled: number;
  dispatched: number;
  blobsRemoved: number;
}

export async function recoverTrainingJobs(
  db: Db,
  opts: { orphanAgeMs?: number } = {},
): Promise<TrainingRecoveryCounts> {
  const counts: TrainingRecoveryCounts = { failed: 0, cancelled: 0, dispatched: 0, blobsRemoved: 0 };
  const stranded = await db
    .select({
      id: trainingJobs.id,
      cancel: trainingJobs.cancelRequested,
      taskState: jobs.state,
      taskError: jobs.error,
    })
    .from(trainingJobs)
    .leftJoin(jobs, eq(jobs.id, trainingJobs.runnerTaskId))
    .where(
      and(
        inArray(trainingJobs.state, ["queued", "running"]),
        eq(trainingJobs.dispatched, true),
        isNotNull(trainingJobs.runnerTaskId),
        sql`(${jobs.id} is null or ${jobs.state} in ('succeeded', 'failed', 'cancelled'))`,
      ),
    );
  for (const s of stranded) {
    const cancelled = s.cancel || s.taskState === "cancelled";
    const done = await transitionJob(db, s.id, {
      from: ["queued", "running"],
      to: cancelled ? "cancelled" : "failed",
      reason: cancelled
        ? "Cancelled by the user."
        : (s.taskError ?? "The worker running this job stopped and the job could not be resumed."),
    });
    if (done) counts[cancelled ? "cancelled" : "failed"] += 1;
  }
  const owners = await db
    .selectDistinct({ ownerId: trainingJobs.ownerId })
    .from(trainingJobs)
    .where(
      and(
        eq(trainingJobs.state, "queued"),
        eq(trainingJobs.dispatched, false),
        ne(trainingJobs.runtime, "external"),
      ),
    );
  for (const { ownerId } of owners) counts.dispatched += await dispatchQueuedJobs(db, ownerId);
  counts.blobsRemoved = await sweepOrphanBlobs(db, opts.orphanAgeMs ?? 3600_000);
  return counts;
}

/** Keys under `prefix` last written before `cutoff`. */
async function keysOlderThan(store: BlobStore, prefix: string, cutoff: Date): Promise<string[]> {
  const old: string[] = [];
  for await (const o of store.list(prefix)) if (o.lastModified < cutoff) old.push(o.key);
  return old;
}

/**
 * Removes what interrupted writes left in the blob store (temporary files, incomplete multipart
 * uploads: `sweepIncomplete`) and checkpoint/artifact objects no row references, on either driver.
 */
export async function sweepOrphanBlobs(
  db: Db,
  ageMs: number,
  store: BlobStore = blobStore(),
): Promise<number> {
  // Written at or before `ageMs` ago (everything with zero, at the start of a sole process).
  const cutoff = new Date(Date.now() - ageMs + 1);
  let removed = await store.sweepIncomplete(cutoff);
  // Direct uploads never completed (a staging object is moved into place or deleted by `complete`).
  for (const key of await keysOlderThan(store, STAGING_PREFIX, cutoff)) {
    await store.delete(key);
    removed += 1;
  }
  const checkpointKeys = await keysOlderThan(store, "checkpoints/", cutoff);
  if (checkpointKeys.length > 0) {
    const known = new Set(
      (await db.select({ key: trainingCheckpoints.blobKey }).from(trainingCheckpoints)).map((r) => r.key),
    );
    for (const key of checkpointKeys) {
      if (known.has(key)) continue;
      await deleteBlobAndLocalFile(key, store);
      removed += 1;
    }
  }
  const artifactKeys = await keysOlderThan(store, "artifacts/", cutoff);
  if (artifactKeys.length > 0) {
    const rows = await db
      .select({ files: trainingJobs.artifactFiles })
      .from(trainingJobs)
      .where(sql`jsonb_array_length(${trainingJobs.artifactFiles}) > 0`);
    const known = new Set(rows.flatMap((r) => r.files.map((f) => f.blob_key)));
    for (const key of artifactKeys) {
      if (known.has(key)) continue;
      await deleteBlobAndLocalFile(key, store);
      removed += 1;
    }
  }
  return removed;
}

const loop = globalThis as unknown as { __layerlineTrainingRecovery?: NodeJS.Timeout };

/**
 * Runs the pass now (sweeping every orphan when this process is the database's only one and the
 * blobs are on its local disk) and every 15 s.
 */
export function startTrainingRecovery(db: Db, opts: { soleProcess: boolean; intervalMs?: number }): void {
  if (loop.__layerlineTrainingRecovery) return;
  const log = (err: unknown) =>
    console.error("[training] recovery pass failed:", err instanceof Error ? err.message : err);
  // Everything at once only on this process's own disk: a bucket may have writers this database
  // does not know (other servers starting, a worker uploading), so there the usual age applies.
  const everything = opts.soleProcess && blobStore().driver === "local";
  recoverTrainingJobs(db, { orphanAgeMs: everything ? 0 : undefined }).catch(log);
  let busy = false;
  loop.__layerlineTrainingRecovery = setInterval(() => {
    if (busy) return;
    busy = true;
    recoverTrainingJobs(db)
      .catch(log)
      .finally(() => {
        busy = false;
      });
  }, opts.intervalMs ?? 15_000);
  loop.__layerlineTrainingRecovery.unref();
}
