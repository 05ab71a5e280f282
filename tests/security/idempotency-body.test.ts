import { describe, expect, it } from "vitest";
import { signUpWithKey, startTestApp } from "../helpers";
import { countedBody } from "./counted-body";

/**
 * A route with Idempotency-Key support fingerprints the request body. Only JSON bodies (under the
 * JSON cap) are read for it: a body of another type is left to the route's validator, never buffered.
 */
const app = await startTestApp();
const MiB = 1024 * 1024;

describe("Idempotency-Key with a body that is not JSON", () => {
  it("is refused without reading a 32 MiB text body", async () => {
    const { key } = await signUpWithKey(app);
    const body = countedBody(32 * MiB);
    const res = await app.request("/api/v1/training/jobs", {
      method: "POST",
      headers: {
        Host: "localhost",
        Authorization: `Bearer ${key}`,
        "Content-Type": "text/plain",
        "Idempotency-Key": "replay-me",
      },
      body: body.stream,
      duplex: "half",
    } as RequestInit);
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
    expect(res.headers.get("content-type")).toContain("application/problem+json");
    await res.text();
    expect(body.pulled()).toBeLessThan(2 * MiB);
  });
});
