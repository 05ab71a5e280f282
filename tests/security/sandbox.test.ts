/**
 * The sandbox user programs run in: a program started the way a managed training job's is
 * (runTrainingProgram: inputs staged in its job directory, the job's channel, the plan's limits) tries
 * what a hostile train.py would: read DATA_DIR, another job's directory, the server's environment
 * anywhere in /proc, open a TCP connection to a port listening on this machine's loopback, write
 * outside its outputs, use its channel for another job. Each attempt must fail; its own uploads
 * reach its own job, with the upload token the worker adds (the program never has it).
 */
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_TRAINING_CONFIG } from "@/lib/ml/graph-types";
import { attemptDirs, runTrainingProgram } from "@/lib/server/modules/training/executors/process";
import { pythonPath } from "@/lib/server/modules/training/executors/pytorch";
import { resetSandboxCheck, sandboxLimits } from "@/lib/server/modules/training/executors/sandbox";
import { checkSandbox } from "@/lib/server/startup";
import { models, type Receiver, startReceiver } from "../training/training-fixtures";

const SECRET = `layerline-secret-${process.pid}-${Date.now()}`;
const root = fs.mkdtempSync(path.join(os.tmpdir(), "layerline-sandbox-test-"));
const dataDir = path.join(root, "DATA_DIR");
const otherJob = path.join(root, "other-job");
let receiver: Receiver;
let listener: net.Server;
let port = 0;

beforeAll(async () => {
  // What the server has: a secret in its environment, files in DATA_DIR, another job's files.
  process.env.LAYERLINE_TEST_SERVER_SECRET = SECRET;
  fs.mkdirSync(dataDir);
  fs.writeFileSync(path.join(dataDir, "secret.txt"), SECRET);
  fs.mkdirSync(otherJob);
  fs.writeFileSync(path.join(otherJob, "dataset.csv"), SECRET);
  // Readable by anyone: only the sandbox may stop the program from reading them.
  for (const p of [root, dataDir, otherJob]) fs.chmodSync(p, 0o755);
  for (const f of [path.join(dataDir, "secret.txt"), path.join(otherJob, "dataset.csv")])
    fs.chmodSync(f, 0o644);
  receiver = await startReceiver();
  listener = net.createServer((socket) => socket.end("hello"));
  await new Promise<void>((resolve) => listener.listen(0, "127.0.0.1", resolve));
  port = (listener.address() as net.AddressInfo).port;
});

afterAll(async () => {
  delete process.env.LAYERLINE_TEST_SERVER_SECRET;
  await receiver.close();
  await new Promise<void>((resolve) => listener.close(() => resolve()));
  fs.rmSync(root, { recursive: true, force: true });
});

/** The hostile program: prints one JSON object of what each attempt gave. */
const PROBE = `
import json, os, resource, socket, sys, http.client
api, data_dir, other_job, port, reversed_secret, checkpoints = sys.argv[1:7]
secret = reversed_secret[::-1]  # reversed on the command line, which /proc shows too
out = {}
def attempt(name, fn):
    try:
        out[name] = {"ok": True, "value": fn()}
    except Exception as error:
        out[name] = {"ok": False, "error": type(error).__name__}
attempt("read_data_dir", lambda: open(os.path.join(data_dir, "secret.txt")).read())
attempt("list_data_dir", lambda: os.listdir(data_dir))
attempt("read_other_job", lambda: open(os.path.join(other_job, "dataset.csv")).read())
attempt("read_proc1_environ", lambda: open("/proc/1/environ", "rb").read().decode("latin-1"))
def scan_proc():
    found = []
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        for part in ("environ", "cmdline"):
            try:
                if secret.encode() in open(f"/proc/{pid}/{part}", "rb").read():
                    found.append(f"{pid}/{part}")
            except OSError:
                pass
    return found
attempt("proc_secret", scan_proc)
attempt("env_secret", lambda: [k for k, v in os.environ.items() if secret in v or v.startswith("lut_")])
attempt("pids", lambda: sorted(int(p) for p in os.listdir("/proc") if p.isdigit()))
def tcp():
    with socket.create_connection(("127.0.0.1", int(port)), timeout=3) as s:
        return s.recv(5).decode()
attempt("tcp_loopback", tcp)
def write(p):
    with open(p, "w") as f:
        f.write("x")
    return p
attempt("write_job_dir", lambda: write(os.path.join(os.path.dirname(checkpoints), "planted.txt")))
attempt("write_usr", lambda: write("/usr/planted.txt"))
attempt("write_outputs", lambda: write(os.path.join(checkpoints, "ok.txt")))
attempt("uid", lambda: [os.getuid(), os.geteuid(), os.getgid()])
attempt("limits", lambda: {name: resource.getrlimit(getattr(resource, name))[0] for name in ("RLIMIT_CPU", "RLIMIT_AS", "RLIMIT_FSIZE", "RLIMIT_NPROC")})
def channel(job):
    path = api[len("unix:"):]
    conn = http.client.HTTPConnection("localhost")
    conn.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    conn.sock.connect(path)
    body = json.dumps({"events": [{"kind": "log", "level": "info", "message": "hi", "id": "l-1"}]})
    conn.request("POST", f"/api/v1/training/jobs/{job}/metrics/events", body=body, headers={"Content-Type": "application/json"})
    status = conn.getresponse().status
    conn.close()
    return status
attempt("channel_own", lambda: channel("job_sandboxed"))
attempt("channel_other", lambda: channel("job_someone_else"))
attempt("channel_escape", lambda: channel("job_sandboxed/../job_someone_else"))
print(json.dumps(out), flush=True)
`;

type Attempt = { ok: boolean; value?: unknown; error?: string };

async function runProbe(): Promise<Record<string, Attempt>> {
  const workDir = fs.mkdtempSync(path.join(root, "job-"));
  const dirs = await attemptDirs(workDir);
  fs.writeFileSync(path.join(dirs.project, "probe.py"), PROBE);
  const jobData = path.join(workDir, "data");
  fs.mkdirSync(jobData);
  const lines: string[] = [];
  const limits = sandboxLimits("free", 60_000);
  const result = await runTrainingProgram(
    {
      jobId: "job_sandboxed",
      projectName: "Probe",
      graph: models.irisMlp(),
      config: DEFAULT_TRAINING_CONFIG,
      dataDir: jobData,
      workDir,
      uploadToken: "lut_the_jobs_own_token",
      apiBaseUrl: receiver.url,
      resumeFrom: null,
      signal: new AbortController().signal,
      timeLimitMs: 60_000,
      onLine: (line) => lines.push(line),
      limits,
    },
    dirs,
    {
      command: pythonPath(),
      args: (_req, api) => [
        "probe.py",
        api,
        dataDir,
        otherJob,
        String(port),
        [...SECRET].reverse().join(""),
        dirs.checkpoints,
      ],
      env: { PYTHONDONTWRITEBYTECODE: "1" },
    },
  );
  expect(result.exitCode, result.stderrTail).toBe(0);
  const line = lines.find((l) => l.startsWith("{"));
  expect(line, result.stderrTail).toBeDefined();
  return JSON.parse(line as string) as Record<string, Attempt>;
}

describe("the sandbox of user programs", () => {
  it("keeps a hostile program from the server's files, environment, processes and network", async () => {
    const r = await runProbe();
    // DATA_DIR and another job's directory are not there at all.
    expect(r.read_data_dir).toMatchObject({ ok: false });
    expect(r.list_data_dir).toMatchObject({ ok: false });
    expect(r.read_other_job).toMatchObject({ ok: false });
    // Its /proc shows its own PID namespace only: the sandbox's init (1) and itself.
    expect(r.pids.ok).toBe(true);
    expect((r.pids.value as number[]).every((pid) => pid <= 3)).toBe(true);
    // The server's environment is nowhere: not in /proc/1 (unreadable or without it), nor any /proc, nor its own.
    if (r.read_proc1_environ.ok) expect(String(r.read_proc1_environ.value)).not.toContain(SECRET);
    expect(r.proc_secret).toEqual({ ok: true, value: [] });
    expect(r.env_secret).toEqual({ ok: true, value: [] });
    // No network: this machine's loopback port is out of reach.
    expect(r.tcp_loopback).toMatchObject({ ok: false });
    // Writes: only its outputs.
    expect(r.write_job_dir).toMatchObject({ ok: false });
    expect(r.write_usr).toMatchObject({ ok: false });
    expect(r.write_outputs).toMatchObject({ ok: true });
    // Not root: a real unprivileged user when the worker is root.
    const [uid, euid] = r.uid.value as number[];
    expect(uid).not.toBe(0);
    expect(euid).not.toBe(0);
    if (process.getuid?.() === 0) expect(uid).toBe(65534);
    // The plan's limits.
    const limits = sandboxLimits("free", 60_000);
    expect(r.limits.value).toEqual({
      RLIMIT_CPU: limits.cpuSeconds,
      RLIMIT_AS: limits.addressSpaceBytes,
      RLIMIT_FSIZE: limits.fileSizeBytes,
      RLIMIT_NPROC: limits.processes,
    });
  }, 120_000);

  it("lets it reach its own job only, through its channel, with the token the worker adds", async () => {
    const before = receiver.uploadsOf("job_sandboxed").events.length;
    const r = await runProbe();
    expect(r.channel_own).toEqual({ ok: true, value: 202 });
    expect(r.channel_other).toEqual({ ok: true, value: 403 });
    expect(r.channel_escape).toEqual({ ok: true, value: 403 });
    const own = receiver.uploadsOf("job_sandboxed");
    expect(own.events.length).toBe(before + 1);
    expect([...own.authorization]).toEqual(["Bearer lut_the_jobs_own_token"]);
    expect(receiver.uploadsOf("job_someone_else").events).toEqual([]);
  }, 120_000);
});

/** Processes of this machine whose command line contains `text`. */
function processesWith(text: string): string[] {
  const found: string[] = [];
  for (const pid of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      if (fs.readFileSync(`/proc/${pid}/cmdline`, "utf8").includes(text)) found.push(pid);
    } catch {
      // gone
    }
  }
  return found;
}

describe("stopping a sandboxed program", () => {
  for (const how of ["cancel", "time limit"] as const) {
    it(`ends it and everything it started (${how})`, async () => {
      const workDir = fs.mkdtempSync(path.join(root, "job-"));
      const dirs = await attemptDirs(workDir);
      const seconds = `${300 + Math.floor(Math.random() * 1000)}.25`;
      const controller = new AbortController();
      const running = runTrainingProgram(
        {
          jobId: "job_stopped",
          projectName: "Probe",
          graph: models.irisMlp(),
          config: DEFAULT_TRAINING_CONFIG,
          dataDir: workDir,
          workDir,
          uploadToken: "lut_x",
          apiBaseUrl: receiver.url,
          resumeFrom: null,
          signal: controller.signal,
          timeLimitMs: how === "cancel" ? 60_000 : 2_000,
        },
        dirs,
        {
          command: pythonPath(),
          // A child that ignores SIGTERM, and the program itself asleep.
          args: () => [
            "-c",
            `import signal, subprocess, time\nsubprocess.Popen(["/usr/bin/sleep", "${seconds}"], preexec_fn=lambda: signal.signal(signal.SIGTERM, signal.SIG_IGN))\nprint("started", flush=True)\ntime.sleep(${seconds})`,
          ],
          env: {},
        },
      );
      const deadline = Date.now() + 20_000;
      while (processesWith(`sleep\0${seconds}`).length === 0 && Date.now() < deadline)
        await new Promise((resolve) => setTimeout(resolve, 100));
      expect(processesWith(`sleep\0${seconds}`).length).toBe(1);
      if (how === "cancel") controller.abort();
      const result = await running;
      expect(result.exitCode).toBeNull();
      expect(result.timedOut).toBe(how === "time limit");
      // The PID namespace went with it: its children too.
      const gone = Date.now() + 5_000;
      while (processesWith(seconds).length > 0 && Date.now() < gone)
        await new Promise((resolve) => setTimeout(resolve, 100));
      expect(processesWith(seconds)).toEqual([]);
    }, 60_000);
  }
});

describe("a start without the sandbox", () => {
  it("is refused in production, naming the package and the opt-out; the opt-out starts with a warning", async () => {
    const saved = { bwrap: process.env.LAYERLINE_BWRAP, sandbox: process.env.LAYERLINE_SANDBOX };
    process.env.LAYERLINE_BWRAP = path.join(root, "no-such-bwrap");
    resetSandboxCheck();
    try {
      await expect(checkSandbox({ production: true })).rejects.toThrow(
        /no-such-bwrap is missing.*apt-get install bubblewrap.*LAYERLINE_SANDBOX=off/,
      );
      // A training program does not start either (never silently without its sandbox).
      const workDir = fs.mkdtempSync(path.join(root, "job-"));
      const dirs = await attemptDirs(workDir);
      const result = await runTrainingProgram(
        {
          jobId: "job_unsandboxed",
          projectName: "Probe",
          graph: models.irisMlp(),
          config: DEFAULT_TRAINING_CONFIG,
          dataDir: workDir,
          workDir,
          uploadToken: "lut_x",
          apiBaseUrl: receiver.url,
          resumeFrom: null,
          signal: new AbortController().signal,
          timeLimitMs: 10_000,
        },
        dirs,
        { command: pythonPath(), args: () => ["-c", "print(1)"], env: {} },
      );
      expect(result.exitCode).toBeNull();
      expect(result.stderrTail).toMatch(/sandbox .* not available/);
      process.env.LAYERLINE_SANDBOX = "off";
      const warnings: string[] = [];
      const warn = console.warn;
      console.warn = (...args: unknown[]) => void warnings.push(args.join(" "));
      try {
        await checkSandbox({ production: true });
      } finally {
        console.warn = warn;
      }
      expect(warnings.join("\n")).toMatch(/LAYERLINE_SANDBOX=off: .* WITHOUT the sandbox/);
    } finally {
      if (saved.bwrap === undefined) delete process.env.LAYERLINE_BWRAP;
      else process.env.LAYERLINE_BWRAP = saved.bwrap;
      if (saved.sandbox === undefined) delete process.env.LAYERLINE_SANDBOX;
      else process.env.LAYERLINE_SANDBOX = saved.sandbox;
      resetSandboxCheck();
    }
  });
});
