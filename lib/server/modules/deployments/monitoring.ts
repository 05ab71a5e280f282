/**
 * A deployment's metrics (requests, errors and latency percentiles per time bucket, computed by the
 * database over its request events) and its request log (newest first, paged backwards by id).
 */
import { and, desc, eq, gte, inArray, lt, sql } from "drizzle-orm";
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

/**
 * Requests, server errors (5xx), client errors (4xx) and p50/p95/p99 latency over a window. Each
 * request line counts for the calls it stands for (`data.weight`, request-log.ts: a busy second's
 * lines are a sample): counts are sums of weights, and a percentile is the latency of the line at
 * which the running sum of weights, in latency order, reaches that share of the total (the
 * nearest-rank percentile of every call, when no call was left out).
 */
export async function deploymentMetrics(
  db: Db,
  deploymentId: string,
  window: MetricWindow,
  now = new Date(),
): Promise<DeploymentMetrics> {
  const bucket = METRIC_WINDOWS[window];
  const since = new Date(now.getTime() - WINDOW_SECONDS[window] * 1000);
  const e = deploymentEvents;
  // The width is inlined (a number from METRIC_WINDOWS, never input): grouping needs the select's
  // expression verbatim, and parameters would make each occurrence a different expression.
  const width = sql.raw(String(Math.trunc(bucket)));
  const result: unknown = await db.execute(sql`
    with lines as (
      select (floor(extract(epoch from ${e.at}) / ${width}) * ${width})::bigint as bucket,
        ${e.status} as status, ${e.latencyMs} as latency,
        coalesce((${e.data} ->> 'weight')::float8, 1) as w
      from ${e}
      where ${e.deploymentId} = ${deploymentId} and ${e.kind} = 'request'
        and ${e.at} >= ${since.toISOString()}::timestamptz and ${e.latencyMs} is not null
    ), ranked as (
      select bucket, status, latency, w,
        sum(w) over (partition by bucket order by latency rows unbounded preceding) as bucket_run,
        sum(w) over (partition by bucket) as bucket_total,
        sum(w) over (order by latency rows unbounded preceding) as run,
        sum(w) over () as total
      from lines
    ), per_bucket as (
      select bucket,
        round(sum(w))::int as requests,
        round(coalesce(sum(w) filter (where status >= 500), 0))::int as errors,
        round(coalesce(sum(w) filter (where status between 400 and 499), 0))::int as client_errors,
        min(latency) filter (where bucket_run >= 0.5 * bucket_total - 1e-9) as p50,
        min(latency) filter (where bucket_run >= 0.95 * bucket_total - 1e-9) as p95,
        min(latency) filter (where bucket_run >= 0.99 * bucket_total - 1e-9) as p99
      from ranked group by bucket
    ), totals as (
      select null::bigint as bucket,
        round(coalesce(sum(w), 0))::int as requests,
        round(coalesce(sum(w) filter (where status >= 500), 0))::int as errors,
        round(coalesce(sum(w) filter (where status between 400 and 499), 0))::int as client_errors,
        min(latency) filter (where run >= 0.5 * total - 1e-9) as p50,
        min(latency) filter (where run >= 0.95 * total - 1e-9) as p95,
        min(latency) filter (where run >= 0.99 * total - 1e-9) as p99
      from ranked
    )
    select * from totals
    union all
    select * from (select * from per_bucket order by bucket) as series`);
  type Row = {
    bucket: number | string | null;
    requests: number | string;
    errors: number | string;
    client_errors: number | string;
    p50: number | string | null;
    p95: number | string | null;
    p99: number | string | null;
  };
  const rows = (Array.isArray(result) ? result : (result as { rows: unknown[] }).rows) as Row[];
  const point = (r: Row) => ({
    requests: Number(r.requests),
    errors: Number(r.errors),
    client_errors: Number(r.client_errors),
    p50_ms: round(r.p50),
    p95_ms: round(r.p95),
    p99_ms: round(r.p99),
  });
  const total = rows.find((r) => r.bucket === null);
  const series = rows.filter((r) => r.bucket !== null).sort((a, b) => Number(a.bucket) - Number(b.bucket));
  return {
    window,
    bucket_seconds: bucket,
    totals: total
      ? point(total)
      : { requests: 0, errors: 0, client_errors: 0, p50_ms: null, p95_ms: null, p99_ms: null },
    series: series.map((r) => ({ at: new Date(Number(r.bucket) * 1000).toISOString(), ...point(r) })),
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
  /** The calls a request line stands for (1 unless its second kept a sample); null for a log line. */
  weight: number | null;
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
      weight: r.kind === "log" ? null : (num(r.data.weight) ?? 1),
    })),
    next_before: rows.length > q.limit ? page[page.length - 1].seq : null,
  };
}
