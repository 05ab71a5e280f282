/**
 * Metric rollups (schema: training_metric_rollups): each stored metric point is folded, in the
 * transaction that stores it, into one bucket per width (steps `bucket·width … bucket·width+width−1`),
 * which keeps the bucket's count and its first, last, minimum and maximum point. Merging is
 * associative and commutative, so batches may arrive in any order (a restarted job re-reports steps).
 * `rolledUpSeries` then answers a whole-series downsample from a few hundred rows.
 */
import { and, asc, eq, inArray, sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { trainingMetricRollups as r } from "../db/schema/training";

export const ROLLUP_WIDTHS = [256, 4096, 65536] as const;

export interface MetricPointRow {
  name: string;
  step: number;
  value: number;
  epoch: number | null;
  at: Date;
}

interface Corner {
  step: number;
  value: number;
  epoch: number | null;
  at: Date;
}

export interface RollupRow {
  jobId: string;
  name: string;
  width: number;
  bucket: number;
  n: number;
  first: Corner;
  last: Corner;
  min: Corner;
  max: Corner;
}

const corner = (p: MetricPointRow): Corner => ({ step: p.step, value: p.value, epoch: p.epoch, at: p.at });

/** Folds points (in storage order) into one row per (series, width, bucket). Pure. */
export function rollUp(jobId: string, points: readonly MetricPointRow[]): RollupRow[] {
  const rows = new Map<string, RollupRow>();
  for (const p of points) {
    if (!Number.isFinite(p.value) || !Number.isFinite(p.step)) continue;
    for (const width of ROLLUP_WIDTHS) {
      const bucket = Math.floor(p.step / width);
      const key = `${p.name}\u0000${width}\u0000${bucket}`;
      const row = rows.get(key);
      if (!row) {
        const c = corner(p);
        rows.set(key, { jobId, name: p.name, width, bucket, n: 1, first: c, last: c, min: c, max: c });
        continue;
      }
      row.n += 1;
      if (p.step < row.first.step) row.first = corner(p);
      if (p.step >= row.last.step) row.last = corner(p);
      if (p.value < row.min.value) row.min = corner(p);
      if (p.value > row.max.value) row.max = corner(p);
    }
  }
  return [...rows.values()];
}

/** Replaces the corner's four columns when `better` holds for the incoming row. */
function keep(prefix: "first" | "last" | "min" | "max", better: ReturnType<typeof sql>) {
  const cols = ["step", "value", "epoch", "at"] as const;
  return Object.fromEntries(
    cols.map((c) => {
      const column = `${prefix}_${c}`;
      return [
        `${prefix}${c[0].toUpperCase()}${c.slice(1)}`,
        sql`case when ${better} then excluded.${sql.identifier(column)} else ${sql.identifier("training_metric_rollups")}.${sql.identifier(column)} end`,
      ];
    }),
  );
}

const UPSERT_BATCH = 500;

/** Merges rolled-up rows into the table (inside the caller's transaction). */
export async function mergeRollups(tx: Db, rows: readonly RollupRow[]): Promise<void> {
  const t = sql.identifier("training_metric_rollups");
  for (let start = 0; start < rows.length; start += UPSERT_BATCH) {
    const values = rows.slice(start, start + UPSERT_BATCH).map((row) => ({
      jobId: row.jobId,
      name: row.name,
      width: row.width,
      bucket: row.bucket,
      n: row.n,
      firstStep: row.first.step,
      firstValue: row.first.value,
      firstEpoch: row.first.epoch,
      firstAt: row.first.at,
      lastStep: row.last.step,
      lastValue: row.last.value,
      lastEpoch: row.last.epoch,
      lastAt: row.last.at,
      minStep: row.min.step,
      minValue: row.min.value,
      minEpoch: row.min.epoch,
      minAt: row.min.at,
      maxStep: row.max.step,
      maxValue: row.max.value,
      maxEpoch: row.max.epoch,
      maxAt: row.max.at,
    }));
    await tx
      .insert(r)
      .values(values)
      .onConflictDoUpdate({
        target: [r.jobId, r.name, r.width, r.bucket],
        set: {
          n: sql`${t}.n + excluded.n`,
          ...keep("first", sql`excluded.first_step < ${t}.first_step`),
          ...keep("last", sql`excluded.last_step >= ${t}.last_step`),
          ...keep("min", sql`excluded.min_value < ${t}.min_value`),
          ...keep("max", sql`excluded.max_value > ${t}.max_value`),
        },
      });
  }
}

export interface SeriesExtent {
  name: string;
  count: number;
  lo: number;
  hi: number;
}

/** Every series of a job (or the named one) with its point count and step range, from the widest rollup. */
export async function seriesExtents(db: Db, jobId: string, name?: string): Promise<SeriesExtent[]> {
  const widest = ROLLUP_WIDTHS[ROLLUP_WIDTHS.length - 1];
  const rows = await db
    .select({
      name: r.name,
      count: sql<string>`sum(${r.n})`,
      lo: sql<string>`min(${r.firstStep})`,
      hi: sql<string>`max(${r.lastStep})`,
    })
    .from(r)
    .where(and(eq(r.jobId, jobId), eq(r.width, widest), name === undefined ? undefined : eq(r.name, name)))
    .groupBy(r.name);
  return rows.map((x) => ({ name: x.name, count: Number(x.count), lo: Number(x.lo), hi: Number(x.hi) }));
}

/** The narrowest width whose buckets over `lo..hi` number at most `maxBuckets` (else the widest). */
export function widthFor(lo: number, hi: number, maxBuckets: number): number {
  for (const width of ROLLUP_WIDTHS) {
    if (Math.floor(hi / width) - Math.floor(lo / width) + 1 <= maxBuckets) return width;
  }
  return ROLLUP_WIDTHS[ROLLUP_WIDTHS.length - 1];
}

export interface RolledPoint {
  name: string;
  step: number;
  epoch: number | null;
  value: number;
  at: Date;
}

/**
 * A whole series downsampled from its rollups: per bucket its first, last, minimum and maximum point
 * (each step once), sorted by step; at most 4 points per bucket and `maxPoints / 4` buckets.
 */
export async function rolledUpSeries(
  db: Db,
  jobId: string,
  series: readonly SeriesExtent[],
  maxPoints: number,
): Promise<RolledPoint[]> {
  const out: RolledPoint[] = [];
  const byWidth = new Map<number, string[]>();
  for (const s of series) {
    const width = widthFor(s.lo, s.hi, Math.max(1, Math.floor(maxPoints / 4)));
    byWidth.set(width, [...(byWidth.get(width) ?? []), s.name]);
  }
  for (const [width, names] of byWidth) {
    const rows = await db
      .select()
      .from(r)
      .where(and(eq(r.jobId, jobId), eq(r.width, width), inArray(r.name, names)))
      .orderBy(asc(r.name), asc(r.bucket));
    for (const row of rows) {
      const corners = [
        { step: row.firstStep, value: row.firstValue, epoch: row.firstEpoch, at: row.firstAt },
        { step: row.minStep, value: row.minValue, epoch: row.minEpoch, at: row.minAt },
        { step: row.maxStep, value: row.maxValue, epoch: row.maxEpoch, at: row.maxAt },
        { step: row.lastStep, value: row.lastValue, epoch: row.lastEpoch, at: row.lastAt },
      ].sort((a, b) => a.step - b.step);
      let previous: number | null = null;
      for (const c of corners) {
        if (c.step === previous) continue;
        previous = c.step;
        out.push({ name: row.name, ...c });
      }
    }
  }
  return out.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : a.step - b.step));
}
