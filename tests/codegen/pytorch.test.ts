/**
 * Runs every generated PyTorch project of the corpus in real PyTorch (Debian's python3-torch under
 * /usr/bin/python3): forward pass, output shape and parameter counts against Layerline's inference,
 * one epoch of training. Fails (never skips) when torch cannot be imported.
 */
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { codegenCorpus } from "@/lib/ml/codegen/corpus";
import { generatePytorchProject } from "@/lib/ml/codegen/pytorch";
import {
  expectedFor,
  IRIS_SPECIES,
  jsonLines,
  run,
  runHarness,
  startMetricsReceiver,
  tempRoot,
  writeIrisLikeCsv,
  writeProject,
} from "./codegen-fixtures";

const PYTHON = "/usr/bin/python3";
const HARNESS = path.resolve("tests/codegen/verify_pytorch.py");
const SHARDS = 2;

async function requireTorch(): Promise<void> {
  try {
    await run(PYTHON, ["-c", "import torch, numpy"], { timeout: 60_000 });
  } catch (error) {
    throw new Error(
      `${PYTHON} cannot import torch and numpy: install Debian's python3-torch ` +
        `(apt-get install -y python3-torch); CI installs it. ${(error as Error).message}`,
    );
  }
}

const root = tempRoot("layerline-codegen-pytorch-");
const corpus = codegenCorpus();

describe("generated PyTorch projects", () => {
  it("match Layerline's output shapes and parameter counts exactly, and train for an epoch", async () => {
    await requireTorch();
    const args = corpus.map((entry) => {
      const dir = writeProject(
        root,
        entry.id,
        generatePytorchProject(entry.graph, entry.training, { projectName: entry.id }),
      );
      return [dir, JSON.stringify(expectedFor(entry, "pytorch"))];
    });
    // Few processes (importing torch costs 1-2 s each), in parallel on the available cores.
    const shards = Array.from({ length: SHARDS }, (_, s) => args.filter((_, i) => i % SHARDS === s).flat());
    const results = (
      await Promise.all(shards.map((shard) => runHarness(PYTHON, [HARNESS, ...shard], { timeout: 300_000 })))
    ).flat();
    expect(results.map((r) => r.id).sort()).toEqual(corpus.map((c) => c.id).sort());
    for (const result of results) {
      expect(result.errors, result.id).toEqual([]);
      expect(result.exit_code, result.id).toBe(0);
      expect(Number.isFinite(result.loss), result.id).toBe(true);
    }
  }, 360_000);

  it("train from a CSV on the command line and upload status, each epoch's events and checkpoints", async () => {
    await requireTorch();
    const iris = corpus.find((c) => c.id === "mlp");
    if (!iris) throw new Error("corpus changed");
    const dir = writeProject(
      root,
      "cli-csv",
      generatePytorchProject(iris.graph, iris.training, { projectName: "Iris" }),
    );
    writeIrisLikeCsv(dir);
    const receiver = await startMetricsReceiver();
    const { received } = receiver;
    try {
      const { stdout } = await run(
        PYTHON,
        [
          "train.py",
          "--data",
          "data.csv",
          "--target",
          "species",
          "--epochs",
          "2",
          "--job",
          "job 1",
          "--token",
          "lut_abc",
          "--api",
          `${receiver.url}/`,
        ],
        { cwd: dir, timeout: 120_000 },
      );
      const records = jsonLines(stdout);
      expect(records[0]).toEqual({ event: "classes", classes: IRIS_SPECIES });
      const epochs = records.filter((r) => r.event === "epoch");
      expect(epochs.map((e) => e.epoch)).toEqual([1, 2]);
      for (const e of epochs) {
        expect(Object.keys(e).sort()).toEqual(
          ["accuracy", "best", "epoch", "event", "loss", "seconds", "val_accuracy", "val_loss"].sort(),
        );
      }
      expect(records.at(-1)).toMatchObject({ event: "done" });
      expect(fs.existsSync(path.join(dir, "checkpoints", "best.pt"))).toBe(true);
      // Only the latest epoch's checkpoint is kept on disk.
      expect(fs.readdirSync(path.join(dir, "checkpoints")).sort()).toEqual(["best.pt", "epoch-2.pt"]);
    } finally {
      receiver.close();
    }
    // Status, each epoch's events and checkpoint, then the final status (no --export-dir: no model file).
    expect(received.map((r) => `${r.method} ${r.url?.replace(/\?.*/, "")}`)).toEqual([
      "POST /api/v1/training/jobs/job%201/metrics/events",
      "POST /api/v1/training/jobs/job%201/metrics/events",
      "POST /api/v1/training/jobs/job%201/checkpoints",
      "POST /api/v1/training/jobs/job%201/metrics/events",
      "POST /api/v1/training/jobs/job%201/checkpoints",
      "POST /api/v1/training/jobs/job%201/metrics/events",
    ]);
    expect(new Set(received.map((r) => r.auth))).toEqual(new Set(["Bearer lut_abc"]));
    expect(received[0].body.events).toEqual([{ kind: "status", status: "running" }]);
    expect(received.at(-1)?.body.events).toEqual([{ kind: "status", status: "succeeded" }]);
    const epoch2 = received[3].body.events;
    expect(epoch2.filter((e) => e.kind === "metric").map((e) => e.name)).toEqual([
      "loss",
      "accuracy",
      "val_loss",
      "val_accuracy",
    ]);
    expect(epoch2[0]).toMatchObject({ kind: "metric", epoch: 2, step: 4, id: "m-2-loss" });
    expect(epoch2[0].timestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(epoch2.slice(4)).toEqual([
      { kind: "progress", epoch: 2, epochs: 2, step: 4, steps: 4, id: "p-2-4" },
      expect.objectContaining({
        kind: "log",
        level: "info",
        id: "l-2",
        message: expect.stringMatching(/^epoch 2\/2: loss /),
      }),
    ]);
    const checkpoint = new URL(received[4].url ?? "", "http://x").searchParams;
    expect(checkpoint.get("epoch")).toBe("2");
    expect(checkpoint.get("step")).toBe("4");
    expect(JSON.parse(checkpoint.get("metrics") ?? "{}")).toHaveProperty("val_loss");
    expect(received[4].bytes).toBeGreaterThan(1000);
  }, 180_000);
});
