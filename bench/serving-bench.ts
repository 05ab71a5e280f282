/**
 * Serving benchmark (run by hand: `npx tsx bench/serving-bench.ts`). Trains a small Iris MLP with
 * PyTorch (exported to ONNX), deploys it, then times one-instance predict calls through the whole
 * Hono app (app.request: credentials → deployment state from the database → validation → warm model
 * → micro-batcher) against the same ONNX model's session.run in-process on the same encoded
 * instance (the baseline), in the same run, and over HTTP (the app on Node's HTTP server, as
 * scripts/server.ts serves it), from a client in this process and from one in another process
 * (bench/predict-client.ts: one keep-alive connection, as an app calling the deployment). Then batch rows/s (10,000 rows a call) against model.predict
 * in-process; where the tail at a fixed rate comes from (BENCH_ATTRIBUTION_RATE, default 1,000
 * calls/s, in BENCH_ATTRIBUTION_REPEATS × 3 rounds of BENCH_ATTRIBUTION_SECONDS, 0 to skip: the request log
 * writing a line for every call, writing its per-second sample, and off; the server's CPU time per
 * call, event-loop stalls and GC pauses, compared as medians across rounds, since other work on
 * the machine moves single rounds); and fixed request rates with autocannon (BENCH_RATES,
 * BENCH_RATE_SECONDS each, default 30 s): the highest rate held with zero errors and p99 under
 * 50 ms. Rate limits are lifted (RATE_LIMIT_PER_MINUTE) so that the figures measure serving, not
 * the limiter. The HTTP server is the one scripts/server.ts runs (lib/server/http/node-server.ts).
 */
import { execFile } from "node:child_process";
import fs from "node:fs";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { monitorEventLoopDelay, PerformanceObserver } from "node:perf_hooks";
import { sequential } from "../lib/ml/graph-builder";
import { createApp } from "../lib/server/app";
import { closeDb, getDb, openDb, setDb } from "../lib/server/db/client";
import { createAppServer } from "../lib/server/http/node-server";
import { registerRequestLogSink } from "../lib/server/http/request-logging";
import { startJobRunner } from "../lib/server/jobs/runner";
import {
  callEnded,
  callStarted,
  flushRequestLog,
  recordRequest,
} from "../lib/server/modules/deployments/request-log";
import {
  encodeInstances,
  loadArtifact,
  type ModelManifest,
} from "../lib/server/modules/training/artifact-reader";
import { copyBlobToFile } from "../lib/server/modules/training/blob-files";
import { getJobRow } from "../lib/server/modules/training/job-rows";

const CALLS = Number(process.env.BENCH_CALLS ?? 2000);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 1000);
process.env.RATE_LIMIT_PER_MINUTE ??= "100000000";
const blobDir = fs.mkdtempSync(path.join(os.tmpdir(), "layerline-bench-blobs-"));
process.env.BLOB_DIR = blobDir;
// The embedded database by default; BENCH_DATABASE_URL measures against a PostgreSQL server instead
// (e.g. `bash scripts/with-postgres.sh sh -c 'BENCH_DATABASE_URL=$TEST_DATABASE_URL npx tsx bench/serving-bench.ts'`).
const databaseUrl = process.env.BENCH_DATABASE_URL;
setDb(await openDb(databaseUrl ? { kind: "postgres", url: databaseUrl } : { kind: "pglite-memory" }));
console.log(`database: ${databaseUrl ? "PostgreSQL server" : "embedded (PGlite, in memory)"}`);
const semiSpace = process.execArgv.find((a) => a.startsWith("--max-semi-space-size"));
console.log(
  `young generation: ${semiSpace ?? "Node's default (run as npm start does: node --max-semi-space-size=32 --import tsx …)"}`,
);
const app = createApp();
// The server scripts/server.ts runs (its Node HTTP server and adapter settings).
const server = createAppServer(app.fetch);
await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
process.env.LAYERLINE_INTERNAL_URL = baseUrl;
const runner = startJobRunner({ db: await getDb(), concurrency: 1, pollIntervalMs: 100 });

async function call(method: string, url: string, key: string | null, body?: unknown, cookie?: string) {
  const headers: Record<string, string> = { Host: "localhost", "Content-Type": "application/json" };
  if (key) headers.Authorization = `Bearer ${key}`;
  if (cookie) Object.assign(headers, { Cookie: cookie, Origin: "http://localhost" });
  const res = await app.request(url, { method, headers, body: body ? JSON.stringify(body) : undefined });
  return { res, json: (await res.json()) as Record<string, unknown> & { id: string } };
}

function percentiles(ms: number[]) {
  const s = [...ms].sort((a, b) => a - b);
  const at = (q: number) => s[Math.min(s.length - 1, Math.floor(q * s.length))];
  return { p50: at(0.5), p99: at(0.99) };
}

const signup = await call("POST", "/api/auth/signup", null, {
  email: "bench@example.com",
  username: "bench",
  password: "correct horse battery",
});
const cookie = (signup.res.headers.get("set-cookie") ?? "").split(";")[0];
const key = String(
  (await call("POST", "/api/v1/users/me/api-keys", null, { name: "bench" }, cookie)).json.key,
);
const graph = sequential({ shape: [4] }, [
  ["Dense", { units: 16, activation: "relu" }],
  ["Dense", { units: 3 }],
]).graph;
const project = await call("POST", "/api/v1/projects", key, { name: "Iris", graph });
const job = await call("POST", "/api/v1/training/jobs", key, {
  project_id: project.json.id,
  dataset_id: "builtin-iris",
  runtime: "pytorch",
  config: { epochs: 10, batch_size: 16, learning_rate: 0.02 },
});
for (;;) {
  const j = await call("GET", `/api/v1/training/jobs/${job.json.id}`, key);
  if (j.json.state === "succeeded") break;
  if (["failed", "cancelled", "timed_out"].includes(String(j.json.state)))
    throw new Error(`training ${j.json.state}: ${j.json.reason}`);
  await new Promise((r) => setTimeout(r, 200));
}
// The model is trained: the bench's fast-polling job runner stops, so that it does not compete with
// the calls being timed (a server's own runner polls far less often).
await runner.stop({ graceMs: 1000 });
const dep = await call("POST", "/api/v1/deployments", key, { name: "bench", job_id: job.json.id });
const dk = String(dep.json.api_key);
const instance = { sepal_length_cm: 5.9, sepal_width_cm: 3.0, petal_length_cm: 5.1, petal_width_cm: 1.8 };

// Baseline: the same ONNX model in-process.
const row = await getJobRow(await getDb(), job.json.id);
if (!row?.artifactManifest) throw new Error("no artifact");
const manifest = row.artifactManifest as unknown as ModelManifest;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "layerline-bench-model-"));
const files: Record<string, string> = {};
for (const f of row.artifactFiles) {
  if (f.name === "manifest.json") continue;
  files[f.name] = path.join(dir, f.name);
  await copyBlobToFile(f.blob_key, files[f.name]);
}
const model = await loadArtifact({ manifest, files });
const encoded = encodeInstances(manifest, [instance]);

async function time(fn: () => Promise<unknown>): Promise<number[]> {
  for (let i = 0; i < WARMUP; i++) await fn(); // warm-up: the JIT has compiled the whole path
  const out: number[] = [];
  for (let i = 0; i < CALLS; i++) {
    const t0 = performance.now();
    await fn();
    out.push(performance.now() - t0);
  }
  return out;
}

const base = percentiles(await time(() => model.run(encoded)));
const api = percentiles(
  await time(async () => {
    const r = await call("POST", `/api/v1/inference/${dep.json.id}/predict`, dk, { inputs: [instance] });
    if (r.res.status !== 200) throw new Error(`predict ${r.res.status}`);
  }),
);
const body = JSON.stringify({ inputs: [instance] });
const headers = { Authorization: `Bearer ${dk}`, "Content-Type": "application/json" };
const predictUrl = `${baseUrl}/api/v1/inference/${dep.json.id}/predict`;
const http = percentiles(
  await time(async () => {
    const r = await fetch(predictUrl, { method: "POST", headers, body });
    await r.arrayBuffer();
    if (r.status !== 200) throw new Error(`predict ${r.status}`);
  }),
);
/** The same calls from a client in another process (bench/predict-client.ts), as an app makes them. */
function httpFromAnotherProcess(): Promise<number[]> {
  const tsx = path.join(process.cwd(), "node_modules", ".bin", "tsx");
  const args = ["bench/predict-client.ts", predictUrl, String(CALLS), body];
  for (const [k, v] of Object.entries(headers)) args.push(`${k}=${v}`);
  return new Promise((resolve, reject) => {
    execFile(tsx, args, { maxBuffer: 64 * 1024 * 1024 }, (err, stdout) => {
      if (err) reject(err);
      else resolve((JSON.parse(stdout) as { ms: number[] }).ms);
    });
  });
}
const remote = percentiles(await httpFromAnotherProcess());
const f = (x: number) => `${x.toFixed(3)} ms`;
const target = 1.5 * base.p99 + 2;
console.log(`one-instance predict, ${CALLS} sequential calls each (format ${manifest.format})`);
console.log(`  session.run in-process     : p50 ${f(base.p50)}  p99 ${f(base.p99)}`);
console.log(`  POST …/predict, app.request: p50 ${f(api.p50)}  p99 ${f(api.p99)}`);
console.log(
  `  POST …/predict over HTTP   : p50 ${f(http.p50)}  p99 ${f(http.p99)}  (client in this process)`,
);
console.log(
  `  POST …/predict over HTTP   : p50 ${f(remote.p50)}  p99 ${f(remote.p99)}  (client in another process)`,
);
const verdict = (p99: number) => (p99 <= target ? "met" : "not met");
console.log(
  `  target p99 ≤ 1.5 × baseline + 2 ms = ${f(target)}: app.request ${verdict(api.p99)}, ` +
    `HTTP (client in this process) ${verdict(http.p99)}, HTTP (client in another process) ${verdict(remote.p99)}`,
);

// Batch throughput: 10,000 rows a call, against the same rows through the model in-process.
const rows = Array.from({ length: 10_000 }, (_, i) => ({
  ...instance,
  sepal_length_cm: 4.5 + (i % 30) / 10,
}));
const BATCHES = 5;
let t0 = performance.now();
for (let i = 0; i < BATCHES; i++) await model.predict(rows);
const inProcessRowsPerS = (BATCHES * rows.length) / ((performance.now() - t0) / 1000);
t0 = performance.now();
for (let i = 0; i < BATCHES; i++) {
  const r = await fetch(`${baseUrl}/api/v1/inference/${dep.json.id}/batch`, {
    method: "POST",
    headers,
    body: JSON.stringify({ inputs: rows }),
  });
  await r.arrayBuffer();
  if (r.status !== 200) throw new Error(`batch ${r.status}`);
}
const batchRowsPerS = (BATCHES * rows.length) / ((performance.now() - t0) / 1000);
console.log(`batch of 10,000 rows, ${BATCHES} calls`);
console.log(`  model.predict in-process   : ${Math.round(inProcessRowsPerS).toLocaleString("en")} rows/s`);
console.log(`  POST …/batch over HTTP     : ${Math.round(batchRowsPerS).toLocaleString("en")} rows/s`);

interface AutocannonResult {
  errors: number;
  timeouts: number;
  non2xx: number;
  requests: { average: number; total: number };
  latency: { p50: number; p99: number };
}

function fixedRate(rate: number, seconds: number): Promise<AutocannonResult> {
  const bin = path.join(process.cwd(), "node_modules", ".bin", "autocannon");
  // autocannon spends each second's budget in bursts across its connections: 10 connections keep a
  // burst (and so the queueing it causes) small, while keeping requests concurrent.
  const args = ["--json", "-c", "10", "-d", String(seconds), "-R", String(rate), "-m", "POST"];
  for (const [k, v] of Object.entries(headers)) args.push("-H", `${k}=${v}`);
  args.push("-b", body, predictUrl);
  return new Promise((resolve, reject) => {
    execFile(bin, args, { maxBuffer: 64 * 1024 * 1024 }, (err, stdout) => {
      if (err) reject(err);
      else resolve(JSON.parse(stdout) as AutocannonResult);
    });
  });
}

/**
 * Where the tail comes from: the same fixed rate in alternating rounds of this run, with the
 * request log writing a line for every call (as it did before it kept a sample), writing its
 * sample (REQUEST_LOG_LINES_PER_SECOND per deployment, outcome and second: as served), and
 * switched off; with the server's event-loop stalls (p99 and longest) and garbage-collection
 * pauses in each round. The ratios between modes are the request log's share of the tail on this
 * machine, whatever else the machine is running.
 */
async function attributionRound(rate: number, seconds: number) {
  const loop = monitorEventLoopDelay({ resolution: 1 });
  let gcMs = 0;
  let gcMax = 0;
  const gc = new PerformanceObserver((list) => {
    for (const e of list.getEntries()) {
      gcMs += e.duration;
      gcMax = Math.max(gcMax, e.duration);
    }
  });
  gc.observe({ entryTypes: ["gc"] });
  loop.enable();
  const cpu = process.cpuUsage();
  const result = await fixedRate(rate, seconds);
  const used = process.cpuUsage(cpu);
  loop.disable();
  gc.disconnect();
  await flushRequestLog(); // the round's lines are written before the next round starts
  return {
    served: result.requests.average,
    /** The server's CPU time per call served (its thread and the database's work on it). */
    cpuMsPerCall: (used.user + used.system) / 1000 / Math.max(1, result.requests.total),
    p99: result.latency.p99,
    errors: result.errors + result.timeouts + result.non2xx,
    loopP99: loop.percentile(99) / 1e6,
    loopMax: loop.max / 1e6,
    gcPerS: gcMs / seconds,
    gcMax,
  };
}
const ATTRIBUTION_SECONDS = Number(process.env.BENCH_ATTRIBUTION_SECONDS ?? 10);
const ATTRIBUTION_RATE = Number(process.env.BENCH_ATTRIBUTION_RATE ?? 1000);
const ATTRIBUTION_REPEATS = Number(process.env.BENCH_ATTRIBUTION_REPEATS ?? 3);
if (ATTRIBUTION_SECONDS > 0 && ATTRIBUTION_REPEATS > 0) {
  const logOn = { callStarted, callEnded, record: recordRequest };
  const logOff = { callStarted() {}, callEnded() {}, record() {} };
  const configured = process.env.REQUEST_LOG_LINES_PER_SECOND;
  type Mode = "every call" | "sample" | "off";
  const modes: Mode[] = ["every call", "sample", "off"];
  const rounds: { mode: Mode; r: Awaited<ReturnType<typeof attributionRound>> }[] = [];
  console.log(
    `where the tail comes from: ${ATTRIBUTION_RATE} req/s, ${ATTRIBUTION_SECONDS} s rounds, request log writing…`,
  );
  for (let i = 0; i < ATTRIBUTION_REPEATS; i++) {
    for (const mode of modes) {
      registerRequestLogSink(mode === "off" ? logOff : logOn);
      if (mode === "every call") process.env.REQUEST_LOG_LINES_PER_SECOND = "1000000000";
      else if (configured === undefined) delete process.env.REQUEST_LOG_LINES_PER_SECOND;
      else process.env.REQUEST_LOG_LINES_PER_SECOND = configured;
      const r = await attributionRound(ATTRIBUTION_RATE, ATTRIBUTION_SECONDS);
      rounds.push({ mode, r });
      console.log(
        `  ${mode.padEnd(10)}: ${Math.round(r.served)} req/s, CPU ${r.cpuMsPerCall.toFixed(3)} ms/call, ` +
          `p99 ${r.p99} ms, errors ${r.errors}; ` +
          `event-loop stall p99 ${r.loopP99.toFixed(1)} ms, longest ${r.loopMax.toFixed(1)} ms; ` +
          `GC ${r.gcPerS.toFixed(1)} ms/s, longest pause ${r.gcMax.toFixed(1)} ms`,
      );
    }
  }
  registerRequestLogSink(logOn);
  // Medians of the rounds: one round disturbed by the rest of the machine does not move them.
  const median = (mode: Mode, f: (r: (typeof rounds)[number]["r"]) => number) => {
    const xs = rounds
      .filter((x) => x.mode === mode)
      .map((x) => f(x.r))
      .sort((a, b) => a - b);
    const mid = Math.floor(xs.length / 2);
    return xs.length % 2 ? xs[mid] : (xs[mid - 1] + xs[mid]) / 2;
  };
  const ratio = (a: Mode, b: Mode, f: (r: (typeof rounds)[number]["r"]) => number, what: string) =>
    `${what} × ${(median(a, f) / median(b, f)).toFixed(2)}`;
  for (const [a, b] of [
    ["every call", "off"],
    ["sample", "off"],
    ["every call", "sample"],
  ] as const) {
    console.log(
      `  ${a} / ${b}: ${ratio(a, b, (r) => r.cpuMsPerCall, "CPU per call")}, ${ratio(a, b, (r) => r.p99, "p99")}, ` +
        `${ratio(a, b, (r) => r.loopMax, "longest stall")}, ${ratio(a, b, (r) => r.served, "served")}`,
    );
  }
}

// Fixed request rates (autocannon), RATE_SECONDS each: the highest held with no error and p99 < 50 ms.
const RATE_SECONDS = Number(process.env.BENCH_RATE_SECONDS ?? 30);
const RATES = (process.env.BENCH_RATES ?? "250,500,1000,1500,2000").split(",").map(Number);
let held = 0;
console.log(`fixed-rate predict over HTTP, ${RATE_SECONDS} s each (10 connections)`);
for (const rate of RATES) {
  // autocannon runs in its own process, so that the load generator does not share this event loop.
  const result = await fixedRate(rate, RATE_SECONDS);
  const errors = result.errors + result.timeouts + result.non2xx;
  // Held: the asked rate was served (within 2%), with no error and p99 under 50 ms.
  const ok = errors === 0 && result.latency.p99 < 50 && result.requests.average >= rate * 0.98;
  if (ok) held = rate;
  console.log(
    `  ${String(rate).padStart(5)} req/s asked: ${Math.round(result.requests.average)} req/s served, ` +
      `p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms, errors ${errors}${ok ? "" : "  ✗"}`,
  );
  if (!ok) break;
}
console.log(`  highest rate held with zero errors and p99 < 50 ms: ${held} req/s`);

await model.dispose();
server.close();
await closeDb();
fs.rmSync(dir, { recursive: true, force: true });
fs.rmSync(blobDir, { recursive: true, force: true });
process.exit(0);
