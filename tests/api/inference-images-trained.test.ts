/**
 * A trained image model served: a ZIP of digit pictures (train/, validation/, test/ folders; mixed
 * sizes, modes and formats) is uploaded, the LeNet template trains for real with PyTorch (exported to
 * ONNX), the job is deployed, and every picture of the test folder is sent to predict as it is in
 * the ZIP (base64, data: URLs, multipart files). The deployment decodes and normalises them with the
 * job's recorded image step, so its accuracy on them is exactly the job's test accuracy. The same
 * holds for a small RGB CNN trained with TF.js (served by the TF.js runtime).
 */
// Zod's OpenAPI extension before any schema is built (the app's route schemas call .openapi()).
import "@hono/zod-openapi";
import type { AddressInfo } from "node:net";
import { serve } from "@hono/node-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import yauzl from "yauzl";
import { GraphBuilder } from "@/lib/ml/graph-builder";
import { ensureInProcessRunner } from "@/lib/server/jobs/runner";
import { buildImageZip } from "../fixtures/image-zip";
import { call, signUpWithKey } from "../helpers";
import { fineTuneClient } from "../training/fine-tune-fixtures";
import { startDatasetTestApp, upload } from "./datasets-helpers";

process.env.RATE_LIMIT_PER_MINUTE = "100000";
const { app } = await startDatasetTestApp("layerline-image-serving-blobs");
const server = serve({ fetch: app.fetch, port: 0, hostname: "127.0.0.1" });
await new Promise<void>((resolve) => server.once("listening", () => resolve()));
process.env.LAYERLINE_INTERNAL_URL = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

let key = "";
const { waitForJob } = fineTuneClient(app, () => key);

beforeAll(async () => {
  key = (await signUpWithKey(app)).key;
  await ensureInProcessRunner();
});

async function filesOf(zip: Buffer): Promise<Map<string, Buffer>> {
  const file = await yauzl.fromBufferPromise(zip, { lazyEntries: true });
  const out = new Map<string, Buffer>();
  for await (const entry of file.eachEntry()) {
    const chunks: Buffer[] = [];
    for await (const c of await file.openReadStreamPromise(entry)) chunks.push(c as Buffer);
    out.set(entry.fileName, Buffer.concat(chunks));
  }
  return out;
}

const MEDIA: Record<string, string> = {
  png: "image/png",
  jpg: "image/jpeg",
  webp: "image/webp",
  gif: "image/gif",
};

describe("serving a trained image model", () => {
  it("predicts the test pictures with exactly the job's test accuracy", async () => {
    const built = await buildImageZip({
      layout: "splits",
      mixed: true,
      corrupt: true,
      splitSizes: { train: 40, validation: 10, test: 12 },
    });
    const ds = await upload(app, key, built.zip, "digits.zip");
    expect(ds.status, ds.text).toBe(201);
    const project = await call(app, "POST", "/api/v1/projects", {
      key,
      body: { name: "Digit pictures", template: "cnn-image" },
    });
    expect(project.status, project.text).toBe(201);
    const created = await call(app, "POST", "/api/v1/training/jobs", {
      key,
      body: {
        project_id: project.json.id,
        dataset_id: ds.json.dataset.id,
        runtime: "pytorch",
        config: { epochs: 8, batch_size: 32, learning_rate: 0.002 },
      },
    });
    expect(created.status, created.text).toBe(201);
    const job = await waitForJob(created.json.id as string, 300_000);
    expect(job.state, JSON.stringify(job)).toBe("succeeded");
    const manifest = await call(app, "GET", `/api/v1/training/jobs/${job.id}/artifact/manifest.json`, {
      key,
    });
    expect(manifest.status, manifest.text).toBe(200);
    const testAccuracy = manifest.json.metrics.test_accuracy as number;
    expect(testAccuracy).toBeGreaterThan(0.5);

    const d = await call(app, "POST", "/api/v1/deployments", {
      key,
      body: { name: "digits", job_id: job.id },
    });
    expect(d.status, d.text).toBe(201);
    const dk = d.json.api_key as string;
    const predictUrl = `/api/v1/inference/${d.json.id}/predict`;

    const schema = await call(app, "GET", `/api/v1/inference/${d.json.id}/schema`, { key: dk });
    expect(schema.json.input_schema.properties.image).toMatchObject({ contentEncoding: "base64" });
    expect(schema.json.input_schema.properties.image.description).toMatch(/28×28 \(stretch\)/);
    const example = await call(app, "POST", predictUrl, { key: dk, body: schema.json.example });
    expect(example.status, example.text).toBe(200);

    // Every test picture, as stored in the ZIP: half as base64, half as data: URLs, 100 a call.
    const files = await filesOf(built.zip);
    const tests = built.entries.filter((e) => e.split === "test");
    expect(tests.length).toBe(120);
    const inputs = tests.map((e, i) => {
      const bytes = files.get(e.path) as Buffer;
      const ext = e.path.split(".").pop() as string;
      return i % 2 === 0
        ? { image: bytes.toString("base64") }
        : { image: `data:${MEDIA[ext]};base64,${bytes.toString("base64")}` };
    });
    const labels: string[] = [];
    for (let at = 0; at < inputs.length; at += 100) {
      const r = await call(app, "POST", predictUrl, {
        key: dk,
        body: { inputs: inputs.slice(at, at + 100) },
      });
      expect(r.status, r.text).toBe(200);
      labels.push(...r.json.outputs.map((o: { label: string }) => o.label));
    }
    const correct = labels.filter((label, i) => label === tests[i].label).length;
    console.info(
      `served test accuracy ${(correct / tests.length).toFixed(4)}, job ${testAccuracy.toFixed(4)}`,
    );
    expect(correct / tests.length).toBe(testAccuracy);

    // The same pictures as multipart files give the same labels.
    const fd = new FormData();
    for (const e of tests.slice(0, 12)) {
      const ext = e.path.split(".").pop() as string;
      fd.append(
        "image",
        new Blob([new Uint8Array(files.get(e.path) as Buffer)], { type: MEDIA[ext] }),
        e.path,
      );
    }
    const multipart = await call(app, "POST", predictUrl, { key: dk, rawBody: fd });
    expect(multipart.status, multipart.text).toBe(200);
    expect(multipart.json.outputs.map((o: { label: string }) => o.label)).toEqual(labels.slice(0, 12));

    // The corrupt file of the dataset is refused by serving too, naming the instance.
    const corrupt = await call(app, "POST", predictUrl, {
      key: dk,
      body: { inputs: [inputs[0], { image: (files.get(built.corrupt[0]) as Buffer).toString("base64") }] },
    });
    expect(corrupt.status).toBe(422);
    expect(corrupt.json.detail).toMatch(/^Instance 1: image: /);
  }, 420_000);

  it("TF.js: a small RGB CNN serves its test pictures with exactly the job's test accuracy", async () => {
    const built = await buildImageZip({
      classes: [0, 1, 3, 7],
      layout: "splits",
      size: 10,
      channels: 3,
      format: "jpeg",
      splitSizes: { train: 30, validation: 5, test: 10 },
    });
    const ds = await upload(app, key, built.zip, "rgb-digits.zip");
    expect(ds.status, ds.text).toBe(201);
    const b = new GraphBuilder();
    b.add("Input", { shape: [3, 10, 10] }, { id: "image" });
    b.add(
      "Conv2D",
      { out_channels: 6, kernel_size: 3, padding: 1, activation: "relu" },
      { id: "conv", inputs: ["image"] },
    );
    b.add("MaxPool2D", { kernel_size: 2 }, { id: "pool", inputs: ["conv"] });
    b.add("Flatten", {}, { id: "flatten", inputs: ["pool"] });
    b.add("Dense", { units: 4 }, { id: "logits", inputs: ["flatten"] });
    b.add("Output", { loss: "cross_entropy", num_classes: 4 }, { id: "output", inputs: ["logits"] });
    const project = await call(app, "POST", "/api/v1/projects", {
      key,
      body: { name: "RGB digits", graph: b.build() },
    });
    expect(project.status, project.text).toBe(201);
    const created = await call(app, "POST", "/api/v1/training/jobs", {
      key,
      body: {
        project_id: project.json.id,
        dataset_id: ds.json.dataset.id,
        runtime: "tfjs",
        config: { epochs: 8, batch_size: 16, learning_rate: 0.01 },
      },
    });
    expect(created.status, created.text).toBe(201);
    const job = await waitForJob(created.json.id as string, 300_000);
    expect(job.state, JSON.stringify(job)).toBe("succeeded");
    const manifest = await call(app, "GET", `/api/v1/training/jobs/${job.id}/artifact/manifest.json`, {
      key,
    });
    expect(manifest.json.format).toBe("tfjs");
    const testAccuracy = manifest.json.metrics.test_accuracy as number;
    expect(testAccuracy).toBeGreaterThan(0.4);

    const d = await call(app, "POST", "/api/v1/deployments", { key, body: { name: "rgb", job_id: job.id } });
    expect(d.status, d.text).toBe(201);
    const files = await filesOf(built.zip);
    const tests = built.entries.filter((e) => e.split === "test");
    const r = await call(app, "POST", `/api/v1/inference/${d.json.id}/predict`, {
      key: d.json.api_key,
      body: { inputs: tests.map((e) => ({ image: (files.get(e.path) as Buffer).toString("base64") })) },
    });
    expect(r.status, r.text).toBe(200);
    const correct = r.json.outputs.filter(
      (o: { label: string }, i: number) => o.label === tests[i].label,
    ).length;
    console.info(
      `TF.js served test accuracy ${(correct / tests.length).toFixed(4)}, job ${testAccuracy.toFixed(4)}`,
    );
    expect(correct / tests.length).toBe(testAccuracy);
  }, 420_000);
});
