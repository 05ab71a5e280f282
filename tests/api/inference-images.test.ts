/**
 * Serving pictures through the real app: a tiny image model (a hand-built ONNX graph, tests/security/
 * onnx-bytes.ts) with the image step in its manifest is uploaded to the registry under the
 * image-classification contract, deployed, and called with base64 pictures, data: URLs and
 * multipart files; bad and oversized pictures are 422s naming the instance. The schema route
 * publishes a base64 picture field and an example that predicts.
 */
// The app first: it extends zod with .openapi() before the schema modules build their schemas.
import "@/lib/server/app";
import { createHash } from "node:crypto";
import sharp from "sharp";
import { beforeAll, describe, expect, it } from "vitest";
import { MAX_IMAGE_INSTANCE_BYTES } from "@/lib/server/modules/serving/image-instances";
import { call, signUpWithKey, startTestApp, type TestApp } from "../helpers";
import { FLOAT, floatInitializer, goodOnnx, node, onnxModel, valueInfo } from "../security/onnx-bytes";
import { tempBlobDir } from "./projects.fixtures";

tempBlobDir();
let app: TestApp;
let key = "";
let deploymentId = "";
let deploymentKey = "";

const sha256 = (b: Uint8Array) => createHash("sha256").update(b).digest("hex");

/** logits = [sum of the top half, sum of the bottom half] of the normalised 1×4×4 picture. */
function halvesOnnx(): Uint8Array {
  const weights: number[] = [];
  for (let i = 0; i < 16; i++) weights.push(i < 8 ? 1 : 0, i < 8 ? 0 : 1);
  return onnxModel([
    node("Flatten", ["input"], ["flat"]),
    node("MatMul", ["flat", "w"], ["output"]),
    floatInitializer("w", [16, 2], weights),
    valueInfo(11, "input", FLOAT, ["batch", 1, 4, 4]),
    valueInfo(12, "output", FLOAT, ["batch", 2]),
  ]);
}

function manifestOf(onnx: Uint8Array) {
  return {
    manifest_version: 1,
    format: "onnx",
    framework: "pytorch",
    producer: "external",
    task: "classification",
    job_id: "external",
    project_id: "external",
    architecture_version_id: null,
    dataset_id: "external",
    dataset_version_id: "external",
    input_features: [{ name: "image", type: "image" }],
    input: {
      name: "input",
      shape: [1, 4, 4],
      dtype: "float32",
      features: ["image"],
      preprocessing: [
        { kind: "image", channels: 1, height: 4, width: 4, resize: "stretch", mean: [0.5], std: [0.25] },
      ],
    },
    output: { name: "output", kind: "labels", labels: ["top", "bottom"] },
    metrics: {},
    files: [{ name: "model.onnx", size_bytes: onnx.byteLength, sha256: sha256(onnx) }],
    created_at: new Date(0).toISOString(),
  };
}

/** A picture whose top (or bottom) half is white, any size and format. */
async function picture(which: "top" | "bottom", side: number, format: "png" | "jpeg" | "webp" | "gif") {
  const raw = Buffer.alloc(16, 0);
  raw.fill(255, which === "top" ? 0 : 8, which === "top" ? 8 : 16);
  return sharp(raw, { raw: { width: 4, height: 4, channels: 1 } })
    .toColourspace("b-w")
    .resize(side, side, { kernel: "nearest" })
    .toFormat(format, format === "webp" ? { lossless: true } : format === "jpeg" ? { quality: 95 } : {})
    .toBuffer();
}

async function upload(versionId: string, name: string, bytes: Uint8Array) {
  const init = await call(app, "POST", `/api/v1/model-versions/${versionId}/artifacts:initiate`, {
    key,
    body: { name, size_bytes: bytes.byteLength, sha256: sha256(bytes) },
  });
  expect(init.status, init.text).toBe(201);
  const put = await app.request(init.json.upload.url, {
    method: init.json.upload.method,
    headers: init.json.upload.headers,
    body: new Blob([new Uint8Array(bytes)]),
  });
  expect(put.status, await put.text()).toBe(200);
  const done = await call(
    app,
    "POST",
    `/api/v1/model-versions/${versionId}/artifacts/${init.json.artifact_id}/complete`,
    { key },
  );
  expect(done.status, done.text).toBe(200);
}

const predict = (inputs: unknown[]) =>
  call(app, "POST", `/api/v1/inference/${deploymentId}/predict`, { key: deploymentKey, body: { inputs } });

function form(files: { name: string; bytes: Buffer; type: string }[]): FormData {
  const fd = new FormData();
  for (const f of files) fd.append("image", new Blob([new Uint8Array(f.bytes)], { type: f.type }), f.name);
  return fd;
}

beforeAll(async () => {
  app = await startTestApp();
  ({ key } = await signUpWithKey(app));
  const model = await call(app, "POST", "/api/v1/models", {
    key,
    body: { name: "halves", task: "image-classification" },
  });
  expect(model.status, model.text).toBe(201);
  const version = await call(app, "POST", `/api/v1/models/${model.json.id}/versions`, {
    key,
    body: { task_contract: { key: "image-classification", version: 1 } },
  });
  expect(version.status, version.text).toBe(201);
  const onnx = halvesOnnx();
  await upload(version.json.id, "model.onnx", onnx);
  await upload(version.json.id, "manifest.json", new TextEncoder().encode(JSON.stringify(manifestOf(onnx))));
  const fin = await call(app, "POST", `/api/v1/model-versions/${version.json.id}/finalize`, { key });
  expect(fin.status, fin.text).toBe(200);
  const d = await call(app, "POST", "/api/v1/deployments/from-model-version", {
    key,
    body: { model_version_id: version.json.id },
  });
  expect(d.status, d.text).toBe(201);
  deploymentId = d.json.id;
  deploymentKey = d.json.api_key;
}, 120_000);

describe("image deployments", () => {
  it("publishes a base64 picture field and an example that predicts", async () => {
    const schema = await call(app, "GET", `/api/v1/inference/${deploymentId}/schema`, { key: deploymentKey });
    expect(schema.status, schema.text).toBe(200);
    expect(schema.json.input_schema).toMatchObject({
      type: "object",
      required: ["image"],
      properties: { image: { type: "string", contentEncoding: "base64", contentMediaType: "image/png" } },
    });
    expect(schema.json.input_schema.properties.image.description).toMatch(/4×4 \(stretch\)/);
    const example = await predict(schema.json.example.inputs);
    expect(example.status, example.text).toBe(200);
    expect(example.json.outputs[0]).toMatchObject({ label: expect.any(String) });
  });

  it("predicts base64 pictures and data: URLs of any size and format", async () => {
    const inputs = [
      { image: (await picture("top", 4, "png")).toString("base64") },
      { image: (await picture("bottom", 32, "jpeg")).toString("base64") },
      { image: `data:image/webp;base64,${(await picture("top", 9, "webp")).toString("base64")}` },
      `data:image/gif;base64,${(await picture("bottom", 12, "gif")).toString("base64")}`,
    ];
    const r = await predict(inputs);
    expect(r.status, r.text).toBe(200);
    expect(r.json.outputs.map((o: { label: string }) => o.label)).toEqual(["top", "bottom", "top", "bottom"]);
    expect(r.json.outputs[0].probabilities.top).toBeGreaterThan(0.99);
  });

  it("takes pictures as multipart files, one instance per file in order", async () => {
    const r = await call(app, "POST", `/api/v1/inference/${deploymentId}/predict`, {
      key: deploymentKey,
      rawBody: form([
        { name: "a.png", bytes: await picture("bottom", 16, "png"), type: "image/png" },
        { name: "b.jpg", bytes: await picture("top", 16, "jpeg"), type: "image/jpeg" },
      ]),
    });
    expect(r.status, r.text).toBe(200);
    expect(r.json.outputs.map((o: { label: string }) => o.label)).toEqual(["bottom", "top"]);
    const none = await call(app, "POST", `/api/v1/inference/${deploymentId}/predict`, {
      key: deploymentKey,
      rawBody: new FormData(),
    });
    expect(none.status).toBe(422);
    const bad = await call(app, "POST", `/api/v1/inference/${deploymentId}/predict`, {
      key: deploymentKey,
      rawBody: form([
        { name: "a.png", bytes: await picture("top", 8, "png"), type: "image/png" },
        { name: "b.png", bytes: Buffer.from("not a picture"), type: "image/png" },
      ]),
    });
    expect(bad.status).toBe(422);
    expect(bad.json.detail).toMatch(/^Instance 1: image: /);
  });

  it("refuses files sent to a model that does not take pictures", async () => {
    // A tabular model: output = input + 1 over four numeric features.
    const onnx = goodOnnx();
    const features = ["a", "b", "c", "d"];
    const tabular = {
      ...manifestOf(onnx),
      input_features: features.map((name) => ({ name, type: "number" })),
      input: { name: "input", shape: [4], dtype: "float32", features, preprocessing: [] },
      output: { name: "output", kind: "labels", labels: features },
    };
    const model = await call(app, "POST", "/api/v1/models", { key, body: { name: "tabular" } });
    const version = await call(app, "POST", `/api/v1/models/${model.json.id}/versions`, { key, body: {} });
    await upload(version.json.id, "model.onnx", onnx);
    await upload(version.json.id, "manifest.json", new TextEncoder().encode(JSON.stringify(tabular)));
    expect(
      (await call(app, "POST", `/api/v1/model-versions/${version.json.id}/finalize`, { key })).status,
    ).toBe(200);
    const d = await call(app, "POST", "/api/v1/deployments/from-model-version", {
      key,
      body: { model_version_id: version.json.id },
    });
    expect(d.status, d.text).toBe(201);
    const r = await call(app, "POST", `/api/v1/inference/${d.json.id}/predict`, {
      key: d.json.api_key,
      rawBody: form([{ name: "a.png", bytes: await picture("top", 4, "png"), type: "image/png" }]),
    });
    expect(r.status).toBe(422);
    expect(r.json.detail).toMatch(/does not take pictures/);
    const json = await call(app, "POST", `/api/v1/inference/${d.json.id}/predict`, {
      key: d.json.api_key,
      body: { inputs: [{ a: 1, b: 2, c: 3, d: 4 }] },
    });
    expect(json.status, json.text).toBe(200);
    expect(json.json.outputs[0].label).toBe("d");
  });

  it("refuses pictures that cannot be decoded or are too large, naming the instance", async () => {
    const good = { image: (await picture("top", 4, "png")).toString("base64") };
    const notImage = await predict([good, { image: Buffer.from("plain text").toString("base64") }]);
    expect(notImage.status).toBe(422);
    expect(notImage.res.headers.get("content-type")).toMatch(/application\/problem\+json/);
    expect(notImage.json.detail).toBe(
      "Instance 1: image: The bytes are not a readable image (PNG, JPEG, WebP or GIF).",
    );
    expect(notImage.json.errors[0].path).toBe("inputs.1.image");
    const truncated = await picture("top", 64, "png");
    const cut = await predict([{ image: truncated.subarray(0, truncated.length - 20).toString("base64") }]);
    expect(cut.status).toBe(422);
    const missing = await predict([{ picture: good.image }]);
    expect(missing.status).toBe(422);
    expect(missing.json.detail).toMatch(/Instance 0: image: missing/);
    const tooLarge = await predict([
      { image: "A".repeat(Math.ceil((MAX_IMAGE_INSTANCE_BYTES * 4) / 3) + 64) },
    ]);
    expect(tooLarge.status).toBe(422);
    expect(tooLarge.json.detail).toMatch(/larger than 4 MB/);
    expect(JSON.stringify([notImage.json, cut.json, tooLarge.json])).not.toMatch(/vips|sharp|\/tmp\//i);
  });
});
