import { and, eq, isNull, lt, lte, or, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import type { UserRow } from "../../db/schema";
import { authAttempts } from "../../db/schema";
import { RateLimitedError, UnauthorizedError } from "../../errors";
import { findUserByLogin, passwordMatches, signUp } from "./accounts";

/**
 * Exponential back-off for sign-in and sign-up, counted in the database (auth_attempts) so that it
 * holds across every server process:
 *
 * - **Per account**: every attempt on an account (the account itself, whichever of its e-mail address
 *   or username is typed; a name that has no account is counted under the name) is counted *before*
 *   the password is checked, atomically, so a parallel burst cannot slip past the count. After
 *   `free` attempts without a success, the next one must wait 1 s, then 2 s, 4 s… up to 15 minutes;
 *   an attempt during the wait is answered 429 with `Retry-After` without looking at the password
 *   (and does not lengthen the wait). A successful sign-in clears the account's count. The wait is
 *   bounded: someone guessing an account's password can keep its owner waiting at most 15 minutes
 *   at a time, never lock it for good.
 * - **Per client address** (http/client-address.ts; none without a connection): failed sign-ins from
 *   one address back off the same way after more failures (an office behind one address has room),
 *   on top of the fixed per-minute window of attempts (LOGIN_RATE_LIMIT_PER_MINUTE). One address's
 *   back-off is its own: it never slows down another client.
 *
 * A key quiet for `forgetMs` starts again from zero.
 */
export interface BackoffPolicy {
  /** Attempts (failures, for addresses) allowed before the first wait. */
  free: number;
  baseMs: number;
  maxMs: number;
  forgetMs: number;
}

export const ACCOUNT_BACKOFF: BackoffPolicy = {
  free: 5,
  baseMs: 1000,
  maxMs: 15 * 60_000,
  forgetMs: 60 * 60_000,
};

export const ADDRESS_BACKOFF: BackoffPolicy = {
  free: 20,
  baseMs: 1000,
  maxMs: 15 * 60_000,
  forgetMs: 60 * 60_000,
};

/** The wait after the `count`-th counted attempt. */
export function backoffMs(count: number, p: BackoffPolicy): number {
  if (count < p.free) return 0;
  return Math.min(p.maxMs, p.baseMs * 2 ** Math.min(30, count - p.free));
}

/** Stale rows are deleted at most this often per process. */
const PRUNE_EVERY_MS = 10 * 60_000;
const pruned = new WeakMap<Db, number>();

async function prune(db: Db, now: Date): Promise<void> {
  const last = pruned.get(db) ?? 0;
  if (now.getTime() - last < PRUNE_EVERY_MS) return;
  pruned.set(db, now.getTime());
  const forgetMs = Math.max(ACCOUNT_BACKOFF.forgetMs, ADDRESS_BACKOFF.forgetMs);
  await db
    .delete(authAttempts)
    .where(
      and(
        lt(authAttempts.lastAttemptAt, new Date(now.getTime() - forgetMs)),
        or(isNull(authAttempts.blockedUntil), lt(authAttempts.blockedUntil, now)),
      ),
    );
}

/** SQL for the count after one more attempt, and the end of the wait it earns. */
function nextCount(p: BackoffPolicy, now: Date) {
  const forgetBefore = new Date(now.getTime() - p.forgetMs).toISOString();
  const count = sql`(case when ${authAttempts.lastAttemptAt} < ${forgetBefore}::timestamptz then 1 else ${authAttempts.attempts} + 1 end)`;
  const blockedUntil = sql`(case when ${count} >= ${p.free} then ${now.toISOString()}::timestamptz + least(${p.maxMs}::float8, ${p.baseMs}::float8 * power(2::float8, least(30, ${count} - ${p.free})::float8)) * interval '1 millisecond' else null end)`;
  return { count, blockedUntil };
}

function refuse(blockedUntil: Date, now: Date): never {
  throw new RateLimitedError(Math.max(1, Math.ceil((blockedUntil.getTime() - now.getTime()) / 1000)));
}

/** Throws 429 while `key` is waiting out its back-off. */
export async function checkBackoff(db: Db, key: string, now = new Date()): Promise<void> {
  const [row] = await db
    .select({ blockedUntil: authAttempts.blockedUntil })
    .from(authAttempts)
    .where(eq(authAttempts.key, key))
    .limit(1);
  if (row?.blockedUntil && row.blockedUntil > now) refuse(row.blockedUntil, now);
}

/**
 * Counts one attempt of `key` unless it is waiting out its back-off (then 429): one conditional
 * UPDATE, so that of concurrent attempts each is counted and none passes a wait another has started.
 */
export async function reserveAttempt(db: Db, key: string, p: BackoffPolicy, now = new Date()): Promise<void> {
  await db
    .insert(authAttempts)
    .values({ key, attempts: 0, lastAttemptAt: now, blockedUntil: null })
    .onConflictDoNothing();
  const next = nextCount(p, now);
  const [counted] = await db
    .update(authAttempts)
    .set({ attempts: next.count, blockedUntil: next.blockedUntil, lastAttemptAt: now })
    .where(
      and(
        eq(authAttempts.key, key),
        or(isNull(authAttempts.blockedUntil), lte(authAttempts.blockedUntil, now)),
      ),
    )
    .returning({ attempts: authAttempts.attempts });
  void prune(db, now).catch(() => {});
  if (counted) return;
  await checkBackoff(db, key, now);
}

/** Counts one failure of `key` (addresses: checked with checkBackoff before the attempt). */
export async function recordFailure(db: Db, key: string, p: BackoffPolicy, now = new Date()): Promise<void> {
  const next = nextCount(p, now);
  await db
    .insert(authAttempts)
    .values({
      key,
      attempts: 1,
      lastAttemptAt: now,
      blockedUntil: p.free <= 1 ? new Date(now.getTime() + p.baseMs) : null,
    })
    .onConflictDoUpdate({
      target: authAttempts.key,
      set: { attempts: next.count, blockedUntil: next.blockedUntil, lastAttemptAt: now },
    });
}

export async function clearAttempts(db: Db, keys: string[]): Promise<void> {
  for (const key of keys) await db.delete(authAttempts).where(eq(authAttempts.key, key));
}

/** An e-mail address or username as the back-off counts it: trimmed, case-folded, NFKC. */
export function normalizeLogin(login: string): string {
  return login.normalize("NFKC").trim().toLowerCase().slice(0, 254);
}

/** Signs in with the back-off above; `address` is the client's (null when unknown). */
export async function signInLimited(
  db: Db,
  login: string,
  password: string,
  address: string | null,
): Promise<UserRow> {
  if (address) await checkBackoff(db, `login-addr:${address}`);
  const user = await findUserByLogin(db, login);
  const accountKey = user ? `login:${user.id}` : `login-name:${normalizeLogin(login)}`;
  await reserveAttempt(db, accountKey, ACCOUNT_BACKOFF);
  if (!(await passwordMatches(user, password)) || !user) {
    if (address) await recordFailure(db, `login-addr:${address}`, ADDRESS_BACKOFF);
    throw new UnauthorizedError("Wrong e-mail/username or password.");
  }
  await clearAttempts(db, [accountKey]);
  return user;
}

/**
 * Signs up with the same back-off per e-mail address and per username (probing which addresses have
 * an account answers 409 a few times, then waits).
 */
export async function signUpLimited(db: Db, input: Parameters<typeof signUp>[1]): Promise<UserRow> {
  const keys = [
    `signup-email:${normalizeLogin(input.email)}`,
    `signup-name:${normalizeLogin(input.username)}`,
  ];
  for (const key of keys) await reserveAttempt(db, key, ACCOUNT_BACKOFF);
  const user = await signUp(db, input);
  await clearAttempts(db, keys);
  return user;
}
