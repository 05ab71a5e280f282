/**
 * "Train a model on this data" through the API: POST /projects with a dataset_id builds a project
 * sized to the dataset — no edits — for a user's own CSV (its target guessed on upload), the
 * built-in tables, an image ZIP and a text; the Train dialog's fit check accepts each, and two of
 * them train for real (PyTorch) to a stated accuracy. Bad requests are refused with the field.
 */
// Zod's OpenAPI extension before any schema is built (the app's route schemas call .openapi()).
import "@hono/zod-openapi";
import type { AddressInfo } from "node:net";
import { serve } from "@hono/node-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureInProcessRunner } from "@/lib/server/jobs/runner";
import { csv, startDatasetTestApp, upload } from "../api/datasets-helpers";
import { buildImageZip } from "../fixtures/image-zip";
import { call, signUpWithKey } from "../helpers";
import { fineTuneClient } from "./fine-tune-fixtures";

process.env.RATE_LIMIT_PER_MINUTE = "100000";
const { app } = await startDatasetTestApp("layerline-projects-from-datasets");
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

type Node = { type: string; params: Record<string, unknown> };

async function fromDataset(body: Record<string, unknown>) {
  const r = await call(app, "POST", "/api/v1/projects", { key, body });
  expect(r.status, r.text).toBe(201);
  return r.json as { id: string; name: string; description: string; graph: { nodes: Node[] } };
}

async function fits(projectId: string, datasetId: string): Promise<{ fits: boolean; reason: string | null }> {
  const r = await call(app, "GET", `/api/v1/training/dataset-fit?project_id=${projectId}`, { key });
  expect(r.status, r.text).toBe(200);
  return (r.json.items as { dataset_id: string; fits: boolean; reason: string | null }[]).find(
    (d) => d.dataset_id === datasetId,
  ) as { fits: boolean; reason: string | null };
}

async function trainedAccuracy(projectId: string, datasetId: string): Promise<number> {
  const created = await call(app, "POST", "/api/v1/training/jobs", {
    key,
    body: { project_id: projectId, dataset_id: datasetId, runtime: "pytorch" },
  });
  expect(created.status, created.text).toBe(201);
  const job = await waitForJob(created.json.id as string, 240_000);
  const manifest = await call(app, "GET", `/api/v1/training/jobs/${job.id}/artifact/manifest.json`, { key });
  return (manifest.json.metrics as Record<string, number>).val_accuracy;
}

/** 240 rows: three numbers and a string label that depends on them (learnable, with some noise). */
function ownCsv(): string {
  const rows: (string | number)[][] = [["height_cm", "weight_kg", "age", "size"]];
  let s = 7;
  const next = () => {
    s = (s * 1103515245 + 12345) % 2 ** 31;
    return s / 2 ** 31;
  };
  for (let i = 0; i < 240; i++) {
    const height = 150 + next() * 50;
    const weight = 45 + (height - 150) * 0.8 + next() * 20;
    const label = height + weight / 2 < 200 ? "small" : height + weight / 2 < 225 ? "medium" : "large";
    rows.push([height.toFixed(1), weight.toFixed(1), Math.round(20 + next() * 50), label]);
  }
  return csv(rows);
}

describe("projects from datasets", () => {
  it("a user's own CSV: the guessed target sizes an MLP that trains as it is", async () => {
    const ds = await upload(app, key, ownCsv(), "people.csv");
    expect(ds.status, ds.text).toBe(201);
    expect(ds.json.dataset.roles).toEqual({
      height_cm: "feature",
      weight_kg: "feature",
      age: "feature",
      size: "target",
    });
    expect(ds.json.dataset.task).toBe("classification");
    const id = ds.json.dataset.id as string;
    const project = await fromDataset({ dataset_id: id });
    expect(project.name).toBe("people MLP");
    const input = project.graph.nodes.find((n) => n.type === "Input");
    const output = project.graph.nodes.find((n) => n.type === "Output");
    expect(input?.params.shape).toEqual([3]);
    expect(output?.params).toMatchObject({ loss: "cross_entropy", num_classes: 3 });
    expect(await fits(project.id, id)).toMatchObject({ fits: true });
    const accuracy = await trainedAccuracy(project.id, id);
    console.info(`own CSV, sized MLP: val_accuracy ${accuracy.toFixed(3)}`);
    expect(accuracy).toBeGreaterThanOrEqual(0.7);
  }, 300_000);

  it("a .json array of records uploads as a table, with its date column ignored, and trains", async () => {
    const records = ownCsv()
      .trim()
      .split("\n")
      .slice(1)
      .map((line, i) => {
        const [height, weight, age, size] = line.split(",");
        const day = String((i % 28) + 1).padStart(2, "0");
        return {
          measured_on: `2026-0${(i % 9) + 1}-${day}`,
          height: Number(height),
          weight: Number(weight),
          age: Number(age),
          size,
        };
      });
    const ds = await upload(app, key, JSON.stringify(records, null, 1), "people.json");
    expect(ds.status, ds.text).toBe(201);
    expect(ds.json.dataset.format).toBe("json");
    expect(ds.json.version.row_count).toBe(240);
    expect(ds.json.dataset.roles).toEqual({
      measured_on: "ignored",
      height: "feature",
      weight: "feature",
      age: "feature",
      size: "target",
    });
    const project = await fromDataset({ dataset_id: ds.json.dataset.id });
    expect(project.graph.nodes.find((n) => n.type === "Input")?.params.shape).toEqual([3]);
    const accuracy = await trainedAccuracy(project.id, ds.json.dataset.id as string);
    expect(accuracy).toBeGreaterThanOrEqual(0.7);
    // Not an array of records: refused with the reason.
    const bad = await upload(app, key, JSON.stringify({ rows: [1, 2] }), "bad.json");
    expect(bad.status).toBe(422);
    expect(bad.json.detail).toContain("array of records");
  }, 300_000);

  it("built-in tables: Iris trains to ≥ 0.9; a regression gets an mse head; categories are one-hot counted", async () => {
    const iris = await fromDataset({ dataset_id: "builtin-iris", name: "Iris from data" });
    expect(iris.name).toBe("Iris from data");
    expect(await fits(iris.id, "builtin-iris")).toMatchObject({ fits: true });
    const accuracy = await trainedAccuracy(iris.id, "builtin-iris");
    console.info(`Iris, sized MLP: val_accuracy ${accuracy.toFixed(3)}`);
    expect(accuracy).toBeGreaterThanOrEqual(0.9);

    const diabetes = await fromDataset({ dataset_id: "builtin-diabetes" });
    expect(diabetes.graph.nodes.find((n) => n.type === "Output")?.params).toMatchObject({ loss: "mse" });
    expect(await fits(diabetes.id, "builtin-diabetes")).toMatchObject({ fits: true });
    for (const builtin of ["builtin-wine", "builtin-breast-cancer", "builtin-penguins", "builtin-digits"]) {
      const p = await fromDataset({ dataset_id: builtin });
      expect(await fits(p.id, builtin), builtin).toMatchObject({ fits: true });
    }
  }, 300_000);

  it("an image ZIP gets a CNN or a small ResNet sized to its pictures; a text an LSTM", async () => {
    const pictures = await buildImageZip({ classes: [0, 1, 2, 3], perClass: 4 });
    const ds = await upload(app, key, pictures.zip, "four-digits.zip");
    expect(ds.status, ds.text).toBe(201);
    const id = ds.json.dataset.id as string;
    const cnn = await fromDataset({ dataset_id: id });
    expect(cnn.graph.nodes.find((n) => n.type === "Input")?.params.shape).toEqual([1, 28, 28]);
    expect(cnn.graph.nodes.find((n) => n.type === "Output")?.params).toMatchObject({ num_classes: 4 });
    expect(await fits(cnn.id, id)).toMatchObject({ fits: true });
    const resnet = await fromDataset({ dataset_id: id, family: "resnet" });
    expect(await fits(resnet.id, id)).toMatchObject({ fits: true });

    const text = await fromDataset({ dataset_id: "builtin-declaration" });
    expect(text.graph.nodes.map((n) => n.type)).toEqual(["Input", "Embedding", "LSTM", "Dense", "Output"]);
    expect(await fits(text.id, "builtin-declaration")).toMatchObject({ fits: true });
  }, 120_000);

  it("a text gets a small transformer when asked, sized to its vocabulary, that trains as it is", async () => {
    const project = await fromDataset({ dataset_id: "builtin-declaration", family: "transformer" });
    const types = project.graph.nodes.map((n) => n.type);
    expect(types).toContain("MultiHeadAttention");
    const embedding = project.graph.nodes.find((n) => n.type === "Embedding");
    const output = project.graph.nodes.find((n) => n.type === "Output");
    expect(embedding?.params.num_embeddings).toBe(output?.params.num_classes);
    expect(await fits(project.id, "builtin-declaration")).toMatchObject({ fits: true });
    const created = await call(app, "POST", "/api/v1/training/jobs", {
      key,
      body: {
        project_id: project.id,
        dataset_id: "builtin-declaration",
        runtime: "pytorch",
        config: { epochs: 2 },
      },
    });
    expect(created.status, created.text).toBe(201);
    const job = await waitForJob(created.json.id as string, 240_000);
    const manifest = await call(app, "GET", `/api/v1/training/jobs/${job.id}/artifact/manifest.json`, {
      key,
    });
    const metrics = manifest.json.metrics as Record<string, number>;
    // Two epochs over a few thousand characters: the loss is already well under a uniform guess's.
    expect(metrics.val_loss).toBeLessThan(Math.log(Number(output?.params.num_classes)));
  }, 300_000);

  it("refuses what cannot be made, naming the field", async () => {
    const wrong = await call(app, "POST", "/api/v1/projects", {
      key,
      body: { dataset_id: "builtin-iris", family: "cnn" },
    });
    expect(wrong.status, wrong.text).toBe(422);
    expect(wrong.json.errors).toContainEqual(expect.objectContaining({ path: "body.family" }));
    const both = await call(app, "POST", "/api/v1/projects", {
      key,
      body: { dataset_id: "builtin-iris", template: "mlp-classifier" },
    });
    expect(both.status).toBe(422);
    const unnamed = await call(app, "POST", "/api/v1/projects", {
      key,
      body: { template: "mlp-classifier" },
    });
    expect(unnamed.status).toBe(422);
    const familyAlone = await call(app, "POST", "/api/v1/projects", {
      key,
      body: { name: "x", family: "mlp" },
    });
    expect(familyAlone.status).toBe(422);
    // Another account's dataset does not exist for this one.
    const other = await signUpWithKey(app);
    const theirs = await upload(app, other.key, ownCsv(), "theirs.csv");
    const stolen = await call(app, "POST", "/api/v1/projects", {
      key,
      body: { dataset_id: theirs.json.dataset.id },
    });
    expect(stolen.status).toBe(404);
  }, 60_000);
});
