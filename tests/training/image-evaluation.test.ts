/**
 * Evaluating an image classifier for real: the LeNet template is trained with PyTorch on an image
 * ZIP of the built-in digits drawn as pictures (five classes, train/ and validation/ folders, mixed
 * sizes, modes and formats; two epochs, so that it still makes mistakes), then
 * - evaluated on its validation split: the evaluation (the artifact a deployment serves, fed the
 *   picture files through the serving decoder) gives exactly the job's recorded validation
 *   accuracy, and the deployed model, sent the same pictures as base64, reproduces the evaluation's
 *   confusion matrix cell for cell;
 * - evaluated on another uploaded image ZIP (different digits, every picture filed under the wrong
 *   class): the mistakes are listed with their paths, the most confident first, at most eight per
 *   confusion-matrix cell, and each one's thumbnail is served as a PNG (another account: 404).
 */
// Zod's OpenAPI extension before any schema is built (the app's route schemas call .openapi()).
import "@hono/zod-openapi";
import type { AddressInfo } from "node:net";
import { serve } from "@hono/node-server";
import AdmZip from "adm-zip";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { components } from "@/lib/api/schema";
import { ensureInProcessRunner } from "@/lib/server/jobs/runner";
import { startDatasetTestApp, upload } from "../api/datasets-helpers";
import { buildImageZip } from "../fixtures/image-zip";
import { call, signUpWithKey } from "../helpers";
import { fineTuneClient, type Json } from "./fine-tune-fixtures";

type Evaluation = components["schemas"]["Evaluation"];
type ClassificationResult = Extract<NonNullable<Evaluation["result"]>, { kind: "classification" }>;

process.env.RATE_LIMIT_PER_MINUTE = "100000";
const { app } = await startDatasetTestApp("layerline-image-evaluation-blobs");
const server = serve({ fetch: app.fetch, port: 0, hostname: "127.0.0.1" });
await new Promise<void>((resolve) => server.once("listening", () => resolve()));
process.env.LAYERLINE_INTERNAL_URL = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

let key = "";
const { waitForJob } = fineTuneClient(app, () => key);
const CLASSES = [0, 1, 2, 3, 4];

beforeAll(async () => {
  key = (await signUpWithKey(app)).key;
  await ensureInProcessRunner();
});

async function evaluate(body: Json): Promise<Evaluation> {
  const created = await call(app, "POST", "/api/v1/training/evaluations", { key, body });
  expect(created.status, created.text).toBe(202);
  for (;;) {
    const r = await call(app, "GET", `/api/v1/training/evaluations/${created.json.id}`, { key });
    expect(r.status, r.text).toBe(200);
    if (r.json.state === "succeeded" || r.json.state === "failed") {
      expect(r.json.state, r.json.reason ?? "").toBe("succeeded");
      return r.json as Evaluation;
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

describe("evaluating an image classifier", () => {
  let jobId = "";
  let validationAccuracy = 0;
  let validation: { path: string; label: string; bytes: Buffer }[] = [];

  it("reproduces the job's validation accuracy, and the deployment reproduces the evaluation", async () => {
    const built = await buildImageZip({
      layout: "splits",
      classes: CLASSES,
      mixed: true,
      splitSizes: { train: 40, validation: 12, test: 0 },
    });
    const ds = await upload(app, key, built.zip, "digits.zip");
    expect(ds.status, ds.text).toBe(201);
    const project = await call(app, "POST", "/api/v1/projects", {
      key,
      body: { name: "Digit pictures", template: "cnn-image" },
    });
    expect(project.status, project.text).toBe(201);
    // The template's Output has ten classes; these pictures have five.
    const graph = project.json.graph as { nodes: { type: string; params: Record<string, unknown> }[] };
    const output = graph.nodes.find((n) => n.type === "Dense" && n.params.units === 10);
    if (!output) throw new Error("the template has no 10-unit Dense layer");
    output.params.units = CLASSES.length;
    const head = graph.nodes.find((n) => n.type === "Output");
    if (!head) throw new Error("the template has no Output");
    head.params.num_classes = CLASSES.length;
    const saved = await call(app, "PUT", `/api/v1/projects/${project.json.id}`, { key, body: { graph } });
    expect(saved.status, saved.text).toBe(200);

    const created = await call(app, "POST", "/api/v1/training/jobs", {
      key,
      body: {
        project_id: project.json.id,
        dataset_id: ds.json.dataset.id,
        runtime: "pytorch",
        config: { epochs: 2, batch_size: 32, learning_rate: 0.002 },
      },
    });
    expect(created.status, created.text).toBe(201);
    const job = await waitForJob(created.json.id as string, 240_000);
    jobId = job.id as string;
    const manifestFile = await call(app, "GET", `/api/v1/training/jobs/${jobId}/artifact/manifest.json`, {
      key,
    });
    expect(manifestFile.status, manifestFile.text).toBe(200);
    const manifest = manifestFile.json as { metrics: { val_accuracy: number } };

    const ev = await evaluate({ job_id: jobId, split: "validation" });
    validationAccuracy = ev.metrics.accuracy;
    const result = ev.result as ClassificationResult;
    expect(result.kind).toBe("classification");
    expect(result.rows).toBe(CLASSES.length * 12);
    expect(ev.metrics.accuracy).toBeCloseTo(manifest.metrics.val_accuracy, 10);
    console.info(
      `LeNet on digit pictures: job val_accuracy ${manifest.metrics.val_accuracy.toFixed(4)}, evaluation ${ev.metrics.accuracy.toFixed(4)}`,
    );

    // The deployment, sent the same files, gives the evaluation's confusion matrix exactly.
    const d = await call(app, "POST", "/api/v1/deployments", {
      key,
      body: { name: "digits", job_id: jobId },
    });
    expect(d.status, d.text).toBe(201);
    const archive = new AdmZip(built.zip);
    validation = built.entries
      .filter((e) => e.split === "validation")
      .map((e) => ({ path: e.path, label: e.label, bytes: archive.readFile(e.path) as Buffer }));
    const labels = result.labels;
    const matrix = labels.map(() => labels.map(() => 0));
    for (let i = 0; i < validation.length; i += 20) {
      const batch = validation.slice(i, i + 20);
      const r = await call(app, "POST", `/api/v1/inference/${d.json.id}/predict`, {
        key: d.json.api_key,
        body: { inputs: batch.map((v) => ({ image: v.bytes.toString("base64") })) },
      });
      expect(r.status, r.text).toBe(200);
      (r.json.outputs as { label: string }[]).forEach((p, k) => {
        matrix[labels.indexOf(batch[k].label)][labels.indexOf(p.label)] += 1;
      });
    }
    expect(matrix).toEqual(result.confusion_matrix);
  }, 480_000);

  it("lists the mistakes on another image dataset with their thumbnails, most confident first", async () => {
    expect(jobId).not.toBe("");
    // Other digits than the training ZIP's, each filed under the next class: every one is a mistake.
    const other = await buildImageZip({
      classes: CLASSES,
      perClass: 12,
      offset: 60,
      className: (digit) => String((digit + 1) % CLASSES.length),
    });
    const ds = await upload(app, key, other.zip, "mislabelled.zip");
    expect(ds.status, ds.text).toBe(201);
    const ev = await evaluate({ job_id: jobId, dataset_id: ds.json.dataset.id, split: "all" });
    const result = ev.result as ClassificationResult;
    const samples = result.samples ?? [];
    expect(result.rows).toBe(60);
    expect(samples.length).toBeGreaterThan(0);
    const mistakes = result.confusion_matrix.reduce(
      (sum, row, i) => sum + row.reduce((s, n, j) => s + (i === j ? 0 : n), 0),
      0,
    );
    expect(samples.length).toBeLessThanOrEqual(mistakes);
    const perCell = new Map<string, number>();
    for (const s of samples) {
      expect(s.actual).not.toBe(s.predicted);
      expect(other.entries.some((e) => e.path === s.path && e.label === s.actual)).toBe(true);
      const cell = `${s.actual}>${s.predicted}`;
      perCell.set(cell, (perCell.get(cell) ?? 0) + 1);
    }
    expect(Math.max(...perCell.values())).toBeLessThanOrEqual(8);
    for (let i = 1; i < samples.length; i++)
      expect(samples[i - 1].confidence).toBeGreaterThanOrEqual(samples[i].confidence);

    const url = `/api/v1/training/evaluations/${ev.id}/samples/0/image`;
    const checked = await call(app, "GET", url, { key });
    expect(checked.status).toBe(200);
    const res = await app.request(url, { headers: { Host: "localhost", Authorization: `Bearer ${key}` } });
    expect(res.headers.get("content-type")).toBe("image/png");
    const meta = await sharp(Buffer.from(await res.arrayBuffer())).metadata();
    expect(meta.format).toBe("png");
    expect(Math.max(meta.width ?? 0, meta.height ?? 0)).toBe(128);

    const missing = await call(
      app,
      "GET",
      `/api/v1/training/evaluations/${ev.id}/samples/${samples.length}/image`,
      {
        key,
      },
    );
    expect(missing.status).toBe(404);
    const stranger = (await signUpWithKey(app)).key;
    const foreign = await call(app, "GET", url, { key: stranger });
    expect(foreign.status).toBe(404);
  }, 240_000);

  it("publishes a few pictures with their predictions to the hub page and the registry version", async () => {
    expect(jobId).not.toBe("");
    const published = await call(app, "POST", "/api/v1/hub/models", { key, body: { source_job_id: jobId } });
    expect(published.status, published.text).toBe(201);
    // The hub shows the job's evaluation on its own dataset (the validation folder), not the one on
    // the mislabelled ZIP.
    expect(published.json.evaluation).toMatchObject({
      split: "validation",
      metrics: { accuracy: validationAccuracy },
    });
    const samples = published.json.evaluation.samples as {
      image: string;
      actual: string;
      predicted: string;
      confidence: number;
    }[];
    // Six validation pictures, one class after another.
    expect(samples).toHaveLength(6);
    expect(new Set(samples.map((x) => x.actual)).size).toBe(CLASSES.length);
    for (const x of samples) {
      expect(x.image).toMatch(/^data:image\/png;base64,/);
      const meta = await sharp(Buffer.from(x.image.split(",")[1], "base64")).metadata();
      expect(Math.max(meta.width ?? 0, meta.height ?? 0)).toBeLessThanOrEqual(64);
      expect(x.confidence).toBeGreaterThan(0);
      expect(x.confidence).toBeLessThanOrEqual(1);
    }

    const model = await call(app, "POST", "/api/v1/models", { key, body: { name: "digit-pictures" } });
    expect(model.status, model.text).toBe(201);
    const version = await call(app, "POST", `/api/v1/models/${model.json.id}/versions`, {
      key,
      body: { job_id: jobId },
    });
    expect(version.status, version.text).toBe(201);
    const artifacts = await call(app, "GET", `/api/v1/model-versions/${version.json.id}/artifacts`, { key });
    expect(artifacts.status, artifacts.text).toBe(200);
    const file = (artifacts.json as { id: string; name: string; size_bytes: number }[]).find(
      (a) => a.name === "samples.json",
    );
    if (!file) throw new Error(artifacts.text);
    const res = await app.request(`/api/v1/model-versions/${version.json.id}/artifacts/${file.id}/download`, {
      headers: { Host: "localhost", Authorization: `Bearer ${key}` },
    });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { samples: { actual: string }[] };
    expect(body.samples.map((x) => x.actual)).toEqual(samples.map((x) => x.actual));
  }, 120_000);
});
