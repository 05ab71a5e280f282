/**
 * One storage quota per plan over every byte a user stores (decisions "Storage, quotas and abuse
 * limits"): dataset files, training checkpoints, training artifact files, hub model files and
 * registry artifacts. The tables that record those bytes are the single account: usage is their
 * sum (so deleting anything frees its bytes, whatever deleted it), never a counter in memory.
 *
 * An upload is held to the quota three times: its declared length before reading (`check`), its
 * bytes as they stream in (`meter`: stopped the moment they pass the remaining quota, the blob
 * store then removes its temporary file), and once more when it is recorded (`commitWithinQuota`:
 * under the owner's row lock, so two uploads of one user, on any server process, cannot both take
 * the last free bytes). Above the quota: 402 problem `storage-quota` with used, limit and requested.
 *
 * `STORAGE_QUOTA_BYTES` (or its older name `DATASET_STORAGE_BYTES`) overrides every plan's quota.
 */
import { eq, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import { users } from "../../db/schema";
import { NotFoundError, StorageQuotaError } from "../../errors";
import { planOf } from "../../plans";

export const STORAGE_KINDS = ["datasets", "checkpoints", "artifacts", "hub", "registry"] as const;
export type StorageKind = (typeof STORAGE_KINDS)[number];
export type StorageBreakdown = Record<StorageKind, number>;

type Reader = Pick<Db, "select">;
type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];

function envBytes(name: string, env: NodeJS.ProcessEnv): number | undefined {
  const raw = env[name];
  if (!raw) return undefined;
  const n = Number(raw);
  return Number.isSafeInteger(n) && n > 0 ? n : undefined;
}

export function storageLimitBytes(plan: string, env: NodeJS.ProcessEnv = process.env): number {
  return (
    envBytes("STORAGE_QUOTA_BYTES", env) ??
    envBytes("DATASET_STORAGE_BYTES", env) ??
    planOf(plan).limits.storage_bytes
  );
}

/** The bytes a user stores, by kind: one query over the tables that record stored files. */
export async function storageBreakdown(db: Reader, userId: string): Promise<StorageBreakdown> {
  // Plain SQL with qualified names (the tables' names are in db/schema; drizzle would leave the
  // columns of these subqueries unqualified).
  const [row] = await db
    .select({
      datasets: sql<string>`(select coalesce(sum(d.size_bytes), 0) from datasets d where d.owner_id = ${userId})`,
      checkpoints: sql<string>`(select coalesce(sum(c.size_bytes), 0)
        from training_checkpoints c join training_jobs j on j.id = c.job_id where j.owner_id = ${userId})`,
      artifacts: sql<string>`(select coalesce(sum((f->>'size_bytes')::bigint), 0)
        from training_jobs j cross join lateral jsonb_array_elements(j.artifact_files) f
        where j.owner_id = ${userId})`,
      // A blob counts once however many files and version snapshots of the owner's models refer to it.
      hub: sql<string>`(select coalesce(sum(t.size), 0) from (
          select f.blob_key as key, f.size_bytes as size
          from hub_model_files f join hub_models m on m.id = f.model_id where m.owner_id = ${userId}
          union
          select s->>'blob_key', (s->>'size_bytes')::bigint
          from hub_model_versions v join hub_models m on m.id = v.model_id
          cross join lateral jsonb_array_elements(v.files) s where m.owner_id = ${userId}
        ) t)`,
      registry: sql<string>`(select coalesce(sum(coalesce(a.received_size, 0)), 0)
        from model_artifacts a join model_versions v on v.id = a.version_id
        join registered_models r on r.id = v.model_id where r.owner_id = ${userId})`,
    })
    .from(users)
    .where(eq(users.id, userId));
  const out = Object.fromEntries(STORAGE_KINDS.map((k) => [k, 0])) as StorageBreakdown;
  if (row) for (const k of STORAGE_KINDS) out[k] = Number(row[k]);
  return out;
}

export async function storageUsedBytes(db: Reader, userId: string): Promise<number> {
  const b = await storageBreakdown(db, userId);
  return STORAGE_KINDS.reduce((sum, k) => sum + b[k], 0);
}

const KB = 1024;
const MB = 1024 * KB;
const GB = 1024 * MB;
export function humanBytes(bytes: number): string {
  if (bytes >= GB) return `${Math.round((bytes / GB) * 10) / 10} GB`;
  if (bytes >= MB) return `${Math.round((bytes / MB) * 10) / 10} MB`;
  if (bytes >= 10 * KB) return `${Math.round((bytes / KB) * 10) / 10} KB`;
  return `${bytes} bytes`;
}

export function quotaExceeded(used: number, limit: number, requested: number): StorageQuotaError {
  return new StorageQuotaError(
    `This upload does not fit in your storage quota: you store ${humanBytes(used)} of ${humanBytes(limit)} ` +
      `and it needs ${humanBytes(requested)}. Delete datasets, training jobs, hub models or registry ` +
      "versions you no longer need, or upgrade the plan.",
    { used_bytes: used, limit_bytes: limit, requested_bytes: requested },
  );
}

/** What one upload of one user may still store. */
export class StorageBudget {
  constructor(
    readonly usedBytes: number,
    readonly limitBytes: number,
    /** Bytes the upload replaces (freed when it is recorded). */
    readonly freedBytes = 0,
  ) {}

  static async of(db: Reader, userId: string, freedBytes = 0): Promise<StorageBudget> {
    const [owner] = await db.select({ plan: users.plan }).from(users).where(eq(users.id, userId));
    if (!owner) throw new NotFoundError("Account");
    return new StorageBudget(await storageUsedBytes(db, userId), storageLimitBytes(owner.plan), freedBytes);
  }

  get remainingBytes(): number {
    return Math.max(0, this.limitBytes - this.usedBytes + this.freedBytes);
  }

  /** Throws 402 when `bytes` (a declared or received size) would not fit. */
  check(bytes: number): void {
    if (bytes > this.remainingBytes) throw quotaExceeded(this.usedBytes, this.limitBytes, bytes);
  }

  /** Passes chunks through, counting them; errors the stream the moment they pass the remaining quota. */
  meter(): TransformStream<Uint8Array, Uint8Array> {
    let received = 0;
    return new TransformStream<Uint8Array, Uint8Array>({
      transform: (chunk, controller) => {
        received += chunk.byteLength;
        this.check(received);
        controller.enqueue(chunk);
      },
    });
  }

  /** The same for an async iterable source. */
  async *meterIterable(source: AsyncIterable<Uint8Array>): AsyncIterable<Uint8Array> {
    let received = 0;
    for await (const chunk of source) {
      received += chunk.byteLength;
      this.check(received);
      yield chunk;
    }
  }
}

/**
 * Records new bytes: `write` runs in a transaction holding the owner's row lock, and the owner's
 * usage is measured again after it (so whatever the write replaced or shares is counted exactly);
 * above the quota the write is rolled back with 402. Commits of one user are serialised across
 * server processes by the database. An account already above its quota (a smaller plan) may still
 * replace files with smaller ones.
 */
export async function commitWithinQuota<T>(
  db: Db,
  userId: string,
  bytes: number,
  write: (tx: Tx) => Promise<T>,
): Promise<T> {
  return db.transaction(async (tx) => {
    const [owner] = await tx
      .select({ plan: users.plan })
      .from(users)
      .where(eq(users.id, userId))
      .for("update");
    if (!owner) throw new NotFoundError("Account");
    const before = await storageUsedBytes(tx, userId);
    const result = await write(tx);
    const after = await storageUsedBytes(tx, userId);
    const limit = storageLimitBytes(owner.plan);
    if (after > limit && after > before) throw quotaExceeded(before, limit, bytes);
    return result;
  });
}
