import type { Context, MiddlewareHandler } from "hono";
import { getCookie } from "hono/cookie";
import type { Db } from "../db/client";
import type { ServingTarget } from "../db/schema";
import { ForbiddenError, UnauthorizedError } from "../errors";
import { planOf } from "../plans";
import { clientAddress, trustedForwardedHeader } from "./client-address";
import type { AppEnv, Caller, CredentialKind } from "./env";
import { consumeRateLimit, effectiveLimit } from "./rate-limit";

export const SESSION_COOKIE = "layerline_session";

/** Bearer secrets carry their kind in their prefix, so the kind is known before any lookup. */
const PREFIXES: [string, CredentialKind][] = [
  ["ldk_", "deployment_key"],
  ["lst_", "stream_token"],
  ["lut_", "upload_token"],
  ["lk_", "api_key"],
];

type Verifier = (c: Context<AppEnv>, secret: string) => Promise<Caller | null>;

/**
 * How each kind of secret is checked, registered at start by the area that issues it (sessions and
 * personal keys: modules/account/account.index.ts; deployment keys: the deployments index; stream and
 * upload tokens: modules/account/training-tokens.ts). A kind nobody registered is refused as unknown.
 */
const verifiers = new Map<CredentialKind, Verifier>();

export function registerCredentialVerifier(kind: CredentialKind, verify: Verifier): void {
  verifiers.set(kind, verify);
}

type ApiKeyUseRecorder = (db: Db, keyId: string, status: number) => void;
let recordApiKeyUse: ApiKeyUseRecorder | null = null;

/** Counts each call made with a personal key once it is answered (registered by the account area). */
export function registerApiKeyUseRecorder(record: ApiKeyUseRecorder): void {
  recordApiKeyUse = record;
}

function kindOfSecret(secret: string): CredentialKind | null {
  for (const [prefix, kind] of PREFIXES) if (secret.startsWith(prefix)) return kind;
  return null;
}

function presentedCredential(
  c: Context<AppEnv>,
  accepted: CredentialKind[],
): { kind: CredentialKind; secret: string } | null {
  const auth = c.req.header("Authorization");
  if (auth) {
    const m = /^Bearer\s+(\S+)$/i.exec(auth.trim());
    if (!m) throw new UnauthorizedError("The Authorization header must be `Bearer <credential>`.");
    const kind = kindOfSecret(m[1]);
    if (!kind) throw new UnauthorizedError("The credential is not recognised.");
    return { kind, secret: m[1] };
  }
  if (accepted.includes("stream_token")) {
    const token = c.req.query("token");
    if (token) return { kind: kindOfSecret(token) ?? "stream_token", secret: token };
  }
  const cookie = getCookie(c, SESSION_COOKIE);
  if (cookie) return { kind: "session", secret: cookie };
  return null;
}

const UNSAFE = new Set(["POST", "PUT", "PATCH", "DELETE"]);

function checkCsrf(c: Context<AppEnv>): void {
  if (!UNSAFE.has(c.req.method)) return;
  const origin = c.req.header("Origin");
  const host = trustedForwardedHeader(c, "X-Forwarded-Host") ?? c.req.header("Host");
  const allowed = process.env.PUBLIC_ORIGIN;
  let originHost: string | null = null;
  try {
    originHost = origin ? new URL(origin).host : null;
  } catch {
    originHost = null;
  }
  const ok = origin && ((host && originHost === host) || (allowed && origin === allowed));
  if (!ok)
    throw new ForbiddenError("Cross-site request refused: the Origin header does not match this site.");
}

/** The caller's rate-limit bucket; null for an anonymous caller without a known address (client-address.ts). */
function rateBucket(caller: Caller, c: Context<AppEnv>): { bucket: string; limit: number } | null {
  switch (caller.kind) {
    case "api_key":
      return { bucket: `key:${caller.keyId}`, limit: planOf(caller.user.plan).limits.requests_per_minute };
    case "session":
      return { bucket: `user:${caller.user.id}`, limit: planOf(caller.user.plan).limits.requests_per_minute };
    case "deployment_key":
      return { bucket: `dep:${caller.deploymentId}`, limit: planOf("team").limits.requests_per_minute };
    case "stream_token":
    case "upload_token":
      return { bucket: `sub:${caller.subject}`, limit: planOf("team").limits.requests_per_minute };
    case "anonymous": {
      const address = clientAddress(c);
      return address ? { bucket: `ip:${address}`, limit: planOf("free").limits.requests_per_minute } : null;
    }
  }
}

export interface CredentialOptions {
  /** Let callers without a credential through as `anonymous` (public routes). */
  optional?: boolean;
}

/**
 * Declares which credentials a route accepts (contract §5). A well-formed credential of a kind the
 * route does not accept gets 403; a missing, unknown, revoked or expired one gets 401.
 */
export function credentials(
  accepted: CredentialKind[],
  opts: CredentialOptions = {},
): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const presented = presentedCredential(c, accepted);
    let caller: Caller = { kind: "anonymous" };
    if (presented) {
      const verify = verifiers.get(presented.kind);
      const resolved = verify ? await verify(c, presented.secret) : null;
      if (!resolved) {
        if (presented.kind === "session" && opts.optional) {
          caller = { kind: "anonymous" }; // an expired cookie on a public page is no error
        } else {
          throw new UnauthorizedError(
            presented.kind === "session"
              ? "Your session has expired; sign in again."
              : "The credential is unknown, revoked or expired.",
          );
        }
      } else if (!accepted.includes(presented.kind)) {
        throw new ForbiddenError(`This route does not accept a ${presented.kind.replace("_", " ")}.`);
      } else {
        caller = resolved;
      }
    } else if (!opts.optional) {
      throw new UnauthorizedError();
    }
    if (caller.kind === "session") checkCsrf(c);
    const rate = rateBucket(caller, c);
    if (rate) await consumeRateLimit(c.get("db"), rate.bucket, effectiveLimit(rate.limit));
    c.set("caller", caller);
    await next();
    if (caller.kind === "api_key") recordApiKeyUse?.(c.get("db"), caller.keyId, c.res.status);
  };
}

/** The signed-in user of a route that accepts only user credentials (session or personal key). */
export function currentUser(c: Context<AppEnv>) {
  const caller = c.get("caller");
  if (caller.kind === "session" || caller.kind === "api_key") return caller.user;
  throw new UnauthorizedError();
}

/** The deployment key's caller of an inference route, with the rows read when its key was checked. */
export function deploymentCaller(c: Context<AppEnv>): { deploymentId: string; serving?: ServingTarget } {
  const caller = c.get("caller");
  if (caller.kind !== "deployment_key") throw new UnauthorizedError();
  return { deploymentId: caller.deploymentId, serving: caller.serving };
}
