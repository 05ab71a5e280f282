/**
 * Hostile models through the real app: a registry version whose artifact is built to take the server
 * down (an ONNX graph that allocates 16 GiB on its first inference, or at load, a TF.js model.json
 * whose weightsManifest declares a 2.5-billion-value weight read from one file listed 10,000 times,
 * garbage bytes named model.onnx) is uploaded through the artifact protocol and deployed. Each is
 * refused with 409 and a short reason (no path, no stack); the server still answers /health and a
 * good deployment still predicts. The probe's address space is limited to 2 GiB here, so no test
 * allocates more than that.
 */
process.env.LAYERLINE_MODEL_PROBE_MEMORY_MB = "2048";
process.env.LAYERLINE_MODEL_PROBE_HEAP_MB = "512";

// The app first: it extends zod with .openapi() before the schema modules build their schemas.
import "@/lib/server/app";
import { createHash } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/lib/server/db/client";
import { modelProbes } from "@/lib/server/db/schema";
import { tempBlobDir } from "../api/projects.fixtures";
import { call, signUpWithKey, startTestApp, type TestApp } from "../helpers";
import { constantBombOnnx, expandBombOnnx, goodOnnx, tfjsModelJson } from "./onnx-bytes";

tempBlobDir();
let app: TestApp;
let key = "";

const sha256 = (b: Uint8Array) => createHash("sha256").update(b).digest("hex");
const text = (s: string) => new TextEncoder().encode(s);

function manifestOf(format: "onnx" | "tfjs") {
  return {
    manifest_version: 1,
    format,
    framework: format === "onnx" ? "pytorch" : "tfjs",
    producer: "external",
    task: null,
    job_id: "",
    project_id: "",
    architecture_version_id: null,
    dataset_id: "",
    dataset_version_id: "",
    input_features: [],
    input: { name: "input", shape: [4], dtype: "float32", features: [], preprocessing: [] },
    output: { name: "output", kind: "value", target: null, shape: [4] },
    metrics: {},
    files: [],
    created_at: new Date(0).toISOString(),
  };
}

/** A bare registry version with these files (and a manifest.json), uploaded and finalized. */
async function version(name: string, format: "onnx" | "tfjs", files: Record<string, Uint8Array>) {
  const model = await call(app, "POST", "/api/v1/models", { key, body: { name } });
  expect(model.status, model.text).toBe(201);
  const v = await call(app, "POST", `/api/v1/models/${model.json.id}/versions`, { key, body: {} });
  expect(v.status, v.text).toBe(201);
  const all = { ...files, "manifest.json": text(JSON.stringify(manifestOf(format))) };
  for (const [file, bytes] of Object.entries(all)) {
    const init = await call(app, "POST", `/api/v1/model-versions/${v.json.id}/artifacts:initiate`, {
      key,
      body: { name: file, size_bytes: bytes.byteLength, sha256: sha256(bytes) },
    });
    expect(init.status, init.text).toBe(201);
    const put = await app.request(init.json.upload.url, {
      method: init.json.upload.method,
      headers: init.json.upload.headers,
      body: bytes,
    });
    expect(put.status, await put.text()).toBe(200);
    const done = await call(
      app,
      "POST",
      `/api/v1/model-versions/${v.json.id}/artifacts/${init.json.artifact_id}/complete`,
      { key },
    );
    expect(done.status, done.text).toBe(200);
  }
  const fin = await call(app, "POST", `/api/v1/model-versions/${v.json.id}/finalize`, { key });
  expect(fin.status, fin.text).toBe(200);
  return v.json.id as string;
}

const deploy = (name: string, versionId: string) =>
  call(app, "POST", "/api/v1/deployments", { key, body: { name, model_version_id: versionId } });

const predict = (id: string, dk: string, inputs: unknown[]) =>
  call(app, "POST", `/api/v1/inference/${id}/predict`, { key: dk, body: { inputs } });

let good: { id: string; key: string };

beforeAll(async () => {
  app = await startTestApp();
  ({ key } = await signUpWithKey(app));
  const d = await deploy("good", await version("good-onnx", "onnx", { "model.onnx": goodOnnx() }));
  expect(d.status, d.text).toBe(201);
  good = { id: d.json.id, key: d.json.api_key };
}, 120_000);

/** The server is alive and the good deployment still serves. */
async function stillServing() {
  const health = await call(app, "GET", "/health");
  expect(health.status, health.text).toBe(200);
  const p = await predict(good.id, good.key, [[1, 2, 3, 4]]);
  expect(p.status, p.text).toBe(200);
  expect(p.json.outputs).toEqual([{ values: [2, 3, 4, 5] }]);
}

/** A refusal as the API must give it: 409 problem+json, a short reason, no path or stack. */
function expectRefused(r: Awaited<ReturnType<typeof call>>, reason: RegExp) {
  expect(r.status, r.text).toBe(409);
  expect(r.res.headers.get("content-type")).toContain("application/problem+json");
  expect(r.json.detail).toMatch(/^The model could not be loaded: /);
  expect(r.json.detail).toMatch(reason);
  expect(r.json.detail).not.toMatch(/\/tmp|\/work|onnxruntime_src|node_modules|\.cc:|\n\s+at /);
  expect(r.json.detail.length).toBeLessThan(400);
}

describe("untrusted models in serving", () => {
  it("serves a good hand-built ONNX model", async () => {
    await stillServing();
  });

  it("refuses an ONNX model that allocates 16 GiB on its first inference", async () => {
    const id = await version("expand-bomb", "onnx", { "model.onnx": expandBombOnnx() });
    const d = await deploy("expand-bomb", id);
    expectRefused(d, /more memory than the limit of 2048 MiB/);
    await stillServing();
    // The verdict is stored for every server process, and the second attempt is refused from it.
    const db = await getDb();
    const rows = await db.select().from(modelProbes);
    expect(rows.some((r) => !r.ok && /more memory/.test(r.reason ?? ""))).toBe(true);
    expectRefused(await deploy("expand-bomb-again", id), /more memory/);
  }, 120_000);

  it("refuses an ONNX model whose constant needs 16 GiB", async () => {
    const d = await deploy(
      "constant-bomb",
      await version("constant-bomb", "onnx", { "model.onnx": constantBombOnnx() }),
    );
    expectRefused(d, /more memory than the limit/);
    await stillServing();
  }, 120_000);

  it("refuses a TF.js model.json declaring a weight of 2.5 billion values before reading its files", async () => {
    const weights = new Uint8Array(1024 * 1024);
    const modelJson = tfjsModelJson([
      {
        paths: Array.from({ length: 10_000 }, () => "weights.bin"),
        weights: [{ name: "d/kernel", shape: [50_000, 50_000], dtype: "float32" }],
      },
    ]);
    const d = await deploy(
      "tfjs-bomb",
      await version("tfjs-bomb", "tfjs", { "model.json": text(modelJson), "weights.bin": weights }),
    );
    expectRefused(d, /50000×50000 values, over the limit/);
    await stillServing();
  }, 120_000);

  it("refuses garbage bytes named model.onnx", async () => {
    const garbage = text("this is not an ONNX model \u0000\u0001\u0002".repeat(64));
    const d = await deploy("garbage", await version("garbage", "onnx", { "model.onnx": garbage }));
    expectRefused(d, /not a valid ONNX model/);
    await stillServing();
  }, 120_000);
});
