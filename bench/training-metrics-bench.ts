/**
 * Training metrics query benchmark (run by hand: `npx tsx bench/training-metrics-bench.ts`; PGlite in
 * memory, or the PostgreSQL server in DATABASE_URL). Figures are printed, never asserted.
 *
 * Stores one series of METRICS_POINTS (1,000,000) points, then times queryMetrics downsampled with
 * max_points=2000 (the chart's request), one page of 10,000 without downsampling (first and a deep
 * page), and metricsSummary. Each query runs RUNS times; the median and the fastest are printed.
 */
import { sql } from "drizzle-orm";
import { closeDb, openDb, setDb } from "../lib/server/db/client";
import { users } from "../lib/server/db/schema/accounts";
import { trainingJobs } from "../lib/server/db/schema/training";
import { newId } from "../lib/server/ids";
import { metricsSummary, queryMetrics } from "../lib/server/modules/training/metrics";

const POINTS = Number(process.env.METRICS_POINTS ?? 1_000_000);
const RUNS = Number(process.env.METRICS_RUNS ?? 5);

async function time<T>(label: string, run: () => Promise<T>, summarize: (r: T) => string) {
  const ms: number[] = [];
  let result: T | undefined;
  for (let i = 0; i < RUNS; i++) {
    const t0 = performance.now();
    result = await run();
    ms.push(performance.now() - t0);
  }
  ms.sort((a, b) => a - b);
  const detail = result === undefined ? "" : summarize(result);
  console.log(
    `  ${label}: median ${ms[Math.floor(ms.length / 2)].toFixed(0)} ms, fastest ${ms[0].toFixed(0)} ms (${detail})`,
  );
}

async function main() {
  const url = process.env.DATABASE_URL;
  const open = await openDb(url ? { kind: "postgres", url } : { kind: "pglite-memory" });
  setDb(open);
  const db = open.db;
  const ownerId = newId("usr");
  await db
    .insert(users)
    .values({ id: ownerId, email: `${ownerId}@example.com`, username: ownerId, passwordHash: "x" });
  const jobId = newId("job");
  await db.insert(trainingJobs).values({
    id: jobId,
    ownerId,
    projectId: "prj_bench",
    projectName: "Bench",
    name: "Bench job",
    graph: { nodes: [], edges: [] },
    config: {} as (typeof trainingJobs.$inferInsert)["config"],
    datasetId: "ds_bench",
    datasetVersionId: "dsv_bench",
    runtime: "external",
  });
  console.log(`database: ${url ? "PostgreSQL (DATABASE_URL)" : "PGlite in memory"}`);

  // The series is generated in SQL (ingestion speed is measured by training-stream-bench.ts).
  const t0 = performance.now();
  await db.execute(sql`
    insert into training_events (job_id, seq, kind, data, name, step, epoch, value, at)
    select ${jobId}, g, 'metric',
      jsonb_build_object('name', 'loss', 'step', g, 'epoch', g / 10000, 'value', v.value),
      'loss', g, g / 10000, v.value, now()
    from generate_series(1, ${POINTS}) g,
      lateral (select (2.0 / (1 + g / 20000.0))::float8 + 0.05 * sin(g / 37.0) + ((g::bigint * 7919) % 1009) / 50000.0 as value) v`);
  await db.update(trainingJobs).set({ lastEventId: POINTS }).where(sql`${trainingJobs.id} = ${jobId}`);
  await db.execute(sql`analyze training_events`);
  console.log(
    `stored ${POINTS.toLocaleString("en-US")} points of one series in ${(performance.now() - t0).toFixed(0)} ms`,
  );

  console.log(
    `queryMetrics / metricsSummary over ${POINTS.toLocaleString("en-US")} points (${RUNS} runs each):`,
  );
  await time(
    "max_points=2000 (downsampled in SQL)",
    () => queryMetrics(db, jobId, { name: "loss", page: 1, limit: 1000, max_points: 2000 }),
    (r) => `${r.items.length} points`,
  );
  await time(
    "max_points=2000, all series (no name)",
    () => queryMetrics(db, jobId, { page: 1, limit: 1000, max_points: 2000 }),
    (r) => `${r.items.length} points`,
  );
  await time(
    "max_points=2000, steps 250,000–500,000",
    () =>
      queryMetrics(db, jobId, {
        name: "loss",
        from_step: 250_000,
        to_step: 500_000,
        page: 1,
        limit: 1000,
        max_points: 2000,
      }),
    (r) => `${r.items.length} points`,
  );
  await time(
    "one page of 10,000, page 1",
    () => queryMetrics(db, jobId, { name: "loss", page: 1, limit: 10_000 }),
    (r) => `${r.items.length} points of ${r.total}`,
  );
  await time(
    "one page of 10,000, page 50",
    () => queryMetrics(db, jobId, { name: "loss", page: 50, limit: 10_000 }),
    (r) => `${r.items.length} points of ${r.total}`,
  );
  await time(
    "metricsSummary",
    () => metricsSummary(db, jobId),
    (r) => `${r.series.length} series`,
  );
  await db.delete(users).where(sql`${users.id} = ${ownerId}`); // cascades to the job and its events
  await closeDb();
}

await main();
