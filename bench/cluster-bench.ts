/**
 * The several-machine topology on one machine (scripts/cluster.sh), measured; run by hand:
 *
 *   node --import tsx bench/cluster-bench.ts
 *
 * It starts its own cluster (CLUSTER_DIR, default /tmp/layerline-cluster-bench; CLUSTER_PORT, default
 * 8800: the load balancer, the API servers on the next two ports, PostgreSQL on the third) and stops
 * it at the end; with a cluster already up in CLUSTER_DIR it uses that one and leaves it running. Its
 * own extra servers (ports CLUSTER_PORT + 5, 6, 7) live in CLUSTER_DIR-extra. Three figures, each a
 * ratio against a baseline measured in the same run:
 *
 * (a) Predict requests/s through the load balancer (HAProxy) with two API servers in its backend
 *     against one (`cluster.sh kill api2`; HAProxy's health check takes it out, `cluster.sh start api2`
 *     brings it back), alternating BENCH_ROUNDS times (default 2) each. The client is autocannon in
 *     its own process: a closed loop of BENCH_CONNECTIONS keep-alive connections (default 16) for
 *     BENCH_SECONDS (default 15), on a deployed Iris model warmed on each server first (calls straight
 *     to each server's port). Printed: requests/s, p50/p99 and errors per round, medians, the ratio two
 *     ÷ one; that both servers served: the CPU seconds each API server (and HAProxy) spent in each
 *     round (/proc), the API servers' CPU milliseconds a call, which server answered 100 sampled calls
 *     through the balancer (HAProxy's X-Served-By header, when the cluster's configuration sets it),
 *     and each server's first call against its later ones (it loads its own warm model from the object
 *     store); and how busy the whole machine was (/proc/stat) during each round. A control round of one
 *     server at half the connections (the load each of two servers carries) gives the CPU a call of a
 *     server that lightly loaded (a lighter load does fewer calls each turn of the event loop, so each
 *     costs more): two servers' CPU a call against it is what running two processes on the same cores
 *     adds beyond that. A first round (not counted) warms every code path under concurrent load.
 *     What the ratio means here: the machine has 2 cores that also run HAProxy, PostgreSQL and the
 *     load generator, so two servers cannot double throughput; a ratio near or above 1 says nothing
 *     serialises across servers (no shared lock, no one process every call goes through) and both
 *     serve from their own warm model; on machines with their own cores the servers add up.
 * (b) Dataset upload and download MB/s through the API on a server with BLOB_STORE=s3 (the cluster's
 *     S3-compatible server, s3rver) against the same server with BLOB_STORE=local: two servers of the
 *     same build, each on its own PostgreSQL database of the cluster, no jobs run in them. A
 *     BENCH_UPLOAD_MB CSV (default 48 MiB), BENCH_TRANSFER_ROUNDS rounds (default 3, medians), the
 *     content changed each round (an identical upload is answered with the existing version). The
 *     upload time includes what the server does with every upload (hashing, profiling the CSV), the
 *     same on both; the same transfers straight through the two blob drivers in this process
 *     (put/get, no HTTP, no profiling) are printed beside them as the store's own share.
 * (c) Job start latency: from `POST /training/jobs` (answered) to the job's `running` state and to its
 *     first metric event, as the job's event stream shows them (opened right after the POST) and as
 *     the job's status history records them, for the same tiny job (Iris MLP, PyTorch, 2 epochs),
 *     BENCH_START_RUNS times each (default 5, one at a time, medians): on the cluster (the servers run
 *     no jobs: LAYERLINE_WORKERS=external; a remote `npm run worker` claims the job, fetches its inputs
 *     from the object store) against one embedded server (PGlite, local disk) whose in-process runner
 *     starts it. Ratio remote ÷ in-process.
 *
 * BENCH_ONLY=predict,transfer,start runs a subset. Other settings: CLUSTER_RATE_LIMIT is set high
 * (the figures measure serving, not the request limiter). The machine's load average is printed with
 * the figures: on a shared machine other work moves them.
 */
import { execFile, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import postgres from "postgres";
import { envNumber, sseFields } from "../scripts/cluster-client";

const execFileAsync = promisify(execFile);
const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), "..");
const clusterDir = process.env.CLUSTER_DIR || "/tmp/layerline-cluster-bench";
const extraDir = `${clusterDir}-extra`;
const lbPort = Number(process.env.CLUSTER_PORT || 8800);
const num = envNumber;
const CONNECTIONS = num("BENCH_CONNECTIONS", 16);
const SECONDS = num("BENCH_SECONDS", 15);
const ROUNDS = num("BENCH_ROUNDS", 3);
const UPLOAD_MB = num("BENCH_UPLOAD_MB", 48);
const TRANSFER_ROUNDS = num("BENCH_TRANSFER_ROUNDS", 3);
const START_RUNS = num("BENCH_START_RUNS", 5);
const ONLY = new Set((process.env.BENCH_ONLY || "predict,transfer,start").split(","));
const RATE_LIMIT = "100000000";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const loadAverage = () =>
  os
    .loadavg()
    .map((x) => x.toFixed(2))
    .join(", ");
const say = (msg: string) => console.log(`[bench] ${msg}`);

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  if (!s.length) return Number.NaN;
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
}

// ---- the cluster ----------------------------------------------------------------------------------

const clusterEnv = {
  ...process.env,
  CLUSTER_DIR: clusterDir,
  CLUSTER_PORT: String(lbPort),
  CLUSTER_RATE_LIMIT: RATE_LIMIT,
};

async function cluster(...args: string[]): Promise<string> {
  const { stdout } = await execFileAsync("bash", [path.join(root, "scripts/cluster.sh"), ...args], {
    env: clusterEnv,
    maxBuffer: 16 * 1024 * 1024,
  });
  return stdout;
}

function readEnvFile(file: string): Record<string, string> {
  const env: Record<string, string> = {};
  for (const line of fs.readFileSync(file, "utf8").split("\n")) {
    const eq = line.indexOf("=");
    if (eq > 0) env[line.slice(0, eq)] = line.slice(eq + 1);
  }
  return env;
}

const pidOf = (name: string) => Number(fs.readFileSync(path.join(clusterDir, "pids", `${name}.pid`), "utf8"));

const TICKS = 100; // USER_HZ on Linux
/** The machine's CPU time (ticks): all, and busy (not idle, not waiting for I/O), from /proc/stat. */
function machineTicks(): { total: number; busy: number } {
  const cpu = fs
    .readFileSync("/proc/stat", "utf8")
    .split("\n")[0]
    .trim()
    .split(/\s+/)
    .slice(1, 9)
    .map(Number);
  const total = cpu.reduce((a, b) => a + b, 0);
  return { total, busy: total - cpu[3] - cpu[4] };
}
/** CPU seconds (user + system) a process has used, from /proc. */
const cpuOf = (pid: number) => {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return (Number(fields[11]) + Number(fields[12])) / TICKS;
  } catch {
    return Number.NaN;
  }
};

async function waitHealthy(url: string, what: string, seconds = 180): Promise<void> {
  const until = Date.now() + seconds * 1000;
  while (Date.now() < until) {
    try {
      const r = await fetch(`${url}/health`, { signal: AbortSignal.timeout(2000) });
      if (r.ok) return;
    } catch {
      /* not up yet */
    }
    await sleep(250);
  }
  throw new Error(`${what} did not answer at ${url}/health`);
}

// ---- servers of our own (the transfer pair and the embedded one) ---------------------------------

interface OwnServer {
  name: string;
  url: string;
  pid: number;
}
const ownServers: OwnServer[] = [];

async function startOwnServer(name: string, port: number, env: Record<string, string>): Promise<OwnServer> {
  fs.mkdirSync(path.join(extraDir, "logs"), { recursive: true });
  const log = fs.openSync(path.join(extraDir, "logs", `${name}.log`), "a");
  // This process's environment (as the cluster's servers get theirs), without any storage or database
  // setting: only what this server is given.
  const base = { ...process.env };
  for (const k of Object.keys(base))
    if (/^(S3_|AWS_|BLOB_|DATABASE_URL|DATA_DIR|LAYERLINE_|PORT|HOSTNAME|CLUSTER_)/.test(k)) delete base[k];
  const child = spawn("node", ["--max-semi-space-size=32", "--import", "tsx", "scripts/serve-api.ts"], {
    cwd: root,
    detached: true,
    stdio: ["ignore", log, log],
    env: {
      ...base,
      PORT: String(port),
      HOSTNAME: "127.0.0.1",
      RATE_LIMIT_PER_MINUTE: RATE_LIMIT,
      LAYERLINE_SECRET: randomBytes(24).toString("hex"),
      ...env,
    },
  });
  const server = { name, url: `http://127.0.0.1:${port}`, pid: child.pid as number };
  ownServers.push(server);
  child.unref();
  fs.closeSync(log); // the child has its own copy
  await waitHealthy(server.url, name, 300);
  return server;
}

async function stopOwnServer(server: OwnServer): Promise<void> {
  try {
    process.kill(-server.pid, "SIGTERM");
  } catch {
    return;
  }
  for (let i = 0; i < 50; i++) {
    try {
      process.kill(server.pid, 0);
    } catch {
      return;
    }
    await sleep(100);
  }
  try {
    process.kill(-server.pid, "SIGKILL");
  } catch {
    /* gone */
  }
}

// ---- HTTP -----------------------------------------------------------------------------------------

// biome-ignore lint/suspicious/noExplicitAny: the bench reads many response shapes
type Json = any;

async function call(
  base: string,
  method: string,
  route: string,
  opts: {
    key?: string;
    body?: unknown;
    raw?: BodyInit;
    headers?: Record<string, string>;
    ok?: number[];
  } = {},
): Promise<Json> {
  const headers: Record<string, string> = { ...(opts.headers ?? {}) };
  if (opts.key) headers.Authorization = `Bearer ${opts.key}`;
  if (opts.body !== undefined) headers["Content-Type"] = "application/json";
  const res = await fetch(`${base}${route}`, {
    method,
    headers,
    body: opts.raw ?? (opts.body !== undefined ? JSON.stringify(opts.body) : undefined),
  });
  const text = await res.text();
  if (!(opts.ok ?? [200, 201]).includes(res.status))
    throw new Error(`${method} ${route}: ${res.status} ${text.slice(0, 300)}`);
  return text ? JSON.parse(text) : null;
}

async function signUp(base: string, tag: string): Promise<string> {
  const name = `bench${tag}${Date.now().toString(36)}`;
  const res = await fetch(`${base}/api/auth/signup`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Origin: base },
    body: JSON.stringify({ email: `${name}@example.com`, username: name, password: "correct horse battery" }),
  });
  if (res.status !== 201) throw new Error(`sign-up on ${base}: ${res.status} ${await res.text()}`);
  const cookie = (res.headers.get("set-cookie") ?? "").split(";")[0];
  const key = await call(base, "POST", "/api/v1/users/me/api-keys", {
    body: { name: "bench" },
    headers: { Cookie: cookie, Origin: base },
  });
  return key.key as string;
}

const TERMINAL = ["succeeded", "failed", "cancelled", "timed_out"];

async function createIrisJob(base: string, key: string, epochs: number): Promise<string> {
  const project = await call(base, "POST", "/api/v1/projects", {
    key,
    body: { name: `bench iris ${randomBytes(3).toString("hex")}`, template: "mlp-classifier" },
  });
  const job = await call(base, "POST", "/api/v1/training/jobs", {
    key,
    body: {
      project_id: project.id,
      dataset_id: "builtin-iris",
      runtime: "pytorch",
      config: { epochs, batch_size: 16, learning_rate: 0.02 },
    },
  });
  return job.id as string;
}

async function waitJob(base: string, key: string, jobId: string, seconds = 600): Promise<Json> {
  const until = Date.now() + seconds * 1000;
  while (Date.now() < until) {
    const j = await call(base, "GET", `/api/v1/training/jobs/${jobId}`, { key });
    if (TERMINAL.includes(j.state)) return j;
    await sleep(300);
  }
  throw new Error(`job ${jobId} did not finish in ${seconds}s`);
}

// ---- (a) predict through the load balancer, two servers against one -----------------------------

interface AutocannonResult {
  errors: number;
  timeouts: number;
  non2xx: number;
  requests: { average: number; total: number };
  latency: { p50: number; p99: number };
  duration: number;
}

function autocannon(
  url: string,
  headers: Record<string, string>,
  body: string,
  connections = CONNECTIONS,
): Promise<AutocannonResult> {
  const bin = path.join(root, "node_modules", ".bin", "autocannon");
  const args = ["--json", "-c", String(connections), "-d", String(SECONDS), "-m", "POST"];
  for (const [k, v] of Object.entries(headers)) args.push("-H", `${k}=${v}`);
  args.push("-b", body, url);
  return new Promise((resolve, reject) => {
    execFile(bin, args, { maxBuffer: 64 * 1024 * 1024 }, (err, stdout) => {
      if (err) reject(err);
      else resolve(JSON.parse(stdout) as AutocannonResult);
    });
  });
}

/** Sequential calls straight to one server; returns each call's milliseconds. */
async function warm(url: string, headers: Record<string, string>, body: string, calls: number) {
  const ms: number[] = [];
  for (let i = 0; i < calls; i++) {
    const t0 = performance.now();
    const r = await fetch(url, { method: "POST", headers, body });
    await r.arrayBuffer();
    if (r.status !== 200) throw new Error(`warm-up predict on ${url}: ${r.status}`);
    ms.push(performance.now() - t0);
  }
  return ms;
}

/** `cluster.sh start api2`, and it must answer on its own port (else it is stopped again: no stray server). */
async function restartApi2(): Promise<void> {
  await cluster("start", "api2");
  try {
    await waitHealthy(`http://127.0.0.1:${lbPort + 2}`, "api2", 300);
  } catch (err) {
    await cluster("kill", "api2");
    throw err;
  }
}

/** Which server answered each of `calls` calls through the balancer (its X-Served-By header, when set). */
async function servedBy(url: string, headers: Record<string, string>, body: string, calls: number) {
  const counts: Record<string, number> = {};
  for (let i = 0; i < calls; i++) {
    const r = await fetch(url, { method: "POST", headers, body });
    await r.arrayBuffer();
    const by = r.headers.get("x-served-by") ?? "unknown";
    counts[by] = (counts[by] ?? 0) + 1;
  }
  return counts;
}

async function predictBench(base: string): Promise<void> {
  say("(a) predict: training an Iris model on the cluster's workers, then deploying it");
  const key = await signUp(base, "p");
  const jobId = await createIrisJob(base, key, 10);
  const job = await waitJob(base, key, jobId);
  if (job.state !== "succeeded") throw new Error(`training ${job.state}: ${job.reason}`);
  const dep = await call(base, "POST", "/api/v1/deployments", {
    key,
    body: { name: "bench", job_id: jobId },
  });
  const instance = { sepal_length_cm: 5.9, sepal_width_cm: 3.0, petal_length_cm: 5.1, petal_width_cm: 1.8 };
  const body = JSON.stringify({ inputs: [instance] });
  const headers = { Authorization: `Bearer ${dep.api_key}`, "Content-Type": "application/json" };
  const route = `/api/v1/inference/${dep.id}/predict`;
  const apiUrl = (n: 1 | 2) => `http://127.0.0.1:${lbPort + n}${route}`;

  // Each server loads the model into its own warm cache on its first call (from the object store).
  const firstCall: Record<string, { first: number; warm: number }> = {};
  const warmServer = async (n: 1 | 2) => {
    const ms = await warm(apiUrl(n), headers, body, 300);
    firstCall[`api${n}`] = { first: ms[0], warm: median(ms.slice(100)) };
  };
  await warmServer(1);
  await warmServer(2);
  for (const n of [1, 2] as const) {
    const files = fs.existsSync(path.join(clusterDir, `cache-api${n}`))
      ? fs.readdirSync(path.join(clusterDir, `cache-api${n}`), { recursive: true }).length
      : 0;
    say(
      `api${n}: first call ${firstCall[`api${n}`].first.toFixed(1)} ms, then ${firstCall[`api${n}`].warm.toFixed(2)} ms (median); ${files} entr${files === 1 ? "y" : "ies"} in its blob cache`,
    );
  }

  const lbUrl = `${base}${route}`;
  type Round = {
    /** "1 half": one server, half the connections (the load each of two servers sees). */
    servers: 1 | 2 | "1 half";
    result: AutocannonResult;
    cpu: Record<string, number>;
    busy: number;
    load: string;
  };
  const rounds: Round[] = [];
  let api2Up = true;
  const setServers = async (n: 1 | 2) => {
    if (n === 1 && api2Up) {
      await cluster("kill", "api2");
      api2Up = false;
      // HAProxy's check (inter 1s, fall 2) takes it out; then the balancer answers from api1 alone.
      await sleep(4000);
    } else if (n === 2 && !api2Up) {
      await restartApi2();
      api2Up = true;
      await warmServer(2); // a restarted server loads the model again (its own warm cache)
      await sleep(4000); // HAProxy's check (rise 2) brings it back
    }
    await warm(lbUrl, headers, body, 200); // through the balancer: no error before the round
    say(
      `  ${n} server(s): 100 calls through the balancer answered by ${JSON.stringify(await servedBy(lbUrl, headers, body, 100))}`,
    );
  };
  // One round not counted: the servers' and the balancer's code paths compiled under concurrent load
  // (the first round of a run was otherwise the slowest, whichever configuration it measured).
  await autocannon(lbUrl, headers, body);
  for (let r = 0; r < ROUNDS; r++) {
    for (const n of [2, 1, "1 half"] as const) {
      if (n !== "1 half") await setServers(n);
      const names = n === 2 ? ["api1", "api2", "haproxy"] : ["api1", "haproxy"];
      const pids = Object.fromEntries(names.map((name) => [name, pidOf(name)]));
      const before = Object.fromEntries(names.map((name) => [name, cpuOf(pids[name])]));
      const machine = machineTicks();
      const result = await autocannon(
        lbUrl,
        headers,
        body,
        n === "1 half" ? Math.max(1, Math.round(CONNECTIONS / 2)) : CONNECTIONS,
      );
      const cpu = Object.fromEntries(names.map((name) => [name, cpuOf(pids[name]) - before[name]]));
      const after = machineTicks();
      const busy = (after.busy - machine.busy) / (after.total - machine.total);
      rounds.push({ servers: n, result, cpu, busy, load: loadAverage() });
      const errors = result.errors + result.timeouts + result.non2xx;
      const apiCpu = names.filter((x) => x.startsWith("api")).reduce((sum, x) => sum + cpu[x], 0);
      say(
        `  ${n === 2 ? "2 servers" : n === 1 ? "1 server " : "1 server, half the connections"}: ${Math.round(result.requests.total / SECONDS)} req/s, p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms, errors ${errors}; CPU s: ${Object.entries(
          cpu,
        )
          .map(([k, v]) => `${k} ${v.toFixed(1)}`)
          .join(
            ", ",
          )}; API servers ${((1000 * apiCpu) / result.requests.total).toFixed(3)} CPU ms a call; machine ${(100 * busy).toFixed(0)}% busy (load ${rounds.at(-1)?.load})`,
      );
    }
  }
  if (!api2Up) await restartApi2();
  const summary = (n: Round["servers"]) => {
    const rs = rounds.filter((r) => r.servers === n);
    return {
      rps: median(rs.map((r) => r.result.requests.total / SECONDS)),
      p50: median(rs.map((r) => r.result.latency.p50)),
      p99: median(rs.map((r) => r.result.latency.p99)),
      errors: rs.reduce((s, r) => s + r.result.errors + r.result.timeouts + r.result.non2xx, 0),
      cpuPerCall: median(
        rs.map(
          (r) =>
            (1000 * Object.entries(r.cpu).reduce((sum, [k, v]) => (k.startsWith("api") ? sum + v : sum), 0)) /
            r.result.requests.total,
        ),
      ),
      busy: median(rs.map((r) => r.busy)),
    };
  };
  const one = summary(1);
  const two = summary(2);
  const half = summary("1 half");
  const line = (s: ReturnType<typeof summary>) =>
    `${s.rps.toFixed(0)} req/s, p50 ${s.p50} ms, p99 ${s.p99} ms, errors ${s.errors}; ${s.cpuPerCall.toFixed(3)} API-server CPU ms a call; machine ${(100 * s.busy).toFixed(0)}% busy`;
  const served = Object.entries(firstCall)
    .map(([k, v]) => `${k} first call ${v.first.toFixed(0)} ms then ${v.warm.toFixed(2)} ms`)
    .join(", ");
  results.push(
    `(a) predict through HAProxy, ${CONNECTIONS} connections closed loop, ${SECONDS} s × ${ROUNDS} rounds each (medians):`,
    `    one API server : ${line(one)}`,
    `    two API servers: ${line(two)}`,
    `    ratio two ÷ one: ${(two.rps / one.rps).toFixed(2)} (2 cores shared with HAProxy, PostgreSQL, the client and other work)`,
    `    control, one API server at ${Math.round(CONNECTIONS / 2)} connections (each of two servers' share): ${line(half)}`,
    `    API-server CPU a call, two servers ÷ one at half the connections: ${(two.cpuPerCall / half.cpuPerCall).toFixed(2)} (1 would be: two servers cost no more a call than one carrying the same share)`,
    `    each server's own warm model: ${served}`,
  );
}

// ---- (b) upload and download through the API, S3 against the local disk --------------------------

function csvOf(bytes: number, seed: string): Uint8Array {
  const lines: string[] = [`x1,x2,x3,x4,note_${seed},label`];
  let size = lines[0].length + 1;
  let i = 0;
  while (size < bytes) {
    const line = `${(i % 997) / 7},${(i * 31) % 1000},${((i * 17) % 613) / 3},${i},r${i % 50},${["a", "b", "c"][i % 3]}`;
    lines.push(line);
    size += line.length + 1;
    i++;
  }
  return new TextEncoder().encode(`${lines.join("\n")}\n`);
}

async function transferOnce(base: string, key: string, bytes: Uint8Array) {
  const fd = new FormData();
  fd.set("name", `bench upload ${randomBytes(3).toString("hex")}`);
  fd.set("file", new Blob([bytes as Uint8Array<ArrayBuffer>], { type: "text/csv" }), "bench.csv");
  let t0 = performance.now();
  const up = await call(base, "POST", "/api/v1/datasets/", { key, raw: fd });
  const uploadS = (performance.now() - t0) / 1000;
  t0 = performance.now();
  const res = await fetch(`${base}/api/v1/datasets/${up.dataset.id}/download`, {
    headers: { Authorization: `Bearer ${key}` },
  });
  let got = 0;
  for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) got += chunk.byteLength;
  const downloadS = (performance.now() - t0) / 1000;
  if (res.status !== 200 || got !== bytes.byteLength)
    throw new Error(`download from ${base}: ${res.status}, ${got} of ${bytes.byteLength} bytes`);
  return { uploadS, downloadS };
}

/** The same bytes straight through a blob driver in this process (no HTTP, no profiling). */
async function driverOnce(env: Record<string, string>, bytes: Uint8Array) {
  const { createBlobStore } = await import("../lib/server/storage/blob-stores");
  const store = createBlobStore(env);
  const key = `bench/transfer-${randomBytes(6).toString("hex")}`;
  const CHUNK = 64 * 1024;
  async function* chunks() {
    for (let at = 0; at < bytes.byteLength; at += CHUNK) yield bytes.subarray(at, at + CHUNK);
  }
  let t0 = performance.now();
  await store.put(key, chunks());
  const uploadS = (performance.now() - t0) / 1000;
  t0 = performance.now();
  const read = await store.get(key);
  if (!read) throw new Error(`driver ${store.driver}: the object just written is missing`);
  let got = 0;
  for await (const chunk of read.stream as unknown as AsyncIterable<Uint8Array>) got += chunk.byteLength;
  const downloadS = (performance.now() - t0) / 1000;
  await store.delete(key);
  if (got !== bytes.byteLength)
    throw new Error(`driver ${store.driver}: ${got} of ${bytes.byteLength} bytes`);
  return { uploadS, downloadS };
}

async function transferBench(cenv: Record<string, string>): Promise<void> {
  say(`(b) transfer: a ${UPLOAD_MB} MiB CSV, ${TRANSFER_ROUNDS} rounds on each store`);
  const sql = postgres(cenv.DATABASE_URL, { max: 1, onnotice: () => {} });
  for (const db of ["bench_local", "bench_s3"]) {
    const exists = await sql`select 1 from pg_database where datname = ${db}`;
    if (!exists.length) await sql.unsafe(`create database ${db}`);
  }
  await sql.end();
  const dbUrl = (db: string) => cenv.DATABASE_URL.replace(/\/[^/]*$/, `/${db}`);
  const s3Settings: Record<string, string> = {};
  for (const [k, v] of Object.entries(cenv))
    if (k.startsWith("S3_") || k.startsWith("AWS_") || k === "BLOB_STORE") s3Settings[k] = v;
  const common = (name: string) => ({
    LAYERLINE_WORKERS: "external",
    DATA_DIR: path.join(extraDir, `data-${name}`),
    BLOB_CACHE_DIR: path.join(extraDir, `cache-${name}`),
  });
  const [local, s3] = await Promise.all([
    startOwnServer("transfer-local", lbPort + 5, {
      ...common("local"),
      DATABASE_URL: dbUrl("bench_local"),
      BLOB_STORE: "local",
    }),
    startOwnServer("transfer-s3", lbPort + 6, {
      ...common("s3"),
      DATABASE_URL: dbUrl("bench_s3"),
      ...s3Settings,
    }),
  ]);
  const keys = { local: await signUp(local.url, "l"), s3: await signUp(s3.url, "s") };
  const mb = (UPLOAD_MB * 1024 * 1024) / 1e6;
  const runs: Record<string, { uploadS: number; downloadS: number }[]> = {
    local: [],
    s3: [],
    "driver local": [],
    "driver s3": [],
  };
  const driverEnv = {
    local: { BLOB_STORE: "local", BLOB_DIR: path.join(extraDir, "driver-blobs") },
    s3: s3Settings,
  };
  for (let r = 0; r < TRANSFER_ROUNDS; r++) {
    // New content each round; the same bytes for both stores within a round. Alternating order.
    const bytes = csvOf(UPLOAD_MB * 1024 * 1024, `${r}${randomBytes(4).toString("hex")}`);
    const order = r % 2 ? (["s3", "local"] as const) : (["local", "s3"] as const);
    for (const which of order) {
      const server = which === "local" ? local : s3;
      const t = await transferOnce(server.url, keys[which], bytes);
      runs[which].push(t);
      say(
        `  ${which.padEnd(5)} round ${r + 1}: upload ${(mb / t.uploadS).toFixed(1)} MB/s, download ${(mb / t.downloadS).toFixed(1)} MB/s (load ${loadAverage()})`,
      );
    }
    for (const which of order) runs[`driver ${which}`].push(await driverOnce(driverEnv[which], bytes));
  }
  const rate = (name: string, what: "uploadS" | "downloadS") => mb / median(runs[name].map((t) => t[what]));
  results.push(
    `(b) ${UPLOAD_MB} MiB CSV, ${TRANSFER_ROUNDS} rounds, medians (MB = 10^6 bytes):`,
    `    through the API, BLOB_STORE=local: upload ${rate("local", "uploadS").toFixed(1)} MB/s, download ${rate("local", "downloadS").toFixed(1)} MB/s`,
    `    through the API, BLOB_STORE=s3   : upload ${rate("s3", "uploadS").toFixed(1)} MB/s, download ${rate("s3", "downloadS").toFixed(1)} MB/s`,
    `    ratio s3 ÷ local: upload ${(rate("s3", "uploadS") / rate("local", "uploadS")).toFixed(2)}, download ${(rate("s3", "downloadS") / rate("local", "downloadS")).toFixed(2)}`,
    `    the blob drivers alone (put/get in this process): local ${rate("driver local", "uploadS").toFixed(1)} / ${rate("driver local", "downloadS").toFixed(1)} MB/s, s3 ${rate("driver s3", "uploadS").toFixed(1)} / ${rate("driver s3", "downloadS").toFixed(1)} MB/s (up / down); ratio s3 ÷ local: upload ${(rate("driver s3", "uploadS") / rate("driver local", "uploadS")).toFixed(2)}, download ${(rate("driver s3", "downloadS") / rate("driver local", "downloadS")).toFixed(2)}`,
  );
  await Promise.all([stopOwnServer(local), stopOwnServer(s3)]);
}

// ---- (c) job start latency: a remote worker against the in-process runner ------------------------

interface StartTimes {
  runningMs: number;
  firstMetricMs: number;
  /** From the job's status history: created → running, as the database recorded it. */
  recordedMs: number;
}

/** Creates the job and follows its stream: when `running` and the first metric arrive. */
async function timedStart(base: string, key: string): Promise<StartTimes> {
  const project = await call(base, "POST", "/api/v1/projects", {
    key,
    body: { name: `bench start ${randomBytes(3).toString("hex")}`, template: "mlp-classifier" },
  });
  const t0 = performance.now();
  const job = await call(base, "POST", "/api/v1/training/jobs", {
    key,
    body: {
      project_id: project.id,
      dataset_id: "builtin-iris",
      runtime: "pytorch",
      config: { epochs: 2, batch_size: 16, learning_rate: 0.02 },
    },
  });
  const mint = await call(base, "POST", `/api/v1/training/jobs/${job.id}/stream-access-token`, { key });
  let runningMs = Number.NaN;
  let firstMetricMs = Number.NaN;
  let lastId = 0;
  const until = Date.now() + 600_000;
  while (Date.now() < until && Number.isNaN(firstMetricMs)) {
    const res = await fetch(`${base}${mint.stream_url}`, {
      headers: lastId ? { "Last-Event-ID": String(lastId) } : {},
    });
    if (res.status !== 200 || !res.body) break;
    let finished = false;
    for await (const fields of sseFields(res.body)) {
      if (!fields.id) continue;
      lastId = Math.max(lastId, Number(fields.id));
      const now = performance.now() - t0;
      if (fields.event === "status") {
        const status = JSON.parse(fields.data).status as string;
        if (status === "running" && Number.isNaN(runningMs)) runningMs = now;
        if (TERMINAL.includes(status)) finished = true;
      }
      if (fields.event === "metric" && Number.isNaN(firstMetricMs)) firstMetricMs = now;
      if (!Number.isNaN(firstMetricMs) || finished) break;
    }
    await res.body.cancel().catch(() => {});
    if (finished) break;
  }
  const done = await waitJob(base, key, job.id);
  if (done.state !== "succeeded")
    throw new Error(`start-latency job ${job.id} ${done.state}: ${done.reason}`);
  const history = done.status_history as { status: string; at: string }[];
  const running = history.find((h) => h.status === "running");
  const recordedMs = running ? Date.parse(running.at) - Date.parse(done.created_at) : Number.NaN;
  return { runningMs, firstMetricMs, recordedMs };
}

async function startBench(base: string): Promise<void> {
  say(`(c) job start: ${START_RUNS} runs on a remote worker, then ${START_RUNS} in-process`);
  const remoteKey = await signUp(base, "c");
  const embedded = await startOwnServer("embedded", lbPort + 7, {
    DATA_DIR: path.join(extraDir, "data-embedded"),
    BLOB_STORE: "local",
  });
  const embeddedKey = await signUp(embedded.url, "e");
  // One job each first (not timed): the first run of a process compiles and caches what later runs reuse.
  await waitJob(base, remoteKey, await createIrisJob(base, remoteKey, 1));
  await waitJob(embedded.url, embeddedKey, await createIrisJob(embedded.url, embeddedKey, 1));
  const runs: Record<"remote" | "in-process", StartTimes[]> = { remote: [], "in-process": [] };
  for (let r = 0; r < START_RUNS; r++) {
    for (const which of ["remote", "in-process"] as const) {
      const t =
        which === "remote" ? await timedStart(base, remoteKey) : await timedStart(embedded.url, embeddedKey);
      runs[which].push(t);
      say(
        `  ${which.padEnd(10)} run ${r + 1}: running after ${t.runningMs.toFixed(0)} ms (recorded ${t.recordedMs.toFixed(0)} ms), first metric after ${t.firstMetricMs.toFixed(0)} ms (load ${loadAverage()})`,
      );
    }
  }
  await stopOwnServer(embedded);
  const m = (which: "remote" | "in-process", k: keyof StartTimes) => median(runs[which].map((t) => t[k]));
  results.push(
    `(c) job start latency, tiny Iris job, ${START_RUNS} runs each (medians):`,
    `    in-process runner (embedded server): running ${m("in-process", "runningMs").toFixed(0)} ms (recorded ${m("in-process", "recordedMs").toFixed(0)} ms), first metric ${m("in-process", "firstMetricMs").toFixed(0)} ms`,
    `    remote worker (cluster)            : running ${m("remote", "runningMs").toFixed(0)} ms (recorded ${m("remote", "recordedMs").toFixed(0)} ms), first metric ${m("remote", "firstMetricMs").toFixed(0)} ms`,
    `    ratio remote ÷ in-process: running ${(m("remote", "runningMs") / m("in-process", "runningMs")).toFixed(2)} (recorded ${(m("remote", "recordedMs") / m("in-process", "recordedMs")).toFixed(2)}), first metric ${(m("remote", "firstMetricMs") / m("in-process", "firstMetricMs")).toFixed(2)}`,
  );
}

// ---- main -----------------------------------------------------------------------------------------

const results: string[] = [];

async function main(): Promise<number> {
  const envFile = path.join(clusterDir, "cluster.env");
  const ours = !fs.existsSync(envFile);
  if (ours) {
    say(`starting a cluster in ${clusterDir} (load balancer on ${lbPort})`);
    await cluster("up");
  } else say(`using the cluster already in ${clusterDir}`);
  try {
    const cenv = readEnvFile(envFile);
    const base = cenv.CLUSTER_URL;
    say(`load average at the start: ${loadAverage()} (${os.cpus().length} cores, shared with other work)`);
    if (ONLY.has("predict")) await predictBench(base);
    if (ONLY.has("transfer")) await transferBench(cenv);
    if (ONLY.has("start")) await startBench(base);
    console.log(`\n=== cluster bench (load average now ${loadAverage()}, ${os.cpus().length} cores) ===`);
    for (const line of results) console.log(line);
    return 0;
  } finally {
    for (const s of ownServers) await stopOwnServer(s);
    fs.rmSync(extraDir, { recursive: true, force: true });
    if (ours && !process.env.BENCH_KEEP_CLUSTER) await cluster("down");
  }
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
