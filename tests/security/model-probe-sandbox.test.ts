/**
 * The model probe runs in the sandbox of user programs: its command line is bubblewrap's (no
 * network, an unprivileged uid, a read-only system, nothing of DATA_DIR, none of the server's
 * environment, its limits), a stand-in worker started by that same command line finds each way out
 * closed (DATA_DIR's files, a TCP port on this machine's loopback, writing, the server's environment)
 * while the runtimes still load, and the real probe still passes a good ONNX and TF.js model and
 * refuses hostile ones there. When the sandbox is on but broken, models are refused, never probed
 * without it; with LAYERLINE_SANDBOX=off the probe runs as before.
 */
process.env.LAYERLINE_MODEL_PROBE_MEMORY_MB = "2048";
process.env.LAYERLINE_MODEL_PROBE_HEAP_MB = "512";

import { spawnSync } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ModelRefusedError, modelLimits } from "@/lib/server/modules/serving/model-limits";
import { checkUntrustedModel, forgetModelVerdicts } from "@/lib/server/modules/serving/model-probe";
import { probeCommand } from "@/lib/server/modules/serving/model-probe-process";
import type { ArtifactSource } from "@/lib/server/modules/training/artifact-reader";
import {
  bwrapPath,
  prepareJobDir,
  resetSandboxCheck,
  sandboxEnabled,
} from "@/lib/server/modules/training/executors/sandbox";
import { expandBombOnnx, goodOnnx, tfjsModelJson } from "./onnx-bytes";

const SECRET = `layerline-probe-secret-${process.pid}-${Date.now()}`;
const root = fs.mkdtempSync(path.join(os.tmpdir(), "layerline-probe-sandbox-test-"));
const dataDir = path.join(root, "DATA_DIR");
let listener: net.Server;
let port = 0;
const saved = {
  sandbox: process.env.LAYERLINE_SANDBOX,
  bwrap: process.env.LAYERLINE_BWRAP,
  dataDir: process.env.DATA_DIR,
};

function restore(name: "LAYERLINE_SANDBOX" | "LAYERLINE_BWRAP", value: string | undefined) {
  if (value === undefined) delete process.env[name];
  else process.env[name] = value;
}

beforeAll(async () => {
  delete process.env.LAYERLINE_SANDBOX;
  process.env.DATA_DIR = dataDir;
  process.env.LAYERLINE_TEST_SERVER_SECRET = SECRET;
  fs.mkdirSync(dataDir);
  fs.writeFileSync(path.join(dataDir, "secret.txt"), SECRET);
  // Readable by anyone: only the sandbox may stop the probe from reading them.
  for (const p of [root, dataDir]) fs.chmodSync(p, 0o755);
  fs.chmodSync(path.join(dataDir, "secret.txt"), 0o644);
  listener = net.createServer((socket) => socket.end("hello"));
  await new Promise<void>((resolve) => listener.listen(0, "127.0.0.1", resolve));
  port = (listener.address() as net.AddressInfo).port;
});

afterAll(async () => {
  restore("LAYERLINE_SANDBOX", saved.sandbox);
  restore("LAYERLINE_BWRAP", saved.bwrap);
  if (saved.dataDir === undefined) delete process.env.DATA_DIR;
  else process.env.DATA_DIR = saved.dataDir;
  delete process.env.LAYERLINE_TEST_SERVER_SECRET;
  resetSandboxCheck();
  forgetModelVerdicts();
  await new Promise<void>((resolve) => listener.close(() => resolve()));
  fs.rmSync(root, { recursive: true, force: true });
});

/** A model stored in DATA_DIR, as the registry keeps one (files at paths of their own). */
function stored(name: string, format: "onnx" | "tfjs", files: Record<string, Uint8Array | string>) {
  const dir = path.join(dataDir, "artifacts", name);
  fs.mkdirSync(dir, { recursive: true, mode: 0o755 });
  const paths: Record<string, string> = {};
  for (const [file, bytes] of Object.entries(files)) {
    paths[file] = path.join(dir, `blob-${file}`);
    fs.writeFileSync(paths[file], bytes, { mode: 0o644 });
  }
  const manifest = { format, input: { name: "input", shape: [4], dtype: "float32" } };
  return { manifest, files: paths } as unknown as ArtifactSource;
}

/** A Dense 4 → 4 TF.js model (identity kernel) and its weights. */
function tfjsModel() {
  const kernel = new Float32Array(16);
  for (let i = 0; i < 4; i++) kernel[i * 4 + i] = 1;
  const modelJson = tfjsModelJson([
    { paths: ["weights.bin"], weights: [{ name: "d/kernel", shape: [4, 4], dtype: "float32" }] },
  ]);
  return { "model.json": modelJson, "weights.bin": new Uint8Array(kernel.buffer) };
}

async function refusal(source: ArtifactSource): Promise<string> {
  try {
    await checkUntrustedModel(source);
  } catch (err) {
    expect(err).toBeInstanceOf(ModelRefusedError);
    return (err as ModelRefusedError).reason;
  }
  throw new Error("the model was accepted");
}

describe("the model probe's command line", () => {
  it("is bubblewrap's: no network, read-only, nothing of DATA_DIR or the server's environment, its limits", () => {
    const limits = modelLimits();
    const dir = path.join(root, "probe-dir");
    const run = probeCommand(limits, dir, true);
    expect(run.command).toBe(bwrapPath());
    const a = run.args;
    if (process.getuid?.() === 0) {
      expect(a).toContain("--unshare-net");
      // The worker (root) becomes nobody inside, every capability dropped.
      expect(a).toContain("--reuid=65534");
      expect(a).toContain("--inh-caps=-all");
    } else {
      expect(a).toContain("--unshare-all");
      expect(a.slice(a.indexOf("--uid"), a.indexOf("--uid") + 2)).toEqual(["--uid", "65534"]);
    }
    expect(a).toContain("--clearenv");
    expect(a).toContain("--die-with-parent");
    // Nothing writable but its private /tmp; its directory and the runtimes read-only.
    expect(a).not.toContain("--bind");
    const roBinds = a.flatMap((v, i) => (v === "--ro-bind" ? [a[i + 1]] : []));
    expect(roBinds).toContain(dir);
    expect(roBinds).toContain(fs.realpathSync(path.join(process.cwd(), "node_modules")));
    expect(roBinds.filter((p) => !/^\/(usr|etc|bin|sbin|lib)/.test(p)).sort()).toEqual(
      [dir, fs.realpathSync(path.join(process.cwd(), "node_modules"))].sort(),
    );
    expect(a.some((v) => v.includes(dataDir))).toBe(false);
    expect(a.join(" ")).not.toContain(SECRET);
    // Its environment: only what Node needs; bwrap's own is only PATH.
    const setenv = a.flatMap((v, i) => (v === "--setenv" ? [a[i + 1]] : []));
    expect(setenv.sort()).toEqual(["HOME", "NODE_ENV", "OMP_NUM_THREADS", "PATH", "TMPDIR"]);
    expect(run.env).toEqual({ PATH: "/usr/bin:/bin" });
    // The limits it had: address space, CPU time, the V8 heap, no core file.
    expect(a).toContain(`--as=${2048 * 1024 * 1024}`);
    expect(a).toContain(`--cpu=${Math.ceil(limits.probeTimeoutMs / 1000) + 1}`);
    expect(a).toContain("--core=0");
    expect(a).toContain("--max-old-space-size=512");
    expect(a.slice(-2)).toEqual([path.join(dir, "probe.cjs"), path.join(dir, "config.json")]);
  });

  it("is the limits alone with LAYERLINE_SANDBOX=off", () => {
    process.env.LAYERLINE_SANDBOX = "off";
    try {
      expect(sandboxEnabled()).toBe(false);
      const run = probeCommand(modelLimits(), path.join(root, "probe-dir"));
      expect(run.command).not.toBe(bwrapPath());
      expect(run.args).toContain(`--as=${2048 * 1024 * 1024}`);
      expect(Object.keys(run.env).sort()).toEqual(["HOME", "NODE_ENV", "OMP_NUM_THREADS", "PATH"]);
    } finally {
      delete process.env.LAYERLINE_SANDBOX;
    }
  });
});

/** What a worker exploited by its model could do, tried from inside the probe's sandbox. */
const STAND_IN = String.raw`"use strict";
const fs = require("node:fs");
const net = require("node:net");
const path = require("node:path");
const { createRequire } = require("node:module");
const [secretFile, port] = process.argv.slice(3);
const config = JSON.parse(fs.readFileSync(process.argv[2], "utf8"));
const out = { uid: process.getuid(), env: Object.keys(process.env).sort() };
const attempt = (name, fn) => {
  try {
    out[name] = fn();
  } catch (e) {
    out[name] = "denied: " + (e.code || e.message);
  }
};
attempt("secret", () => fs.readFileSync(secretFile, "utf8"));
attempt("dataDir", () => fs.readdirSync(path.dirname(secretFile)));
attempt("write", () => (fs.writeFileSync(path.join(__dirname, "x"), "x"), "written"));
attempt("appDir", () => fs.readdirSync(path.dirname(config.nodeModules)));
attempt("onnxruntime", () => typeof createRequire(path.join(config.nodeModules, "x.js"))("onnxruntime-node").InferenceSession);
attempt("model", () => fs.readFileSync(config.model).length);
const socket = net.connect({ host: "127.0.0.1", port: Number(port) });
const done = (r) => {
  out.network = r;
  process.stdout.write("@@probe " + JSON.stringify(out) + "\n");
  process.exit(0);
};
socket.on("data", () => done("connected"));
socket.on("error", (e) => done("denied: " + e.code));
setTimeout(() => done("denied: timeout"), 5000);
`;

describe("inside the probe's sandbox", () => {
  it("a stand-in worker cannot read DATA_DIR, reach the network, write, or see the server's environment", async () => {
    const limits = modelLimits();
    const dir = fs.mkdtempSync(path.join(root, "probe-"));
    fs.mkdirSync(path.join(dir, "model"));
    fs.writeFileSync(path.join(dir, "model", "model.onnx"), goodOnnx());
    fs.writeFileSync(path.join(dir, "probe.cjs"), STAND_IN);
    const nodeModules = fs.realpathSync(path.join(process.cwd(), "node_modules"));
    const model = path.join(dir, "model", "model.onnx");
    fs.writeFileSync(path.join(dir, "config.json"), JSON.stringify({ nodeModules, model }));
    await prepareJobDir(dir);
    // The probe's own command line, with the stand-in's two arguments after the configuration.
    const run = probeCommand(limits, dir, true);
    const r = spawnSync(run.command, [...run.args, path.join(dataDir, "secret.txt"), String(port)], {
      env: run.env as unknown as NodeJS.ProcessEnv,
      encoding: "utf8",
      timeout: 60_000,
    });
    const line = r.stdout.split("\n").find((l) => l.startsWith("@@probe "));
    expect(line, `${r.stdout}\n${r.stderr}`).toBeTruthy();
    const out = JSON.parse((line as string).slice("@@probe ".length));
    expect(out.uid).toBe(65534);
    expect(out.secret).toMatch(/^denied: ENOENT/);
    expect(out.dataDir).toMatch(/^denied: ENOENT/);
    expect(out.write).toMatch(/^denied: (EROFS|EACCES)/);
    expect(out.network).toMatch(/^denied: /);
    // (PWD: bwrap's --chdir.)
    expect(out.env).toEqual(["HOME", "NODE_ENV", "OMP_NUM_THREADS", "PATH", "PWD", "TMPDIR"]);
    expect(JSON.stringify(out)).not.toContain(SECRET);
    // The runtime and the model's copy are there.
    expect(out.onnxruntime).toBe("function");
    expect(out.model).toBe(goodOnnx().byteLength);
    // Of the app's directory, only its node_modules.
    expect(out.appDir).toEqual(["node_modules"]);
  }, 90_000);
});

describe("the real probe, sandboxed", () => {
  it("passes a good ONNX model and a good TF.js model stored in DATA_DIR", async () => {
    forgetModelVerdicts();
    const onnx = await checkUntrustedModel(stored("good-onnx", "onnx", { "model.onnx": goodOnnx() }));
    expect(onnx.ok).toBe(true);
    expect(onnx.signature?.inputs[0]?.name).toBe("input");
    const tfjs = await checkUntrustedModel(stored("good-tfjs", "tfjs", tfjsModel()));
    expect(tfjs.ok).toBe(true);
    expect(tfjs.signature?.outputs[0]?.shape).toEqual([null, 4]);
    // The model's copies went with the probe's directory.
    expect(
      fs.readdirSync(os.tmpdir()).filter((n) => n.startsWith("layerline-probe-") && !n.includes("test")),
    ).toEqual([]);
  }, 120_000);

  it("refuses hostile models with the same reasons", async () => {
    forgetModelVerdicts();
    expect(await refusal(stored("bomb", "onnx", { "model.onnx": expandBombOnnx() }))).toMatch(
      /more memory than the limit of 2048 MiB/,
    );
    expect(
      await refusal(stored("garbage", "onnx", { "model.onnx": "not an ONNX model".repeat(64) })),
    ).toMatch(/not a valid ONNX model/);
  }, 120_000);

  it("refuses every model while the sandbox is on but broken, and probes it once the sandbox works", async () => {
    forgetModelVerdicts();
    const source = stored("while-broken", "onnx", { "model.onnx": goodOnnx() });
    process.env.LAYERLINE_BWRAP = path.join(root, "no-such-bwrap");
    resetSandboxCheck();
    const warn = console.warn;
    console.warn = () => {};
    try {
      expect(await refusal(source)).toMatch(/could not be checked \(the sandbox .* not available/);
    } finally {
      console.warn = warn;
      restore("LAYERLINE_BWRAP", saved.bwrap);
      resetSandboxCheck();
    }
    // The refusal was not remembered: the same bytes pass once the sandbox is back.
    expect((await checkUntrustedModel(source)).ok).toBe(true);
  }, 120_000);

  it("runs without the sandbox, as before, with LAYERLINE_SANDBOX=off", async () => {
    forgetModelVerdicts();
    process.env.LAYERLINE_SANDBOX = "off";
    process.env.LAYERLINE_BWRAP = path.join(root, "no-such-bwrap");
    resetSandboxCheck();
    const warn = console.warn;
    console.warn = () => {};
    try {
      expect((await checkUntrustedModel(stored("off", "onnx", { "model.onnx": goodOnnx() }))).ok).toBe(true);
    } finally {
      console.warn = warn;
      restore("LAYERLINE_SANDBOX", saved.sandbox);
      restore("LAYERLINE_BWRAP", saved.bwrap);
      resetSandboxCheck();
    }
  }, 120_000);
});
