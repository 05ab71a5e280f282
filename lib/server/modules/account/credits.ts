import { eq, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import { creditEntries } from "../../db/schema";
import { newId } from "../../ids";

/** Credits are kept in thousandths so that fractional charges add up exactly. */
export async function grantCredits(
  db: Db,
  userId: string,
  credits: number,
  reason: string,
  reference?: string,
) {
  await db.insert(creditEntries).values({
    id: newId("crd"),
    userId,
    amountMilli: Math.round(credits * 1000),
    reason,
    reference: reference ?? null,
  });
}

export async function creditBalance(db: Db, userId: string): Promise<number> {
  const [row] = await db
    .select({ total: sql<string>`coalesce(sum(${creditEntries.amountMilli}), 0)` })
    .from(creditEntries)
    .where(eq(creditEntries.userId, userId));
  return Number(row?.total ?? 0) / 1000;
}

/** The balance and the latest entries in one query (the window sum runs before the limit). */
export async function creditSummary(db: Db, userId: string, limit = 20) {
  const rows = await db
    .select({ entry: creditEntries, total: sql<string>`sum(${creditEntries.amountMilli}) over ()` })
    .from(creditEntries)
    .where(eq(creditEntries.userId, userId))
    .orderBy(sql`${creditEntries.createdAt} desc`)
    .limit(limit);
  return {
    balance: Number(rows[0]?.total ?? 0) / 1000,
    recent: rows.map(({ entry: r }) => ({
      id: r.id,
      amount: r.amountMilli / 1000,
      reason: r.reason,
      reference: r.reference,
      created_at: r.createdAt.toISOString(),
    })),
  };
}
