/**
 * A dataset that does not fit the project's model is refused when the job is created (422), with
 * every mismatch as one error (not only the first); GET /training/dataset-fit lists the same
 * mismatches, what fitting changes, and the dataset's shape; the model adapted by "Fit to dataset"
 * (lib/ml/fit-dataset.ts) and saved is accepted.
 */
import "@hono/zod-openapi";
import { beforeAll, describe, expect, it } from "vitest";
import { type DatasetShape, fitModelToDataset } from "@/lib/ml/fit-dataset";
import { csv, startDatasetTestApp, upload } from "../api/datasets-helpers";
import { call, signUpWithKey } from "../helpers";

process.env.RATE_LIMIT_PER_MINUTE = "100000";
const { app } = await startDatasetTestApp("layerline-fit-dataset-api");
let key = "";
beforeAll(async () => {
  key = (await signUpWithKey(app)).key;
});

/** 60 rows: three numbers and a spam/ham label. */
function spamCsv(): string {
  const rows: (string | number)[][] = [["a", "b", "c", "label"]];
  for (let i = 0; i < 60; i++) rows.push([i % 7, (i * 3) % 11, (i * 5) % 13, i % 2 === 0 ? "spam" : "ham"]);
  return csv(rows);
}

describe("a dataset that does not fit", () => {
  it("is refused at job creation with every mismatch, and accepted once the model is fitted", async () => {
    const ds = await upload(app, key, spamCsv(), "spam-ham.csv");
    expect(ds.status, ds.text).toBe(201);
    const datasetId = ds.json.dataset.id as string;
    const project = await call(app, "POST", "/api/v1/projects", {
      key,
      body: { name: "Iris-sized", template: "mlp-classifier" },
    });
    expect(project.status, project.text).toBe(201);
    const projectId = project.json.id as string;

    const refused = await call(app, "POST", "/api/v1/training/jobs", {
      key,
      body: { project_id: projectId, dataset_id: datasetId, runtime: "external" },
    });
    expect(refused.status, refused.text).toBe(422);
    expect(refused.res.headers.get("content-type")).toMatch(/application\/problem\+json/);
    expect(refused.json.errors).toEqual([
      {
        path: "body.dataset_id",
        message: "The model's Input takes 4 values per sample [4]; the dataset gives 3.",
      },
      {
        path: "body.dataset_id",
        message: "The dataset has 2 classes (“ham”, “spam”); the model's Output gives 3 logits.",
      },
    ]);
    expect(refused.json.detail).toContain("(2 mismatches)");
    expect(refused.json.detail).toContain("Fit to dataset");
    const jobs = await call(app, "GET", `/api/v1/training/jobs?project_id=${projectId}`, { key });
    expect(jobs.json.items).toEqual([]);

    const fit = await call(app, "GET", `/api/v1/training/dataset-fit?project_id=${projectId}`, { key });
    expect(fit.status, fit.text).toBe(200);
    const item = fit.json.items.find((i: { dataset_id: string }) => i.dataset_id === datasetId);
    expect(item.fits).toBe(false);
    expect(item.mismatches.map((m: { kind: string }) => m.kind)).toEqual(["inputs", "classes"]);
    expect(item.mismatches[0].fix).toBe("Input → [3]");
    expect(item.shape).toEqual({
      data: { kind: "table", features: 3, target: { kind: "classes", count: 2 } },
      target: "label",
      labels: ["ham", "spam"],
      layout: null,
      picture_size: null,
    });
    // Iris itself fits: no mismatch.
    const iris = fit.json.items.find((i: { dataset_id: string }) => i.dataset_id === "builtin-iris");
    expect(iris).toMatchObject({ fits: true, mismatches: [] });

    // The editor's adaptation, saved as the editor saves it, is accepted.
    const plan = fitModelToDataset(project.json.graph, item.shape as DatasetShape);
    expect(plan.fits).toBe(true);
    const saved = await call(app, "PUT", `/api/v1/projects/${projectId}`, {
      key,
      body: { graph: plan.graph },
    });
    expect(saved.status, saved.text).toBe(200);
    const created = await call(app, "POST", "/api/v1/training/jobs", {
      key,
      body: { project_id: projectId, dataset_id: datasetId, runtime: "external" },
    });
    expect(created.status, created.text).toBe(201);
  });

  it("a text model on a table: a mismatch fitting cannot resolve is listed with the others", async () => {
    const project = await call(app, "POST", "/api/v1/projects", {
      key,
      body: { name: "LSTM", template: "lstm-sequence" },
    });
    const refused = await call(app, "POST", "/api/v1/training/jobs", {
      key,
      body: { project_id: project.json.id, dataset_id: "builtin-wine", runtime: "external" },
    });
    expect(refused.status, refused.text).toBe(422);
    // Every mismatch, also the one fitting could resolve on its own (the classes).
    expect(refused.json.errors.map((e: { message: string }) => e.message)).toEqual([
      "The model takes token ids (an int64 Input feeding an Embedding); this dataset is a table of 13 values per sample.",
      "The dataset has 3 classes (“class_0”, “class_1”, “class_2”); the model's Output gives 2 logits.",
    ]);
  });
});
