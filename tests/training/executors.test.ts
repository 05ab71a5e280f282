/**
 * The managed runtimes for real: each job's generated project runs in a child process (Debian's
 * /usr/bin/python3 with python3-torch, or this Node.js with @tensorflow/tfjs) on a materialised
 * dataset, and reports to a stand-in for the upload-token API. The done-criteria: digits as 8×8
 * images through a CNN ≥ 97% test accuracy (PyTorch), an Iris MLP ≥ 93% on both runtimes, a
 * character LSTM that learns on both, exported models that reproduce the job's own validation
 * accuracy from raw rows through artifact-reader, and resuming from a checkpoint.
 */
// Zod's OpenAPI extension before any schema is built (the app's route schemas call .openapi()).
import "@hono/zod-openapi";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { sequential } from "@/lib/ml/graph-builder";
import type { Db } from "@/lib/server/db/client";
import { getDb } from "@/lib/server/db/client";
import { loadArtifact } from "@/lib/server/modules/training/artifact-reader";
import { executorFor, resolveRuntime } from "@/lib/server/modules/training/executors";
import { startDatasetTestApp, upload } from "../api/datasets-helpers";
import { call, signUpWithKey } from "../helpers";
import {
  config,
  type JobRun,
  models,
  type Receiver,
  readCsvObjects,
  runJob,
  series,
  splitRows,
  startReceiver,
} from "./training-fixtures";

const { app } = await startDatasetTestApp("layerline-executors-blobs");
const db: Db = await getDb();
const receiver: Receiver = await startReceiver();
const root = fs.mkdtempSync(path.join(os.tmpdir(), "layerline-executors-"));
afterAll(async () => {
  await receiver.close();
  fs.rmSync(root, { recursive: true, force: true });
});

const IRIS = { datasetId: "builtin-iris", datasetVersionId: "builtin-iris-v1" };
const TEXT = { datasetId: "builtin-declaration", datasetVersionId: "builtin-declaration-v1" };

function expectSucceeded(run: JobRun) {
  expect(run.result, run.result.stderrTail.slice(-2000)).toMatchObject({ exitCode: 0, timedOut: false });
  const statuses = run.uploads.events.filter((e) => e.kind === "status").map((e) => e.status);
  expect(statuses).toEqual(["running", "succeeded"]);
  expect([...run.uploads.authorization]).toEqual([`Bearer lut_${run.jobId}`]);
}

/** The exported model's accuracy on the rows of a split, predicted from raw CSV rows. */
async function artifactAccuracy(run: JobRun, csv: string, split: "validation" | "test", target: string) {
  const rows = readCsvObjects(csv);
  const picked = splitRows(run.dataDir, split).map((r) => rows[r]);
  const instances = picked.map((row) =>
    Object.fromEntries(Object.entries(row).filter(([k]) => k !== target)),
  );
  const model = await loadArtifact(run.artifactDir);
  try {
    const outputs = await model.predict(instances);
    const right = outputs.filter((o, i) => "label" in o && o.label === String(picked[i][target])).length;
    return { accuracy: right / picked.length, outputs };
  } finally {
    await model.dispose();
  }
}

describe("managed training runtimes", () => {
  it("auto picks PyTorch where /usr/bin/python3 imports torch; both runtimes are available", async () => {
    expect(await resolveRuntime("auto")).toBe("pytorch");
    expect(await resolveRuntime("tfjs")).toBe("tfjs");
    expect(await executorFor("pytorch").available()).toBe(true);
    expect(await executorFor("tfjs").available()).toBe(true);
  });

  it("PyTorch: the digits as 8×8 images (Input 64 → Reshape → CNN) reach ≥ 97% test accuracy", async () => {
    // The built-in digits uploaded as the user's own dataset, with an explicit train/validation/test split.
    const { key, user } = await signUpWithKey(app);
    const csv = fs.readFileSync("data/builtin/digits.csv", "utf8");
    const ds = await upload(app, key, csv, "digits.csv");
    expect(ds.status, ds.text).toBe(201);
    const datasetId = ds.json.dataset.id as string;
    const versionId = ds.json.version.id as string;
    const roles = await call(app, "PATCH", `/api/v1/datasets/${datasetId}/roles`, {
      key,
      body: { roles: { digit: "target" } },
    });
    expect(roles.status, roles.text).toBe(200);
    const order = Array.from({ length: 1797 }, (_, i) => i).sort(
      (a, b) => ((a * 7919) % 1797) - ((b * 7919) % 1797),
    );
    const splits = {
      train: order.slice(0, 1257),
      validation: order.slice(1257, 1527),
      test: order.slice(1527),
    };
    const split = await call(
      app,
      "POST",
      `/api/v1/datasets/${datasetId}/versions/${versionId}/splits/explicit`,
      {
        key,
        body: { splits },
      },
    );
    expect(split.status, split.text).toBe(200);

    const run = await runJob(db, receiver, root, {
      runtime: "pytorch",
      graph: models.digitsCnn(),
      config: config({ epochs: 15, batch_size: 32, learning_rate: 0.003 }),
      datasetId,
      datasetVersionId: versionId,
      ownerId: user.id,
    });
    expectSucceeded(run);
    expect(run.preprocessing).toMatchObject({
      task: "classification",
      labels: ["0", "1", "2", "3", "4", "5", "6", "7", "8", "9"],
      input_shape: [64],
      rows: { train: 1257, validation: 270, test: 270 },
    });
    expect(run.preprocessing.steps.find((s) => s.kind === "split")).toMatchObject({ method: "explicit" });
    const testAccuracy = series(run.uploads, "test_accuracy");
    expect(testAccuracy).toHaveLength(1);
    expect(testAccuracy[0].value).toBeGreaterThanOrEqual(0.97);
    console.info(`digits CNN (PyTorch): test accuracy ${testAccuracy[0].value.toFixed(4)}`);

    // The exported ONNX model, fed raw pixel rows through the manifest's preprocessing, scores the same.
    const fromArtifact = await artifactAccuracy(run, "data/builtin/digits.csv", "test", "digit");
    expect(fromArtifact.accuracy).toBeCloseTo(testAccuracy[0].value, 6);
  }, 120_000);

  it("TF.js: the same digits CNN trains on the built-in digits images", async () => {
    const { user } = await signUpWithKey(app);
    const run = await runJob(db, receiver, root, {
      runtime: "tfjs",
      graph: models.digitsCnn(),
      config: config({ epochs: 3, batch_size: 32, learning_rate: 0.003 }),
      datasetId: "builtin-digits",
      datasetVersionId: "builtin-digits-v1",
      ownerId: user.id,
    });
    expectSucceeded(run);
    const accuracy = series(run.uploads, "val_accuracy");
    expect(accuracy).toHaveLength(3);
    // Three epochs on TF.js's CPU backend: well past chance (10%), short of the PyTorch run's 15 epochs.
    expect(accuracy.at(-1)?.value).toBeGreaterThanOrEqual(0.9);
    console.info(`digits CNN (TF.js, 3 epochs): validation accuracy ${accuracy.at(-1)?.value.toFixed(4)}`);
  }, 180_000);

  it("Iris MLP ≥ 93% on PyTorch and TF.js; each exported model reproduces the job's validation accuracy", async () => {
    const irisConfig = config({ epochs: 60, batch_size: 16, learning_rate: 0.01 });
    const runs = await Promise.all(
      (["pytorch", "tfjs"] as const).map((runtime) =>
        runJob(db, receiver, root, { runtime, graph: models.irisMlp(), config: irisConfig, ...IRIS }),
      ),
    );
    for (const run of runs) {
      expectSucceeded(run);
      const { uploads, manifest } = run;
      // Every epoch: metrics, progress and a log line; a checkpoint each epoch, the best flagged.
      expect(series(uploads, "val_accuracy").map((p) => p.epoch)).toEqual(
        Array.from({ length: 60 }, (_, i) => i + 1),
      );
      expect(uploads.events.filter((e) => e.kind === "log")).toHaveLength(60);
      expect(uploads.events.filter((e) => e.kind === "progress").at(-1)).toMatchObject({
        epoch: 60,
        epochs: 60,
        step: 480,
        steps: 480,
      });
      expect(uploads.checkpoints.map((c) => c.epoch)).toEqual(Array.from({ length: 60 }, (_, i) => i + 1));
      const best = uploads.checkpoints.filter((c) => c.best).at(-1);
      if (!best) throw new Error("no best checkpoint");
      expect(best.metrics.val_accuracy).toBeGreaterThanOrEqual(0.93);
      expect(manifest).toMatchObject({
        format: run.result.exitCode === 0 && uploads.artifacts.has("model.onnx") ? "onnx" : "tfjs",
        task: "classification",
        input_features: [
          { name: "sepal_length_cm", type: "number" },
          { name: "sepal_width_cm", type: "number" },
          { name: "petal_length_cm", type: "number" },
          { name: "petal_width_cm", type: "number" },
        ],
        output: { kind: "labels", labels: ["setosa", "versicolor", "virginica"] },
      });
      const { accuracy, outputs } = await artifactAccuracy(
        run,
        "data/builtin/iris.csv",
        "validation",
        "species",
      );
      expect(accuracy).toBeCloseTo(best.metrics.val_accuracy, 6);
      expect(Object.keys((outputs[0] as { probabilities: object }).probabilities)).toEqual([
        "setosa",
        "versicolor",
        "virginica",
      ]);
      console.info(
        `Iris MLP (${run.jobId}): best epoch val_accuracy ${best.metrics.val_accuracy.toFixed(4)}, artifact ${accuracy.toFixed(4)}, ${run.result.wallSeconds.toFixed(1)} s`,
      );
    }
    expect([...runs[0].uploads.artifacts.keys()].sort()).toEqual(["model.onnx", "weights.pt"]);
    expect([...runs[1].uploads.artifacts.keys()].sort()).toEqual(["model.json", "weights.bin"]);
  }, 150_000);

  it("binary classification and regression train on both runtimes and serve labels and values", async () => {
    const cancer = sequential(
      { shape: [30] },
      [
        ["Dense", { units: 16, activation: "relu" }],
        ["Dense", { units: 1 }],
      ],
      {
        loss: "binary_cross_entropy",
      },
    ).graph;
    const diabetes = sequential(
      { shape: [10] },
      [
        ["Dense", { units: 16, activation: "relu" }],
        ["Dense", { units: 1 }],
      ],
      {
        loss: "mse",
      },
    ).graph;
    const jobs = (["pytorch", "tfjs"] as const).flatMap((runtime) => [
      runJob(db, receiver, root, {
        runtime,
        graph: cancer,
        config: config({ epochs: 20, batch_size: 32, learning_rate: 0.01 }),
        datasetId: "builtin-breast-cancer",
        datasetVersionId: "builtin-breast-cancer-v1",
      }),
      runJob(db, receiver, root, {
        runtime,
        graph: diabetes,
        config: config({ epochs: 40, batch_size: 32, learning_rate: 0.01 }),
        datasetId: "builtin-diabetes",
        datasetVersionId: "builtin-diabetes-v1",
      }),
    ]);
    const [cancerTorch, diabetesTorch, cancerTfjs, diabetesTfjs] = await Promise.all(jobs);
    for (const run of [cancerTorch, cancerTfjs]) {
      expectSucceeded(run);
      expect(run.preprocessing).toMatchObject({
        task: "binary_classification",
        labels: ["benign", "malignant"],
      });
      const best = run.uploads.checkpoints.filter((c) => c.best).at(-1);
      expect(best?.metrics.val_accuracy).toBeGreaterThanOrEqual(0.9);
      const { accuracy, outputs } = await artifactAccuracy(
        run,
        "data/builtin/breast_cancer.csv",
        "validation",
        "diagnosis",
      );
      expect(accuracy).toBeCloseTo(best?.metrics.val_accuracy ?? Number.NaN, 6);
      expect(Object.keys((outputs[0] as { probabilities: object }).probabilities)).toEqual([
        "benign",
        "malignant",
      ]);
    }
    for (const run of [diabetesTorch, diabetesTfjs]) {
      expectSucceeded(run);
      expect(run.preprocessing.task).toBe("regression");
      // Standardised target: predicting the mean scores about 1.
      const best = run.uploads.checkpoints.filter((c) => c.best).at(-1);
      expect(best?.metrics.val_loss).toBeLessThan(0.8);
      const rows = readCsvObjects("data/builtin/diabetes.csv");
      const model = await loadArtifact(run.artifactDir);
      try {
        const picked = splitRows(run.dataDir, "validation").map((r) => rows[r]);
        const outputs = await model.predict(picked.map(({ target: _target, ...features }) => features));
        const values = outputs.map((o) => ("value" in o ? o.value : Number.NaN));
        // Back in the target's units, and as good as the job measured: MSE / variance ≈ val_loss.
        const targets = picked.map((r) => Number(r.target));
        const step = run.preprocessing.steps.find((s) => s.kind === "standardize_target");
        if (step?.kind !== "standardize_target") throw new Error("no target step");
        const mse = values.reduce((sum, v, i) => sum + (v - targets[i]) ** 2, 0) / values.length;
        expect(mse / step.std ** 2).toBeCloseTo(best?.metrics.val_loss ?? Number.NaN, 3);
      } finally {
        await model.dispose();
      }
    }
  }, 120_000);

  it("an Embedding → LSTM character model trains on the built-in text on both runtimes", async () => {
    const lmConfig = config({ epochs: 3, batch_size: 64, learning_rate: 0.01 });
    const runs = await Promise.all(
      (["pytorch", "tfjs"] as const).map((runtime) =>
        runJob(db, receiver, root, { runtime, graph: models.charLstm(), config: lmConfig, ...TEXT }),
      ),
    );
    for (const run of runs) {
      expectSucceeded(run);
      expect(run.preprocessing).toMatchObject({
        task: "language_modeling",
        input_shape: [16],
        input_dtype: "int64",
      });
      const loss = series(run.uploads, "loss");
      expect(loss.map((p) => p.epoch)).toEqual([1, 2, 3]);
      expect(loss[2].value).toBeLessThan(loss[0].value);
      console.info(`char LSTM (${run.jobId}): loss ${loss.map((p) => p.value.toFixed(3)).join(" → ")}`);
      // The exported model (ONNX with an LSTM, or TF.js with the PyTorch-compatible layers) serves text.
      const model = await loadArtifact(run.artifactDir);
      try {
        const [next] = await model.predict([{ text: "We hold these truths to be self-evident" }]);
        expect(next).toMatchObject({ label: expect.any(String) });
      } finally {
        await model.dispose();
      }
    }
  }, 150_000);

  it("resumes from a checkpoint at the next epoch (PyTorch: exactly like an uninterrupted run)", async () => {
    const resumeConfig = config({ epochs: 6, batch_size: 16, learning_rate: 0.01 });
    for (const runtime of ["pytorch", "tfjs"] as const) {
      const first = await runJob(db, receiver, root, {
        runtime,
        graph: models.irisMlp(),
        config: resumeConfig,
        ...IRIS,
      });
      expectSucceeded(first);
      const third = first.uploads.checkpoints.find((c) => c.epoch === 3);
      if (!third) throw new Error("no checkpoint of epoch 3");
      const file = path.join(first.workDir, "resume.ckpt");
      fs.writeFileSync(file, third.bytes);
      const resumed = await runJob(db, receiver, root, {
        runtime,
        graph: models.irisMlp(),
        config: resumeConfig,
        ...IRIS,
        dataDir: first.dataDir,
        resumeFrom: file,
      });
      expectSucceeded(resumed);
      expect(resumed.lines.map((l) => JSON.parse(l)).find((r) => r.event === "resumed")).toEqual({
        event: "resumed",
        epoch: 3,
      });
      expect(series(resumed.uploads, "loss").map((p) => p.epoch)).toEqual([4, 5, 6]);
      expect(resumed.uploads.checkpoints.map((c) => c.epoch)).toEqual([4, 5, 6]);
      if (runtime === "pytorch") {
        // Weights, optimizer state, shuffling and the random generator all continue.
        expect(series(resumed.uploads, "val_loss").at(-1)?.value).toBeCloseTo(
          series(first.uploads, "val_loss").at(-1)?.value ?? Number.NaN,
          6,
        );
      }
    }
  }, 120_000);
});
