import { afterAll, describe, expect, it } from "vitest";
import { resetRateLimits } from "@/lib/server/http/rate-limit";
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
