/**
 * Historical metrics and logs of a training job, read from its events (decisions "Training"). Metric
 * name/step/epoch/value and a log's level are columns of `training_events`, so filters, paging and
 * downsampling run in SQL: a series of a million points is never loaded whole into Node. The caller has
 * already checked that the job belongs to the user. Timestamps are the events' `at`, ISO 8601 UTC.
 */
import { and, asc, count, eq, gte, ilike, inArray, isNotNull, lte, type SQL, sql } from "drizzle-orm";
import type { z } from "zod";
import type { Db } from "../../db/client";
import { trainingEvents, trainingJobs } from "../../db/schema/training";
import { rolledUpSeries, seriesExtents } from "../../events/metric-rollups";
import { m4BucketCount } from "./downsample";
import {
  LOG_LEVELS,
  type logsPageSchema,
  type logsQuerySchema,
  type metricsPageSchema,
  type metricsQuerySchema,
  type metricsSummaryResponseSchema,
} from "./training.schemas";

export type MetricsQuery = z.output<typeof metricsQuerySchema>;
export type MetricsPage = z.infer<typeof metricsPageSchema>;
export type MetricsSummary = z.infer<typeof metricsSummaryResponseSchema>;
export type LogsQuery = z.output<typeof logsQuerySchema>;
export type LogsPage = z.infer<typeof logsPageSchema>;
type LogLevel = (typeof LOG_LEVELS)[number];

const te = trainingEvents;

function metricFilter(jobId: string, q: Pick<MetricsQuery, "name" | "from_step" | "to_step">): SQL {
  const conditions: SQL[] = [eq(te.jobId, jobId), eq(te.kind, "metric"), isNotNull(te.value)];
  if (q.name !== undefined) conditions.push(eq(te.name, q.name));
  if (q.from_step !== undefined) conditions.push(gte(te.step, q.from_step));
  if (q.to_step !== undefined) conditions.push(lte(te.step, q.to_step));
  return and(...conditions) as SQL;
}

const pointColumns = {
  name: sql<string>`${te.name}`,
  step: sql<number>`${te.step}`.mapWith(Number),
  epoch: te.epoch,
  value: te.value,
  at: te.at,
};

type PointRow = { name: string; step: number; epoch: number | null; value: number | null; at: Date };

function toPoint(row: PointRow): MetricsPage["items"][number] {
  return {
    name: row.name,
    step: row.step,
    epoch: row.epoch,
    value: row.value ?? 0,
    timestamp: row.at.toISOString(),
  };
}

/**
 * Metric points, sorted by series name then step. Paged (up to 10,000 a page); with `max_points`,
 * every series is downsampled in SQL to at most that many points (M4: each bucket's first, last,
 * minimum and maximum, as `downsampleM4` does) and paging does not apply (`page` 1, one page).
 */
export async function queryMetrics(db: Db, jobId: string, q: MetricsQuery): Promise<MetricsPage> {
  const where = metricFilter(jobId, q);
  // Read before the points: every event up to this id is in the answer (later ones may be too).
  const [cursor] = await db
    .select({ id: trainingJobs.lastEventId })
    .from(trainingJobs)
    .where(eq(trainingJobs.id, jobId));
  const last_event_id = cursor?.id ?? 0;
  if (q.max_points !== undefined) {
    const items = (await downsampled(db, jobId, q, q.max_points)).map(toPoint);
    return {
      items,
      total: items.length,
      page: 1,
      limit: q.limit,
      pages: items.length > 0 ? 1 : 0,
      downsampled: true,
      last_event_id,
    };
  }
  const [{ total }] = await db.select({ total: count() }).from(te).where(where);
  const rows = await db
    .select(pointColumns)
    .from(te)
    .where(where)
    .orderBy(asc(te.name), asc(te.step), asc(te.seq))
    .limit(q.limit)
    .offset((q.page - 1) * q.limit);
  return {
    items: rows.map(toPoint),
    total,
    page: q.page,
    limit: q.limit,
    pages: Math.ceil(total / q.limit),
    downsampled: false,
    last_event_id,
  };
}

/** Series longer than this are downsampled from their rollups when the whole series is asked for. */
export const ROLLUP_MIN_POINTS = 20_000;

/**
 * Downsampled points of every series asked for: a whole long series from its rollups (a few hundred
 * rows, see events/metric-rollups.ts), a step window or a short series with M4 in SQL.
 */
async function downsampled(db: Db, jobId: string, q: MetricsQuery, maxPoints: number): Promise<PointRow[]> {
  if (q.from_step !== undefined || q.to_step !== undefined)
    return downsampledPoints(db, metricFilter(jobId, q), maxPoints);
  const extents = await seriesExtents(db, jobId, q.name);
  const long = extents.filter((e) => e.count > Math.max(ROLLUP_MIN_POINTS, maxPoints));
  if (long.length === 0) return downsampledPoints(db, metricFilter(jobId, q), maxPoints);
  const rolled = await rolledUpSeries(db, jobId, long, maxPoints);
  // The short series the exact way (every stored metric is in the rollups: appendTrainingEvents
  // folds each one in as it stores it, so the rollups also name every series).
  const longNames = new Set(long.map((e) => e.name));
  const short = extents.filter((e) => !longNames.has(e.name)).map((e) => e.name);
  const rest =
    short.length > 0
      ? await downsampledPoints(db, and(metricFilter(jobId, q), inArray(te.name, short)) as SQL, maxPoints)
      : [];
  return [...rolled, ...rest].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : a.step - b.step));
}

/**
 * The points M4 keeps, in one statement: per series, its step range `lo..hi` is cut into
 * ⌊maxPoints / 4⌋ buckets (the formula of `m4Bucket`), and one aggregation pass keeps each bucket's
 * first and last point (by step, then id), minimum and maximum (by value, earliest on ties). A series
 * that already fits keeps every point. Arrays compare element by element, so `min(array[value, step,
 * seq, …])` is the whole row of the minimum: the kept points come out of the aggregation itself.
 *
 * The plan has to stay linear even when the planner's statistics predate a freshly uploaded series
 * (it then believes the job has a handful of rows): no step may look rows up one by one or re-run a
 * subquery per row. Hence the MATERIALIZED CTEs (computed once), and no join back to the table.
 */
async function downsampledPoints(db: Db, where: SQL, maxPoints: number): Promise<PointRow[]> {
  const buckets = m4BucketCount(maxPoints);
  const result: unknown = await db.execute(sql`
    with series_range as materialized (
      select ${te.name} as series, min(${te.step}) as lo, max(${te.step}) as hi, count(*) as n
      from ${te} where ${where} group by ${te.name}
    ),
    buckets as materialized (
      select p.name,
        min(array[p.s, p.q, p.v, p.e, p.t]) as f,
        max(array[p.s, p.q, p.v, p.e, p.t]) as l,
        min(array[p.v, p.s, p.q, p.e, p.t]) as mn,
        max(array[p.v, -p.s, -p.q, p.e, p.t]) as mx
      from (
        select ${te.name} as name, ${te.step} as step, ${te.seq} as seq, ${te.step}::float8 as s,
          ${te.seq}::float8 as q, ${te.value} as v, ${te.epoch}::float8 as e,
          floor(extract(epoch from ${te.at}) * 1000)::float8 as t
        from ${te} where ${where}
        offset 0 -- computes each row's values once, not once per array that uses them
      ) p join series_range r on r.series = p.name
      group by p.name, case when r.n <= ${maxPoints} then p.seq
        else least(${buckets - 1}, floor((p.step - r.lo)::float8 * ${buckets} / (r.hi - r.lo + 1)::float8))::bigint end
    )
    select name, step, epoch, value, at_ms from (
      select distinct on (name, seq) name, step, seq, epoch, value, at_ms from (
        select name, f[1] as step, f[2] as seq, f[3] as value, f[4] as epoch, f[5] as at_ms from buckets
        union all select name, l[1], l[2], l[3], l[4], l[5] from buckets
        union all select name, mn[2], mn[3], mn[1], mn[4], mn[5] from buckets
        union all select name, -mx[2], -mx[3], mx[1], mx[4], mx[5] from buckets
      ) picked
      order by name, seq
    ) kept
    order by name, step, seq`);
  const rows = (Array.isArray(result) ? result : (result as { rows: unknown[] }).rows) as {
    name: string;
    step: number;
    epoch: number | null;
    value: number;
    at_ms: number;
  }[];
  return rows.map((r) => ({
    name: r.name,
    step: Number(r.step),
    epoch: r.epoch === null ? null : Number(r.epoch),
    value: Number(r.value),
    at: new Date(Number(r.at_ms)),
  }));
}

/** Per series: count, last value (at the highest step), min, max, mean, last step and best step. */
export async function metricsSummary(db: Db, jobId: string): Promise<MetricsSummary> {
  const step = sql`${te.step}::float8`;
  const seq = sql`${te.seq}::float8`;
  const rows = await db
    .select({
      name: sql<string>`${te.name}`,
      count: count(),
      mean: sql<number>`avg(${te.value})`.mapWith(Number),
      min: sql<number>`min(${te.value})`.mapWith(Number),
      max: sql<number>`max(${te.value})`.mapWith(Number),
      last: sql<number>`(max(array[${step}, ${seq}, ${te.value}]))[3]`.mapWith(Number),
      lastStep: sql<number>`max(${step})`.mapWith(Number),
      minStep: sql<number>`(min(array[${te.value}, ${step}]))[2]`.mapWith(Number),
      maxStep: sql<number>`-(max(array[${te.value}, -${step}]))[2]`.mapWith(Number),
    })
    .from(te)
    .where(metricFilter(jobId, {}))
    .groupBy(te.name)
    .orderBy(asc(te.name));
  return {
    job_id: jobId,
    series: rows.map((r) => ({
      name: r.name,
      count: r.count,
      last: r.last,
      min: r.min,
      max: r.max,
      mean: r.mean,
      last_step: r.lastStep,
      best_step: lowerIsBetter(r.name) ? r.minStep : r.maxStep,
    })),
  };
}

/** Losses and error rates improve downwards; everything else (accuracy, F1…) upwards. */
export function lowerIsBetter(metricName: string): boolean {
  return /loss|error/i.test(metricName);
}

function isLogLevel(value: string | null): value is LogLevel {
  return value !== null && (LOG_LEVELS as readonly string[]).includes(value);
}

/**
 * Log lines (events of kind `log`, level in `name`), oldest first, paged. `level`: that level and
 * above (debug < info < warning < error); `since`: at or after that time; `q`: message contains the
 * text, ignoring case.
 */
export async function queryLogs(db: Db, jobId: string, q: LogsQuery): Promise<LogsPage> {
  const conditions: SQL[] = [eq(te.jobId, jobId), eq(te.kind, "log")];
  if (q.level) conditions.push(inArray(te.name, LOG_LEVELS.slice(LOG_LEVELS.indexOf(q.level))));
  if (q.since) conditions.push(gte(te.at, new Date(q.since)));
  if (q.q) {
    const pattern = `%${q.q.replace(/[\\%_]/g, (m) => `\\${m}`)}%`;
    conditions.push(ilike(sql`${te.data}->>'message'`, pattern));
  }
  const where = and(...conditions);
  const [{ total }] = await db.select({ total: count() }).from(te).where(where);
  const rows = await db
    .select({
      id: te.seq,
      at: te.at,
      level: te.name,
      message: sql<string | null>`${te.data}->>'message'`,
    })
    .from(te)
    .where(where)
    .orderBy(asc(te.seq))
    .limit(q.limit)
    .offset((q.page - 1) * q.limit);
  return {
    items: rows.map((r) => ({
      id: r.id,
      timestamp: r.at.toISOString(),
      level: isLogLevel(r.level) ? r.level : "info",
      message: r.message ?? "",
    })),
    total,
    page: q.page,
    limit: q.limit,
    pages: Math.ceil(total / q.limit),
  };
}
