/**
 * Evaluations through the real app and database: real jobs train (the app served on loopback so
 * that their programs can upload, with the durable job runner in this process), then their model
 * artifacts are evaluated by the `training.evaluate` task exactly as a deployment would load them.
 * Classification (Iris, TF.js), regression (diabetes, TF.js) and a character LSTM (PyTorch → ONNX)
 * reproduce the jobs' own validation figures; the error cases answer problem+json or end `failed`
 * with a reason.
 */
// The app first: it extends zod with .openapi() before the schema modules build their schemas.
import "@/lib/server/app";
import fs from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sequential } from "@/lib/ml/graph-builder";
import { getDb } from "@/lib/server/db/client";
import { type JobRunner, startJobRunner } from "@/lib/server/jobs/runner";
import { call, serveForUploads, signUpWithKey, startTestApp, type TestApp } from "../helpers";
import { upload } from "./datasets-helpers";
import { tempBlobDir } from "./projects.fixtures";
import { irisGraph, TERMINAL, waitFor } from "./training-fixtures";

tempBlobDir();
let app: TestApp;
let runner: JobRunner | null = null;
let close: () => void = () => {};
let key = "";

async function trainJob(name: string, graph: object, body: Record<string, unknown>): Promise<string> {
  const project = await call(app, "POST", "/api/v1/projects", { key, body: { name, graph } });
  expect(project.status, project.text).toBe(201);
  const r = await call(app, "POST", "/api/v1/training/jobs", {
    key,
    body: { project_id: project.json.id, ...body },
  });
  expect(r.status, r.text).toBe(201);
  return r.json.id as string;
}

/** A job once it has finished (it must have succeeded), with its artifact's manifest. */
async function succeeded(jobId: string) {
  const job = await waitFor(`job ${jobId}`, 170_000, async () => {
    const r = await call(app, "GET", `/api/v1/training/jobs/${jobId}`, { key });
    return TERMINAL.includes(r.json.state) ? r.json : null;
  });
  expect(job.state, job.reason).toBe("succeeded");
  const manifest = await call(app, "GET", `/api/v1/training/jobs/${jobId}/artifact/manifest.json`, { key });
  expect(manifest.status).toBe(200);
  return {
    job,
    manifest: manifest.json as {
      metrics: Record<string, number>;
      format: string;
      input: { preprocessing: { kind: string; std?: number }[] };
    },
  };
}

async function evaluate(body: Record<string, unknown>, as = key) {
  return call(app, "POST", "/api/v1/training/evaluations", { key: as, body });
}

/** Starts an evaluation and waits until it has finished. */
async function evaluated(body: Record<string, unknown>) {
  const r = await evaluate(body);
  expect(r.status, r.text).toBe(202);
  expect(r.res.headers.get("location")).toBe(`/api/v1/training/evaluations/${r.json.id}`);
  expect(r.json.state).toBe("queued");
  return waitFor(`evaluation ${r.json.id}`, 60_000, async () => {
    const got = await call(app, "GET", `/api/v1/training/evaluations/${r.json.id}`, { key });
    return got.json.state === "succeeded" || got.json.state === "failed" ? got.json : null;
  });
}

const diabetesGraph = sequential(
  { shape: [10] },
  [
    ["Dense", { units: 16, activation: "relu" }],
    ["Dense", { units: 1 }],
  ],
  { loss: "mse" },
).graph;
const charLstmGraph = sequential({ shape: [16], dtype: "int64" }, [
  ["Embedding", { num_embeddings: 64, embedding_dim: 16 }],
  ["LSTM", { hidden_size: 32, num_layers: 1, return_sequences: false }],
  ["Dense", { units: 64 }],
]).graph;

const jobs = { iris: "", diabetes: "", lm: "", lmTfjs: "" };

beforeAll(async () => {
  app = await startTestApp();
  close = await serveForUploads(app);
  runner = startJobRunner({ db: await getDb(), concurrency: 2, pollIntervalMs: 100 });
  ({ key } = await signUpWithKey(app));
  // Started together; the plan runs two at a time and the third waits for a slot.
  jobs.iris = await trainJob("Iris MLP", irisGraph, {
    dataset_id: "builtin-iris",
    runtime: "tfjs",
    config: { epochs: 25, batch_size: 16, learning_rate: 0.02 },
  });
  jobs.lm = await trainJob("Char LSTM", charLstmGraph, {
    dataset_id: "builtin-declaration",
    runtime: "pytorch",
    config: { epochs: 2, batch_size: 64, learning_rate: 0.01 },
  });
  jobs.lmTfjs = await trainJob("Char LSTM (TF.js)", charLstmGraph, {
    dataset_id: "builtin-declaration",
    runtime: "tfjs",
    config: { epochs: 1, batch_size: 64, learning_rate: 0.01 },
  });
  jobs.diabetes = await trainJob("Diabetes MLP", diabetesGraph, {
    dataset_id: "builtin-diabetes",
    runtime: "tfjs",
    config: { epochs: 15, batch_size: 32, learning_rate: 0.01 },
  });
}, 60_000);

afterAll(async () => {
  await runner?.stop({ graceMs: 2000 });
  close();
});

describe("classification", () => {
  it("reproduces the job's validation accuracy from its artifact, with a confusion matrix, per-class rows and ROC", async () => {
    const { manifest } = await succeeded(jobs.iris);
    const ev = await evaluated({ job_id: jobs.iris });
    expect(ev.state, ev.reason).toBe("succeeded");
    expect(ev).toMatchObject({
      job_id: jobs.iris,
      dataset_id: "builtin-iris",
      dataset_version_id: "builtin-iris-v1",
      split: "validation",
    });
    // The exported weights are the best epoch's: the evaluation measures what the job measured.
    expect(ev.metrics.accuracy).toBeCloseTo(manifest.metrics.val_accuracy, 5);
    expect(ev.metrics.rows).toBe(30);
    const result = ev.result;
    expect(result.kind).toBe("classification");
    expect(result.labels).toEqual(["setosa", "versicolor", "virginica"]);
    const matrix: number[][] = result.confusion_matrix;
    expect(matrix).toHaveLength(3);
    const total = matrix.flat().reduce((a, b) => a + b, 0);
    expect(total).toBe(30);
    const diagonal = matrix.reduce((a, row, i) => a + row[i], 0);
    expect(diagonal / total).toBeCloseTo(ev.metrics.accuracy, 10);
    expect(result.per_class.map((c: { label: string }) => c.label)).toEqual(result.labels);
    result.per_class.forEach((c: { support: number; precision: number; recall: number }, i: number) => {
      expect(c.support).toBe(matrix[i].reduce((a, b) => a + b, 0));
      for (const v of [c.precision, c.recall]) expect(v).toBeGreaterThanOrEqual(0);
    });
    expect(ev.metrics.roc_auc).toBeGreaterThanOrEqual(0);
    expect(ev.metrics.roc_auc).toBeLessThanOrEqual(1);
    expect(result.roc).toHaveLength(3);
    for (const curve of result.roc) {
      expect(curve.points[0]).toEqual({ fpr: 0, tpr: 0 });
      expect(curve.points.at(-1)).toEqual({ fpr: 1, tpr: 1 });
    }
    console.info(
      `Iris (${manifest.format}): job val_accuracy ${manifest.metrics.val_accuracy.toFixed(4)}, evaluation ${ev.metrics.accuracy.toFixed(4)}, ROC AUC ${ev.metrics.roc_auc.toFixed(4)}`,
    );

    // Another split; the job's list has both, newest first.
    const train = await evaluated({ job_id: jobs.iris, split: "train" });
    expect(train.state).toBe("succeeded");
    expect(train.metrics.rows).toBe(120);
    const all = await evaluated({ job_id: jobs.iris, split: "all" });
    expect(all.metrics.rows).toBe(150);
    const list = await call(app, "GET", `/api/v1/training/jobs/${jobs.iris}/evaluations`, { key });
    expect(list.json.items.map((e: { id: string }) => e.id)).toEqual([all.id, train.id, ev.id]);
  }, 240_000);

  it("evaluates on another dataset with the same columns, and fails with the reason on one that lacks them", async () => {
    await succeeded(jobs.iris);
    const iris = fs.readFileSync("data/builtin/iris.csv", "utf8").split("\n").slice(0, 61).join("\n");
    const same = await upload(app, key, `${iris}\n`, "iris-part.csv");
    expect(same.status, same.text).toBe(201);
    const ok = await evaluated({ job_id: jobs.iris, dataset_id: same.json.dataset.id, split: "all" });
    expect(ok.state, ok.reason).toBe("succeeded");
    expect(ok.metrics.rows).toBe(60);
    expect(ok.dataset_version_id).toBe(same.json.dataset.current_version_id ?? ok.dataset_version_id);

    const other = await upload(
      app,
      key,
      "colour,size,species\nred,1,setosa\nblue,2,virginica\n",
      "other.csv",
    );
    expect(other.status, other.text).toBe(201);
    const failed = await evaluated({ job_id: jobs.iris, dataset_id: other.json.dataset.id, split: "all" });
    expect(failed.state).toBe("failed");
    expect(failed.reason).toContain("lacks the feature columns");
    expect(failed.reason).toContain("“sepal_length_cm”");
    expect(failed.metrics).toEqual({});
    expect(failed.result).toBeNull();
  }, 240_000);
});

describe("regression", () => {
  it("gives MSE, MAE and R² of the artifact in the target's units", async () => {
    const { manifest } = await succeeded(jobs.diabetes);
    const ev = await evaluated({ job_id: jobs.diabetes });
    expect(ev.state, ev.reason).toBe("succeeded");
    expect(ev.result).toMatchObject({ kind: "regression", rows: 88, target: "target" });
    expect(ev.result.points).toHaveLength(88);
    const { mse, mae, r2, rmse } = ev.metrics;
    expect(mse).toBeGreaterThan(0);
    expect(mae).toBeGreaterThan(0);
    expect(mae).toBeLessThanOrEqual(rmse + 1e-9);
    expect(rmse).toBeCloseTo(Math.sqrt(mse), 8);
    expect(r2).toBeLessThanOrEqual(1);
    // The job trained on a standardised target: its val_loss is the MSE divided by the target's variance.
    const step = manifest.input.preprocessing.find((s) => s.kind === "standardize_target");
    expect(step?.std).toBeGreaterThan(0);
    expect(mse / (step?.std ?? 1) ** 2).toBeCloseTo(manifest.metrics.val_loss, 3);
    console.info(
      `Diabetes: MSE ${mse.toFixed(1)}, MAE ${mae.toFixed(2)}, R² ${r2.toFixed(3)} (job val_loss ${manifest.metrics.val_loss.toFixed(4)})`,
    );
  }, 240_000);
});

describe("language models", () => {
  it.each([
    ["lm", "onnx"],
    ["lmTfjs", "tfjs"],
  ] as const)(
    "gives the next-character loss, perplexity = exp(loss) close to the job's val_loss, and accuracy (%s: %s)",
    async (which, format) => {
      const { manifest } = await succeeded(jobs[which]);
      expect(manifest.format).toBe(format);
      const ev = await evaluated({ job_id: jobs[which] });
      expect(ev.state, ev.reason).toBe("succeeded");
      expect(ev.split).toBe("validation");
      expect(ev.result).toMatchObject({
        kind: "language_modeling",
        sequence_length: 16,
        unknown_characters: 0,
      });
      expect(ev.result.rows).toBeGreaterThan(0);
      expect(ev.metrics.loss).toBeCloseTo(manifest.metrics.val_loss, 4);
      expect(ev.metrics.perplexity).toBeCloseTo(Math.exp(ev.metrics.loss), 8);
      expect(ev.metrics.accuracy).toBeCloseTo(manifest.metrics.val_accuracy, 4);
      expect(ev.metrics.bits_per_character).toBeCloseTo(ev.metrics.loss / Math.LN2, 8);
      console.info(
        `Char LSTM (${format}): job val_loss ${manifest.metrics.val_loss.toFixed(5)}, evaluation loss ${ev.metrics.loss.toFixed(5)}, perplexity ${ev.metrics.perplexity.toFixed(3)}, ${ev.result.rows} windows`,
      );
      const train = await evaluated({ job_id: jobs[which], split: "train" });
      expect(train.state, train.reason).toBe("succeeded");
      expect(train.result.rows).toBeGreaterThan(ev.result.rows);

      // A text model on a table: failed, with the reason.
      const table = await evaluated({ job_id: jobs[which], dataset_id: "builtin-iris", split: "all" });
      expect(table.state).toBe("failed");
      expect(table.reason).toMatch(/text dataset/);
    },
    240_000,
  );
});

describe("errors", () => {
  it("answers 404 for another account's job or evaluation, 409 for an unfinished job, 422 and 404 for bad targets", async () => {
    const other = await signUpWithKey(app);
    const theirs = await evaluate({ job_id: jobs.iris }, other.key);
    expect(theirs.status).toBe(404);
    expect(theirs.res.headers.get("content-type")).toContain("application/problem+json");
    expect(theirs.json).toMatchObject({ status: 404, request_id: expect.any(String) });

    const project = await call(app, "POST", "/api/v1/projects", {
      key,
      body: { name: "Pending", graph: irisGraph },
    });
    const pending = await call(app, "POST", "/api/v1/training/jobs", {
      key,
      body: { project_id: project.json.id, dataset_id: "builtin-iris", runtime: "external" },
    });
    const unfinished = await evaluate({ job_id: pending.json.id });
    expect(unfinished.status).toBe(409);
    expect(unfinished.json.detail).toMatch(/succeeded job/);

    await succeeded(jobs.iris);
    const badSplit = await evaluate({ job_id: jobs.iris, split: "holdout" });
    expect(badSplit.status).toBe(422);
    expect(badSplit.json.errors[0].path).toBe("body.split");
    const noTest = await evaluate({ job_id: jobs.iris, split: "test" });
    expect(noTest.status).toBe(422);
    expect(noTest.json.detail).toMatch(/no test split/);
    expect(noTest.json.errors).toEqual([{ path: "body.split", message: expect.any(String) }]);
    const unknownVersion = await evaluate({ job_id: jobs.iris, dataset_version_id: "dsv_nope" });
    expect(unknownVersion.status).toBe(404);
    expect(unknownVersion.json.detail).toMatch(/Dataset version/);
    const unknownDataset = await evaluate({ job_id: jobs.iris, dataset_id: "ds_nope" });
    expect(unknownDataset.status).toBe(404);
    expect((await evaluate({ job_id: jobs.iris, colour: "red" })).status).toBe(422);
    expect((await evaluate({ job_id: "job_nope" })).status).toBe(404);

    const mine = await evaluate({ job_id: jobs.iris });
    expect(mine.status).toBe(202);
    expect(
      (await call(app, "GET", `/api/v1/training/evaluations/${mine.json.id}`, { key: other.key })).status,
    ).toBe(404);
    expect(
      (await call(app, "GET", `/api/v1/training/jobs/${jobs.iris}/evaluations`, { key: other.key })).status,
    ).toBe(404);
    expect((await call(app, "GET", "/api/v1/training/evaluations/eval_nope", { key })).status).toBe(404);
  }, 240_000);
});
