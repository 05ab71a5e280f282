import type { MiddlewareHandler } from "hono";
import type { Db } from "../db/client";
import type { RequestRecord } from "../db/schema";
import type { AppEnv } from "./env";

/** Where logged calls go: the deployments' request log registers itself at start. */
export interface RequestLogSink {
  /** A logged call starts / ends (the log holds its writes off while calls are in flight). */
  callStarted(): void;
  callEnded(): void;
  record(db: Db, call: RequestRecord): void;
}

let sink: RequestLogSink | null = null;

export function registerRequestLogSink(next: RequestLogSink): void {
  sink = next;
}

/**
 * Logs every call served for a deployment (its inference and OpenAI-compatible routes) into that
 * deployment's request log: the deployment is the one whose key called, or the one an owner's
 * call was served for (`servedDeploymentId`). Calls with no valid credential are not logged
 * against anyone's deployment. Latency is measured to the response's headers (a stream's first
 * byte).
 */
export const requestLogging: MiddlewareHandler<AppEnv> = async (c, next) => {
  const log = sink;
  if (!log) return next();
  const started = performance.now();
  log.callStarted();
  try {
    await next();
  } finally {
    log.callEnded();
  }
  const caller = c.get("caller");
  const deploymentId =
    c.get("servedDeploymentId") ?? (caller?.kind === "deployment_key" ? caller.deploymentId : undefined);
  if (!deploymentId) return;
  const status = c.res.status;
  let error: string | null = null;
  if (status >= 400) error = await errorDetail(c.res);
  log.record(c.get("db"), {
    deploymentId,
    route: routeName(c.req.path, deploymentId),
    status,
    latencyMs: performance.now() - started,
    at: new Date(),
    requestId: c.get("requestId") ?? null,
    instances: c.get("inferenceInstances") ?? null,
    error,
  });
};

/** `/api/v1/inference/dep_x/predict` → `predict`; `/v1/chat/completions` → `/v1/chat/completions`. */
function routeName(path: string, deploymentId: string): string {
  const prefix = `/api/v1/inference/${deploymentId}/`;
  return path.startsWith(prefix) ? path.slice(prefix.length) : path;
}

/** The problem's detail (or an OpenAI-style error's message), read from a clone of the body. */
async function errorDetail(res: Response): Promise<string | null> {
  const type = res.headers.get("Content-Type") ?? "";
  if (!type.includes("json")) return null;
  try {
    const body = (await res.clone().json()) as { detail?: unknown; error?: { message?: unknown } };
    const detail = body.detail ?? body.error?.message;
    return typeof detail === "string" ? detail.slice(0, 500) : null;
  } catch {
    return null;
  }
}
