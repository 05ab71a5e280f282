/**
 * What the scripts that exercise a running local cluster (scripts/cluster.sh) share: its settings and
 * a small HTTP call that reads any answer. Used by scripts/soak.ts and scripts/cluster-checks.ts.
 */
import fs from "node:fs";
import path from "node:path";

/** The cluster's directory (scripts/cluster.sh's CLUSTER_DIR). */
export const clusterDir = process.env.CLUSTER_DIR || "/tmp/layerline-cluster";

/**
 * The settings `cluster.sh up` recorded in $CLUSTER_DIR/cluster.env (CLUSTER_URL, CLUSTER_PORT,
 * DATABASE_URL, S3_*, …); a variable set in this process's environment wins.
 */
export function readClusterEnv(): Record<string, string> {
  const file = path.join(clusterDir, "cluster.env");
  const env: Record<string, string> = {};
  if (fs.existsSync(file)) {
    for (const line of fs.readFileSync(file, "utf8").split("\n")) {
      const eq = line.indexOf("=");
      if (eq > 0) env[line.slice(0, eq)] = line.slice(eq + 1);
    }
  }
  for (const k of Object.keys(env)) if (process.env[k]) env[k] = process.env[k] as string;
  return env;
}

/** A positive number from the environment variable `name`, or `fallback`. */
export function envNumber(name: string, fallback: number): number {
  const n = Number(process.env[name]);
  return Number.isFinite(n) && n > 0 ? n : fallback;
}

export interface Res {
  status: number;
  // biome-ignore lint/suspicious/noExplicitAny: the scripts read many response shapes
  json: any;
  text: string;
  headers: Headers;
  /** The API server that answered (the load balancer's X-Served-By; null on a direct call). */
  servedBy: string | null;
}

export interface CallOptions {
  /** A bearer credential (personal key, deployment key, stream or upload token). */
  key?: string;
  /** A JSON body. */
  body?: unknown;
  /** Any other body, sent as is. */
  raw?: BodyInit;
  headers?: Record<string, string>;
  /** Redirects are returned, not followed, unless "follow". */
  redirect?: RequestRedirect;
}

/** One call to `base` (or to `route` itself when it is a full URL); the answer read whole. */
export async function call(
  base: string,
  method: string,
  route: string,
  opts: CallOptions = {},
): Promise<Res> {
  const headers: Record<string, string> = { ...(opts.headers ?? {}) };
  if (opts.key) headers.Authorization = `Bearer ${opts.key}`;
  if (opts.body !== undefined) headers["Content-Type"] = "application/json";
  const res = await fetch(route.startsWith("http") ? route : `${base}${route}`, {
    method,
    headers,
    body: opts.raw ?? (opts.body !== undefined ? JSON.stringify(opts.body) : undefined),
    redirect: opts.redirect ?? "follow",
    signal: AbortSignal.timeout(30_000),
  });
  const text = await res.text();
  let json: unknown = null;
  try {
    json = text ? JSON.parse(text) : null;
  } catch {
    json = null;
  }
  return { status: res.status, json, text, headers: res.headers, servedBy: res.headers.get("x-served-by") };
}

/**
 * The events of an SSE answer's body as they arrive: each event's fields (`id`, `event`, `data`…);
 * comments and keep-alives give an event without an `id`.
 */
export async function* sseFields(body: ReadableStream<Uint8Array>): AsyncGenerator<Record<string, string>> {
  const decoder = new TextDecoder();
  let buffer = "";
  for await (const chunk of body as unknown as AsyncIterable<Uint8Array>) {
    buffer += decoder.decode(chunk, { stream: true });
    for (let cut = buffer.indexOf("\n\n"); cut >= 0; cut = buffer.indexOf("\n\n")) {
      const block = buffer.slice(0, cut);
      buffer = buffer.slice(cut + 2);
      const fields: Record<string, string> = {};
      for (const line of block.split("\n")) {
        const colon = line.indexOf(":");
        if (colon > 0) fields[line.slice(0, colon)] = line.slice(colon + 1).trim();
      }
      yield fields;
    }
  }
}
