/**
 * A deployment's metrics (requests, errors and latency percentiles per time bucket, computed by the
 * database over its request events) and its request log (newest first, paged backwards by id).
 */
import { and, desc, eq, gte, inArray, isNotNull, lt, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import { deploymentEvents } from "../../db/schema";

export const METRIC_WINDOWS = { "1h": 60, "24h": 15 * 60, "7d": 3 * 3600 } as const;
export type MetricWindow = keyof typeof METRIC_WINDOWS;
const WINDOW_SECONDS: Record<MetricWindow, number> = { "1h": 3600, "24h": 86_400, "7d": 7 * 86_400 };

export interface MetricPoint {
  at: string;
  requests: number;
  errors: number;
  client_errors: number;
  p50_ms: number | null;
  p95_ms: number | null;
  p99_ms: number | null;
}

export interface DeploymentMetrics {
  window: MetricWindow;
  bucket_seconds: number;
  totals: Omit<MetricPoint, "at">;
  series: MetricPoint[];
}

const round = (v: number | string | null): number | null =>
  v === null ? null : Math.round(Number(v) * 100) / 100;

/** Requests, server errors (5xx), client errors (4xx) and p50/p95/p99 latency over a window. */
export async function deploymentMetrics(
  db: Db,
  deploymentId: string,
  window: MetricWindow,
  now = new Date(),
): Promise<DeploymentMetrics> {
  const bucket = METRIC_WINDOWS[window];
  const since = new Date(now.getTime() - WINDOW_SECONDS[window] * 1000);
  const inWindow = and(
    eq(deploymentEvents.deploymentId, deploymentId),
    eq(deploymentEvents.kind, "request"),
    gte(deploymentEvents.at, since),
    isNotNull(deploymentEvents.latencyMs),
  );
  const aggregates = {
    requests: sql<number>`count(*)::int`,
    errors: sql<number>`(count(*) filter (where ${deploymentEvents.status} >= 500))::int`,
    client_errors: sql<number>`(count(*) filter (where ${deploymentEvents.status} between 400 and 499))::int`,
    p50: sql<number | null>`percentile_cont(0.5) within group (order by ${deploymentEvents.latencyMs})`,
    p95: sql<number | null>`percentile_cont(0.95) within group (order by ${deploymentEvents.latencyMs})`,
    p99: sql<number | null>`percentile_cont(0.99) within group (order by ${deploymentEvents.latencyMs})`,
  };
  // The width is inlined (a number from METRIC_WINDOWS, never input): grouping needs the select's
  // expression verbatim, and parameters would make each occurrence a different expression.
  const width = sql.raw(String(Math.trunc(bucket)));
  const bucketStart = sql<number>`(floor(extract(epoch from ${deploymentEvents.at}) / ${width}) * ${width})::bigint`;
  const [rows, [total]] = await Promise.all([
    db
      .select({ bucket: bucketStart, ...aggregates })
      .from(deploymentEvents)
      .where(inWindow)
      .groupBy(bucketStart)
      .orderBy(bucketStart),
    db.select(aggregates).from(deploymentEvents).where(inWindow),
  ]);
  const point = (r: (typeof rows)[number] | typeof total) => ({
    requests: Number(r.requests),
    errors: Number(r.errors),
    client_errors: Number(r.client_errors),
    p50_ms: round(r.p50),
    p95_ms: round(r.p95),
    p99_ms: round(r.p99),
  });
  return {
    window,
    bucket_seconds: bucket,
    totals: point(total),
    series: rows.map((r) => ({ at: new Date(Number(r.bucket) * 1000).toISOString(), ...point(r) })),
  };
}

export interface DeploymentLogEntry {
  id: number;
  at: string;
  kind: "request" | "log";
  route: string | null;
  status: number | null;
  latency_ms: number | null;
  instances: number | null;
  request_id: string | null;
  error: string | null;
  message: string | null;
}

export interface LogQuery {
  limit: number;
  /** Entries with an id below this one (the previous page's `next_before`). */
  before?: number;
  /** `error`: status 400 and above; `ok`: below. */
  status?: "ok" | "error";
}

/** The request log and log lines, newest first. */
export async function deploymentLogs(
  db: Db,
  deploymentId: string,
  q: LogQuery,
): Promise<{ items: DeploymentLogEntry[]; next_before: number | null }> {
  const rows = await db
    .select()
    .from(deploymentEvents)
    .where(
      and(
        eq(deploymentEvents.deploymentId, deploymentId),
        inArray(deploymentEvents.kind, q.status ? ["request"] : ["request", "log"]),
        q.before !== undefined ? lt(deploymentEvents.seq, q.before) : undefined,
        q.status === "error" ? gte(deploymentEvents.status, 400) : undefined,
        q.status === "ok" ? lt(deploymentEvents.status, 400) : undefined,
      ),
    )
    .orderBy(desc(deploymentEvents.seq))
    .limit(q.limit + 1);
  const page = rows.slice(0, q.limit);
  const str = (v: unknown) => (typeof v === "string" ? v : null);
  const num = (v: unknown) => (typeof v === "number" ? v : null);
  return {
    items: page.map((r) => ({
      id: r.seq,
      at: r.at.toISOString(),
      kind: r.kind === "log" ? "log" : "request",
      route: r.route,
      status: r.status,
      latency_ms: round(r.latencyMs),
      instances: num(r.data.instances),
      request_id: str(r.data.request_id),
      error: str(r.data.error),
      message: str(r.data.message),
    })),
    next_before: rows.length > q.limit ? page[page.length - 1].seq : null,
  };
}
