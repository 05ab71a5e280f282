import { afterAll, describe, expect, it } from "vitest";
import { getDb } from "@/lib/server/db/client";
import { consumeRateLimit, leaseSize, resetRateLimits, WINDOW_MS } from "@/lib/server/http/rate-limit";
import { call, signUpWithKey, startTestApp } from "../helpers";

const app = await startTestApp();

describe("rate limiting", () => {
  afterAll(() => {
    delete process.env.RATE_LIMIT_PER_MINUTE;
  });

  it("answers 429 with Retry-After once a key exceeds its limit, per key", async () => {
    const a = await signUpWithKey(app);
    const b = await signUpWithKey(app);
    resetRateLimits();
    process.env.RATE_LIMIT_PER_MINUTE = "5";
    const statuses: number[] = [];
    let last: Awaited<ReturnType<typeof call>> | undefined;
    for (let i = 0; i < 7; i++) {
      last = await call(app, "GET", "/api/v1/users/me/credits", { key: a.key });
      statuses.push(last.status);
    }
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429, 429]);
    expect(Number(last?.res.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(last?.json.status).toBe(429);
    const other = await call(app, "GET", "/api/v1/users/me/credits", { key: b.key });
    expect(other.status).toBe(200);
  });
});

describe("rate limits shared by server processes", () => {
  it("counts in the database: a second process (no leases of its own) sees the first one's requests", async () => {
    const db = await getDb();
    const bucket = `test:${Math.random()}`;
    const now = Date.now();
    for (let i = 0; i < 3; i++) await consumeRateLimit(db, bucket, 5, now);
    resetRateLimits(); // what another process starts with: nothing leased
    await consumeRateLimit(db, bucket, 5, now);
    await consumeRateLimit(db, bucket, 5, now);
    await expect(consumeRateLimit(db, bucket, 5, now)).rejects.toMatchObject({ status: 429 });
    resetRateLimits();
    await expect(consumeRateLimit(db, bucket, 5, now)).rejects.toMatchObject({ status: 429 });
    // The next window starts afresh.
    await consumeRateLimit(db, bucket, 5, now + WINDOW_MS);
  });

  it("leases blocks of a large limit, never serving more than the limit across processes", async () => {
    const db = await getDb();
    const limit = 500; // leases of 10, the next one taken when half of one is spent
    expect(leaseSize(limit)).toBe(10);
    const run = async (resetEvery: number | null) => {
      const bucket = `test:${Math.random()}`;
      const now = Date.now();
      let served = 0;
      for (let i = 0; i < 600; i++) {
        if (resetEvery && i % resetEvery === 0) resetRateLimits();
        try {
          await consumeRateLimit(db, bucket, limit, now);
          served += 1;
        } catch (err) {
          expect(err).toMatchObject({ status: 429 });
        }
      }
      return served;
    };
    // One process spends every lease it takes: exactly the limit.
    expect(await run(null)).toBe(limit);
    // A new process every 7 requests (the worst case: each drops what it leased and did not use):
    // never over the limit; at most two leases of 10 are taken for every 7 requests served.
    const served = await run(7);
    expect(served).toBeLessThanOrEqual(limit);
    expect(served).toBeGreaterThanOrEqual(Math.floor(limit / 20) * 7);
  });
});
