/**
 * The child-process runner shared by the executors: an argument array (never a shell string), a
 * minimal environment (no server secrets), stdout split into lines for a callback, the tail of
 * stderr kept for the job's failure reason, a time limit, and cancellation through an AbortSignal
 * (SIGTERM to the program's process group, SIGKILL if it is still there after a grace period).
 */
import { spawn } from "node:child_process";
import fsp from "node:fs/promises";
import path from "node:path";
import { openJobChannel } from "./job-channel";
import {
  prepareJobDir,
  SANDBOX_OFF_WARNING,
  type SandboxSpec,
  sandboxCommand,
  sandboxEnabled,
  sandboxLimits,
  sandboxProblem,
  stageInput,
} from "./sandbox";
import type { ExecutionRequest, ExecutionResult, FineTuneArgs } from "./types";

/** How much of stderr (and of stdout) is kept for the result. */
export const STDERR_TAIL_BYTES = 16 * 1024;
/** Between SIGTERM and SIGKILL. */
export const KILL_GRACE_MS = 5000;

export interface RunProcessOptions {
  command: string;
  args: string[];
  cwd: string;
  /** The whole environment of the program (see childEnv). */
  env: Record<string, string>;
  signal?: AbortSignal;
  timeLimitMs?: number;
  onLine?: (line: string) => void;
  /** SIGTERM → SIGKILL delay (default KILL_GRACE_MS). */
  killGraceMs?: number;
  /**
   * Run the program in the sandbox (sandbox.ts) with this view of the machine; the command must be
   * an absolute path. Ignored, with a warning, when LAYERLINE_SANDBOX=off.
   */
  sandbox?: SandboxSpec;
}

export interface ProcessResult {
  exitCode: number | null;
  signal: string | null;
  timedOut: boolean;
  stderrTail: string;
  stdoutTail: string;
  wallSeconds: number;
}

/** Keeps the last `max` characters written to it. */
class Tail {
  private text = "";
  constructor(private readonly max: number) {}
  push(chunk: string): void {
    this.text += chunk;
    if (this.text.length > 2 * this.max) this.text = this.text.slice(-this.max);
  }
  toString(): string {
    return this.text.slice(-this.max);
  }
}

/**
 * Environment variables a training program may see: what finding binaries, locales, temporary
 * files and GPUs needs. Everything else the server has (database URL, signing keys…) stays out.
 */
const PASSED_THROUGH = [
  "PATH",
  "LANG",
  "LC_ALL",
  "TZ",
  "TMPDIR",
  "CUDA_VISIBLE_DEVICES",
  "NVIDIA_VISIBLE_DEVICES",
  "LD_LIBRARY_PATH",
  "OMP_NUM_THREADS",
  "MKL_NUM_THREADS",
];

export function childEnv(extra: Record<string, string>, home: string): Record<string, string> {
  const env: Record<string, string> = { HOME: home };
  for (const name of PASSED_THROUGH) {
    const value = process.env[name];
    if (value !== undefined) env[name] = value;
  }
  return { ...env, ...extra };
}

let warnedOff = false;

/** A result for a program that did not start. */
function unstarted(message: string): ProcessResult {
  return {
    exitCode: null,
    signal: null,
    timedOut: false,
    stderrTail: message,
    stdoutTail: "",
    wallSeconds: 0,
  };
}

export async function runProcess(opts: RunProcessOptions): Promise<ProcessResult> {
  if (!opts.sandbox) return runChild(opts);
  if (!sandboxEnabled()) {
    if (!warnedOff) console.warn(`[sandbox] ${SANDBOX_OFF_WARNING}`);
    warnedOff = true;
    return runChild(opts);
  }
  const problem = await sandboxProblem();
  if (problem)
    return unstarted(
      `The sandbox programs run in is not available on this worker (${problem}): install bubblewrap, or set LAYERLINE_SANDBOX=off on a development machine.\n`,
    );
  // Inside: the system's PATH and the sandbox's own /tmp; no LAYERLINE_PARENT_PID (its pid is not
  // visible there: bwrap's --die-with-parent ends the program with the worker instead).
  const inner = { ...opts.env, PATH: "/usr/bin:/bin", TMPDIR: "/tmp", HOME: "/tmp" };
  const run = sandboxCommand(opts.command, opts.args, opts.cwd, inner, opts.sandbox);
  return runChild({ ...opts, command: run.command, args: run.args, env: run.env }, false);
}

function runChild(opts: RunProcessOptions, parentPid = true): Promise<ProcessResult> {
  const started = performance.now();
  const stderr = new Tail(STDERR_TAIL_BYTES);
  const stdout = new Tail(STDERR_TAIL_BYTES);
  return new Promise<ProcessResult>((resolve) => {
    if (opts.signal?.aborted) {
      resolve({
        exitCode: null,
        signal: "SIGTERM",
        timedOut: false,
        stderrTail: "",
        stdoutTail: "",
        wallSeconds: 0,
      });
      return;
    }
    // Its own process group, so that the program and anything it starts are stopped together.
    const child = spawn(opts.command, opts.args, {
      cwd: opts.cwd,
      // Exactly these variables: NodeJS.ProcessEnv's required NODE_ENV is the app's, not the program's.
      // LAYERLINE_PARENT_PID: the generated programs exit when this process dies (kill -9 included).
      env: (parentPid
        ? { ...opts.env, LAYERLINE_PARENT_PID: String(process.pid) }
        : opts.env) as unknown as NodeJS.ProcessEnv,
      stdio: ["ignore", "pipe", "pipe"],
      detached: true,
      shell: false,
    });
    let timedOut = false;
    let killTimer: NodeJS.Timeout | null = null;
    let exited = false;

    const signalGroup = (sig: NodeJS.Signals) => {
      if (exited || child.pid === undefined) return;
      try {
        process.kill(-child.pid, sig);
      } catch {
        child.kill(sig);
      }
    };
    const stop = () => {
      if (killTimer || exited) return;
      signalGroup("SIGTERM");
      killTimer = setTimeout(() => signalGroup("SIGKILL"), opts.killGraceMs ?? KILL_GRACE_MS);
      killTimer.unref();
    };
    const onAbort = () => stop();
    opts.signal?.addEventListener("abort", onAbort, { once: true });
    const limit =
      opts.timeLimitMs !== undefined
        ? setTimeout(
            () => {
              timedOut = true;
              stop();
            },
            Math.max(0, opts.timeLimitMs),
          )
        : null;

    let partial = "";
    child.stdout.setEncoding("utf8");
    child.stdout.on("data", (chunk: string) => {
      stdout.push(chunk);
      if (!opts.onLine) return;
      partial += chunk;
      const lines = partial.split("\n");
      partial = lines.pop() ?? "";
      for (const line of lines) {
        try {
          opts.onLine(line.endsWith("\r") ? line.slice(0, -1) : line);
        } catch {
          // A listener's failure must not break the run.
        }
      }
    });
    child.stderr.setEncoding("utf8");
    child.stderr.on("data", (chunk: string) => stderr.push(chunk));

    const finish = (exitCode: number | null, signal: string | null) => {
      if (exited) return;
      exited = true;
      if (limit) clearTimeout(limit);
      if (killTimer) clearTimeout(killTimer);
      opts.signal?.removeEventListener("abort", onAbort);
      if (partial && opts.onLine) {
        try {
          opts.onLine(partial);
        } catch {
          // ignored, as above
        }
      }
      resolve({
        exitCode,
        signal,
        timedOut,
        stderrTail: stderr.toString(),
        stdoutTail: stdout.toString(),
        wallSeconds: (performance.now() - started) / 1000,
      });
    };
    child.on("error", (err) => {
      stderr.push(`${err.message}\n`);
      finish(null, null);
    });
    child.on("close", (code, signal) => finish(code, signal));
  });
}

/** Writes a generated project's files under `dir`. */
export async function writeProjectFiles(dir: string, files: readonly { path: string; content: string }[]) {
  for (const file of files) {
    const target = path.join(dir, file.path);
    if (!target.startsWith(dir + path.sep))
      throw new Error(`Refusing to write outside the project: ${file.path}`);
    await fsp.mkdir(path.dirname(target), { recursive: true });
    await fsp.writeFile(target, file.content);
  }
}

/** Where an attempt keeps its files. */
export interface AttemptDirs {
  project: string;
  checkpoints: string;
  export: string;
}

export async function attemptDirs(workDir: string): Promise<AttemptDirs> {
  const dirs = {
    project: path.join(workDir, "project"),
    checkpoints: path.join(workDir, "checkpoints"),
    export: path.join(workDir, "export"),
  };
  // A restarted attempt in the same directory must not upload the previous attempt's export.
  await fsp.rm(dirs.export, { recursive: true, force: true });
  for (const dir of Object.values(dirs)) await fsp.mkdir(dir, { recursive: true });
  return dirs;
}

/**
 * The platform-mode command line both generated scripts share (the upload token goes in the
 * environment, LAYERLINE_UPLOAD_TOKEN, so that it never shows in a process listing).
 */
export function trainingArgs(req: ExecutionRequest, dirs: AttemptDirs, api = req.apiBaseUrl): string[] {
  return [
    "--data-dir",
    req.dataDir,
    "--checkpoint-dir",
    dirs.checkpoints,
    "--export-dir",
    dirs.export,
    ...hyperparameterArgs(req.config),
    "--job",
    req.jobId,
    "--api",
    api,
    ...(req.resumeFrom ? ["--resume", req.resumeFrom] : []),
    ...(req.fineTune ? fineTuneArgs(req.fineTune) : []),
  ];
}

/**
 * The job's hyperparameters as the generated scripts take them: one list for the worker's command
 * line and the downloaded project's "Reproduce this job" command, so that the two cannot drift.
 */
export function hyperparameterArgs(
  c: Pick<ExecutionRequest["config"], "epochs" | "batch_size" | "learning_rate" | "weight_decay" | "seed">,
): string[] {
  return [
    "--epochs",
    String(c.epochs),
    "--batch-size",
    String(c.batch_size),
    "--lr",
    String(c.learning_rate),
    "--weight-decay",
    String(c.weight_decay),
    "--seed",
    String(c.seed),
  ];
}

/** train.py's fine-tuning options (PyTorch; see lib/ml/codegen/README.md). */
export function fineTuneArgs(f: FineTuneArgs): string[] {
  return [
    "--init-weights",
    f.initWeights,
    ...(f.replace.length > 0 ? ["--replace", f.replace.join(",")] : []),
    "--freeze",
    typeof f.freeze === "string" ? f.freeze : f.freeze.join(","),
    "--lr-schedule",
    f.lrSchedule,
    "--warmup-epochs",
    String(f.warmupEpochs),
  ];
}

/** The result of a run that could not start. */
export function notStarted(message: string): ExecutionResult {
  return { exitCode: null, signal: null, timedOut: false, stderrTail: message, wallSeconds: 0 };
}

/**
 * Runs a job's training program: in the sandbox (its inputs staged into its directory, its uploads
 * through its channel, `--api unix:…`, which adds the upload token) unless LAYERLINE_SANDBOX=off, in
 * which case it reports to the API itself with the token in its environment.
 */
export async function runTrainingProgram(
  req: ExecutionRequest,
  dirs: AttemptDirs,
  program: {
    command: string;
    args: (req: ExecutionRequest, api: string) => string[];
    env: Record<string, string>;
    readOnly?: string[];
  },
): Promise<ExecutionResult> {
  if (!sandboxEnabled()) {
    return runProcess({
      command: program.command,
      args: program.args(req, req.apiBaseUrl),
      cwd: dirs.project,
      env: childEnv({ ...program.env, LAYERLINE_UPLOAD_TOKEN: req.uploadToken }, req.workDir),
      signal: req.signal,
      timeLimitMs: req.timeLimitMs,
      onLine: req.onLine,
    });
  }
  const problem = await sandboxProblem();
  if (problem) return notStarted(`The sandbox training programs run in is not available (${problem}).`);
  const staged = await stageInputs(req);
  await prepareJobDir(req.workDir);
  const channel = await openJobChannel({
    socketPath: path.join(req.workDir, "api.sock"),
    jobId: req.jobId,
    apiBaseUrl: req.apiBaseUrl,
    uploadToken: req.uploadToken,
  });
  try {
    return await runProcess({
      command: program.command,
      args: program.args(staged, `unix:${channel.socketPath}`),
      cwd: dirs.project,
      env: childEnv(program.env, req.workDir),
      signal: req.signal,
      timeLimitMs: req.timeLimitMs,
      onLine: req.onLine,
      sandbox: {
        jobDir: req.workDir,
        writable: [dirs.checkpoints, dirs.export],
        readOnly: program.readOnly,
        limits: req.limits ?? sandboxLimits("free", req.timeLimitMs),
      },
    });
  } finally {
    await channel.close();
  }
}

/** The request with every input file inside the job's directory (copied in when it was elsewhere). */
async function stageInputs(req: ExecutionRequest): Promise<ExecutionRequest> {
  const inputs = path.join(req.workDir, "inputs");
  return {
    ...req,
    dataDir: await stageInput(req.dataDir, req.workDir, inputs),
    resumeFrom: req.resumeFrom ? await stageInput(req.resumeFrom, req.workDir, inputs) : null,
    ...(req.fineTune
      ? {
          fineTune: {
            ...req.fineTune,
            initWeights: await stageInput(req.fineTune.initWeights, req.workDir, inputs),
          },
        }
      : {}),
  };
}
