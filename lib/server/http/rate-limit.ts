import { lt, sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { rateLimitWindows } from "../db/schema/rate-limits";
import { RateLimitedError } from "../errors";

/**
 * Fixed one-minute windows of requests per caller (API key, session user, deployment, client
 * address), counted in the database so that the limit holds across every server process. A
 * process does not write once per request: it leases a block of requests from the window's row
 * (one upsert) and spends it locally, leasing the next block when half of it is spent. Small limits lease one
 * request at a time (exact); a limit of L leases ceil(L / 50) at a time (2% of it), up to 1,000, so
 * with P processes at most P × (lease − 1) requests of a window can go unused, and none is ever over.
 * Limits come from the caller's plan; RATE_LIMIT_PER_MINUTE overrides them all (operators, tests).
 */
export const WINDOW_MS = 60_000;
/**
 * On the embedded database a lease is about 1 ms of the server's thread: a block of 1,000 (limits
 * of 50,000 a minute and more) keeps that to one write per 500 calls (bench/serving-bench.ts).
 */
const MAX_LEASE = 1000;
/** Old windows are deleted at most this often per process. */
const PRUNE_EVERY_MS = 60_000;

interface Lease {
  windowStart: number;
  /** Requests of the window this process may still serve without asking the database. */
  left: number;
  /** The window is spent (the database said so): refuse locally until it ends. */
  exhausted: boolean;
  /** A lease request in flight: concurrent callers wait for it instead of each asking. */
  pending: Promise<void> | null;
}

interface LimiterState {
  leases: Map<string, Lease>;
  lastPrune: number;
}

const store = globalThis as unknown as { __layerlineRateLeases?: Map<Db, LimiterState> };

function stateOf(db: Db): LimiterState {
  store.__layerlineRateLeases ??= new Map();
  let s = store.__layerlineRateLeases.get(db);
  if (!s) {
    s = { leases: new Map(), lastPrune: 0 };
    store.__layerlineRateLeases.set(db, s);
  }
  return s;
}

export function effectiveLimit(planLimit: number): number {
  const override = Number(process.env.RATE_LIMIT_PER_MINUTE);
  return Number.isFinite(override) && override > 0 ? override : planLimit;
}

export function leaseSize(limitPerMinute: number): number {
  return Math.max(1, Math.min(MAX_LEASE, Math.ceil(limitPerMinute / 50)));
}

/** Takes up to `size` requests of the window from the database; returns how many were granted. */
async function takeLease(
  db: Db,
  bucket: string,
  windowStart: number,
  size: number,
  limit: number,
): Promise<number> {
  const [row] = await db
    .insert(rateLimitWindows)
    .values({ bucket, windowStart: new Date(windowStart), count: size })
    .onConflictDoUpdate({
      target: [rateLimitWindows.bucket, rateLimitWindows.windowStart],
      set: { count: sql`${rateLimitWindows.count} + ${size}` },
    })
    .returning({ count: rateLimitWindows.count });
  const before = row.count - size;
  return Math.max(0, Math.min(size, limit - before));
}

async function prune(db: Db, s: LimiterState, now: number): Promise<void> {
  if (now - s.lastPrune < PRUNE_EVERY_MS) return;
  s.lastPrune = now;
  for (const [bucket, lease] of s.leases) if (now - lease.windowStart >= WINDOW_MS) s.leases.delete(bucket);
  await db.delete(rateLimitWindows).where(lt(rateLimitWindows.windowStart, new Date(now - 2 * WINDOW_MS)));
}

function refuse(windowStart: number, now: number): never {
  throw new RateLimitedError(Math.max(1, Math.ceil((windowStart + WINDOW_MS - now) / 1000)));
}

/** Takes the window's next lease into `lease` (one at a time: concurrent callers share it). */
function refill(db: Db, lease: Lease, bucket: string, limitPerMinute: number, now: number): Promise<void> {
  lease.pending ??= (async () => {
    try {
      const granted = await takeLease(
        db,
        bucket,
        lease.windowStart,
        leaseSize(limitPerMinute),
        limitPerMinute,
      );
      lease.left += granted;
      if (granted === 0) lease.exhausted = true;
    } finally {
      lease.pending = null;
    }
    void prune(db, stateOf(db), now).catch(() => {});
  })();
  return lease.pending;
}

/**
 * Counts one request of `bucket`; throws RateLimitedError (429 with Retry-After) over the limit.
 * When a lease is half spent the next one is taken in the background, so a steady stream of
 * requests rarely waits for the database.
 */
export async function consumeRateLimit(
  db: Db,
  bucket: string,
  limitPerMinute: number,
  now = Date.now(),
): Promise<void> {
  const s = stateOf(db);
  const windowStart = Math.floor(now / WINDOW_MS) * WINDOW_MS;
  for (;;) {
    let lease = s.leases.get(bucket);
    if (!lease || lease.windowStart !== windowStart) {
      lease = { windowStart, left: 0, exhausted: false, pending: null };
      s.leases.set(bucket, lease);
    }
    if (lease.left > 0) {
      lease.left -= 1;
      const size = leaseSize(limitPerMinute);
      if (size > 1 && lease.left < size / 2 && !lease.pending && !lease.exhausted)
        void refill(db, lease, bucket, limitPerMinute, now).catch(() => {});
      return;
    }
    if (lease.exhausted) refuse(windowStart, now);
    await refill(db, lease, bucket, limitPerMinute, now);
  }
}

/** Forgets this process's leases (tests that change the limit mid-window). */
export function resetRateLimits(): void {
  store.__layerlineRateLeases?.clear();
}
