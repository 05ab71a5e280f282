/**
 * The model probe's second step: a child Node process in the sandbox that loads the model and runs one
 * inference under memory, CPU and wall-clock limits (model-probe.ts).
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import fsp from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { ArtifactSource } from "../training/artifact-reader";
import {
  prepareJobDir,
  type ResourceLimits,
  sandboxCommand,
  sandboxEnabled,
  sandboxProblem,
  stageInput,
} from "../training/executors/sandbox";
import { MiB, type ModelLimits, mib, type ProbeSignature, type ProbeVerdict } from "./model-limits";
import { PROBE_WORKER_SOURCE } from "./model-probe-worker";

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

export async function probe(
  source: ArtifactSource,
  files: string[],
  limits: ModelLimits,
): Promise<ProbeVerdict> {
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
