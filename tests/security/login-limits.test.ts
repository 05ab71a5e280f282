import { sql } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import { getDb } from "@/lib/server/db/client";
import { resetRateLimits } from "@/lib/server/http/rate-limit";
import { ACCOUNT_BACKOFF, backoffMs } from "@/lib/server/modules/account/auth-limits";
import { call, signUp, startTestApp, uniqueName } from "../helpers";

/**
 * Sign-in and sign-up are limited per account (exponential back-off after a few failures, bounded)
 * and per client address (the connection's, never a header the client writes).
 */
const app = await startTestApp();
const PASSWORD = "correct horse battery";

afterEach(() => {
  delete process.env.LOGIN_RATE_LIMIT_PER_MINUTE;
  resetRateLimits();
});

let n = 0;
const randomXff = () => `${(n * 7) % 250}.${++n % 250}.1.2`;

/** Lets the back-off of every key pass, as if its wait were over (no sleeping in tests). */
async function waitOutBackoff() {
  const db = await getDb();
  await db.execute(sql`update auth_attempts set blocked_until = now() - interval '1 second'`);
}

describe("password guessing against one account", () => {
  it("a burst from changing X-Forwarded-For values (and changing connections) gets 429 with Retry-After", async () => {
    const victim = await signUp(app);
    const statuses: number[] = [];
    let limited: Awaited<ReturnType<typeof call>> | undefined;
    for (let i = 0; i < 12; i++) {
      const r = await call(app, "POST", "/api/auth/login", {
        remoteAddress: `198.51.100.${i + 1}`,
        headers: { "X-Forwarded-For": randomXff() },
        body: { login: victim.username, password: `guess-${i}` },
      });
      statuses.push(r.status);
      if (r.status === 429) limited = r;
    }
    expect(statuses.slice(0, ACCOUNT_BACKOFF.free)).toEqual(Array(ACCOUNT_BACKOFF.free).fill(401));
    expect(statuses.slice(ACCOUNT_BACKOFF.free)).toEqual(Array(12 - ACCOUNT_BACKOFF.free).fill(429));
    expect(limited?.res.headers.get("content-type")).toContain("application/problem+json");
    expect(limited?.json).toMatchObject({ status: 429 });
    expect(Number(limited?.res.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);

    // The e-mail address is the same account: no second set of guesses through it.
    const byEmail = await call(app, "POST", "/api/auth/login", {
      remoteAddress: "198.51.100.99",
      body: { login: ` ${victim.user.email.toUpperCase()} `, password: "another guess" },
    });
    expect(byEmail.status).toBe(429);

    // Another client can still sign in to another account meanwhile.
    const other = await signUp(app);
    const ok = await call(app, "POST", "/api/auth/login", {
      remoteAddress: "192.0.2.50",
      body: { login: other.username, password: PASSWORD },
    });
    expect(ok.status).toBe(200);

    // Once the wait is over, the right password works, and it resets the account's count.
    await waitOutBackoff();
    const right = await call(app, "POST", "/api/auth/login", {
      remoteAddress: "192.0.2.51",
      body: { login: victim.username, password: PASSWORD },
    });
    expect(right.status).toBe(200);
    const wrongAgain = await call(app, "POST", "/api/auth/login", {
      remoteAddress: "192.0.2.51",
      body: { login: victim.username, password: "typo" },
    });
    expect(wrongAgain.status).toBe(401);
  });

  it("the back-off doubles and is bounded (never a lockout longer than 15 minutes)", () => {
    const f = ACCOUNT_BACKOFF.free;
    expect(backoffMs(f - 1, ACCOUNT_BACKOFF)).toBe(0);
    expect(backoffMs(f, ACCOUNT_BACKOFF)).toBe(1000);
    expect(backoffMs(f + 1, ACCOUNT_BACKOFF)).toBe(2000);
    expect(backoffMs(f + 2, ACCOUNT_BACKOFF)).toBe(4000);
    expect(backoffMs(f + 100, ACCOUNT_BACKOFF)).toBe(15 * 60_000);
  });

  it("a guess during the back-off is refused without checking the password, and does not lengthen it", async () => {
    const victim = await signUp(app);
    const login = (password: string) =>
      call(app, "POST", "/api/auth/login", {
        remoteAddress: "198.51.100.200",
        body: { login: victim.username, password },
      });
    for (let i = 0; i < ACCOUNT_BACKOFF.free; i++) expect((await login("wrong")).status).toBe(401);
    // The right password during the back-off is refused too: it would otherwise be an oracle.
    const during = await login(PASSWORD);
    expect(during.status).toBe(429);
    for (let i = 0; i < 20; i++) expect((await login("wrong")).status).toBe(429);
    expect(Number((await login("wrong")).res.headers.get("retry-after"))).toBeLessThanOrEqual(1);
  });
});

describe("one client address", () => {
  it("spraying many accounts from one connection is limited per address, other clients are not", async () => {
    process.env.LOGIN_RATE_LIMIT_PER_MINUTE = "6";
    resetRateLimits();
    const statuses: number[] = [];
    for (let i = 0; i < 9; i++) {
      const r = await call(app, "POST", "/api/auth/login", {
        remoteAddress: "203.0.113.66",
        headers: { "X-Forwarded-For": randomXff() },
        body: { login: uniqueName("nobody"), password: "123456" },
      });
      statuses.push(r.status);
    }
    expect(statuses).toEqual([401, 401, 401, 401, 401, 401, 429, 429, 429]);
    const other = await signUp(app);
    const ok = await call(app, "POST", "/api/auth/login", {
      remoteAddress: "203.0.113.67",
      body: { login: other.username, password: PASSWORD },
    });
    expect(ok.status).toBe(200);
  });

  it("sign-ups are limited per address and per account", async () => {
    process.env.LOGIN_RATE_LIMIT_PER_MINUTE = "4";
    resetRateLimits();
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      const username = uniqueName();
      const r = await call(app, "POST", "/api/auth/signup", {
        remoteAddress: "203.0.113.80",
        headers: { "X-Forwarded-For": randomXff() },
        body: { email: `${username}@example.com`, username, password: PASSWORD },
      });
      statuses.push(r.status);
    }
    expect(statuses).toEqual([201, 201, 201, 201, 429, 429]);

    // Probing whether one e-mail address has an account: back-off on that address, from any client.
    const taken = await signUp(app);
    const probes: number[] = [];
    for (let i = 0; i < ACCOUNT_BACKOFF.free + 2; i++) {
      const r = await call(app, "POST", "/api/auth/signup", {
        remoteAddress: `192.0.2.${100 + i}`,
        body: { email: taken.user.email, username: uniqueName(), password: PASSWORD },
      });
      probes.push(r.status);
    }
    expect(probes.slice(0, ACCOUNT_BACKOFF.free)).toEqual(Array(ACCOUNT_BACKOFF.free).fill(409));
    expect(probes.slice(ACCOUNT_BACKOFF.free)).toEqual([429, 429]);
  });
});
