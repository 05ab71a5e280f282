/**
 * Training end to end through a real server process (the Hono app, the job runner and recovery, as
 * in the studio's server): jobs train for real on PyTorch and TensorFlow.js, their programs report
 * through the upload-token API, and a server killed with SIGKILL mid-job loses nothing when started again.
 */
import { type ChildProcess, execFile, spawn } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const ROOT = path.resolve(__dirname, "../..");
const execFileAsync = promisify(execFile);
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "layerline-train-server-"));
let port = 0;
let server: ChildProcess | null = null;
let serverLog = "";

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const p = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(p));
    });
  });
}

async function startServer(): Promise<void> {
  const child = spawn(
    process.execPath,
    ["--import", "tsx", path.join(ROOT, "tests/training/api-server.ts")],
    {
      cwd: ROOT,
      env: {
        ...process.env,
        PORT: String(port),
        DATA_DIR: path.join(dataDir, "data"),
        BLOB_DIR: path.join(dataDir, "blobs"),
        DATABASE_URL: "",
        RATE_LIMIT_PER_MINUTE: "100000",
        LAYERLINE_INTERNAL_URL: `http://127.0.0.1:${port}`,
      },
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  child.stdout?.on("data", (d) => {
    serverLog += d.toString();
  });
  child.stderr?.on("data", (d) => {
    serverLog += d.toString();
  });
  server = child;
  const until = Date.now() + 60_000;
  for (;;) {
    try {
      const res = await fetch(`http://127.0.0.1:${port}/health`);
      if (res.ok) return;
    } catch {
      /* not up yet */
    }
    if (child.exitCode !== null) throw new Error(`server exited: ${serverLog.slice(-2000)}`);
    if (Date.now() > until) throw new Error(`server did not start: ${serverLog.slice(-2000)}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

function killServer(signal: NodeJS.Signals): Promise<void> {
  const child = server;
  server = null;
  if (!child || child.exitCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once("exit", () => resolve());
    child.kill(signal);
  });
}

let key = "";

async function api(method: string, route: string, body?: unknown) {
  const res = await fetch(`http://127.0.0.1:${port}${route}`, {
    method,
    headers: { Authorization: `Bearer ${key}`, ...(body ? { "Content-Type": "application/json" } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await res.text();
  let json: unknown = null;
  try {
    json = text ? JSON.parse(text) : null;
  } catch {
    json = text;
  }
  // biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary response bodies
  return { status: res.status, json: json as any, text };
}

async function waitFor<T>(what: string, timeoutMs: number, probe: () => Promise<T | null>): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== null) return value;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}\n${serverLog.slice(-3000)}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** Processes running in the job's work directory (the worker names it after the job). */
async function trainingProcesses(jobId: string): Promise<string[]> {
  const { stdout } = await execFileAsync("ps", ["-eo", "pid,args"]);
  return stdout.split("\n").filter((line) => line.includes(`layerline-${jobId}-`) && !line.includes(" ps "));
}

const TERMINAL = ["succeeded", "failed", "cancelled", "timed_out"];
async function finished(jobId: string, timeoutMs = 180_000) {
  return waitFor(`job ${jobId} to finish`, timeoutMs, async () => {
    const r = await api("GET", `/api/v1/training/jobs/${jobId}`);
    return TERMINAL.includes(r.json?.state) ? r.json : null;
  });
}

async function irisProject(name: string) {
  const r = await api("POST", "/api/v1/projects", { name, template: "mlp-classifier" });
  expect(r.status, r.text).toBe(201);
  return r.json.id as string;
}

beforeAll(async () => {
  port = await freePort();
  await startServer();
  const signup = await fetch(`http://127.0.0.1:${port}/api/auth/signup`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Origin: `http://127.0.0.1:${port}` },
    body: JSON.stringify({
      email: "trainer@example.com",
      username: "trainer",
      password: "correct horse battery",
    }),
  });
  expect(signup.status).toBe(201);
  const cookie = (signup.headers.get("set-cookie") ?? "").split(";")[0];
  const keyRes = await fetch(`http://127.0.0.1:${port}/api/v1/users/me/api-keys`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Cookie: cookie, Origin: `http://127.0.0.1:${port}` },
    body: JSON.stringify({ name: "tests" }),
  });
  key = ((await keyRes.json()) as { key: string }).key;
}, 90_000);

afterAll(async () => {
  await killServer("SIGTERM");
  fs.rmSync(dataDir, { recursive: true, force: true });
});

/** Collects a job's SSE events until the server closes the stream. */
async function collectStream(jobId: string) {
  const mint = await api("POST", `/api/v1/training/jobs/${jobId}/stream-access-token`);
  const res = await fetch(`http://127.0.0.1:${port}${mint.json.stream_url}`);
  const text = await res.text();
  return text
    .split("\n\n")
    .filter((b) => b.includes("data:"))
    .map((b) => {
      const f = Object.fromEntries(
        b.split("\n").map((l) => [l.slice(0, l.indexOf(":")), l.slice(l.indexOf(":") + 1).trim()]),
      );
      return { id: Number(f.id), event: f.event as string, data: JSON.parse(f.data) };
    });
}

describe("training on a real server", () => {
  it("trains an Iris MLP with PyTorch, reporting everything through the upload API", async () => {
    const projectId = await irisProject("Iris on PyTorch");
    const created = await api("POST", "/api/v1/training/jobs", {
      project_id: projectId,
      dataset_id: "builtin-iris",
      runtime: "pytorch",
      config: { epochs: 60, batch_size: 16, learning_rate: 0.02 },
    });
    expect(created.status, created.text).toBe(201);
    const jobId = created.json.id as string;
    const stream = collectStream(jobId);
    const job = await finished(jobId);
    expect(job.state, JSON.stringify(job)).toBe("succeeded");
    expect(job.resolved_runtime).toBe("pytorch");
    expect(job.metrics.val_accuracy).toBeGreaterThanOrEqual(0.93);
    expect(job.progress).toMatchObject({ epoch: 60, epochs: 60 });
    expect(job.compute_seconds).toBeGreaterThan(0);
    expect(job.credits_charged).toBeGreaterThan(0);

    const events = await stream;
    const kinds = new Set(events.map((e) => e.event));
    for (const kind of ["status", "metric", "log", "progress", "checkpoint"])
      expect(kinds.has(kind), kind).toBe(true);
    expect(events.at(-1)).toMatchObject({ event: "status", data: { status: "succeeded" } });
    const ids = events.map((e) => e.id);
    expect(new Set(ids).size).toBe(ids.length);

    // The job keeps its best checkpoint and the last three epochs (the plan's checkpoints_kept_per_job).
    const checkpoints = await api("GET", `/api/v1/training/jobs/${jobId}/checkpoints`);
    const epochs = checkpoints.json.items.map((c: { epoch: number }) => c.epoch);
    expect(epochs.slice(0, 3)).toEqual([60, 59, 58]);
    expect(epochs.length).toBeLessThanOrEqual(4);
    expect(checkpoints.json.items.filter((c: { is_best: boolean }) => c.is_best)).toHaveLength(1);
    expect(job.artifact.format).toBe("onnx");
    const manifest = await api("GET", `/api/v1/training/jobs/${jobId}/artifact/manifest.json`);
    expect(manifest.json.output.labels).toEqual(["setosa", "versicolor", "virginica"]);
    expect(manifest.json.input.features).toHaveLength(4);
    const losses = await api("GET", `/api/v1/training/jobs/${jobId}/metrics?name=loss&limit=1000`);
    expect(losses.json.total).toBe(60);
    expect(losses.json.items.at(-1).value).toBeLessThan(losses.json.items[0].value);
  }, 240_000);

  it("trains the same model with TensorFlow.js", async () => {
    const projectId = await irisProject("Iris on TF.js");
    const created = await api("POST", "/api/v1/training/jobs", {
      project_id: projectId,
      dataset_id: "builtin-iris",
      runtime: "tfjs",
      config: { epochs: 60, batch_size: 16, learning_rate: 0.02 },
    });
    expect(created.status, created.text).toBe(201);
    const job = await finished(created.json.id);
    expect(job.state, JSON.stringify(job)).toBe("succeeded");
    expect(job.resolved_runtime).toBe("tfjs");
    expect(job.metrics.val_accuracy).toBeGreaterThanOrEqual(0.93);
    expect(job.artifact.format).toBe("tfjs");
    expect(job.artifact.files.map((f: { name: string }) => f.name).sort()).toEqual([
      "model.json",
      "weights.bin",
    ]);
  }, 240_000);

  it("cancels a running job, restarts it from its last checkpoint and finishes", async () => {
    const projectId = await irisProject("Iris long");
    const created = await api("POST", "/api/v1/training/jobs", {
      project_id: projectId,
      dataset_id: "builtin-iris",
      runtime: "pytorch",
      config: { epochs: 400, batch_size: 4, learning_rate: 0.01 },
    });
    const jobId = created.json.id as string;
    await waitFor("two checkpoints", 120_000, async () => {
      const r = await api("GET", `/api/v1/training/jobs/${jobId}/checkpoints`);
      return r.json.items.length >= 2 ? true : null;
    });
    expect((await api("POST", `/api/v1/training/jobs/${jobId}/cancel`)).status).toBe(200);
    const cancelled = await finished(jobId, 30_000);
    expect(cancelled.state).toBe("cancelled");
    const kept = (await api("GET", `/api/v1/training/jobs/${jobId}/checkpoints`)).json.items[0]
      .epoch as number;
    const restarted = await api("POST", `/api/v1/training/jobs/${jobId}/restart`);
    expect(restarted.json.state).toBe("queued");
    expect(restarted.json.status_history.at(-1).reason).toContain(`after epoch ${kept}`);
    const epochsSeen = await waitFor("the resumed job to report", 60_000, async () => {
      const r = await api("GET", `/api/v1/training/jobs/${jobId}/metrics?name=loss&from_step=0&limit=10000`);
      const after = r.json.items.filter((p: { epoch: number }) => p.epoch > kept);
      return after.length > 0 ? after : null;
    });
    expect(epochsSeen[0].epoch).toBe(kept + 1);
    await api("POST", `/api/v1/training/jobs/${jobId}/cancel`);
    expect((await finished(jobId, 30_000)).state).toBe("cancelled");
  }, 240_000);

  it("survives kill -9 of the server mid-job: the job resumes from its checkpoint and none is left running", async () => {
    const projectId = await irisProject("Iris crash");
    const created = await api("POST", "/api/v1/training/jobs", {
      project_id: projectId,
      dataset_id: "builtin-iris",
      runtime: "pytorch",
      config: { epochs: 120, batch_size: 4, learning_rate: 0.01 },
    });
    const jobId = created.json.id as string;
    await waitFor("three checkpoints", 120_000, async () => {
      const r = await api("GET", `/api/v1/training/jobs/${jobId}/checkpoints`);
      return r.json.items.length >= 3 ? true : null;
    });
    expect(await trainingProcesses(jobId)).not.toEqual([]);
    await killServer("SIGKILL");
    // The training program notices that its worker died and stops within a few seconds.
    await waitFor("the orphaned training program to exit", 15_000, async () =>
      (await trainingProcesses(jobId)).length === 0 ? true : null,
    );
    await startServer();
    const job = await finished(jobId, 180_000);
    expect(job.state, JSON.stringify(job.status_history)).toBe("succeeded");
    expect(
      job.status_history.some((s: { reason: string | null }) =>
        /resuming after epoch \d+/.test(s.reason ?? ""),
      ),
    ).toBe(true);
    const all = await api("GET", "/api/v1/training/jobs?limit=100");
    expect(
      all.json.items.filter((j: { state: string }) => j.state === "running" || j.state === "queued"),
    ).toEqual([]);
    // The killed attempt's process is gone too: only one run reported each epoch's loss.
    const losses = await api("GET", `/api/v1/training/jobs/${jobId}/metrics?name=loss&limit=10000`);
    const epochs = losses.json.items.map((p: { epoch: number }) => p.epoch);
    expect(new Set(epochs).size).toBe(120);
  }, 300_000);
});
