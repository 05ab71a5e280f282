/**
 * The data_parallel strategy for real: the generated PyTorch project under torchrun with two
 * processes on CPU (gloo, DistributedDataParallel) trains the Iris MLP and the digits CNN to the
 * accuracy of the single-process run (within one point), with one process reporting.
 */
// Zod's OpenAPI extension before any schema is built (the app's route schemas call .openapi()).
import "@hono/zod-openapi";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { Db } from "@/lib/server/db/client";
import { getDb } from "@/lib/server/db/client";
import { pythonArgs } from "@/lib/server/modules/training/executors/pytorch";
import { startDatasetTestApp } from "../api/datasets-helpers";
import {
  config,
  type JobRun,
  models,
  type Receiver,
  runJob,
  series,
  startReceiver,
} from "./training-fixtures";

await startDatasetTestApp("layerline-data-parallel-blobs");
const db: Db = await getDb();
const receiver: Receiver = await startReceiver();
const root = fs.mkdtempSync(path.join(os.tmpdir(), "layerline-data-parallel-"));
afterAll(async () => {
  await receiver.close();
  fs.rmSync(root, { recursive: true, force: true });
});

function bestValidationAccuracy(run: JobRun): number {
  expect(run.result, run.result.stderrTail.slice(-2000)).toMatchObject({ exitCode: 0, timedOut: false });
  return Math.max(...series(run.uploads, "val_accuracy").map((p) => p.value));
}

describe("data_parallel (torchrun, DistributedDataParallel)", () => {
  it("launches train.py with torch.distributed.run for data_parallel, plainly otherwise", () => {
    expect(pythonArgs("single", ["--epochs", "1"])).toEqual(["train.py", "--epochs", "1"]);
    expect(pythonArgs(undefined, [])).toEqual(["train.py"]);
    expect(pythonArgs("data_parallel", ["--epochs", "1"])).toEqual([
      "-m",
      "torch.distributed.run",
      "--standalone",
      "--nproc_per_node=2",
      "--redirects=9:0",
      "--tee=9:0",
      "train.py",
      "--epochs",
      "1",
    ]);
  });

  it("Iris MLP: 2 CPU processes reach the single-process validation accuracy (within 1 point)", async () => {
    const job = {
      runtime: "pytorch" as const,
      graph: models.irisMlp(),
      config: config({ epochs: 60, batch_size: 16, learning_rate: 0.01 }),
      datasetId: "builtin-iris",
      datasetVersionId: "builtin-iris-v1",
    };
    const [single, parallel] = await Promise.all([
      runJob(db, receiver, root, job),
      runJob(db, receiver, root, { ...job, strategy: "data_parallel" }),
    ]);
    const one = bestValidationAccuracy(single);
    const two = bestValidationAccuracy(parallel);
    console.info(`Iris MLP best val_accuracy: single ${one.toFixed(4)}, data_parallel ×2 ${two.toFixed(4)}`);
    expect(two).toBeGreaterThanOrEqual(one - 0.01);
    // One process reports: one status pair, one metric per epoch, one checkpoint per epoch, one artifact.
    const statuses = parallel.uploads.events.filter((e) => e.kind === "status").map((e) => e.status);
    expect(statuses).toEqual(["running", "succeeded"]);
    expect(series(parallel.uploads, "val_accuracy")).toHaveLength(60);
    expect(parallel.uploads.checkpoints.map((c) => c.epoch)).toEqual(
      Array.from({ length: 60 }, (_, i) => i + 1),
    );
    expect([...parallel.uploads.artifacts.keys()].sort()).toEqual(["model.onnx", "weights.pt"]);
    expect(parallel.lines.filter((l) => l.includes('"event": "epoch"'))).toHaveLength(60);
  }, 240_000);

  it("digits CNN (8×8 images): 2 processes reach the single-process accuracy", async () => {
    const job = {
      runtime: "pytorch" as const,
      graph: models.digitsCnn(),
      config: config({ epochs: 8, batch_size: 32, learning_rate: 0.003 }),
      datasetId: "builtin-digits",
      datasetVersionId: "builtin-digits-v1",
    };
    const [single, parallel] = await Promise.all([
      runJob(db, receiver, root, job),
      runJob(db, receiver, root, { ...job, strategy: "data_parallel" }),
    ]);
    const one = bestValidationAccuracy(single);
    const two = bestValidationAccuracy(parallel);
    console.info(
      `digits CNN best val_accuracy: single ${one.toFixed(4)}, data_parallel ×2 ${two.toFixed(4)}`,
    );
    expect(two).toBeGreaterThanOrEqual(one - 0.01);
  }, 240_000);
});
