/**
 * Builds every TensorFlow.js-compatible corpus model with @tensorflow/tfjs (cpu backend) in Node:
 * output shape, trainable parameters and model.countParams() against Layerline's inference, one
 * epoch of training on synthetic data, checkpoint reload. Graphs TF.js cannot express must be
 * refused with the list of offending layers.
 */
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { codegenCorpus } from "@/lib/ml/codegen/corpus";
import { validateForCodegen } from "@/lib/ml/codegen/plan";
import { generateTfjsProject } from "@/lib/ml/codegen/tfjs";
import { CodegenValidationError } from "@/lib/ml/codegen/types";
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

const HARNESS = path.resolve("tests/codegen/verify_tfjs.mjs");
const SHARDS = 2;

const root = tempRoot("layerline-codegen-tfjs-", true);
const corpus = codegenCorpus();
const supported = corpus.filter((c) => validateForCodegen(c.graph, c.training, "tfjs").valid);

describe("generated TensorFlow.js projects", () => {
  it("refuse what TF.js cannot train, listing the layers", () => {
    for (const entry of corpus.filter((c) => !supported.includes(c))) {
      expect(() => generateTfjsProject(entry.graph, entry.training), entry.id).toThrow(
        CodegenValidationError,
      );
    }
    expect(supported.length).toBe(corpus.length - 1);
  });

  it("match Layerline's output shapes and parameter counts, train for an epoch and reload", async () => {
    const args = supported.map((entry) => {
      const project = generateTfjsProject(entry.graph, entry.training, { projectName: entry.id });
      return [writeProject(root, entry.id, project), JSON.stringify(expectedFor(entry, "tfjs"))];
    });
    // Round-robin: the two slowest graphs (the 10,000-token templates) are adjacent, so they run in parallel.
    const shards = Array.from({ length: SHARDS }, (_, s) => args.filter((_, i) => i % SHARDS === s).flat());
    const results = (
      await Promise.all(
        shards.map((shard) =>
          runHarness(process.execPath, [HARNESS, ...shard], { cwd: root, timeout: 300_000 }),
        ),
      )
    ).flat();
    expect(results.map((r) => r.id).sort()).toEqual(supported.map((c) => c.id).sort());
    for (const result of results) {
      expect(result.errors, result.id).toEqual([]);
      expect(Number.isFinite(result.loss), result.id).toBe(true);
    }
  }, 360_000);

  it("is formatted and lint-clean by the repository's formatter (biome)", async () => {
    const dir = tempRoot("layerline-codegen-biome-");
    for (const entry of supported) {
      writeProject(
        dir,
        entry.id,
        generateTfjsProject(entry.graph, entry.training, { projectName: entry.id }),
      );
    }
    fs.writeFileSync(
      path.join(dir, "biome.json"),
      JSON.stringify({
        formatter: { enabled: true, indentStyle: "space", indentWidth: 2, lineWidth: 100 },
        linter: {
          enabled: true,
          rules: { correctness: { noUnusedVariables: "error", noUnusedImports: "error" } },
        },
        javascript: { formatter: { quoteStyle: "double" } },
      }),
    );
    const biome = path.resolve("node_modules/.bin/biome");
    const files = fs
      .readdirSync(dir, { recursive: true, encoding: "utf8" })
      .filter((f) => /\.(mjs|json)$/.test(f));
    await run(biome, ["check", "--max-diagnostics=20", ...files.filter((f) => f !== "biome.json")], {
      cwd: dir,
      timeout: 60_000,
    }).catch((error: { stdout?: string; stderr?: string }) => {
      throw new Error(`biome check failed:\n${error.stdout ?? ""}${error.stderr ?? ""}`);
    });
  }, 60_000);

  it("train from a CSV on the command line and upload status, each epoch's events and checkpoints", async () => {
    const iris = corpus.find((c) => c.id === "mlp");
    if (!iris) throw new Error("corpus changed");
    const dir = writeProject(
      root,
      "cli-csv",
      generateTfjsProject(iris.graph, iris.training, { projectName: "Iris" }),
    );
    writeIrisLikeCsv(dir, { quoteLabels: true, crlf: true });
    const receiver = await startMetricsReceiver();
    const { received } = receiver;
    try {
      const { stdout } = await run(
        process.execPath,
        [
          "train.mjs",
          "--data",
          "data.csv",
          "--target",
          "species",
          "--epochs",
          "2",
          "--job",
          "job_1",
          "--token",
          "lut_abc",
          "--api",
          receiver.url,
        ],
        { cwd: dir, timeout: 120_000 },
      );
      const records = jsonLines(stdout);
      expect(records[0]).toEqual({ event: "classes", classes: IRIS_SPECIES });
      expect(records.filter((r) => r.event === "epoch").map((r) => r.epoch)).toEqual([1, 2]);
      expect(records.at(-1)).toMatchObject({ event: "done", checkpoint: path.join("checkpoints", "best") });
      expect(fs.existsSync(path.join(dir, "checkpoints", "best", "model.json"))).toBe(true);
    } finally {
      receiver.close();
    }
    expect(received.map((r) => `${r.method} ${r.url?.replace(/\?.*/, "")}`)).toEqual([
      "POST /api/v1/training/jobs/job_1/metrics/events",
      "POST /api/v1/training/jobs/job_1/metrics/events",
      "POST /api/v1/training/jobs/job_1/checkpoints",
      "POST /api/v1/training/jobs/job_1/metrics/events",
      "POST /api/v1/training/jobs/job_1/checkpoints",
      "POST /api/v1/training/jobs/job_1/metrics/events",
    ]);
    expect(received[0]).toMatchObject({
      auth: "Bearer lut_abc",
      body: { events: [{ kind: "status", status: "running" }] },
    });
    expect(received.at(-1)?.body.events).toEqual([{ kind: "status", status: "succeeded" }]);
    const epoch2 = received[3].body.events;
    expect(epoch2.filter((e) => e.kind === "metric").map((e) => e.name)).toEqual([
      "loss",
      "accuracy",
      "val_loss",
      "val_accuracy",
    ]);
    expect(epoch2[0]).toMatchObject({ kind: "metric", epoch: 2, step: 4, id: "m-2-loss" });
    expect(epoch2.slice(4).map((e) => e.kind)).toEqual(["progress", "log"]);
    expect(received[4].url).toMatch(/checkpoints\?epoch=2&step=4&best=(true|false)&metrics=/);

    const usage = await run(process.execPath, ["train.mjs", "--epochs", "2"], { cwd: dir }).catch(
      (error: { code?: number; stderr?: string }) => error,
    );
    expect(usage).toMatchObject({ code: 2, stderr: expect.stringContaining("--data FILE or --synthetic N") });
  }, 120_000);
});
