/**
 * How long the request log is kept: `request` events older than REQUEST_LOG_RETENTION_DAYS (default
 * 30, above the longest metrics window of 7 days) are deleted. Status, revision and log events stay
 * (a deployment's history). Each server process prunes at most once per PRUNE_EVERY_MS, deployment
 * by deployment in statements of PRUNE_BATCH rows (each one short: the embedded database runs on
 * the server's thread); deleting is idempotent, so several processes pruning at once is harmless.
 */
import { and, eq, lt, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import { deploymentEvents, deployments } from "../../db/schema";

const DAY_MS = 86_400_000;
const PRUNE_EVERY_MS = 3_600_000;
const PRUNE_BATCH = 500;

export function requestLogRetentionDays(env: NodeJS.ProcessEnv = process.env): number {
  const days = Number(env.REQUEST_LOG_RETENTION_DAYS);
  return Number.isFinite(days) && days > 0 ? days : 30;
}

const g = globalThis as unknown as { __layerlineRequestLogPrunedAt?: Map<Db, number> };
g.__layerlineRequestLogPrunedAt ??= new Map();
const prunedAt = g.__layerlineRequestLogPrunedAt;

/** Deletes the request events older than the retention; returns how many were deleted. */
export async function pruneRequestLog(db: Db, now = Date.now()): Promise<number> {
  const cutoff = new Date(now - requestLogRetentionDays() * DAY_MS);
  const ids = await db.select({ id: deployments.id }).from(deployments);
  let deleted = 0;
  for (const { id } of ids) {
    for (;;) {
      // One deployment's oldest rows, through its (deployment, kind, at) index.
      const old = db
        .select({ seq: deploymentEvents.seq })
        .from(deploymentEvents)
        .where(
          and(
            eq(deploymentEvents.deploymentId, id),
            eq(deploymentEvents.kind, "request"),
            lt(deploymentEvents.at, cutoff),
          ),
        )
        .limit(PRUNE_BATCH);
      const gone = await db
        .delete(deploymentEvents)
        .where(and(eq(deploymentEvents.deploymentId, id), sql`${deploymentEvents.seq} in (${old})`))
        .returning({ seq: deploymentEvents.seq });
      deleted += gone.length;
      if (gone.length < PRUNE_BATCH) break;
      await new Promise((resolve) => setImmediate(resolve));
    }
  }
  return deleted;
}

/** Prunes when this process has not in the last hour (called by the request log's flush). */
export async function pruneRequestLogHourly(db: Db, now = Date.now()): Promise<void> {
  const last = prunedAt.get(db) ?? 0;
  if (now - last < PRUNE_EVERY_MS) return;
  prunedAt.set(db, now);
  try {
    await pruneRequestLog(db, now);
  } catch (err) {
    console.error("[request-log] pruning failed:", err instanceof Error ? err.message : err);
  }
}
