import { randomBytes } from "node:crypto";
import { serve } from "@hono/node-server";
import { afterAll } from "vitest";
import { createApp } from "@/lib/server/app";
import { closeDb, openDb, setDb } from "@/lib/server/db/client";
import { assertMatchesDocument } from "./openapi-contract";

/**
 * Opens a real database for a test file: PGlite in memory by default, or the PostgreSQL server in
 * TEST_DATABASE_URL (CI runs the whole API suite both ways). Names are unique per call, so files can
 * share one PostgreSQL database.
 */
export async function startTestApp() {
  const url = process.env.TEST_DATABASE_URL;
  const open = await openDb(url ? { kind: "postgres", url } : { kind: "pglite-memory" });
  setDb(open);
  afterAll(async () => {
    await closeDb();
  });
  return createApp();
}

export type TestApp = Awaited<ReturnType<typeof startTestApp>>;

export const ORIGIN = "http://localhost";

export interface CallOptions {
  body?: unknown;
  rawBody?: BodyInit;
  headers?: Record<string, string>;
  cookie?: string;
  key?: string;
  /**
   * The connection's remote address, as the Node.js server passes it to the app (its `incoming`
   * socket). Without it a request has no known client address (per-address limits do not apply).
   */
  remoteAddress?: string;
}

export async function call(
  app: { request: TestApp["request"] },
  method: string,
  path: string,
  opts: CallOptions = {},
) {
  const headers: Record<string, string> = { Host: "localhost", ...opts.headers };
  if (opts.cookie) {
    headers.Cookie = opts.cookie;
    headers.Origin ??= ORIGIN;
  }
  if (opts.key) headers.Authorization = `Bearer ${opts.key}`;
  let body: BodyInit | undefined = opts.rawBody;
  if (opts.body !== undefined) {
    body = JSON.stringify(opts.body);
    headers["Content-Type"] ??= "application/json";
  }
  const env = opts.remoteAddress
    ? { incoming: { socket: { remoteAddress: opts.remoteAddress } } }
    : undefined;
  const res = await app.request(path, { method, headers, body }, env);
  const text = await res.text();
  let json: unknown = null;
  try {
    json = text ? JSON.parse(text) : null;
  } catch {
    json = text;
  }
  // Every response a test reads is one the OpenAPI document declares (status, content type, schema).
  assertMatchesDocument(method, path, { status: res.status, headers: res.headers, text, json }, app);
  // biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary response bodies
  return { res, status: res.status, json: json as any, text };
}

export function uniqueName(prefix = "u"): string {
  return `${prefix}${randomBytes(5).toString("hex")}`;
}

/** Signs up a fresh user; returns its session cookie. */
export async function signUp(app: TestApp, plan?: string) {
  const username = uniqueName();
  const r = await call(app, "POST", "/api/auth/signup", {
    body: { email: `${username}@example.com`, username, password: "correct horse battery" },
  });
  if (r.status !== 201) throw new Error(`signup failed: ${r.status} ${r.text}`);
  const setCookie = r.res.headers.get("set-cookie") ?? "";
  const cookie = setCookie.split(";")[0];
  void plan;
  return { cookie, user: r.json.user as { id: string; username: string; email: string }, username };
}

/** Signs up and creates a personal API key. */
export async function signUpWithKey(app: TestApp) {
  const s = await signUp(app);
  const k = await call(app, "POST", "/api/v1/users/me/api-keys", {
    cookie: s.cookie,
    body: { name: "test" },
  });
  if (k.status !== 201) throw new Error(`key creation failed: ${k.status} ${k.text}`);
  return { ...s, key: k.json.key as string, keyId: k.json.id as string };
}

/**
 * Serves the app on a loopback port and points LAYERLINE_INTERNAL_URL at it, so that training
 * programs upload their events through the real API; returns how to stop it.
 */
export async function serveForUploads(app: TestApp): Promise<() => void> {
  return new Promise((resolve) => {
    const server = serve({ fetch: app.fetch, port: 0, hostname: "127.0.0.1" }, (info) => {
      process.env.LAYERLINE_INTERNAL_URL = `http://127.0.0.1:${info.port}`;
      resolve(() => server.close());
    });
  });
}
