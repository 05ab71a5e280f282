import type { z } from "@hono/zod-openapi";
import { and, desc, eq, isNull, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import type { UserRow } from "../../db/schema";
import { apiKeys, apiKeyUsage, users } from "../../db/schema";
import { NotFoundError, PaymentRequiredError } from "../../errors";
import { newId } from "../../ids";
import { planOf } from "../../plans";
import { constantTimeEqual, hashSecret, newSecret } from "../../secrets";
import type { apiKeySchema } from "./account.schemas";
import { flushUsage } from "./usage-recorder";

export const API_KEY_PREFIX = "lk_";

export type ApiKeyView = z.infer<typeof apiKeySchema>;

function toView(k: typeof apiKeys.$inferSelect): ApiKeyView {
  return {
    id: k.id,
    name: k.name,
    prefix: k.prefix,
    created_at: k.createdAt.toISOString(),
    last_used_at: k.lastUsedAt?.toISOString() ?? null,
  };
}

export async function createApiKey(
  db: Db,
  user: UserRow,
  name: string,
): Promise<ApiKeyView & { key: string }> {
  const [{ count }] = await db
    .select({ count: sql<number>`count(*)::int` })
    .from(apiKeys)
    .where(and(eq(apiKeys.userId, user.id), isNull(apiKeys.revokedAt)));
  const limit = planOf(user.plan).limits.api_keys;
  if (count >= limit)
    throw new PaymentRequiredError(`Your plan allows ${limit} active API keys; revoke one first.`);
  const key = newSecret(API_KEY_PREFIX, 40);
  const [row] = await db
    .insert(apiKeys)
    .values({ id: newId("key"), userId: user.id, name, prefix: key.slice(0, 8), keyHash: hashSecret(key) })
    .returning();
  return { ...toView(row), key };
}

export async function listApiKeys(db: Db, userId: string): Promise<ApiKeyView[]> {
  const rows = await db
    .select()
    .from(apiKeys)
    .where(and(eq(apiKeys.userId, userId), isNull(apiKeys.revokedAt)))
    .orderBy(desc(apiKeys.createdAt));
  return rows.map(toView);
}

export async function revokeApiKey(db: Db, userId: string, keyId: string): Promise<void> {
  const rows = await db
    .update(apiKeys)
    .set({ revokedAt: new Date(), updatedAt: new Date() })
    .where(and(eq(apiKeys.id, keyId), eq(apiKeys.userId, userId), isNull(apiKeys.revokedAt)))
    .returning({ id: apiKeys.id });
  if (rows.length === 0) throw new NotFoundError("API key");
}

/** Resolves a presented personal key to its (active) key row and user, or null. */
export async function resolveApiKey(
  db: Db,
  presented: string,
): Promise<{ keyId: string; user: UserRow } | null> {
  const digest = hashSecret(presented);
  const rows = await db
    .select({ key: apiKeys, user: users })
    .from(apiKeys)
    .innerJoin(users, eq(users.id, apiKeys.userId))
    .where(and(eq(apiKeys.keyHash, digest), isNull(apiKeys.revokedAt)))
    .limit(1);
  const row = rows[0];
  if (!row || !constantTimeEqual(row.key.keyHash, digest)) return null;
  return { keyId: row.key.id, user: row.user };
}

export async function apiKeyUsageView(db: Db, userId: string, keyId: string, days: number) {
  const [key] = await db
    .select()
    .from(apiKeys)
    .where(and(eq(apiKeys.id, keyId), eq(apiKeys.userId, userId)))
    .limit(1);
  if (!key) throw new NotFoundError("API key");
  await flushUsage(db);
  const since = new Date(Date.now() - (days - 1) * 86400_000).toISOString().slice(0, 10);
  const rows = await db
    .select()
    .from(apiKeyUsage)
    .where(and(eq(apiKeyUsage.keyId, keyId), sql`${apiKeyUsage.day} >= ${since}`))
    .orderBy(apiKeyUsage.day);
  const daily = rows.map((r) => ({ date: r.day, requests: r.requests, errors: r.errors }));
  return {
    key_id: key.id,
    name: key.name,
    prefix: key.prefix,
    revoked: key.revokedAt !== null,
    last_used_at: key.lastUsedAt?.toISOString() ?? null,
    period_days: days,
    total_requests: daily.reduce((s, d) => s + d.requests, 0),
    total_errors: daily.reduce((s, d) => s + d.errors, 0),
    daily,
  };
}
