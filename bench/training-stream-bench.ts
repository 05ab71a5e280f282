/**
 * Training event stream benchmark (run by hand: `npx tsx bench/training-stream-bench.ts`; PGlite in
 * memory, or the PostgreSQL server in DATABASE_URL). Figures are printed, never asserted.
 *
 * 1. Live delivery: STREAM_CLIENTS (200) SSE clients, in a worker thread, hold one job's stream over
 *    HTTP on 127.0.0.1 (trainingEventStream behind @hono/node-server) while this thread appends
 *    STREAM_RATE events/s (batches every 50 ms) for STREAM_SECONDS; prints p50/p99/max delay from the
 *    append call to receipt by each client, events lost or repeated, and the hub's database reads.
 * 2. Ingestion: appendTrainingEvents in batches of 1,000 (with and without client ids) against a plain
 *    batched INSERT of the same rows into a scratch copy of the table, and the ratio.
 */
import { Worker } from "node:worker_threads";
import { serve } from "@hono/node-server";
import { sql } from "drizzle-orm";
import { bigint, doublePrecision, integer, jsonb, pgTable, text, timestamp } from "drizzle-orm/pg-core";
import { closeDb, type Db, openDb, setDb } from "../lib/server/db/client";
import { users } from "../lib/server/db/schema/accounts";
import { trainingJobs } from "../lib/server/db/schema/training";
import { trainingHubStats } from "../lib/server/events/event-hub";
import { lastEventIdFrom, trainingEventStream } from "../lib/server/events/sse";
import { appendTrainingEvents, type NewTrainingEvent } from "../lib/server/events/training-events";
import { newId } from "../lib/server/ids";

const CLIENTS = Number(process.env.STREAM_CLIENTS ?? 200);
const RATE = Number(process.env.STREAM_RATE ?? 200);
const SECONDS = Number(process.env.STREAM_SECONDS ?? 10);
const INGEST_EVENTS = Number(process.env.INGEST_EVENTS ?? 100_000);
const BATCH = 1000;

const now = () => performance.timeOrigin + performance.now();

async function fixtures(db: Db, ownerId: string) {
  await db
    .insert(users)
    .values({ id: ownerId, email: `${ownerId}@example.com`, username: ownerId, passwordHash: "x" });
  return async (): Promise<string> => {
    const id = newId("job");
    await db.insert(trainingJobs).values({
      id,
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
    return id;
  };
}

/** The SSE clients, as plain JavaScript in a worker thread (its own event loop, like real clients). */
const CLIENT_CODE = `
const { parentPort, workerData } = require("node:worker_threads");
const http = require("node:http");
const { url, clients } = workerData;
const now = () => performance.timeOrigin + performance.now();
const delays = [];
let received = 0, outOfOrder = 0, finished = 0, connected = 0;
function open() {
  let last = 0, buffer = "";
  const req = http.get(url, { agent: false }, (res) => {
    connected++;
    if (connected === clients) parentPort.postMessage({ type: "connected" });
    res.setEncoding("utf8");
    res.on("data", (chunk) => {
      buffer += chunk;
      let end;
      while ((end = buffer.indexOf("\\n\\n")) >= 0) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        let id = 0, data = null;
        for (const line of block.split("\\n")) {
          if (line.startsWith("id: ")) id = Number(line.slice(4));
          else if (line.startsWith("data: ")) data = JSON.parse(line.slice(6));
        }
        if (!id) continue;
        if (id <= last) outOfOrder++;
        last = id;
        received++;
        if (data && typeof data.sent_at === "number") delays.push(now() - data.sent_at);
      }
    });
    res.on("end", () => {
      finished++;
      if (finished === clients) parentPort.postMessage({ type: "done", delays, received, outOfOrder });
    });
  });
  req.on("error", (e) => parentPort.postMessage({ type: "error", message: String(e) }));
}
for (let i = 0; i < clients; i++) open();
`;

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

async function benchLiveDelivery(db: Db, newJob: () => Promise<string>) {
  const jobId = await newJob();
  await appendTrainingEvents(db, jobId, [
    { kind: "status", data: { status: "running", at: new Date().toISOString(), reason: null } },
  ]);
  const server = serve({
    fetch: (req) => trainingEventStream(db, jobId, { lastEventId: lastEventIdFrom(req), signal: req.signal }),
    port: 0,
    hostname: "127.0.0.1",
  });
  await new Promise<void>((resolve) => server.once("listening", () => resolve()));
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : 0;
  const worker = new Worker(CLIENT_CODE, {
    eval: true,
    workerData: { url: `http://127.0.0.1:${port}/stream`, clients: CLIENTS },
  });
  type Report = { type: "done"; delays: number[]; received: number; outOfOrder: number };
  let onConnected: () => void = () => {};
  const connected = new Promise<void>((r) => {
    onConnected = r;
  });
  const done = new Promise<Report>((resolve, reject) => {
    worker.on("message", (m: { type: string; message?: string }) => {
      if (m.type === "connected") onConnected();
      else if (m.type === "done") resolve(m as Report);
      else reject(new Error(m.message));
    });
    worker.on("error", reject);
  });
  await connected;
  await new Promise((r) => setTimeout(r, 300));
  const readsBefore = trainingHubStats().reads;
  const hubs = trainingHubStats();

  const perBatch = Math.max(1, Math.round(RATE / 20));
  const batches = Math.round((SECONDS * 1000) / 50);
  let appended = 1;
  const appendMs: number[] = [];
  const t0 = now();
  for (let b = 0; b < batches; b++) {
    const due = t0 + b * 50;
    const wait = due - now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    const sentAt = now();
    const events: NewTrainingEvent[] = Array.from({ length: perBatch }, (_, i) => ({
      kind: "metric",
      data: { name: "loss", step: b * perBatch + i, epoch: 0, value: Math.random(), sent_at: sentAt },
    }));
    await appendTrainingEvents(db, jobId, events);
    appendMs.push(now() - sentAt);
    appended += perBatch;
  }
  const reads = trainingHubStats().reads - readsBefore;
  await appendTrainingEvents(db, jobId, [
    { kind: "status", data: { status: "succeeded", at: new Date().toISOString(), reason: null } },
  ]);
  appended += 1;
  const report = await done;
  await worker.terminate();
  server.close();
  const delays = report.delays.sort((a, b) => a - b);
  appendMs.sort((a, b) => a - b);
  const expected = appended * CLIENTS;
  console.log(
    `live delivery: ${CLIENTS} SSE clients on one job, ${perBatch * 20} events/s for ${SECONDS} s ` +
      `(${appended} events, ${expected} deliveries expected)`,
  );
  console.log(
    `  delay append→receipt: p50 ${percentile(delays, 50).toFixed(1)} ms, p99 ${percentile(delays, 99).toFixed(1)} ms, ` +
      `max ${delays[delays.length - 1]?.toFixed(1)} ms (append itself: p50 ${percentile(appendMs, 50).toFixed(1)} ms, p99 ${percentile(appendMs, 99).toFixed(1)} ms)`,
  );
  console.log(
    `  received ${report.received} (lost ${expected - report.received}), out of order/repeated ${report.outOfOrder}; ` +
      `hubs ${hubs.hubs}, subscribers ${hubs.subscribers}, hub database reads during the run ${reads}`,
  );
}

const scratch = pgTable("bench_training_events_scratch", {
  jobId: text("job_id").notNull(),
  seq: bigint("seq", { mode: "number" }).notNull(),
  kind: text("kind").notNull(),
  data: jsonb("data").notNull(),
  name: text("name"),
  step: bigint("step", { mode: "number" }),
  epoch: integer("epoch"),
  value: doublePrecision("value"),
  clientId: text("client_id"),
  at: timestamp("at", { withTimezone: true, mode: "date" }).notNull(),
});

function batchOf(b: number, withIds: boolean): NewTrainingEvent[] {
  return Array.from({ length: BATCH }, (_, i) => {
    const step = b * BATCH + i;
    return {
      kind: "metric",
      data: { name: "loss", step, epoch: 0, value: 1 / (step + 1), timestamp: new Date().toISOString() },
      name: "loss",
      step,
      epoch: 0,
      value: 1 / (step + 1),
      clientId: withIds ? `e${step}` : null,
    };
  });
}

async function benchIngestion(db: Db, newJob: () => Promise<string>) {
  const batches = Math.ceil(INGEST_EVENTS / BATCH);
  await db.execute(sql`drop table if exists bench_training_events_scratch`);
  await db.execute(sql`create table bench_training_events_scratch (like training_events including all)`);
  const baselineJob = newId("job");
  const plainJob = await newJob();
  const idsJob = await newJob();
  const variants: Record<"baseline" | "plain" | "withIds" | "dupes", (b: number) => Promise<unknown>> = {
    baseline: (b) =>
      db.insert(scratch).values(
        batchOf(b, false).map((e, i) => ({
          jobId: baselineJob,
          seq: b * BATCH + i + 1,
          kind: e.kind,
          data: e.data,
          name: e.name ?? null,
          step: e.step ?? null,
          epoch: e.epoch ?? null,
          value: e.value ?? null,
          clientId: null,
          at: new Date(),
        })),
      ),
    plain: (b) => appendTrainingEvents(db, plainJob, batchOf(b, false)),
    withIds: (b) => appendTrainingEvents(db, idsJob, batchOf(b, true)),
    dupes: (b) => appendTrainingEvents(db, idsJob, batchOf(b, true)),
  };
  // Interleaved batch by batch, so that drift in the machine's load affects every variant alike.
  const spent = { baseline: 0, plain: 0, withIds: 0, dupes: 0 };
  for (let b = 0; b < batches; b++) {
    for (const key of ["baseline", "plain", "withIds", "dupes"] as const) {
      const t0 = performance.now();
      await variants[key](b);
      spent[key] += performance.now() - t0;
    }
  }
  const perSecond = (ms: number) => (batches * BATCH) / (ms / 1000);
  const baseline = perSecond(spent.baseline);
  const plain = perSecond(spent.plain);
  const withIds = perSecond(spent.withIds);
  const dupes = perSecond(spent.dupes);
  await db.execute(sql`drop table bench_training_events_scratch`);
  const f = (n: number) => `${Math.round(n).toLocaleString("en-US")} events/s`;
  console.log(`ingestion, ${batches} batches of ${BATCH}:`);
  console.log(`  plain batched INSERT (scratch table, same indexes): ${f(baseline)}`);
  console.log(
    `  appendTrainingEvents, no client ids:   ${f(plain)} (${(plain / baseline).toFixed(2)}× baseline)`,
  );
  console.log(
    `  appendTrainingEvents, with client ids: ${f(withIds)} (${(withIds / baseline).toFixed(2)}× baseline)`,
  );
  console.log(
    `  appendTrainingEvents, all duplicates:  ${f(dupes)} (${(dupes / baseline).toFixed(2)}× baseline)`,
  );
}

async function main() {
  const url = process.env.DATABASE_URL;
  const open = await openDb(url ? { kind: "postgres", url } : { kind: "pglite-memory" });
  setDb(open);
  console.log(`database: ${url ? "PostgreSQL (DATABASE_URL)" : "PGlite in memory"}`);
  const ownerId = newId("usr");
  const newJob = await fixtures(open.db, ownerId);
  try {
    await benchLiveDelivery(open.db, newJob);
    await benchIngestion(open.db, newJob);
  } finally {
    await open.db.delete(users).where(sql`${users.id} = ${ownerId}`); // cascades to the jobs and events
    await closeDb();
  }
}

await main();
