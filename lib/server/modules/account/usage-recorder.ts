import { inArray, sql } from "drizzle-orm";
import { type Db, onBeforeCloseDb } from "../../db/client";
import { apiKeys, apiKeyUsage } from "../../db/schema";

/**
 * Per-key request counting, batched in memory and written at most once a second, so counting usage
 * costs no database write on the request path. Reads of usage flush first, so they are exact.
 */
interface Pending {
  requests: number;
  errors: number;
}

const state = globalThis as unknown as {
  __usagePending?: Map<string, Pending>;
  __usageTimer?: NodeJS.Timeout;
  __usageDb?: Db;
};

function pending(): Map<string, Pending> {
  state.__usagePending ??= new Map();
  return state.__usagePending;
}

export function recordKeyUse(db: Db, keyId: string, status: number): void {
  const day = new Date().toISOString().slice(0, 10);
  const id = `${keyId}|${day}`;
  const p = pending().get(id) ?? { requests: 0, errors: 0 };
  p.requests += 1;
  if (status >= 400) p.errors += 1;
  pending().set(id, p);
  state.__usageDb = db;
  if (!state.__usageTimer) {
    state.__usageTimer = setTimeout(() => {
      state.__usageTimer = undefined;
      flushUsage(db).catch((err) => console.error("usage flush failed", err));
    }, 1000);
    state.__usageTimer.unref?.();
  }
}

// Pending counts are written when the process-wide database closes.
onBeforeCloseDb("usage", (db) => flushUsage(db));

export async function flushUsage(db: Db): Promise<void> {
  const batch = pending();
  if (batch.size === 0) return;
  state.__usagePending = new Map();
  const keyIds = new Set<string>();
  for (const [id, p] of batch) {
    const [keyId, day] = id.split("|");
    keyIds.add(keyId);
    await db
      .insert(apiKeyUsage)
      .values({ keyId, day, requests: p.requests, errors: p.errors })
      .onConflictDoUpdate({
        target: [apiKeyUsage.keyId, apiKeyUsage.day],
        set: {
          requests: sql`${apiKeyUsage.requests} + ${p.requests}`,
          errors: sql`${apiKeyUsage.errors} + ${p.errors}`,
        },
      });
  }
  await db
    .update(apiKeys)
    .set({ lastUsedAt: new Date() })
    .where(inArray(apiKeys.id, [...keyIds]));
}
