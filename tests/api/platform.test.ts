import { describe, expect, it } from "vitest";
import { call, startTestApp } from "../helpers";

const app = await startTestApp();

describe("platform", () => {
  it("answers /health with the database up", async () => {
    const r = await call(app, "GET", "/health");
    expect(r.status).toBe(200);
    expect(r.json.status).toBe("ok");
    expect(r.json.database.status).toBe("up");
    expect(r.res.headers.get("x-request-id")).toMatch(/^req_[0-9a-f]{32}$/);
  });

  it("echoes a well-formed X-Request-ID and replaces a malformed one", async () => {
    const ok = await call(app, "GET", "/health", { headers: { "X-Request-ID": "abc.DEF-123_x" } });
    expect(ok.res.headers.get("x-request-id")).toBe("abc.DEF-123_x");
    const bad = await call(app, "GET", "/health", { headers: { "X-Request-ID": "no spaces allowed" } });
    expect(bad.res.headers.get("x-request-id")).not.toBe("no spaces allowed");
    const long = await call(app, "GET", "/health", { headers: { "X-Request-ID": "a".repeat(129) } });
    expect(long.res.headers.get("x-request-id")).toMatch(/^req_/);
  });

  it("answers unknown routes with a problem+json 404 carrying the request id", async () => {
    const r = await call(app, "GET", "/api/v1/nope", { headers: { "X-Request-ID": "rid-404" } });
    expect(r.status).toBe(404);
    expect(r.res.headers.get("content-type")).toBe("application/problem+json");
    expect(r.json).toMatchObject({ status: 404, title: "Not found", request_id: "rid-404" });
    expect(r.res.headers.get("x-request-id")).toBe("rid-404");
  });

  it("serves an OpenAPI 3.1 document describing the credential schemes", async () => {
    const r = await call(app, "GET", "/api/v1/openapi.json");
    expect(r.status).toBe(200);
    expect(r.json.openapi).toBe("3.1.0");
    expect(Object.keys(r.json.components.securitySchemes)).toEqual(
      expect.arrayContaining(["personalApiKey", "webSession", "deploymentKey", "streamToken", "uploadToken"]),
    );
    expect(r.json.paths["/api/v1/users/me/entitlements"].get.operationId).toBe("getEntitlements");
    expect(r.json.components.schemas.Problem).toBeDefined();
  });

  it("refuses a declared body above 550 MB with 413 before reading it", async () => {
    const r = await call(app, "POST", "/api/auth/signup", {
      rawBody: "{}",
      headers: { "Content-Type": "application/json", "Content-Length": String(551 * 1024 * 1024) },
    });
    expect(r.status).toBe(413);
    expect(r.json.title).toBe("Payload too large");
  });
});

describe("health when the database is down", () => {
  it("answers 503 with the database reported down", async () => {
    const { openDb, setDb } = await import("@/lib/server/db/client");
    const broken = await openDb({ kind: "pglite-memory" });
    await broken.close();
    const { getDb } = await import("@/lib/server/db/client");
    const healthy = await getDb();
    setDb(broken);
    try {
      const r = await call(app, "GET", "/health");
      expect(r.status).toBe(503);
      expect(r.json.database.status).toBe("down");
      expect(r.json.status).toBe("degraded");
    } finally {
      setDb({ db: healthy, target: { kind: "pglite-memory" }, close: async () => {} });
    }
  });
});

describe("streaming body limit", () => {
  function chunkedBody(bytes: number): ReadableStream<Uint8Array> {
    let sent = 0;
    return new ReadableStream({
      pull(controller) {
        if (sent >= bytes) return controller.close();
        const chunk = new Uint8Array(Math.min(1024, bytes - sent)).fill(32);
        sent += chunk.byteLength;
        controller.enqueue(chunk);
      },
    });
  }

  it("refuses a chunked body (no Content-Length) once it passes the limit", async () => {
    const { createApp } = await import("@/lib/server/app");
    const small = createApp({ maxRequestBytes: 4096 });
    const res = await small.request("/api/auth/signup", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: chunkedBody(20_000),
      duplex: "half",
    } as RequestInit);
    expect(res.status).toBe(413);
    expect((await res.json()).title).toBe("Payload too large");
  });

  it("lets a chunked body under the limit through", async () => {
    const { createApp } = await import("@/lib/server/app");
    const small = createApp({ maxRequestBytes: 4096 });
    const res = await small.request("/api/auth/login", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: new Blob(['{"login":"nobody","password":"x"}']).stream(),
      duplex: "half",
    } as RequestInit);
    expect(res.status).toBe(401);
  });
});
