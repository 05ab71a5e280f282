import { eq, sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { creditEntries } from "../db/schema";
import { newId } from "../ids";

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

export async function recentCreditEntries(db: Db, userId: string, limit = 20) {
  const rows = await db
    .select()
    .from(creditEntries)
    .where(eq(creditEntries.userId, userId))
    .orderBy(sql`${creditEntries.createdAt} desc`)
    .limit(limit);
  return rows.map((r) => ({
    id: r.id,
    amount: r.amountMilli / 1000,
    reason: r.reason,
    reference: r.reference,
    created_at: r.createdAt.toISOString(),
  }));
}
