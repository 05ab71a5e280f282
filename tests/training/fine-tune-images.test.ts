/**
 * The catalog's picture base model fine-tuned for real on a user's own small image ZIP: five
 * classes of digit pictures it never saw (5–9, in folders named five…nine; 12 training, 6
 * validation and 10 test pictures each, mixed sizes, modes and formats), through the API, with the
 * committed weights of `digits-lenet-28` (LeNet pretrained on 28×28 pictures of the digits 0–4).
 * The head is replaced (5 new classes), the pictures are decoded and normalised with the base
 * model's recorded image step, and the run is deployed: a picture sent as base64 is predicted, and
 * every test picture served gives exactly the run's test accuracy.
 */
// Zod's OpenAPI extension before any schema is built (the app's route schemas call .openapi()).
import "@hono/zod-openapi";
import type { AddressInfo } from "node:net";
import { serve } from "@hono/node-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import yauzl from "yauzl";
import { getDb } from "@/lib/server/db/client";
import { ensureInProcessRunner } from "@/lib/server/jobs/runner";
import { findBaseModel, resetCatalogCache } from "@/lib/server/modules/catalog/base-models";
import { getJobRow } from "@/lib/server/modules/training/job-rows";
import { startDatasetTestApp, upload } from "../api/datasets-helpers";
import { buildImageZip } from "../fixtures/image-zip";
import { call, signUpWithKey } from "../helpers";
import { fineTuneClient } from "./fine-tune-fixtures";

process.env.RATE_LIMIT_PER_MINUTE = "100000";
const savedCatalogDir = process.env.LAYERLINE_CATALOG_DIR;
delete process.env.LAYERLINE_CATALOG_DIR;
resetCatalogCache();
const { app } = await startDatasetTestApp("layerline-fine-tune-images-blobs");
const server = serve({ fetch: app.fetch, port: 0, hostname: "127.0.0.1" });
await new Promise<void>((resolve) => server.once("listening", () => resolve()));
process.env.LAYERLINE_INTERNAL_URL = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (savedCatalogDir !== undefined) process.env.LAYERLINE_CATALOG_DIR = savedCatalogDir;
  resetCatalogCache();
});

const BASE = "digits-lenet-28";
const NAMES = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine"];
/** The run's test accuracy must reach this (chance is 0.2). */
const MIN_TEST_ACCURACY = 0.85;

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

describe("fine-tuning the picture base model on a user's image ZIP", () => {
  it("replaces the head, reuses the base model's image step, reaches the stated accuracy and serves pictures", async () => {
    const base = findBaseModel(BASE);
    expect(base, "the committed catalog has the picture base model").toBeDefined();
    const baseImage = base?.preprocessing?.steps.find((s) => s.kind === "image");
    expect(baseImage).toMatchObject({ channels: 1, height: 28, width: 28, resize: "stretch" });

    const built = await buildImageZip({
      classes: [5, 6, 7, 8, 9],
      className: (d) => NAMES[d],
      layout: "splits",
      mixed: true,
      splitSizes: { train: 12, validation: 6, test: 10 },
    });
    const ds = await upload(app, key, built.zip, "my-digits.zip");
    expect(ds.status, ds.text).toBe(201);
    const datasetId = ds.json.dataset.id as string;

    // The fine-tune wizard's dataset step: the ZIP fits the picture model (its head resized to the
    // five folders), not the 8×8 pixel-table model.
    for (const [model, fits] of [
      [BASE, true],
      ["digits-cnn-0-4", false],
    ] as const) {
      const fit = await call(app, "GET", `/api/v1/training/dataset-fit?base_model_id=${model}`, { key });
      expect(fit.status, fit.text).toBe(200);
      const item = fit.json.items.find((i: { dataset_id: string }) => i.dataset_id === datasetId);
      expect(item?.fits, `${model}: ${item?.reason}`).toBe(fits);
      if (!fits) expect(item.reason).toMatch(/picture/);
    }

    const overrides = { epochs: 25, batch_size: 16, learning_rate: 0.002 };
    const created = await call(app, "POST", "/api/v1/training/foundation-runs", {
      key,
      body: { base_model_id: BASE, dataset_id: datasetId, freeze: "none", config: overrides },
    });
    expect(created.status, created.text).toBe(201);
    await waitForJob(created.json.id as string, 170_000);
    const run = await call(app, "GET", `/api/v1/training/foundation-runs/${created.json.id}`, { key });
    expect(run.status, run.text).toBe(200);
    const labels = ["eight", "five", "nine", "seven", "six"];
    expect(run.json.fine_tune).toMatchObject({
      replaced_layers: ["head"],
      labels,
      base_labels: ["0", "1", "2", "3", "4"],
      base_weights_sha256: base?.weights.sha256,
    });

    // The pictures were normalised with the base model's statistics, not the run's own.
    const manifest = await call(
      app,
      "GET",
      `/api/v1/training/jobs/${created.json.id}/artifact/manifest.json`,
      { key },
    );
    expect(manifest.status, manifest.text).toBe(200);
    const row = await getJobRow(await getDb(), created.json.id as string);
    const step = row?.preprocessing?.steps.find((s) => s.kind === "image");
    expect(step).toEqual({ ...baseImage, source: "base_model" });
    const testAccuracy = manifest.json.metrics.test_accuracy as number;
    console.info(
      `${BASE} fine-tuned on 5 new classes (60 training pictures): test accuracy ${testAccuracy.toFixed(3)}`,
    );
    expect(testAccuracy).toBeGreaterThanOrEqual(MIN_TEST_ACCURACY);

    const d = await call(app, "POST", "/api/v1/deployments", {
      key,
      body: { name: "my digits", job_id: created.json.id },
    });
    expect(d.status, d.text).toBe(201);
    const dk = d.json.api_key as string;
    const predictUrl = `/api/v1/inference/${d.json.id}/predict`;
    const files = await filesOf(built.zip);
    const tests = built.entries.filter((e) => e.split === "test");
    expect(tests.length).toBe(50);

    const one = await call(app, "POST", predictUrl, {
      key: dk,
      body: { inputs: [{ image: (files.get(tests[0].path) as Buffer).toString("base64") }] },
    });
    expect(one.status, one.text).toBe(200);
    expect(labels).toContain(one.json.outputs[0].label);
    expect(Object.keys(one.json.outputs[0].probabilities).sort()).toEqual(labels);

    const all = await call(app, "POST", predictUrl, {
      key: dk,
      body: { inputs: tests.map((e) => ({ image: (files.get(e.path) as Buffer).toString("base64") })) },
    });
    expect(all.status, all.text).toBe(200);
    const correct = all.json.outputs.filter(
      (o: { label: string }, i: number) => o.label === tests[i].label,
    ).length;
    expect(correct / tests.length).toBe(testAccuracy);
  }, 240_000);
});
