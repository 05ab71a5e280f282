import { createHash } from "node:crypto";
import { and, eq, lt } from "drizzle-orm";
import type { MiddlewareHandler } from "hono";
import type { Db } from "../db/client";
import { idempotencyRecords } from "../db/schema";
import { ConflictError, ValidationError } from "../errors";
import { isJsonRequest } from "./body-limit";
import type { AppEnv, Caller } from "./env";

const RESULT_TTL_MS = 24 * 3600 * 1000;
/** An in-flight marker older than this belongs to a request that died with its process. */
const IN_FLIGHT_TTL_MS = 5 * 60 * 1000;
const KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;
const REPLAYED_HEADERS = ["content-type", "location"];

export interface IdempotencyOptions {
  /**
   * Rewrites a successful JSON body before it is stored, so one-time secrets are never replayed
   * (e.g. a deployment's `api_key` becomes null). Returns null when nothing was redacted.
   */
  redact?: (body: unknown) => unknown | null;
}

function scopeOf(caller: Caller): string {
  switch (caller.kind) {
    case "session":
    case "api_key":
      return `user:${caller.user.id}`;
    case "deployment_key":
      return `dep:${caller.deploymentId}`;
    case "stream_token":
    case "upload_token":
      return `sub:${caller.subject}`;
    case "anonymous":
      return "anon";
  }
}

function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (value && typeof value === "object") {
    return Object.fromEntries(
      Object.keys(value as Record<string, unknown>)
        .sort()
        .map((k) => [k, canonical((value as Record<string, unknown>)[k])]),
    );
  }
  return value;
}

function fingerprint(method: string, path: string, body: string): string {
  let normalized = body;
  try {
    normalized = JSON.stringify(canonical(JSON.parse(body)));
  } catch {
    /* not JSON: compare bytes */
  }
  return createHash("sha256").update(`${method}\n${path}\n${normalized}`).digest("hex");
}

async function claim(db: Db, id: string, requestHash: string): Promise<boolean> {
  const inserted = await db
    .insert(idempotencyRecords)
    .values({
      id,
      requestHash,
      state: "in_flight",
      expiresAt: new Date(Date.now() + IN_FLIGHT_TTL_MS),
    })
    .onConflictDoNothing()
    .returning({ id: idempotencyRecords.id });
  return inserted.length === 1;
}

/**
 * Idempotency-Key handling (contract §4.14) for one route: the first request with a key runs and its
 * result is stored; a repeat with the same body replays it (`Idempotency-Replayed: true`); a repeat
 * while the first is in flight gets 409; a repeat with another body gets 422. Responses with status
 * 429 or 5xx are not stored, and stored results expire after 24 hours.
 * Must run after the credentials middleware: keys are scoped to the caller.
 */
export function idempotency(opts: IdempotencyOptions = {}): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const key = c.req.header("Idempotency-Key");
    if (key === undefined) return next();
    if (!KEY_PATTERN.test(key))
      throw new ValidationError("Idempotency-Key must be 1–255 visible ASCII characters.", [
        { path: "header.Idempotency-Key", message: "Invalid key" },
      ]);
    // Only JSON bodies are read here, under the JSON cap (body-limit.ts); any other body is one the
    // route's validator refuses without side effects, so it is not buffered for a fingerprint.
    if (c.req.raw.body && !isJsonRequest(c.req.header("Content-Type") ?? null)) return next();
    const db = c.get("db");
    const body = await c.req.text(); // cached by Hono, so the route's validator can still read it
    const requestHash = fingerprint(c.req.method, c.req.path, body);
    const id = createHash("sha256")
      .update(`${scopeOf(c.get("caller"))}\n${c.req.method}\n${c.req.path}\n${key}`)
      .digest("hex");

    for (let attempt = 0; attempt < 3; attempt++) {
      if (await claim(db, id, requestHash)) break;
      const [existing] = await db.select().from(idempotencyRecords).where(eq(idempotencyRecords.id, id));
      if (!existing) continue; // removed between our insert and select: try again
      if (existing.expiresAt.getTime() <= Date.now()) {
        await db
          .delete(idempotencyRecords)
          .where(and(eq(idempotencyRecords.id, id), lt(idempotencyRecords.expiresAt, new Date())));
        continue;
      }
      if (existing.requestHash !== requestHash)
        throw new ValidationError("This Idempotency-Key was already used with a different request body.", [
          { path: "header.Idempotency-Key", message: "Reused with another body" },
        ]);
      if (existing.state === "in_flight")
        throw new ConflictError("A request with this Idempotency-Key is still being processed; retry later.");
      const headers = new Headers(existing.headers ?? {});
      headers.set("Idempotency-Replayed", "true");
      return new Response(existing.body, { status: existing.status ?? 200, headers });
    }

    await next();

    const status = c.res.status;
    if (status === 429 || status >= 500) {
      await db.delete(idempotencyRecords).where(eq(idempotencyRecords.id, id));
      return;
    }
    let stored = await c.res.clone().text();
    const headers: Record<string, string> = {};
    for (const name of REPLAYED_HEADERS) {
      const v = c.res.headers.get(name);
      if (v) headers[name] = v;
    }
    if (opts.redact && status < 300) {
      try {
        const redacted = opts.redact(JSON.parse(stored));
        if (redacted !== null) {
          stored = JSON.stringify(redacted);
          headers["idempotency-secret-redacted"] = "true";
        }
      } catch {
        /* not JSON: stored as is */
      }
    }
    await db
      .update(idempotencyRecords)
      .set({ state: "done", status, headers, body: stored, expiresAt: new Date(Date.now() + RESULT_TTL_MS) })
      .where(eq(idempotencyRecords.id, id));
  };
}
