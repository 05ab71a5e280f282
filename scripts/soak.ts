/**
 * A soak test of the local cluster (scripts/cluster.sh), by hand or in CI (scripts/soak-ci.sh):
 *
 *   bash scripts/cluster.sh up && SOAK_SECONDS=120 npx tsx scripts/soak.ts; bash scripts/cluster.sh down
 *
 * For SOAK_SECONDS (default 120), through the load balancer: SOAK_ACCOUNTS accounts (default 3) sign
 * up, make a personal key and a project, and in a loop upload a small CSV dataset, train a managed
 * PyTorch job on Iris (SOAK_EPOCHS, default 150, batch 4: long enough to be killed mid-run) and, at the
 * same time, an external job (runtime `external`: this script is its trainer, as a user's own machine
 * would be: it mints the job's upload token and sends SOAK_EXTERNAL_EPOCHS epochs (default 8) of
 * metrics, progress, logs and a checkpoint each, then the model file and the final status, retrying
 * what a dying server breaks), follow both event streams (reconnecting with Last-Event-ID, on whichever
 * server the balancer picks, when a connection breaks) and push a version to the registry. The first
 * trained model is deployed and predicted at SOAK_PREDICT_RATE calls/s (default 20) until the end.
 * Its owner also predicts on it with a personal key of its own, from both servers, faster than the
 * key's per-minute limit (the plan's, or the cluster's RATE_LIMIT_PER_MINUTE), until in one minute
 * window both servers have served and refused calls. After a third of the time one API server and one
 * worker are killed with SIGKILL, and started again SOAK_RESTART_SECONDS later (default 15).
 *
 * Afterwards (jobs get SOAK_DRAIN_SECONDS, default 300, to finish) it checks and prints: no training
 * job or queued job left running or queued; every training job succeeded (resumed ones counted), the
 * external ones with their model file as uploaded and each event stored once despite retried uploads;
 * every stream received exactly the job's stored events, once each and in order, ending with the job's
 * final status; no request limit exceeded (the key's calls served in each minute window, counted from
 * both servers, at most the limit, which was reached); every stored object the database names is in
 * the bucket with the recorded SHA-256; after the servers' orphan sweep (run once with no age limit: the
 * cluster is quiet by then), no object in the bucket is named by no row; predictions' error rate and
 * latency (p50/p99) before, during and after the failure. Exits 1 when a check fails.
 *
 * Reads the cluster's settings (CLUSTER_URL, DATABASE_URL, S3_*) from $CLUSTER_DIR/cluster.env
 * (default /tmp/layerline-cluster), or from the environment.
 */
import { execFile } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import path from "node:path";
import { promisify } from "node:util";
import { GetObjectCommand, ListObjectsV2Command, S3Client } from "@aws-sdk/client-s3";
import postgres from "postgres";
import { torchCheckpoint } from "../tests/security/checkpoint-bytes";
import {
  type CallOptions,
  call,
  clusterDir,
  envNumber,
  type Res,
  readClusterEnv,
  sseFields,
} from "./cluster-client";

const execFileAsync = promisify(execFile);
const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), "..");
const cfg = readClusterEnv();
const BASE = cfg.CLUSTER_URL ?? process.env.CLUSTER_URL;
if (!BASE || !cfg.DATABASE_URL || !cfg.S3_BUCKET) {
  console.error(
    `No cluster settings: start one with 'bash scripts/cluster.sh up' (CLUSTER_DIR=${clusterDir}).`,
  );
  process.exit(2);
}
const num = envNumber;
const SECONDS = num("SOAK_SECONDS", 120);
const ACCOUNTS = num("SOAK_ACCOUNTS", 3);
const EPOCHS = num("SOAK_EPOCHS", 150);
const EXTERNAL_EPOCHS = num("SOAK_EXTERNAL_EPOCHS", 8);
const RATE = num("SOAK_PREDICT_RATE", 20);
const RESTART_AFTER = num("SOAK_RESTART_SECONDS", 15);
const DRAIN = num("SOAK_DRAIN_SECONDS", 300);
const KILL_API = process.env.SOAK_KILL_API || "api1";
const KILL_WORKER = process.env.SOAK_KILL_WORKER || "worker1";

const t0 = Date.now();
const elapsed = () => ((Date.now() - t0) / 1000).toFixed(1);
const say = (msg: string) => console.log(`[soak ${elapsed()}s] ${msg}`);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const sha256 = (b: Uint8Array) => createHash("sha256").update(b).digest("hex");

// ---- HTTP through the load balancer -------------------------------------------------------------

/** A call through the load balancer. */
const http = (method: string, route: string, opts: CallOptions = {}): Promise<Res> =>
  call(BASE as string, method, route, opts);

/** A call that a failing server may break: retried (a few times, on network errors and 502/503). */
async function retried(
  method: string,
  route: string,
  opts: Parameters<typeof http>[2] = {},
  ok = [200, 201],
): Promise<Res> {
  let last = "";
  for (let attempt = 0; attempt < 8; attempt++) {
    try {
      const r = await http(method, route, opts);
      if (ok.includes(r.status)) return r;
      last = `${r.status} ${r.text.slice(0, 300)}`;
      if (![502, 503, 504].includes(r.status)) break;
    } catch (err) {
      last = err instanceof Error ? err.message : String(err);
    }
    stats.retries++;
    await sleep(500 * (attempt + 1));
  }
  throw new Error(`${method} ${route}: ${last}`);
}

const stats = {
  retries: 0,
  datasets: 0,
  registryPushes: 0,
  jobsCreated: 0,
  externalJobs: 0,
  externalUploads: 0,
  externalDuplicates: 0,
};
const failures: string[] = [];
const fail = (msg: string) => {
  failures.push(msg);
  say(`FAIL ${msg}`);
};

// ---- accounts -----------------------------------------------------------------------------------

interface Account {
  key: string;
  /** The web session's cookie (to mint more personal keys). */
  cookie: string;
}

async function signUp(i: number): Promise<Account> {
  const name = `soak${Date.now().toString(36)}${i}`;
  const signup = await fetch(`${BASE}/api/auth/signup`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Origin: BASE as string },
    body: JSON.stringify({ email: `${name}@example.com`, username: name, password: "correct horse battery" }),
  });
  if (signup.status !== 201) throw new Error(`sign-up: ${signup.status} ${await signup.text()}`);
  const cookie = (signup.headers.get("set-cookie") ?? "").split(";")[0];
  return { key: await mintKey(cookie, "soak"), cookie };
}

async function mintKey(cookie: string, name: string): Promise<string> {
  const key = await retried("POST", "/api/v1/users/me/api-keys", {
    body: { name },
    headers: { Cookie: cookie, Origin: BASE as string },
  });
  return key.json.key as string;
}

function smallCsv(seed: number): string {
  const lines = ["x1,x2,x3,label"];
  for (let r = 0; r < 120; r++) {
    const c = (r + seed) % 3;
    lines.push(
      `${(c * 2 + Math.random()).toFixed(3)},${(Math.random() * 5).toFixed(3)},${r},${["a", "b", "c"][c]}`,
    );
  }
  return `${lines.join("\n")}\n`;
}

async function uploadDataset(key: string, seed: number): Promise<void> {
  const fd = new FormData();
  fd.set("name", `soak ${seed}`);
  fd.set("file", new Blob([smallCsv(seed)]), `soak-${seed}.csv`);
  // Not retried blindly: a repeated upload after a lost answer is a second dataset, which is fine.
  await retried("POST", "/api/v1/datasets/", { key, raw: fd });
  stats.datasets++;
}

async function pushToRegistry(key: string, seed: number): Promise<void> {
  const model = await retried("POST", "/api/v1/models", {
    key,
    body: { name: `soak-model-${seed}-${randomBytes(3).toString("hex")}` },
  });
  const version = await retried("POST", `/api/v1/models/${model.json.id}/versions`, { key, body: {} });
  const vid = version.json.id as string;
  const bytes = randomBytes(50_000 + (seed % 7) * 10_000);
  const init = await retried("POST", `/api/v1/model-versions/${vid}/artifacts:initiate`, {
    key,
    body: { name: "weights.bin", size_bytes: bytes.byteLength, sha256: sha256(bytes) },
  });
  const up = init.json.upload as { url: string; method: string; headers: Record<string, string> };
  const put = await http(up.method, up.url, { raw: bytes, headers: up.headers });
  if (put.status !== 200) throw new Error(`artifact upload: ${put.status} ${put.text.slice(0, 300)}`);
  await retried("POST", `/api/v1/model-versions/${vid}/artifacts/${init.json.artifact_id}/complete`, { key });
  await retried("POST", `/api/v1/model-versions/${vid}/finalize`, { key });
  stats.registryPushes++;
}

// ---- training and its stream --------------------------------------------------------------------

const TERMINAL = ["succeeded", "failed", "cancelled", "timed_out"];
interface StreamReport {
  jobId: string;
  events: number;
  reconnects: number;
  problems: string[];
  finalStatus: string | null;
  /** The ids received, in order (checked against the job's stored events afterwards). */
  ids: number[];
}
const streams: StreamReport[] = [];
const jobIds: string[] = [];

/** Follows a job's SSE stream to its end, reconnecting with Last-Event-ID; ids must only increase. */
async function followStream(key: string, jobId: string): Promise<StreamReport> {
  const report: StreamReport = { jobId, events: 0, reconnects: 0, problems: [], finalStatus: null, ids: [] };
  let lastId = 0;
  const deadline = Date.now() + (SECONDS + DRAIN) * 1000;
  while (Date.now() < deadline) {
    try {
      const mint = await retried("POST", `/api/v1/training/jobs/${jobId}/stream-access-token`, { key });
      const res = await fetch(`${BASE}${mint.json.stream_url}`, {
        headers: lastId ? { "Last-Event-ID": String(lastId) } : {},
      });
      if (res.status !== 200 || !res.body) throw new Error(`stream answered ${res.status}`);
      for await (const fields of sseFields(res.body)) {
        if (!fields.id || fields.data === undefined) continue;
        const id = Number(fields.id);
        // Ids only increase; they may skip a number (an event sent twice by a training program keeps
        // its first copy, and the id reserved for the second is not used): checked against the rows.
        if (id <= lastId) report.problems.push(`event ${id} after ${lastId}`);
        if (id > lastId) lastId = id;
        report.ids.push(id);
        report.events++;
        if (fields.event === "status") {
          const status = JSON.parse(fields.data).status as string;
          if (TERMINAL.includes(status)) report.finalStatus = status;
        }
      }
      if (report.finalStatus) return report;
    } catch {
      /* the connection broke (a server died): reconnect */
    }
    if (report.finalStatus) return report;
    // The stream ended without a final status, or broke: ask whether the job has finished.
    report.reconnects++;
    await sleep(500);
  }
  report.problems.push("no final status before the deadline");
  return report;
}

async function irisProject(key: string, i: number): Promise<string> {
  const project = await retried("POST", "/api/v1/projects", {
    key,
    body: { name: `soak iris ${i}`, template: "mlp-classifier" },
  });
  return project.json.id as string;
}

async function irisJob(
  key: string,
  projectId: string,
): Promise<{ jobId: string; stream: Promise<StreamReport> }> {
  const job = await retried("POST", "/api/v1/training/jobs", {
    key,
    body: {
      project_id: projectId,
      dataset_id: "builtin-iris",
      runtime: "pytorch",
      config: { epochs: EPOCHS, batch_size: 4, learning_rate: 0.01 },
    },
  });
  stats.jobsCreated++;
  const jobId = job.json.id as string;
  jobIds.push(jobId);
  return { jobId, stream: followStream(key, jobId) };
}

async function jobState(key: string, jobId: string) {
  return (await retried("GET", `/api/v1/training/jobs/${jobId}`, { key })).json;
}

// ---- an external job: this script is its trainer, as a user's own machine would be ---------------

/** External jobs and the events their trainer sent (each must be stored once, whatever was retried). */
const externalSent = new Map<string, number>();

async function externalJob(
  key: string,
  projectId: string,
  seed: number,
): Promise<{ jobId: string; stream: Promise<StreamReport>; trained: Promise<string> }> {
  const job = await retried("POST", "/api/v1/training/jobs", {
    key,
    body: {
      project_id: projectId,
      dataset_id: "builtin-iris",
      runtime: "external",
      config: { epochs: EXTERNAL_EPOCHS },
    },
  });
  stats.jobsCreated++;
  stats.externalJobs++;
  const jobId = job.json.id as string;
  jobIds.push(jobId);
  return { jobId, stream: followStream(key, jobId), trained: trainExternally(key, jobId, seed) };
}

/**
 * What an external trainer sends, through the load balancer with the job's upload token: per epoch
 * its metrics, progress and a log line (with ids, so that a retry after a lost answer stores nothing
 * twice) and a checkpoint; then the model file and the final status. Returns the job's final state.
 */
async function trainExternally(key: string, jobId: string, seed: number): Promise<string> {
  const route = `/api/v1/training/jobs/${jobId}`;
  const token = (await retried("POST", `${route}/stream-token`, { key })).json.token as string;
  const octets = { "Content-Type": "application/octet-stream" };
  const steps = 30;
  let loss = 1.1;
  for (let epoch = 1; epoch <= EXTERNAL_EPOCHS; epoch++) {
    loss *= 0.8;
    const step = epoch * steps;
    const events = [
      { kind: "metric", name: "loss", value: loss, step, epoch, id: `loss-${epoch}` },
      { kind: "metric", name: "val_accuracy", value: 1 - loss / 2, step, epoch, id: `val_accuracy-${epoch}` },
      {
        kind: "progress",
        epoch,
        epochs: EXTERNAL_EPOCHS,
        step,
        steps: EXTERNAL_EPOCHS * steps,
        id: `p-${epoch}`,
      },
      { kind: "log", level: "info", message: `epoch ${epoch} loss ${loss.toFixed(4)}`, id: `log-${epoch}` },
    ];
    const up = await retried("POST", `${route}/metrics/events`, { key: token, body: { events } }, [202]);
    externalSent.set(jobId, (externalSent.get(jobId) ?? 0) + events.length);
    stats.externalUploads += events.length;
    stats.externalDuplicates += up.json.duplicates as number;
    if (up.json.accepted + up.json.duplicates !== events.length)
      fail(`external job ${jobId}: ${events.length} events sent, answer ${JSON.stringify(up.json)}`);
    const metrics = encodeURIComponent(JSON.stringify({ val_loss: loss }));
    await retried(
      "POST",
      `${route}/checkpoints?epoch=${epoch}&step=${step}&best=true&metrics=${metrics}`,
      { key: token, raw: torchCheckpoint(4000 + (seed % 997)), headers: octets },
      [201],
    );
    await sleep(200); // the next epoch's training
  }
  const model = randomBytes(30_000 + (seed % 4099));
  await retried("PUT", `${route}/artifact/model.onnx`, { key: token, raw: model, headers: octets }, [201]);
  // A retry after a lost answer finds the job finished already (409): its state says.
  await retried(
    "POST",
    `${route}/metrics/events`,
    { key: token, body: { events: [{ kind: "status", status: "succeeded" }] } },
    [202, 409],
  );
  const state = (await jobState(key, jobId)).state as string;
  if (state === "succeeded") {
    const got = await downloadBytes(`${route}/artifact/model.onnx`, key);
    if (sha256(got) !== sha256(model))
      fail(`external job ${jobId}: model.onnx downloaded ${got.byteLength} bytes, not the file uploaded`);
  }
  return state;
}

/** A file's bytes through the load balancer (retried like `retried`). */
async function downloadBytes(route: string, key: string): Promise<Uint8Array> {
  let last = "";
  for (let attempt = 0; attempt < 8; attempt++) {
    try {
      const res = await fetch(`${BASE}${route}`, {
        headers: { Authorization: `Bearer ${key}` },
        signal: AbortSignal.timeout(30_000),
      });
      if (res.status === 200) return new Uint8Array(await res.arrayBuffer());
      last = `${res.status} ${(await res.text()).slice(0, 300)}`;
      if (![502, 503, 504].includes(res.status)) break;
    } catch (err) {
      last = err instanceof Error ? err.message : String(err);
    }
    stats.retries++;
    await sleep(500 * (attempt + 1));
  }
  throw new Error(`GET ${route}: ${last}`);
}

// ---- predictions --------------------------------------------------------------------------------

type Phase = "before" | "during" | "after";
let phase: Phase = "before";
let afterSince = 0;
let chaosOver = false;
const predictions: Record<Phase, { ms: number[]; errors: number; statuses: Record<string, number> }> = {
  before: { ms: [], errors: 0, statuses: {} },
  during: { ms: [], errors: 0, statuses: {} },
  after: { ms: [], errors: 0, statuses: {} },
};
let predicting = false;
let firstPredictionAt = 0;
/** Predictions go on past the soak's end until the phase after the failure has this much (bounded). */
const AFTER_MS = 10_000;

/** Calls `once` at `rate` calls/s while `going()`; waits for the calls in flight. */
async function atRate(rate: number, going: () => boolean, once: () => Promise<void>): Promise<void> {
  const inflight = new Set<Promise<void>>();
  const interval = 1000 / rate;
  let next = Date.now();
  while (going()) {
    const call = once();
    inflight.add(call);
    void call.finally(() => inflight.delete(call));
    next += interval;
    await sleep(Math.max(0, next - Date.now()));
  }
  await Promise.all(inflight);
}

const IRIS_INSTANCE = {
  sepal_length_cm: 5.1,
  sepal_width_cm: 3.5,
  petal_length_cm: 1.4,
  petal_width_cm: 0.2,
};

async function predictLoop(deploymentId: string, deploymentKey: string, until: number): Promise<void> {
  predicting = true;
  firstPredictionAt = Date.now();
  const hardStop = until + 180_000;
  const going = () =>
    Date.now() < hardStop &&
    (Date.now() < until ||
      (!chaosOver && phase !== "after") ||
      (phase === "after" && Date.now() - afterSince < AFTER_MS));
  await atRate(RATE, going, async () => {
    const p = phase;
    const started = performance.now();
    const bucket = predictions[p];
    try {
      const r = await http("POST", `/api/v1/inference/${deploymentId}/predict`, {
        key: deploymentKey,
        body: { inputs: [IRIS_INSTANCE] },
      });
      bucket.statuses[r.status] = (bucket.statuses[r.status] ?? 0) + 1;
      if (r.status === 200) bucket.ms.push(performance.now() - started);
      else bucket.errors++;
    } catch (err) {
      const code = (err as { cause?: { code?: string } }).cause?.code ?? "network";
      bucket.statuses[code] = (bucket.statuses[code] ?? 0) + 1;
      bucket.errors++;
    }
  });
  predicting = false;
}

// ---- a request limit, from both servers ---------------------------------------------------------

interface LimitedCall {
  sent: number;
  answered: number;
  status: number | string;
  server: string | null;
}
const limited = {
  calls: [] as LimitedCall[],
  /** The key's limit per minute. */
  limit: 0,
  rate: 0,
  started: 0,
  stopped: 0,
};
const SERVERS = ["api1", "api2"];
const windowOf = (t: number) => Math.floor(t / 60_000);

interface WindowCount {
  window: number;
  /** Calls served (200) and refused (429) whose whole request fell in this window, by server. */
  served: Record<string, number>;
  refused: Record<string, number>;
  /** Calls that crossed into the next window (the server counted them in one of the two). */
  straddling: number;
  other: number;
}

function limitWindows(): WindowCount[] {
  const windows = new Map<number, WindowCount>();
  for (const c of limited.calls) {
    const w = windowOf(c.sent);
    let win = windows.get(w);
    if (!win) {
      win = { window: w, served: {}, refused: {}, straddling: 0, other: 0 };
      windows.set(w, win);
    }
    const server = c.server ?? "?";
    if (c.status !== 200 && c.status !== 429) win.other++;
    else if (windowOf(c.answered) !== w) win.straddling++;
    else if (c.status === 200) win.served[server] = (win.served[server] ?? 0) + 1;
    else win.refused[server] = (win.refused[server] ?? 0) + 1;
  }
  return [...windows.values()].sort((a, b) => a.window - b.window);
}
const sum = (r: Record<string, number>) => Object.values(r).reduce((n, v) => n + v, 0);

/**
 * A window in which the limit was reached and both servers answered the key's calls; `strict`: both
 * served some and both refused some (each learnt from the database that the window was spent).
 */
const limitTested = (strict: boolean) =>
  limitWindows().some((w) =>
    strict
      ? SERVERS.every((s) => (w.served[s] ?? 0) > 0 && (w.refused[s] ?? 0) > 0)
      : sum(w.refused) > 0 && SERVERS.every((s) => (w.served[s] ?? 0) + (w.refused[s] ?? 0) > 0),
  );

/**
 * The deployment's owner predicts with a key of its own (nothing else spends it) through the
 * balancer at four times the key's per-minute limit, until in one window both servers have served
 * calls and refused calls (bounded: two windows and a half, in case one server is down too long).
 */
async function limitBurst(owner: Account, deploymentId: string): Promise<void> {
  const key = await mintKey(owner.cookie, "soak-limit");
  const override = Number(cfg.RATE_LIMIT_PER_MINUTE);
  limited.limit =
    override > 0
      ? override
      : ((await retried("GET", "/api/v1/users/me/entitlements", { key: owner.key })).json.limits
          .requests_per_minute as number);
  limited.rate = Math.max(10, Math.ceil((4 * limited.limit) / 60));
  limited.started = Date.now();
  say(`predicting with a personal key at ${limited.rate}/s against its limit of ${limited.limit}/minute`);
  const hardStop = limited.started + 150_000;
  let checked = 0;
  let tested = false;
  const going = () => {
    if (Date.now() >= hardStop) return false;
    if (Date.now() - checked > 1000) {
      checked = Date.now();
      tested = limitTested(true);
    }
    return !tested;
  };
  await atRate(limited.rate, going, async () => {
    const sent = Date.now();
    let status: number | string;
    let server: string | null = null;
    try {
      const r = await http("POST", `/api/v1/inference/${deploymentId}/predict/session`, {
        key,
        body: { inputs: [IRIS_INSTANCE] },
      });
      status = r.status;
      server = r.servedBy;
    } catch (err) {
      status = (err as { cause?: { code?: string } }).cause?.code ?? "network";
    }
    limited.calls.push({ sent, answered: Date.now(), status, server });
  });
  limited.stopped = Date.now();
}

function checkLimit(): void {
  if (!limited.limit) {
    fail("the request limit was not tested (no model was deployed in time)");
    return;
  }
  const windows = limitWindows();
  const statuses: Record<string, number> = {};
  for (const c of limited.calls) statuses[c.status] = (statuses[c.status] ?? 0) + 1;
  console.log(
    `request limit: a personal key limited to ${limited.limit}/minute, called at ${limited.rate}/s for ${((limited.stopped - limited.started) / 1000).toFixed(0)} s through the balancer: ${JSON.stringify(statuses)}`,
  );
  console.log("  window  served (api1 + api2)  refused (api1 + api2)  crossing a window's end  other");
  let max = 0;
  for (const w of windows) {
    const served = sum(w.served);
    max = Math.max(max, served);
    const by = (r: Record<string, number>) => SERVERS.map((s) => r[s] ?? 0).join(" + ");
    console.log(
      `  ${new Date(w.window * 60_000).toISOString().slice(11, 16)}   ${`${served} (${by(w.served)})`.padEnd(21)} ${`${sum(w.refused)} (${by(w.refused)})`.padEnd(22)} ${String(w.straddling).padStart(23)} ${String(w.other).padStart(6)}`,
    );
    if (served > limited.limit)
      fail(`request limit exceeded: ${served} calls served in one minute with a limit of ${limited.limit}`);
  }
  if (!limitTested(false))
    fail("the request limit was never reached in a window in which both servers answered the key's calls");
  console.log(
    `  most served in a window: ${max} of ${limited.limit}; ${limitTested(true) ? "both servers served and refused calls in one window" : "in no window did both servers serve and refuse calls (one was down)"}`,
  );
}

// ---- the failure --------------------------------------------------------------------------------

async function cluster(...args: string[]): Promise<void> {
  await execFileAsync("bash", [path.join(root, "scripts/cluster.sh"), ...args], {
    env: { ...process.env, CLUSTER_DIR: clusterDir },
  });
}

/** Until a call through the balancer is answered by `server` (its health checks passed): bounded. */
async function servedAgainBy(server: string, withinMs: number): Promise<boolean> {
  const deadline = Date.now() + withinMs;
  while (Date.now() < deadline) {
    try {
      if ((await http("GET", "/health")).servedBy === server) return true;
    } catch {
      /* the balancer or the servers are busy: ask again */
    }
    await sleep(250);
  }
  return false;
}

async function chaos(): Promise<void> {
  try {
    await sleep((SECONDS / 3) * 1000);
    // Let predictions run a while first, so "before" has figures (bounded: the failure still happens).
    for (
      let waited = 0;
      (!predicting || Date.now() - firstPredictionAt < 10_000) && waited < SECONDS * 300;
      waited += 500
    )
      await sleep(500);
    say(`kill -9 ${KILL_API} and ${KILL_WORKER}`);
    phase = "during";
    await cluster("kill", KILL_API);
    await cluster("kill", KILL_WORKER);
    await sleep(RESTART_AFTER * 1000);
    say(`start ${KILL_API} and ${KILL_WORKER} again`);
    await cluster("start", KILL_API);
    await cluster("start", KILL_WORKER);
    // "during" lasts until the restarted server answers through the balancer (its health checks passed).
    if (!(await servedAgainBy(KILL_API, 180_000)))
      throw new Error(`${KILL_API} did not answer through the balancer within 180 s of its restart`);
    say(`${KILL_API} is back`);
    phase = "after";
    afterSince = Date.now();
  } finally {
    chaosOver = true;
  }
}

// ---- checks -------------------------------------------------------------------------------------

function pct(values: number[], p: number): number {
  if (!values.length) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

async function checkDatabase(sql: postgres.Sql): Promise<void> {
  const stuck = await sql`select id, state from training_jobs where state in ('running', 'queued')`;
  if (stuck.length)
    fail(`training jobs left running/queued: ${stuck.map((r) => `${r.id}=${r.state}`).join(", ")}`);
  const stuckJobs =
    await sql`select id, type, state, locked_by from jobs where state in ('running', 'queued')`;
  if (stuckJobs.length)
    fail(
      `queued jobs left running/queued: ${stuckJobs.map((r) => `${r.id}(${r.type})=${r.state} by ${r.locked_by}`).join(", ")}`,
    );
  const rows =
    await sql`select id, state, runtime, restart_count, status_history from training_jobs where id = any(${jobIds})`;
  let resumed = 0;
  for (const r of rows) {
    const history = JSON.stringify(r.status_history ?? "");
    if (/resuming after epoch/.test(history) || r.restart_count > 0) resumed++;
    if (r.state !== "succeeded") fail(`job ${r.id} ended ${r.state}: ${history.slice(-400)}`);
  }
  const external = rows.filter((r) => r.runtime === "external");
  const succeeded = (list: readonly postgres.Row[]) => list.filter((r) => r.state === "succeeded").length;
  console.log(
    `training jobs: ${rows.length} created by the soak, ${succeeded(rows)} succeeded, ${resumed} resumed after a failure; of them external: ${external.length}, ${succeeded(external)} succeeded`,
  );
  // Each event an external trainer sent is stored once, however often a broken call was retried.
  const counted = await sql`select job_id, count(*)::int as n from training_events
    where job_id = any(${[...externalSent.keys()]}) and kind in ('metric', 'log', 'progress')
    group by job_id`;
  const stored = new Map(counted.map((r) => [r.job_id as string, r.n as number]));
  let wrong = 0;
  for (const [jobId, sent] of externalSent)
    if ((stored.get(jobId) ?? 0) !== sent) {
      wrong++;
      fail(`external job ${jobId}: ${sent} events sent, ${stored.get(jobId) ?? 0} stored`);
    }
  console.log(
    `external uploads: ${stats.externalUploads} events sent (${stats.externalDuplicates} answered as duplicates of a retried call), ${externalSent.size - wrong} of ${externalSent.size} jobs with each event stored once`,
  );
}

/** Keys in the bucket. */
async function bucketKeys(s3: S3Client): Promise<Set<string>> {
  const keys = new Set<string>();
  let token: string | undefined;
  do {
    const page = await s3.send(new ListObjectsV2Command({ Bucket: cfg.S3_BUCKET, ContinuationToken: token }));
    for (const o of page.Contents ?? []) if (o.Key) keys.add(o.Key);
    token = page.NextContinuationToken;
  } while (token);
  return keys;
}

/**
 * The servers' orphan sweep (training/recovery.ts) run now with no age limit, as it runs on every
 * object an hour old: safe here because the cluster is quiet (every job has finished, no upload is
 * in flight). Objects a killed process wrote before its database row are expected; the sweep must
 * remove them, and nothing must be left afterwards.
 */
async function sweepNow(): Promise<number> {
  for (const [k, v] of Object.entries(cfg)) process.env[k] = v;
  process.env.BLOB_CACHE_DIR ??= path.join(clusterDir, "cache-soak");
  const { openDb, setDb, targetFromEnv, closeDb } = await import("../lib/server/db/client");
  const { sweepOrphanBlobs } = await import("../lib/server/modules/training/recovery");
  const open = await openDb(targetFromEnv());
  setDb(open);
  try {
    return await sweepOrphanBlobs(open.db, 0);
  } finally {
    await closeDb();
  }
}

async function checkObjects(sql: postgres.Sql): Promise<void> {
  // Every table column that names a stored object (…blob_key, thumbnail_key), with its checksum column.
  const cols = await sql`
    select table_name, column_name from information_schema.columns
    where table_schema = 'public' and (column_name like '%blob_key' or column_name = 'thumbnail_key')`;
  const referenced = new Map<string, string | null>(); // key → expected sha256
  for (const c of cols) {
    const shaCols = await sql`
      select column_name from information_schema.columns where table_schema = 'public'
      and table_name = ${c.table_name} and column_name in ('sha256', 'content_hash', 'received_sha256')`;
    const shaCol = shaCols.find((s) => s.column_name === "sha256")?.column_name ?? shaCols[0]?.column_name;
    const rows =
      await sql`select ${sql(c.column_name)} as key ${shaCol ? sql`, ${sql(shaCol)} as sha` : sql``} from ${sql(c.table_name)} where ${sql(c.column_name)} is not null`;
    for (const r of rows) referenced.set(r.key, r.sha ?? null);
  }
  for (const r of await sql`select artifact_files from training_jobs`)
    for (const f of (r.artifact_files ?? []) as { blob_key: string; sha256: string }[])
      referenced.set(f.blob_key, f.sha256);

  const s3 = new S3Client({
    endpoint: cfg.S3_ENDPOINT,
    region: cfg.S3_REGION || "us-east-1",
    forcePathStyle: true,
    credentials: { accessKeyId: cfg.AWS_ACCESS_KEY_ID, secretAccessKey: cfg.AWS_SECRET_ACCESS_KEY },
  });
  const before = await bucketKeys(s3);
  const orphansBefore = [...before].filter((k) => !referenced.has(k));
  const swept = await sweepNow();
  console.log(
    `orphan sweep: ${orphansBefore.length} object(s) named by no row before it (${orphansBefore.slice(0, 5).join(", ") || "none"}), ${swept} removed`,
  );
  const inBucket = await bucketKeys(s3);

  let missing = 0;
  let wrong = 0;
  for (const [key, sha] of referenced) {
    if (!inBucket.has(key)) {
      missing++;
      fail(`object missing from the bucket: ${key}`);
      continue;
    }
    if (!sha) continue;
    const got = await s3.send(new GetObjectCommand({ Bucket: cfg.S3_BUCKET, Key: key }));
    const bytes = await (got.Body as { transformToByteArray(): Promise<Uint8Array> }).transformToByteArray();
    if (sha256(bytes) !== sha) {
      wrong++;
      fail(`object ${key}: SHA-256 ${sha256(bytes)} where the database has ${sha}`);
    }
  }
  const orphans = [...inBucket].filter((k) => !referenced.has(k));
  const byPrefix: Record<string, number> = {};
  for (const k of orphans) byPrefix[k.split("/")[0]] = (byPrefix[k.split("/")[0]] ?? 0) + 1;
  if (orphans.length)
    fail(
      `${orphans.length} object(s) in the bucket named by no row: ${JSON.stringify(byPrefix)} e.g. ${orphans.slice(0, 5).join(", ")}`,
    );
  console.log(
    `objects: ${inBucket.size} in the bucket, ${referenced.size} named by the database, ${missing} missing, ${wrong} with a wrong checksum, ${orphans.length} orphaned`,
  );
}

function printPredictions(): void {
  console.log("predictions (through the load balancer):");
  console.log("  phase    calls  errors  error rate  p50 ms  p99 ms  statuses");
  for (const p of ["before", "during", "after"] as Phase[]) {
    const b = predictions[p];
    const calls = b.ms.length + b.errors;
    const rate = calls ? `${((100 * b.errors) / calls).toFixed(2)}%` : "-";
    console.log(
      `  ${p.padEnd(7)} ${String(calls).padStart(6)} ${String(b.errors).padStart(7)} ${rate.padStart(11)} ${pct(b.ms, 50).toFixed(1).padStart(7)} ${pct(b.ms, 99).toFixed(1).padStart(7)}  ${JSON.stringify(b.statuses)}`,
    );
  }
  const total = Object.values(predictions).reduce((n, b) => n + b.ms.length + b.errors, 0);
  if (total === 0) fail("no prediction was made (no model was deployed in time)");
  for (const p of ["before", "after"] as Phase[]) {
    const b = predictions[p];
    if (b.errors > 0)
      fail(`${b.errors} prediction(s) failed ${p} the failure (${JSON.stringify(b.statuses)})`);
  }
}

// ---- main ---------------------------------------------------------------------------------------

async function account(
  i: number,
  until: number,
  deployed: { done: boolean },
  background: Promise<void>[],
): Promise<void> {
  const owner = await signUp(i);
  const { key } = owner;
  say(`account ${i} signed up`);
  const projectId = await irisProject(key, i);
  let n = 0;
  while (Date.now() < until) {
    n++;
    const seed = i * 1000 + n;
    try {
      await uploadDataset(key, seed);
      const managed = await irisJob(key, projectId);
      const external = await externalJob(key, projectId, seed);
      say(`account ${i}: jobs ${managed.jobId} (pytorch) and ${external.jobId} (external) started`);
      const trained = external.trained.catch(async (err: unknown) => {
        fail(`account ${i}: external job ${external.jobId}: ${err instanceof Error ? err.message : err}`);
        // A trainer that gives up cancels its job, so that nothing waits for it.
        await retried("POST", `/api/v1/training/jobs/${external.jobId}/cancel`, { key }).catch(() => {});
        return "abandoned";
      });
      const [report, externalReport, externalState] = await Promise.all([
        managed.stream,
        external.stream,
        trained,
      ]);
      streams.push(report, externalReport);
      const job = await jobState(key, managed.jobId);
      say(
        `account ${i}: job ${managed.jobId} ${job.state} (${report.events} events, ${report.reconnects} reconnect(s)); external ${external.jobId} ${externalState} (${externalReport.events} events, ${externalReport.reconnects} reconnect(s))`,
      );
      if (job.state === "succeeded" && !deployed.done) {
        deployed.done = true;
        const d = await retried("POST", "/api/v1/deployments", {
          key,
          body: { name: "soak", job_id: managed.jobId },
        });
        say(`deployed ${d.json.id}: predicting at ${RATE}/s`);
        background.push(
          predictLoop(d.json.id, d.json.api_key, until).catch((err) => fail(`predict loop: ${err}`)),
          limitBurst(owner, d.json.id).catch((err) => fail(`request limit: ${err}`)),
        );
      }
      await pushToRegistry(key, seed);
    } catch (err) {
      fail(`account ${i}: ${err instanceof Error ? err.message : String(err)}`);
      await sleep(1000);
    }
  }
}

async function main(): Promise<number> {
  say(
    `soak for ${SECONDS}s through ${BASE}: ${ACCOUNTS} accounts, ${EPOCHS}-epoch PyTorch and ${EXTERNAL_EPOCHS}-epoch external jobs, ${RATE} predictions/s, kill -9 ${KILL_API} and ${KILL_WORKER} after ${Math.round(SECONDS / 3)}s`,
  );
  const until = t0 + SECONDS * 1000;
  const deployed = { done: false };
  const background: Promise<void>[] = [];
  const chaosDone = chaos().catch((err) => fail(`failure injection: ${err}`));
  const accounts = Array.from({ length: ACCOUNTS }, (_, i) => account(i, until, deployed, background));
  await Promise.all(accounts);
  await chaosDone;
  await Promise.all(background);
  say("load over; waiting for the last jobs");
  const sql = postgres(cfg.DATABASE_URL, { max: 2, onnotice: () => {} });
  try {
    const drainUntil = Date.now() + DRAIN * 1000;
    for (;;) {
      const open =
        await sql`select count(*)::int as n from training_jobs where state in ('running', 'queued')`;
      if (open[0].n === 0 || Date.now() > drainUntil) break;
      await sleep(1000);
    }
    console.log(`\n=== soak report (${SECONDS}s, ${((Date.now() - t0) / 1000).toFixed(0)}s in all) ===`);
    console.log(
      `datasets uploaded: ${stats.datasets}; registry versions pushed: ${stats.registryPushes}; jobs created: ${stats.jobsCreated}; calls retried after a broken connection or 502/503: ${stats.retries}`,
    );
    await checkDatabase(sql);
    // Each stream saw exactly the job's stored events, once each, in order.
    for (const s of streams) {
      const stored = (await sql`select seq from training_events where job_id = ${s.jobId} order by seq`).map(
        (r) => Number(r.seq),
      );
      const seen = new Set(s.ids);
      const missed = stored.filter((seq) => !seen.has(seq));
      const extra = s.ids.filter((id) => !stored.includes(id));
      if (missed.length)
        s.problems.push(
          `${missed.length} stored event(s) never received, e.g. ${missed.slice(0, 5).join(", ")}`,
        );
      if (extra.length)
        s.problems.push(`${extra.length} received event(s) not stored, e.g. ${extra.slice(0, 5).join(", ")}`);
    }
    const badStreams = streams.filter((s) => s.problems.length);
    for (const s of badStreams) fail(`stream of ${s.jobId}: ${s.problems.slice(0, 5).join("; ")}`);
    console.log(
      `streams: ${streams.length} followed to their end, ${streams.reduce((n, s) => n + s.events, 0)} events, ${streams.reduce((n, s) => n + s.reconnects, 0)} reconnect(s), ${badStreams.length} with an event missing, repeated or out of order`,
    );
    checkLimit();
    await checkObjects(sql);
    printPredictions();
  } finally {
    await sql.end();
  }
  console.log(failures.length ? `\nFAILED: ${failures.length} check(s)` : "\nall checks passed");
  return failures.length ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
