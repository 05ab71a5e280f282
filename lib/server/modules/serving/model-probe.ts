/**
 * Untrusted models are probed before this process loads them. An uploaded ONNX or TF.js artifact
 * (a registry version, a hub model, an external job's upload) may be built to crash the native
 * runtime, to declare enormous tensors or to never finish loading: loading it in the API process
 * would take the server down with it. So before serving or evaluating a model:
 *
 * 1. Checks without allocating: model.onnx's size, model.json's size and its weightsManifest (every
 *    weight's declared bytes against the weight files' sizes and the limit; a file listed twice,
 *    unknown dtypes, missing files), and the declared input size per instance.
 * 2. The probe: a child Node process (model-probe-worker.ts) with an address-space limit (prlimit,
 *    else the shell's ulimit), a V8 heap limit, a CPU limit and a wall-clock deadline, no
 *    environment of the server, loads the model and runs one inference on a zero input of the
 *    declared shape; it reports the runtime's input/output signature and its peak resident memory.
 *    It runs in the sandbox of user programs (training/executors/sandbox.ts: bubblewrap, no network,
 *    an unprivileged uid, a read-only system): it sees only the app's node_modules (the runtimes),
 *    read-only, and its own directory holding the worker, its configuration and a copy of the model's
 *    files; never DATA_DIR. With LAYERLINE_SANDBOX=off it runs without it, as the server's user; when
 *    the sandbox is on but does not work, no model is probed (each is refused, "could not be checked").
 *
 * Only a model that passed is then loaded in-process (artifact-reader.ts), where requests are served
 * at full speed. The verdict is kept per digest of the model's bytes, declared input and limits: in
 * this process and in the `model_probes` table, so other server processes do not probe the same bytes
 * again. A refused model is a ConflictError (409) whose detail starts with "The model could not be
 * loaded:" and carries a short reason, never a path or a stack.
 */
import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import fs from "node:fs";
import fsp from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import type { Db } from "../../db/client";
import { modelProbes } from "../../db/schema";
import { ConflictError } from "../../errors";
import type { ArtifactSource } from "../training/artifact-reader";
import {
  prepareJobDir,
  type ResourceLimits,
  sandboxCommand,
  sandboxEnabled,
  sandboxProblem,
  stageInput,
} from "../training/executors/sandbox";
import { PROBE_WORKER_SOURCE } from "./model-probe-worker";

const MiB = 1024 * 1024;

export interface ModelLimits {
  /** model.onnx, or all TF.js weight files together. */
  maxModelBytes: number;
  /** model.json (parsed in this process). */
  maxModelJsonBytes: number;
  /** Values of one instance's input and output (a request's arrays are sized from them). */
  maxInputValues: number;
  maxOutputValues: number;
  /** The probe process's address space (virtual memory; Node itself reserves about 1 GiB of it). */
  probeMemoryBytes: number;
  /** The probe's V8 heap. */
  probeHeapMb: number;
  /** Wall-clock time for the probe to load the model and run one inference. */
  probeTimeoutMs: number;
  /** Probes running at once in this process (others wait). */
  probeConcurrency: number;
}

function envNumber(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name]?.trim();
  const value = raw ? Number(raw) : Number.NaN;
  return Number.isFinite(value) && value > 0 ? value : fallback;
}

/** The limits, from the environment (read on each check, so tests and operators can change them). */
export function modelLimits(env: NodeJS.ProcessEnv = process.env): ModelLimits {
  return {
    maxModelBytes: envNumber(env, "LAYERLINE_MODEL_MAX_MB", 512) * MiB,
    maxModelJsonBytes: 16 * MiB,
    maxInputValues: envNumber(env, "LAYERLINE_MODEL_MAX_INSTANCE_VALUES", 1_048_576),
    maxOutputValues: envNumber(env, "LAYERLINE_MODEL_MAX_INSTANCE_VALUES", 1_048_576),
    probeMemoryBytes: envNumber(env, "LAYERLINE_MODEL_PROBE_MEMORY_MB", 4096) * MiB,
    probeHeapMb: envNumber(env, "LAYERLINE_MODEL_PROBE_HEAP_MB", 1024),
    probeTimeoutMs: envNumber(env, "LAYERLINE_MODEL_PROBE_TIMEOUT_MS", 60_000),
    probeConcurrency: envNumber(env, "LAYERLINE_MODEL_PROBE_CONCURRENCY", 2),
  };
}

/** A model refused before it reached this process's runtime. */
export class ModelRefusedError extends ConflictError {
  constructor(readonly reason: string) {
    super(`The model could not be loaded: ${reason}`);
  }
}

export interface ProbeSignature {
  inputs: { name: string; type: string | null; shape: unknown }[];
  outputs: { name: string; type: string | null; shape: unknown }[];
}

export interface ProbeVerdict {
  ok: boolean;
  reason: string | null;
  signature: ProbeSignature | null;
  peakRssBytes: number | null;
  /** A verdict that may change on another try (deadline, the probe could not start): never stored. */
  transient?: boolean;
}

const mib = (bytes: number) => `${Math.round(bytes / MiB)} MiB`;

// ---------------------------------------------------------------------------------------------
// Checks before any allocation

const TFJS_DTYPE_BYTES: Record<string, number> = {
  float32: 4,
  int32: 4,
  bool: 1,
  complex64: 8,
  uint8: 1,
  int16: 2,
  float16: 2,
};

interface WeightsManifestGroup {
  paths: string[];
  weights: { name: string; shape: number[]; dtype: string; quantization?: { dtype: string } }[];
}

/** The bytes a TF.js weight occupies in the weight files, or a reason it cannot be accepted. */
function weightBytes(w: WeightsManifestGroup["weights"][number], limit: number): number | string {
  const name = typeof w?.name === "string" ? `“${w.name.slice(0, 80)}”` : "a weight";
  if (!w || !Array.isArray(w.shape) || !w.shape.every((d) => Number.isSafeInteger(d) && d >= 0))
    return `${name} has no valid shape in model.json.`;
  const dtype = w.quantization?.dtype ?? w.dtype;
  const size = TFJS_DTYPE_BYTES[dtype];
  if (!size) return `${name} has an unsupported dtype in model.json.`;
  let values = 1;
  for (const d of w.shape) {
    values *= d;
    if (values * size > limit)
      return `weight ${name} declares a shape of ${w.shape.join("×")} values, over the limit of ${mib(limit)} for all weights.`;
  }
  return values * size;
}

/** model.json's weights against the weight files and the limit; returns the files the model reads. */
async function checkTfjs(source: ArtifactSource, limits: ModelLimits): Promise<string[]> {
  const jsonFile = source.files["model.json"];
  if (!jsonFile) throw new ModelRefusedError("the artifact has no model.json.");
  const { size } = await fsp.stat(jsonFile);
  if (size > limits.maxModelJsonBytes)
    throw new ModelRefusedError(
      `model.json is ${mib(size)}, over the limit of ${mib(limits.maxModelJsonBytes)}.`,
    );
  let json: { modelTopology?: unknown; weightsManifest?: unknown };
  try {
    json = JSON.parse(await fsp.readFile(jsonFile, "utf8"));
  } catch {
    throw new ModelRefusedError("model.json is not valid JSON.");
  }
  if (!json || typeof json !== "object" || !json.modelTopology || typeof json.modelTopology !== "object")
    throw new ModelRefusedError("model.json has no modelTopology.");
  const groups = json.weightsManifest as WeightsManifestGroup[];
  if (
    !Array.isArray(groups) ||
    !groups.every((g) => g && Array.isArray(g.paths) && Array.isArray(g.weights)) ||
    !groups.every((g) => g.paths.every((p) => typeof p === "string"))
  )
    throw new ModelRefusedError("model.json's weightsManifest is not a list of weight groups.");
  let declared = 0;
  for (const w of groups.flatMap((g) => g.weights)) {
    const bytes = weightBytes(w, limits.maxModelBytes);
    if (typeof bytes === "string") throw new ModelRefusedError(bytes);
    declared += bytes;
    if (declared > limits.maxModelBytes)
      throw new ModelRefusedError(
        `its weights declare more than ${mib(limits.maxModelBytes)} (the limit for all weights).`,
      );
  }
  const names = groups.flatMap((g) => g.paths).map((p) => path.basename(p));
  const seen = new Set<string>();
  let fileBytes = 0;
  for (const name of names) {
    if (seen.has(name))
      throw new ModelRefusedError(`model.json lists the weights file “${name.slice(0, 80)}” more than once.`);
    seen.add(name);
    const file = source.files[name];
    if (!file || name === "model.json" || name === "manifest.json")
      throw new ModelRefusedError(
        `model.json lists a weights file “${name.slice(0, 80)}” the artifact does not have.`,
      );
    fileBytes += (await fsp.stat(file)).size;
  }
  if (fileBytes > limits.maxModelBytes)
    throw new ModelRefusedError(
      `its weight files are ${mib(fileBytes)}, over the limit of ${mib(limits.maxModelBytes)}.`,
    );
  if (declared !== fileBytes)
    throw new ModelRefusedError(
      `model.json declares ${declared} bytes of weights but its weight files hold ${fileBytes} bytes.`,
    );
  return ["model.json", ...names];
}

async function checkOnnx(source: ArtifactSource, limits: ModelLimits): Promise<string[]> {
  const file = source.files["model.onnx"];
  if (!file) throw new ModelRefusedError("the artifact has no model.onnx.");
  const { size } = await fsp.stat(file);
  if (size > limits.maxModelBytes)
    throw new ModelRefusedError(
      `model.onnx is ${mib(size)}, over the limit of ${mib(limits.maxModelBytes)}.`,
    );
  return ["model.onnx"];
}

/** The declared input: an instance's values are allocated per request from it. */
function checkInput(source: ArtifactSource, limits: ModelLimits): void {
  const { input, format } = source.manifest ?? {};
  if (format !== "onnx" && format !== "tfjs")
    throw new ModelRefusedError("manifest.json names no model format (onnx or tfjs).");
  const shape = input?.shape;
  if (!Array.isArray(shape) || !shape.every((d) => Number.isSafeInteger(d) && d > 0))
    throw new ModelRefusedError("manifest.json declares no valid input shape.");
  const values = shape.reduce((a, b) => a * b, 1);
  if (values > limits.maxInputValues)
    throw new ModelRefusedError(
      `its input has ${values} values per instance, over the limit of ${limits.maxInputValues}.`,
    );
  if (input.dtype !== "float32" && input.dtype !== "int64")
    throw new ModelRefusedError("manifest.json's input dtype must be float32 or int64.");
}

// ---------------------------------------------------------------------------------------------
// The probe process

function prlimitPath(): string | null {
  for (const p of ["/usr/bin/prlimit", "/bin/prlimit", "/usr/local/bin/prlimit"])
    if (fs.existsSync(p)) return p;
  return null;
}

/** How the probe's process is started: the command, its arguments and its whole environment. */
export interface ProbeSpawn {
  command: string;
  args: string[];
  env: Record<string, string>;
}

/** The probe's limits as the sandbox's (its address space and CPU time; it writes nothing). */
function probeSandboxLimits(limits: ModelLimits): ResourceLimits {
  return {
    cpuSeconds: Math.ceil(limits.probeTimeoutMs / 1000) + 1,
    addressSpaceBytes: limits.probeMemoryBytes,
    fileSizeBytes: 16 * MiB,
    // RLIMIT_NPROC counts every process of the sandbox's uid (training programs' too, with a root
    // server): high enough that Node's threads always start, the probe's CPU and time limits do the rest.
    processes: 8192,
    tmpBytes: 64 * MiB,
  };
}

/**
 * The command that runs the probe worker (`dir`/probe.cjs with `dir`/config.json) under the limits.
 * Sandboxed: bubblewrap (sandboxCommand) with `dir` and the runtimes' node_modules read-only, and the
 * limits applied by its prlimit. Otherwise: prlimit when installed, else the shell's ulimit, with no
 * environment of the server either.
 */
export function probeCommand(
  limits: ModelLimits,
  dir: string,
  sandboxed: boolean = sandboxEnabled(),
): ProbeSpawn {
  const node = process.execPath;
  const args = [
    `--max-old-space-size=${Math.round(limits.probeHeapMb)}`,
    path.join(dir, "probe.cjs"),
    path.join(dir, "config.json"),
  ];
  if (sandboxed) {
    const inner = {
      PATH: "/usr/bin:/bin",
      HOME: "/tmp",
      TMPDIR: "/tmp",
      NODE_ENV: "production",
      OMP_NUM_THREADS: "1",
    };
    return sandboxCommand(node, args, dir, inner, {
      jobDir: dir,
      writable: [],
      readOnly: [runtimeModulesDir()],
      limits: probeSandboxLimits(limits),
    });
  }
  const env = {
    PATH: process.env.PATH ?? "/usr/bin:/bin",
    HOME: dir,
    NODE_ENV: "production",
    OMP_NUM_THREADS: "1",
  };
  const cpuSeconds = Math.ceil(limits.probeTimeoutMs / 1000) + 1;
  const prlimit = prlimitPath();
  if (prlimit)
    return {
      command: prlimit,
      args: [
        `--as=${Math.round(limits.probeMemoryBytes)}`,
        `--cpu=${cpuSeconds}`,
        "--core=0",
        "--",
        node,
        ...args,
      ],
      env,
    };
  const kib = Math.round(limits.probeMemoryBytes / 1024);
  return {
    command: "/bin/sh",
    args: [
      "-c",
      `ulimit -v ${kib} && ulimit -t ${cpuSeconds} && ulimit -c 0 && exec "$@"`,
      "sh",
      node,
      ...args,
    ],
    env,
  };
}

interface ProbeRun {
  report: Record<string, unknown> | null;
  code: number | null;
  signal: NodeJS.Signals | null;
  timedOut: boolean;
  stderrTail: string;
}

function runProbe(dir: string, limits: ModelLimits, sandboxed: boolean): Promise<ProbeRun> {
  const run = probeCommand(limits, dir, sandboxed);
  return new Promise((resolve) => {
    const child = spawn(run.command, run.args, {
      cwd: dir,
      // None of the server's environment (database URL, secrets): only what Node (or bwrap) needs.
      env: run.env as unknown as NodeJS.ProcessEnv,
      stdio: ["ignore", "pipe", "pipe"],
      detached: true,
    });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8");
    child.stderr.setEncoding("utf8");
    child.stdout.on("data", (c: string) => {
      stdout = (stdout + c).slice(-256 * 1024);
    });
    child.stderr.on("data", (c: string) => {
      stderr = (stderr + c).slice(-4096);
    });
    let timedOut = false;
    const kill = () => {
      try {
        if (child.pid !== undefined) process.kill(-child.pid, "SIGKILL");
      } catch {
        child.kill("SIGKILL");
      }
    };
    const timer = setTimeout(() => {
      timedOut = true;
      kill();
    }, limits.probeTimeoutMs);
    const done = (code: number | null, signal: NodeJS.Signals | null) => {
      clearTimeout(timer);
      const line = stdout
        .split("\n")
        .reverse()
        .find((l) => l.startsWith("@@probe "));
      let report: Record<string, unknown> | null = null;
      try {
        report = line ? JSON.parse(line.slice("@@probe ".length)) : null;
      } catch {
        report = null;
      }
      resolve({ report, code, signal, timedOut, stderrTail: stderr });
    };
    child.on("error", (err) => {
      stderr += err.message;
      done(null, null);
    });
    child.on("close", done);
  });
}

const OUT_OF_MEMORY =
  /Failed to allocate memory|bad_alloc|Array buffer allocation failed|allocation failed|out of memory|Invalid typed array length|Array buffer allocation/i;

/** A runtime error → a short reason without paths or stack. */
function reasonOf(message: string, limits: ModelLimits): string {
  if (OUT_OF_MEMORY.test(message))
    return `it needs more memory than the limit of ${mib(limits.probeMemoryBytes)} to load and run.`;
  if (/Protobuf parsing failed|failed to load model|INVALID_PROTOBUF/i.test(message))
    return "model.onnx is not a valid ONNX model.";
  const firstLine = message.split("\n")[0] ?? "";
  const clean = firstLine
    .replace(/(?:[A-Za-z]:)?(?:[\\/][\w.@+~-]+){2,}(?::\d+)*/g, "…")
    .replace(/\s+/g, " ")
    .trim();
  return `${clean.slice(0, 300) || "the runtime refused it"}${clean.endsWith(".") ? "" : "."}`;
}

let warnedOff = false;

async function probe(source: ArtifactSource, files: string[], limits: ModelLimits): Promise<ProbeVerdict> {
  const sandboxed = sandboxEnabled();
  if (sandboxed) {
    // Never unsandboxed when the sandbox is wanted: the model is refused until it works (not stored).
    const problem = await sandboxProblem();
    if (problem) {
      console.warn(`[serving] model probe not started: the sandbox is not available (${problem}).`);
      return {
        ok: false,
        reason: "it could not be checked (the sandbox the check runs in is not available on this server).",
        signature: null,
        peakRssBytes: null,
        transient: true,
      };
    }
  } else if (!warnedOff) {
    warnedOff = true;
    console.warn("[serving] WARNING: LAYERLINE_SANDBOX=off: uploaded models are probed WITHOUT the sandbox.");
  }
  const dir = await fsp.mkdtemp(path.join(os.tmpdir(), "layerline-probe-"));
  try {
    const layersSource = source.manifest.format === "tfjs" ? await torchLayersSource() : "";
    // Sandboxed, the probe sees only its own directory: the model's files are copied into it.
    const staged: Record<string, string> = {};
    for (const n of files)
      staged[n] = sandboxed
        ? await stageInput(source.files[n], dir, path.join(dir, "model"))
        : path.resolve(source.files[n]);
    const config = {
      format: source.manifest.format,
      files: staged,
      input: { shape: source.manifest.input.shape, dtype: source.manifest.input.dtype },
      nodeModules: runtimeModulesDir(),
      layersSource,
    };
    await fsp.writeFile(path.join(dir, "config.json"), JSON.stringify(config));
    await fsp.writeFile(path.join(dir, "probe.cjs"), PROBE_WORKER_SOURCE);
    if (sandboxed) await prepareJobDir(dir);
    const run = await runProbe(dir, limits, sandboxed);
    const r = run.report;
    if (run.timedOut)
      return {
        ok: false,
        reason: `it did not load and run one inference within ${Math.round(limits.probeTimeoutMs / 1000)} s.`,
        signature: null,
        peakRssBytes: null,
        transient: true,
      };
    const peakRssBytes = typeof r?.peak_rss_bytes === "number" ? r.peak_rss_bytes : null;
    if (r?.ok === true) {
      const outputValues = Number(r.output_values);
      if (!(outputValues <= limits.maxOutputValues))
        return {
          ok: false,
          reason: `its output has ${outputValues} values per instance, over the limit of ${limits.maxOutputValues}.`,
          signature: null,
          peakRssBytes,
        };
      return { ok: true, reason: null, signature: r.signature as ProbeSignature, peakRssBytes };
    }
    if (r && typeof r.error === "string") {
      console.warn("[serving] model probe refused a model:", r.error.slice(0, 500));
      return { ok: false, reason: reasonOf(r.error, limits), signature: null, peakRssBytes };
    }
    // No report: the process died (native abort, segfault, V8 out of memory) or could not start.
    console.warn(
      `[serving] model probe ended without a report (code ${run.code}, signal ${run.signal}):`,
      run.stderrTail.slice(-500),
    );
    // bwrap itself failed to set the sandbox up (its messages start with "bwrap:"): not the model's fault.
    if ((run.code === null && run.signal === null) || (sandboxed && /^bwrap: /.test(run.stderrTail)))
      return {
        ok: false,
        reason: "it could not be checked (the probe did not start).",
        signature: null,
        peakRssBytes: null,
        transient: true,
      };
    if (OUT_OF_MEMORY.test(run.stderrTail) || run.signal === "SIGKILL")
      return { ok: false, reason: reasonOf("out of memory", limits), signature: null, peakRssBytes: null };
    return {
      ok: false,
      reason: `the runtime crashed while loading or running it (${run.signal ?? `exit code ${run.code}`}).`,
      signature: null,
      peakRssBytes: null,
    };
  } finally {
    await fsp.rm(dir, { recursive: true, force: true });
  }
}

/**
 * The node_modules holding the runtimes (LAYERLINE_NODE_MODULES, else the app's), as the TF.js
 * executor; its real path, the one the sandbox binds read-only.
 */
function runtimeModulesDir(): string {
  const dir = path.resolve(
    /* turbopackIgnore: true */ process.env.LAYERLINE_NODE_MODULES?.trim() ||
      path.join(process.cwd(), "node_modules"),
  );
  try {
    return fs.realpathSync(dir);
  } catch {
    return dir;
  }
}

let layersSourceCache: string | null = null;

/** The app's generated PyTorch-compatible TF.js layers, as a function body of `tf` (artifact-reader.ts). */
async function torchLayersSource(): Promise<string> {
  if (layersSourceCache !== null) return layersSourceCache;
  const { torchLayersFunctionBody } = await import("../../../ml/codegen/tfjs-layers");
  layersSourceCache = torchLayersFunctionBody();
  return layersSourceCache;
}

// ---------------------------------------------------------------------------------------------
// Verdicts: per process and in the database

async function digestOf(source: ArtifactSource, files: string[], limits: ModelLimits): Promise<string> {
  const h = createHash("sha256");
  h.update(
    JSON.stringify({
      v: 1,
      format: source.manifest.format,
      input: { shape: source.manifest.input.shape, dtype: source.manifest.input.dtype },
      limits: [limits.probeMemoryBytes, limits.probeHeapMb, limits.maxOutputValues],
      files,
    }),
  );
  for (const name of files) {
    h.update(`\0${name}\0`);
    for await (const chunk of fs.createReadStream(source.files[name])) h.update(chunk as Buffer);
  }
  return h.digest("hex");
}

const MAX_REMEMBERED = 512;
const verdicts = new Map<string, Promise<ProbeVerdict>>();
let running = 0;
const waiting: (() => void)[] = [];

async function withProbeSlot<T>(limit: number, fn: () => Promise<T>): Promise<T> {
  while (running >= limit) await new Promise<void>((resolve) => waiting.push(resolve));
  running += 1;
  try {
    return await fn();
  } finally {
    running -= 1;
    waiting.shift()?.();
  }
}

async function storedVerdict(db: Db | undefined, digest: string): Promise<ProbeVerdict | null> {
  if (!db) return null;
  try {
    const [row] = await db.select().from(modelProbes).where(eq(modelProbes.digest, digest)).limit(1);
    return row
      ? {
          ok: row.ok,
          reason: row.reason,
          signature: row.signature as ProbeSignature | null,
          peakRssBytes: row.peakRssBytes,
        }
      : null;
  } catch (err) {
    console.warn("[serving] model probe verdicts unreadable:", err instanceof Error ? err.message : err);
    return null;
  }
}

async function storeVerdict(db: Db | undefined, digest: string, v: ProbeVerdict): Promise<void> {
  if (!db || v.transient) return;
  try {
    await db
      .insert(modelProbes)
      .values({
        digest,
        ok: v.ok,
        reason: v.reason,
        signature: v.signature as unknown as Record<string, unknown> | null,
        peakRssBytes: v.peakRssBytes,
      })
      .onConflictDoNothing();
  } catch (err) {
    console.warn("[serving] model probe verdict not stored:", err instanceof Error ? err.message : err);
  }
}

/** The verdict for these bytes: remembered, stored by any server process, or probed now. */
async function verdictFor(
  source: ArtifactSource,
  files: string[],
  limits: ModelLimits,
  db: Db | undefined,
): Promise<ProbeVerdict> {
  const digest = await digestOf(source, files, limits);
  const known = verdicts.get(digest);
  if (known) return known;
  const pending = (async () => {
    const stored = await storedVerdict(db, digest);
    if (stored) return stored;
    const v = await withProbeSlot(limits.probeConcurrency, () => probe(source, files, limits));
    await storeVerdict(db, digest, v);
    return v;
  })();
  verdicts.set(digest, pending);
  pending.then(
    (v) => {
      if (v.transient) verdicts.delete(digest);
    },
    () => verdicts.delete(digest),
  );
  while (verdicts.size > MAX_REMEMBERED) verdicts.delete(verdicts.keys().next().value as string);
  return pending;
}

/**
 * Throws ModelRefusedError (409) unless the artifact's model passes the checks and the probe; then
 * it can be loaded in this process (loadArtifact). `db` keeps the verdict for other processes.
 */
export async function checkUntrustedModel(source: ArtifactSource, db?: Db): Promise<ProbeVerdict> {
  const limits = modelLimits();
  checkInput(source, limits);
  const files =
    source.manifest.format === "onnx" ? await checkOnnx(source, limits) : await checkTfjs(source, limits);
  const verdict = await verdictFor(source, files, limits, db);
  if (!verdict.ok) throw new ModelRefusedError(verdict.reason ?? "it failed the load check.");
  return verdict;
}

/** Forgets this process's verdicts (tests). */
export function forgetModelVerdicts(): void {
  verdicts.clear();
}
