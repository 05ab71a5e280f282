import { createRoute, z } from "@hono/zod-openapi";
import { describe, expect, it } from "vitest";
import { credentials } from "@/lib/server/http/credentials";
import { idempotency } from "@/lib/server/http/idempotency";
import { createRouter, errors, jsonBody, jsonContent } from "@/lib/server/http/openapi";
import { problemResponse } from "@/lib/server/http/problem";
import { randomBase62 } from "@/lib/server/ids";
import { call, signUpWithKey, startTestApp } from "../helpers";

const app = await startTestApp();

/**
 * The middleware is shared by training-job and deployment creation; here it guards a route that
 * behaves like them (creates something, returns a one-time secret, can be slow or fail).
 */
let created = 0;
const route = createRoute({
  method: "post",
  path: "/api/v1/__test/things",
  middleware: [
    credentials(["api_key"]),
    idempotency({ redact: (b) => ({ ...(b as object), secret: null }) }),
  ],
  request: {
    body: jsonBody(
      z.object({ name: z.string(), delay_ms: z.number().optional(), fail: z.number().optional() }),
    ),
  },
  responses: {
    201: jsonContent(z.object({ id: z.number(), name: z.string(), secret: z.string().nullable() }), "ok"),
    ...errors(409, 422, 503),
  },
});
const router = createRouter().openapi(route, async (c) => {
  const body = c.req.valid("json");
  if (body.delay_ms) await new Promise((r) => setTimeout(r, body.delay_ms));
  // A failing upstream: the response is an error the middleware must not store.
  if (body.fail) return problemResponse(c, body.fail, "The upstream failed.") as never;
  created += 1;
  return c.json({ id: created, name: body.name, secret: `ldk_${randomBase62(32)}` }, 201);
});
app.route("/", router);

describe("Idempotency-Key", () => {
  it("replays the original response, with the one-time secret redacted", async () => {
    const { key } = await signUpWithKey(app);
    const headers = { "Idempotency-Key": "create-1" };
    const first = await call(app, "POST", "/api/v1/__test/things", { key, headers, body: { name: "a" } });
    expect(first.status).toBe(201);
    expect(first.json.secret).toMatch(/^ldk_/);
    expect(first.res.headers.get("idempotency-replayed")).toBeNull();

    const again = await call(app, "POST", "/api/v1/__test/things", { key, headers, body: { name: "a" } });
    expect(again.status).toBe(201);
    expect(again.res.headers.get("idempotency-replayed")).toBe("true");
    expect(again.res.headers.get("idempotency-secret-redacted")).toBe("true");
    expect(again.json).toEqual({ id: first.json.id, name: "a", secret: null });
  });

  it("treats reordered JSON keys as the same body and another body as 422", async () => {
    const { key } = await signUpWithKey(app);
    const headers = { "Idempotency-Key": "create-2" };
    await call(app, "POST", "/api/v1/__test/things", {
      key,
      rawBody: '{"name":"b","delay_ms":1}',
      headers: { ...headers, "Content-Type": "application/json" },
    });
    const same = await call(app, "POST", "/api/v1/__test/things", {
      key,
      rawBody: '{"delay_ms":1,"name":"b"}',
      headers: { ...headers, "Content-Type": "application/json" },
    });
    expect(same.res.headers.get("idempotency-replayed")).toBe("true");
    const other = await call(app, "POST", "/api/v1/__test/things", { key, headers, body: { name: "c" } });
    expect(other.status).toBe(422);
  });

  it("scopes keys to the caller", async () => {
    const a = await signUpWithKey(app);
    const b = await signUpWithKey(app);
    const headers = { "Idempotency-Key": "shared-key" };
    const ra = await call(app, "POST", "/api/v1/__test/things", { key: a.key, headers, body: { name: "x" } });
    const rb = await call(app, "POST", "/api/v1/__test/things", { key: b.key, headers, body: { name: "x" } });
    expect(rb.res.headers.get("idempotency-replayed")).toBeNull();
    expect(rb.json.id).not.toBe(ra.json.id);
  });

  it("under concurrent requests with one key: exactly one runs, the others get 409", async () => {
    const { key } = await signUpWithKey(app);
    const before = created;
    const headers = { "Idempotency-Key": "concurrent-1" };
    const results = await Promise.all(
      Array.from({ length: 8 }, () =>
        call(app, "POST", "/api/v1/__test/things", { key, headers, body: { name: "slow", delay_ms: 300 } }),
      ),
    );
    const statuses = results.map((r) => r.status).sort();
    expect(statuses.filter((s) => s === 201)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(7);
    expect(created - before).toBe(1);
    const replay = await call(app, "POST", "/api/v1/__test/things", {
      key,
      headers,
      body: { name: "slow", delay_ms: 300 },
    });
    expect(replay.res.headers.get("idempotency-replayed")).toBe("true");
    expect(created - before).toBe(1);
  });

  it("does not store 5xx or 429 results, so the same key can be retried", async () => {
    const { key } = await signUpWithKey(app);
    for (const fail of [503, 429]) {
      const headers = { "Idempotency-Key": `retry-${fail}` };
      const first = await call(app, "POST", "/api/v1/__test/things", {
        key,
        headers,
        body: { name: "r", fail },
      });
      expect(first.status).toBe(fail);
      const second = await call(app, "POST", "/api/v1/__test/things", {
        key,
        headers,
        body: { name: "r", fail },
      });
      expect(second.status).toBe(fail);
      expect(second.res.headers.get("idempotency-replayed")).toBeNull();
    }
  });

  it("rejects a malformed key with 422", async () => {
    const { key } = await signUpWithKey(app);
    const r = await call(app, "POST", "/api/v1/__test/things", {
      key,
      headers: { "Idempotency-Key": "x".repeat(300) },
      body: { name: "a" },
    });
    expect(r.status).toBe(422);
  });
});
