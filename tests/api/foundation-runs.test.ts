/**
 * Fine-tuning runs through the real app and database: creation (the run is a queued training job
 * with its base model, its own project and the head resized to the dataset's classes), reading it
 * back, Idempotency-Key replay, and the refusals (unknown base model 404, a dataset of another task
 * or shape 422, a runtime that cannot fine-tune 422, another user's run 404, no credits 402). No
 * runner runs here, so runs stay queued; tests/training/fine-tune.test.ts trains them for real.
 *
 * The base models are a small catalog written to a temporary LAYERLINE_CATALOG_DIR (their weights
 * are placeholder bytes: creation checks the file's SHA-256, only a run reads the tensors).
 */
// Zod's OpenAPI extension before any schema is built (graph-builder's schemas are reused by the routes).
import "@hono/zod-openapi";
import { createHash } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { BaseModelCatalog, BaseModelEntry } from "@/lib/ml/catalog/types";
import { sequential } from "@/lib/ml/graph-builder";
import { DEFAULT_TRAINING_CONFIG } from "@/lib/ml/graph-types";
import { getDb } from "@/lib/server/db/client";
import { grantCredits } from "@/lib/server/modules/account/credits";
import { resetCatalogCache } from "@/lib/server/modules/catalog/base-models";
import { call, signUpWithKey, startTestApp, type TestApp } from "../helpers";
import { tempBlobDir } from "./projects.fixtures";

tempBlobDir();
let app: TestApp;
const catalogDir = fs.mkdtempSync(path.join(os.tmpdir(), "layerline-test-catalog-"));
const savedCatalogDir = process.env.LAYERLINE_CATALOG_DIR;

function entry(
  id: string,
  fields: Pick<BaseModelEntry, "task" | "graph" | "labels" | "vocab" | "head" | "features">,
): BaseModelEntry {
  const bytes = Buffer.from(`placeholder weights of ${id}`);
  fs.writeFileSync(path.join(catalogDir, `${id}.pt`), bytes);
  return {
    id,
    name: `Test ${id}`,
    description: "test",
    config: { ...DEFAULT_TRAINING_CONFIG, epochs: 3, learning_rate: 0.003 },
    params: 0,
    input: "test input",
    output: "test output",
    license: "test",
    training_data: { dataset_id: "builtin-digits", description: "", attribution: "", rows: 0 },
    evaluation: { split: "test", rows: 0, metrics: {} },
    weights: {
      file: `${id}.pt`,
      format: "pytorch_state_dict",
      bytes: bytes.length,
      sha256: createHash("sha256").update(bytes).digest("hex"),
    },
    built_with: { script: "test", seed: 42, torch: "1.13" },
    ...fields,
  };
}

const digits = sequential({ shape: [64] }, [
  ["Reshape", { shape: [1, 8, 8] }],
  ["Conv2D", { out_channels: 4, kernel_size: 3, padding: 1, activation: "relu" }],
  ["MaxPool2D", { kernel_size: 2 }],
  ["Flatten"],
  ["Dense", { units: 5 }],
]).graph;
const digitsHead = digits.nodes.filter((n) => n.type === "Dense").map((n) => n.id);
const digitsConv = digits.nodes.filter((n) => n.type === "Conv2D").map((n) => n.id);
const lm = sequential({ shape: [16], dtype: "int64" }, [
  ["Embedding", { num_embeddings: 96, embedding_dim: 8 }],
  ["LSTM", { hidden_size: 16, num_layers: 1, return_sequences: false }],
  ["Dense", { units: 96 }],
]).graph;

beforeAll(async () => {
  const catalog: BaseModelCatalog = {
    format: "layerline.catalog/v1",
    models: [
      entry("test-digits-0-4", {
        task: "image_classification",
        graph: digits,
        labels: ["0", "1", "2", "3", "4"],
        vocab: null,
        head: digitsHead,
        features: null,
      }),
      entry("test-char-lm", {
        task: "language_modeling",
        graph: lm,
        labels: null,
        vocab: ["\n", ...Array.from({ length: 95 }, (_, i) => String.fromCharCode(32 + i))],
        head: [],
        features: null,
      }),
    ],
  };
  fs.writeFileSync(path.join(catalogDir, "catalog.json"), JSON.stringify(catalog));
  process.env.LAYERLINE_CATALOG_DIR = catalogDir;
  resetCatalogCache();
  app = await startTestApp();
});

afterAll(() => {
  if (savedCatalogDir === undefined) delete process.env.LAYERLINE_CATALOG_DIR;
  else process.env.LAYERLINE_CATALOG_DIR = savedCatalogDir;
  resetCatalogCache();
  fs.rmSync(catalogDir, { recursive: true, force: true });
});

const RUNS = "/api/v1/training/foundation-runs";

async function createRun(key: string, body: Record<string, unknown>, headers?: Record<string, string>) {
  return call(app, "POST", RUNS, { key, body, headers });
}

describe("fine-tuning runs", () => {
  it("creates a queued run: a training job with its base model, own project and a resized head", async () => {
    const { key } = await signUpWithKey(app);
    const r = await createRun(key, {
      base_model_id: "test-digits-0-4",
      dataset_id: "builtin-digits",
      config: { epochs: 2 },
      freeze: digitsConv,
      lr_schedule: "linear",
      warmup_epochs: 1,
    });
    expect(r.status, r.text).toBe(201);
    expect(r.res.headers.get("location")).toBe(`${RUNS}/${r.json.id}`);
    expect(r.json).toMatchObject({
      state: "queued",
      runtime: "auto",
      strategy: "single",
      dataset_id: "builtin-digits",
      base_model_id: "test-digits-0-4",
      base_model: { id: "test-digits-0-4", name: "Test test-digits-0-4", task: "image_classification" },
      config: { epochs: 2, learning_rate: 0.003 },
      fine_tune: {
        freeze: digitsConv,
        lr_schedule: "linear",
        warmup_epochs: 1,
        replaced_layers: digitsHead,
        base_labels: ["0", "1", "2", "3", "4"],
        vocabulary_size: null,
      },
      job_url: `/api/v1/training/jobs/${r.json.id}`,
    });
    expect(r.json.fine_tune.labels).toEqual(["0", "1", "2", "3", "4", "5", "6", "7", "8", "9"]);

    // Its project holds the run's architecture: the base graph with ten output units.
    const project = await call(app, "GET", `/api/v1/projects/${r.json.project_id}`, { key });
    expect(project.status).toBe(200);
    expect(project.json.name).toMatch(/^Test test-digits-0-4 fine-tuned on Digits/);
    const head = project.json.graph.nodes.find((n: { id: string }) => n.id === digitsHead[0]);
    expect(head.params.units).toBe(10);

    // The same resource as a run and as a job.
    const got = await call(app, "GET", `${RUNS}/${r.json.id}`, { key });
    expect(got.status).toBe(200);
    expect(got.json).toMatchObject({ id: r.json.id, fine_tune: r.json.fine_tune });
    const job = await call(app, "GET", `/api/v1/training/jobs/${r.json.id}`, { key });
    expect(job.json).toMatchObject({ id: r.json.id, base_model_id: "test-digits-0-4", state: "queued" });
  });

  it("a language model run keeps the base vocabulary and its head", async () => {
    const { key } = await signUpWithKey(app);
    const r = await createRun(key, { base_model_id: "test-char-lm", dataset_id: "builtin-declaration" });
    expect(r.status, r.text).toBe(201);
    expect(r.json.fine_tune).toMatchObject({
      freeze: "none",
      lr_schedule: "cosine",
      replaced_layers: [],
      vocabulary_size: 96,
      labels: null,
    });
    // No head to train apart from the rest.
    const frozen = await createRun(key, {
      base_model_id: "test-char-lm",
      dataset_id: "builtin-declaration",
      freeze: "base",
    });
    expect(frozen.status).toBe(422);
    expect(frozen.json.errors[0].path).toBe("body.freeze");
  });

  it("tells which datasets fit a base model and estimates a run before it exists", async () => {
    const { key } = await signUpWithKey(app);
    const fit = await call(app, "GET", "/api/v1/training/dataset-fit?base_model_id=test-digits-0-4", { key });
    expect(fit.status, fit.text).toBe(200);
    const byId = new Map(
      (fit.json.items as { dataset_id: string; fits: boolean; reason: string | null }[]).map((d) => [
        d.dataset_id,
        d,
      ]),
    );
    expect(byId.get("builtin-digits")).toMatchObject({ fits: true, reason: null });
    expect(byId.get("builtin-iris")?.fits).toBe(false);
    expect(byId.get("builtin-declaration")?.reason).toMatch(/text dataset/);
    const lmFit = await call(app, "GET", "/api/v1/training/dataset-fit?base_model_id=test-char-lm", { key });
    const lmFits = (lmFit.json.items as { dataset_id: string; fits: boolean }[]).filter((d) => d.fits);
    expect(lmFits.map((d) => d.dataset_id)).toEqual(["builtin-declaration"]);
    expect((await call(app, "GET", "/api/v1/training/dataset-fit", { key })).status).toBe(422);

    const estimate = await call(app, "POST", "/api/v1/training/estimate-resources", {
      key,
      body: { base_model_id: "test-digits-0-4", dataset_id: "builtin-digits", config: { epochs: 2 } },
    });
    expect(estimate.status, estimate.text).toBe(200);
    expect(estimate.json.params).toBeGreaterThan(0);
    expect(estimate.json.train_samples).toBeGreaterThan(1000);
    const unknown = await call(app, "POST", "/api/v1/training/estimate-resources", {
      key,
      body: { base_model_id: "nope" },
    });
    expect(unknown.status).toBe(404);
    // The estimate times a micro-benchmark of the model on this machine: slow on a loaded one.
  }, 90_000);

  it("honours Idempotency-Key: the same body replays the run, another body is refused", async () => {
    const { key } = await signUpWithKey(app);
    const body = { base_model_id: "test-digits-0-4", dataset_id: "builtin-digits" };
    const first = await createRun(key, body, { "Idempotency-Key": "fine-tune-once" });
    expect(first.status, first.text).toBe(201);
    const again = await createRun(key, body, { "Idempotency-Key": "fine-tune-once" });
    expect(again.status).toBe(201);
    expect(again.json.id).toBe(first.json.id);
    expect(again.res.headers.get("idempotency-replayed")).toBe("true");
    const changed = await createRun(key, { ...body, name: "other" }, { "Idempotency-Key": "fine-tune-once" });
    expect(changed.status).toBe(422);
    const jobs = await call(app, "GET", "/api/v1/training/jobs", { key });
    expect(jobs.json.total).toBe(1);
    const projects = await call(app, "GET", "/api/v1/projects", { key });
    expect(projects.json.total).toBe(1);
  });

  it("refuses an unknown base model (404) and a dataset of another task or shape (422)", async () => {
    const { key } = await signUpWithKey(app);
    const unknown = await createRun(key, { base_model_id: "no-such-model", dataset_id: "builtin-digits" });
    expect(unknown.status).toBe(404);
    expect(unknown.res.headers.get("content-type")).toMatch(/application\/problem\+json/);

    const text = await createRun(key, {
      base_model_id: "test-digits-0-4",
      dataset_id: "builtin-declaration",
    });
    expect(text.status).toBe(422);
    expect(text.json.errors[0].path).toBe("body.dataset_id");
    expect(text.json.detail).toMatch(/text dataset/);

    const shape = await createRun(key, { base_model_id: "test-digits-0-4", dataset_id: "builtin-iris" });
    expect(shape.status).toBe(422);
    expect(shape.json.errors[0].path).toBe("body.dataset_id");
    expect(shape.json.detail).toMatch(/64 values per sample.*gives 4/);

    const table = await createRun(key, { base_model_id: "test-char-lm", dataset_id: "builtin-iris" });
    expect(table.status).toBe(422);
    expect(table.json.errors[0].path).toBe("body.dataset_id");
    expect(table.json.detail).toMatch(/language model/);

    const layer = await createRun(key, {
      base_model_id: "test-digits-0-4",
      dataset_id: "builtin-digits",
      freeze: ["no-such-layer"],
    });
    expect(layer.status).toBe(422);
    expect(layer.json.errors[0].path).toBe("body.freeze");
    expect((await call(app, "GET", "/api/v1/training/jobs", { key })).json.total).toBe(0);
  });

  it("refuses runtimes that cannot fine-tune with a clear message (422)", async () => {
    const { key } = await signUpWithKey(app);
    for (const runtime of ["tfjs", "external"]) {
      const r = await createRun(key, {
        base_model_id: "test-digits-0-4",
        dataset_id: "builtin-digits",
        runtime,
      });
      expect(r.status).toBe(422);
      expect(r.json.errors[0].path).toBe("body.runtime");
      expect(r.json.errors[0].message).toMatch(/PyTorch/);
    }
  });

  it("shows a run to its owner only, and a plain job is not a run", async () => {
    const owner = await signUpWithKey(app);
    const r = await createRun(owner.key, { base_model_id: "test-digits-0-4", dataset_id: "builtin-digits" });
    expect(r.status).toBe(201);
    const other = await signUpWithKey(app);
    expect((await call(app, "GET", `${RUNS}/${r.json.id}`, { key: other.key })).status).toBe(404);
    expect((await call(app, "GET", `/api/v1/training/jobs/${r.json.id}`, { key: other.key })).status).toBe(
      404,
    );

    const project = await call(app, "POST", "/api/v1/projects", {
      key: owner.key,
      body: { name: "Iris", template: "mlp-classifier" },
    });
    const job = await call(app, "POST", "/api/v1/training/jobs", {
      key: owner.key,
      body: { project_id: project.json.id, dataset_id: "builtin-iris", runtime: "external" },
    });
    expect(job.status, job.text).toBe(201);
    expect((await call(app, "GET", `${RUNS}/${job.json.id}`, { key: owner.key })).status).toBe(404);
  });

  it("answers 402 without credits and for a strategy the plan lacks", async () => {
    const { key, user } = await signUpWithKey(app);
    const body = { base_model_id: "test-digits-0-4", dataset_id: "builtin-digits" };
    const strategy = await createRun(key, { ...body, strategy: "data_parallel" });
    expect(strategy.status).toBe(402);
    expect(strategy.json.type).toMatch(/plan-limit$/);
    await grantCredits(await getDb(), user.id, -100_000, "test: spend everything");
    const broke = await createRun(key, body);
    expect(broke.status).toBe(402);
    expect(broke.json.type).toMatch(/insufficient-credits$/);
    expect((await call(app, "GET", "/api/v1/training/jobs", { key })).json.total).toBe(0);
  });
});
