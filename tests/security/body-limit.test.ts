import http from "node:http";
import { serve } from "@hono/node-server";
import { describe, expect, it } from "vitest";
import { DEFAULT_JSON_BODY_LIMIT_BYTES } from "@/lib/server/http/body-limit";
import { call, signUpWithKey, startTestApp } from "../helpers";
import { countedBody } from "./counted-body";

/**
 * JSON bodies are capped before parsing: 1 MiB by default (the unauthenticated sign-in included),
 * more only on the routes that take graphs or batches. The body is never read past the cap.
 */
const app = await startTestApp();
// After the app: the graph schemas need the OpenAPI extension of zod that the app installs.
const { DAG_MAX_BYTES } = await import("@/lib/ml/dag-format");
const MiB = 1024 * 1024;

/** A body of `total` bytes of a JSON string that counts how much of it the server pulled. */
const jsonBody = (total: number) => countedBody(total, '{"login":"');

async function send(path: string, body: ReadableStream<Uint8Array>, headers: Record<string, string>) {
  const res = await app.request(path, {
    method: "POST",
    headers: { Host: "localhost", "Content-Type": "application/json", ...headers },
    body,
    duplex: "half",
  } as RequestInit);
  const text = await res.text();
  return { res, status: res.status, text, json: text ? JSON.parse(text) : null };
}

describe("JSON body cap", () => {
  it("a declared 500 MB body to /api/auth/login is refused with 413 before it is read", async () => {
    // The stream holds 16 MiB: enough to see whether the server reads past the cap.
    const body = jsonBody(16 * MiB);
    const r = await send("/api/auth/login", body.stream, { "Content-Length": String(500_000_000) });
    expect(r.status).toBe(413);
    expect(r.res.headers.get("content-type")).toContain("application/problem+json");
    expect(r.json).toMatchObject({ status: 413 });
    expect(r.json.detail).toContain("1 MiB");
    expect(body.pulled()).toBeLessThan(256 * 1024);
  });

  it("a chunked 2 MiB body to /api/auth/login is refused with 413 once it passes 1 MiB", async () => {
    const body = jsonBody(2 * MiB);
    const r = await send("/api/auth/login", body.stream, {});
    expect(r.status).toBe(413);
    expect(r.json).toMatchObject({ status: 413 });
    expect(body.pulled()).toBeLessThan(DEFAULT_JSON_BODY_LIMIT_BYTES + 256 * 1024);
  });

  it("an ordinary sign-in body is read as before", async () => {
    const r = await call(app, "POST", "/api/auth/login", { body: { login: "nobody", password: "x" } });
    expect(r.status).toBe(401);
  });

  it("graph routes take graphs up to the DAG limit, and no more", async () => {
    const { key } = await signUpWithKey(app);
    // A project whose description field pads the body past 1 MiB: not refused for its size.
    const padded = { name: "big", description: "x".repeat(1.5 * MiB) };
    const big = await call(app, "POST", "/api/v1/projects", { key, body: padded });
    expect(big.status).not.toBe(413);
    const huge = { name: "huge", description: "x".repeat(DAG_MAX_BYTES + MiB) };
    const refused = await call(app, "POST", "/api/v1/projects", { key, body: huge });
    expect(refused.status).toBe(413);
    // Elsewhere the default cap holds.
    const other = await call(app, "POST", "/api/v1/hub/models", {
      key,
      body: { name: "x".repeat(2 * MiB) },
    });
    expect(other.status).toBe(413);
  });

  it("over a real connection, a declared 500 MB sign-in is answered 413 after the client sent only 64 KiB", async () => {
    const server = await new Promise<ReturnType<typeof serve>>((resolve) => {
      const s = serve({ fetch: app.fetch, port: 0, hostname: "127.0.0.1" }, () => resolve(s));
    });
    try {
      const { port } = server.address() as { port: number };
      const status = await new Promise<number>((resolve, reject) => {
        const req = http.request(
          {
            host: "127.0.0.1",
            port,
            method: "POST",
            path: "/api/auth/login",
            headers: { "Content-Type": "application/json", "Content-Length": String(500_000_000) },
          },
          (res) => {
            res.resume();
            resolve(res.statusCode ?? 0);
            req.destroy();
          },
        );
        req.on("error", (err) => (String(err).includes("ECONNRESET") ? undefined : reject(err)));
        // Only the start of the body is ever sent: the answer must not wait for the rest.
        req.write(`{"login":"${"a".repeat(64 * 1024)}`);
      });
      expect(status).toBe(413);
    } finally {
      server.close();
    }
  });
});
