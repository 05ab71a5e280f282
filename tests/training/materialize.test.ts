/**
 * Materialising datasets for training and telling which datasets fit a model: roles, splits,
 * statistics from the training rows only, one-hot categories, imputed numbers, scaled pixels,
 * standardised regression targets, character tokens, and the reasons a dataset does not fit. The
 * serving side (artifact-reader's encodeInstances) must encode raw rows exactly as training did.
 */
// Zod's OpenAPI extension before any schema is built (the app's route schemas call .openapi()).
import "@hono/zod-openapi";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { sequential } from "@/lib/ml/graph-builder";
import type { ArchitectureGraph } from "@/lib/ml/graph-types";
import { analyzeGraph } from "@/lib/ml/infer-graph";
import type { Db } from "@/lib/server/db/client";
import { getDb } from "@/lib/server/db/client";
import type { Preprocessing } from "@/lib/server/db/schema/training";
import { ValidationError } from "@/lib/server/errors";
import { BUILTIN_DATASETS, builtinVersionData, findBuiltin } from "@/lib/server/modules/datasets/builtin";
import { buildManifest, decodeOutputs, encodeInstances } from "@/lib/server/modules/training/artifact-reader";
import { describeDatasetFit } from "@/lib/server/modules/training/dataset-fit";
import { materializeDataset } from "@/lib/server/modules/training/materialize";
import { startDatasetTestApp, upload } from "../api/datasets-helpers";
import { signUpWithKey } from "../helpers";
import { config, models, readCsvObjects, splitRows } from "./training-fixtures";

const { app } = await startDatasetTestApp("layerline-materialize-blobs");
const db: Db = await getDb();
const root = fs.mkdtempSync(path.join(os.tmpdir(), "layerline-materialize-"));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

const mlp = (inputs: number, outputs: number, loss = "cross_entropy") =>
  sequential(
    { shape: [inputs] },
    [
      ["Dense", { units: 8, activation: "relu" }],
      ["Dense", { units: outputs }],
    ],
    {
      loss,
    },
  ).graph;

async function fitOf(graph: ArchitectureGraph, builtinId: string) {
  const b = findBuiltin(builtinId);
  if (!b) throw new Error(builtinId);
  const data = await builtinVersionData(b);
  return describeDatasetFit(graph, analyzeGraph(graph), {
    task: b.task,
    roles: {},
    schema: data.schema,
    profile: data.profile,
    target: b.target,
    image: b.image ?? null,
  });
}

async function materialize(graph: ArchitectureGraph, datasetId: string, overrides = {}, ownerId = "nobody") {
  const dir = fs.mkdtempSync(path.join(root, "data-"));
  const p = await materializeDataset(db, {
    ownerId,
    datasetId,
    datasetVersionId: `${datasetId}-v1`,
    graph,
    config: config(overrides),
    dir,
  });
  return { p, dir };
}

function readFloats(dir: string, file: string): Float32Array {
  const bytes = fs.readFileSync(path.join(dir, file));
  return new Float32Array(bytes.buffer, bytes.byteOffset, bytes.byteLength / 4);
}

function manifestOf(p: Preprocessing) {
  return buildManifest({
    format: "onnx",
    producer: "pytorch",
    preprocessing: p,
    metrics: {},
    jobId: "job",
    projectId: "project",
    architectureVersionId: null,
    datasetId: "d",
    datasetVersionId: "v",
    files: [],
  });
}

describe("describeDatasetFit", () => {
  it("says which built-in datasets fit a model, and why the others do not", async () => {
    expect(await fitOf(models.irisMlp(), "builtin-iris")).toEqual({
      fits: true,
      task: "classification",
      features: 4,
      classes: 3,
    });
    expect(await fitOf(models.digitsCnn(), "builtin-digits")).toMatchObject({
      fits: true,
      features: 64,
      classes: 10,
    });
    expect(await fitOf(mlp(9, 3), "builtin-penguins")).toMatchObject({ fits: true, features: 9 });
    expect(await fitOf(mlp(10, 1, "mse"), "builtin-diabetes")).toMatchObject({
      fits: true,
      task: "regression",
    });
    expect(await fitOf(mlp(30, 1, "binary_cross_entropy"), "builtin-breast-cancer")).toMatchObject({
      fits: true,
      task: "binary_classification",
    });
    expect(await fitOf(models.charLstm(), "builtin-declaration")).toMatchObject({
      fits: true,
      task: "language_modeling",
    });

    const reasons = {
      width: await fitOf(models.irisMlp(), "builtin-digits"),
      classes: await fitOf(mlp(4, 5), "builtin-iris"),
      onehot: await fitOf(mlp(6, 3), "builtin-penguins"),
      regression: await fitOf(mlp(10, 3), "builtin-diabetes"),
      text: await fitOf(models.irisMlp(), "builtin-declaration"),
      tokens: await fitOf(models.charLstm(), "builtin-iris"),
      vocabulary: await fitOf(models.charLstm(10), "builtin-declaration"),
    };
    expect(reasons.width).toEqual({
      fits: false,
      reason: "The model's Input takes 4 values per sample [4]; the dataset gives 64.",
    });
    expect(reasons.classes).toMatchObject({ fits: false, reason: expect.stringContaining("has 3 classes") });
    expect(reasons.onehot).toMatchObject({
      fits: false,
      reason: expect.stringContaining("the dataset gives 9 (island one-hot ×3, sex one-hot ×2)"),
    });
    expect(reasons.regression).toMatchObject({
      fits: false,
      reason: expect.stringContaining("regression target"),
    });
    expect(reasons.text).toMatchObject({
      fits: false,
      reason: expect.stringContaining("this is a text dataset"),
    });
    expect(reasons.tokens).toMatchObject({ fits: false, reason: expect.stringContaining("token ids") });
    expect(reasons.vocabulary).toMatchObject({
      fits: false,
      reason: expect.stringMatching(/at least \d+ units/),
    });
    expect(BUILTIN_DATASETS.length).toBeGreaterThan(5);
  });
});

describe("materializeDataset", () => {
  it("scales the digits' pixels, records every step and writes the documented files", async () => {
    const { p, dir } = await materialize(models.digitsCnn(), "builtin-digits", {
      validation_split: 0.2,
      seed: 7,
    });
    expect(p.steps.map((s) => s.kind)).toEqual([
      "select_columns",
      "drop_missing",
      "split",
      "impute",
      "scale",
      "encode_labels",
      "reshape",
    ]);
    expect(p.steps.find((s) => s.kind === "scale")).toMatchObject({ factor: 1 / 16 });
    expect(p.steps.find((s) => s.kind === "split")).toEqual({
      kind: "split",
      method: "random",
      seed: 7,
      train: 1438,
      validation: 359,
      test: 0,
    });
    const info = JSON.parse(fs.readFileSync(path.join(dir, "dataset.json"), "utf8"));
    expect(info).toMatchObject({
      format: "layerline-prepared-dataset",
      version: 1,
      task: "classification",
      x: { dtype: "float32", shape: [64] },
      y: { dtype: "int32", shape: [] },
      splits: {
        train: { rows: 1438, x: "x_train.bin", y: "y_train.bin", index: "i_train.bin" },
        validation: { rows: 359, x: "x_val.bin", y: "y_val.bin", index: "i_val.bin" },
      },
    });
    expect(info.splits.test).toBeUndefined();
    expect(fs.statSync(path.join(dir, "x_train.bin")).size).toBe(1438 * 64 * 4);
    const x = readFloats(dir, "x_train.bin");
    expect(Math.max(...x)).toBeLessThanOrEqual(1);
    expect(Math.min(...x)).toBeGreaterThanOrEqual(0);
    // Same seed, same split; another seed, another split.
    const again = await materialize(models.digitsCnn(), "builtin-digits", { validation_split: 0.2, seed: 7 });
    expect(splitRows(again.dir, "validation")).toEqual(splitRows(dir, "validation"));
    const other = await materialize(models.digitsCnn(), "builtin-digits", { validation_split: 0.2, seed: 8 });
    expect(splitRows(other.dir, "validation")).not.toEqual(splitRows(dir, "validation"));
  });

  it("one-hot encodes categories and imputes missing numbers with training statistics; serving encodes raw rows identically", async () => {
    const { p, dir } = await materialize(mlp(9, 3), "builtin-penguins");
    expect(p.input_features).toEqual([
      "island=Biscoe",
      "island=Dream",
      "island=Torgersen",
      "bill_length_mm",
      "bill_depth_mm",
      "flipper_length_mm",
      "body_mass_g",
      "sex=female",
      "sex=male",
    ]);
    expect(p.raw_features[0]).toEqual({
      name: "island",
      type: "category",
      categories: ["Biscoe", "Dream", "Torgersen"],
    });
    expect(p.labels).toEqual(["Adelie", "Chinstrap", "Gentoo"]);
    const train = readFloats(dir, "x_train.bin");
    // Standardised with the training rows' statistics: mean 0 there.
    const column = (k: number) => Array.from({ length: p.rows.train }, (_, i) => train[i * 9 + k]);
    const mean = column(3).reduce((a, b) => a + b, 0) / p.rows.train;
    expect(Math.abs(mean)).toBeLessThan(1e-5);

    const rows = readCsvObjects("data/builtin/penguins.csv");
    const validation = splitRows(dir, "validation").map((r) => {
      const { species: _species, ...features } = rows[r];
      return features;
    });
    expect(validation.some((r) => r.bill_length_mm === null)).toBe(true);
    const encoded = encodeInstances(manifestOf(p), validation);
    const written = readFloats(dir, "x_val.bin");
    expect(encoded.values.length).toBe(written.length);
    const largest = Math.max(...encoded.values.map((v, i) => Math.abs(v - written[i])));
    expect(largest).toBeLessThan(1e-5);

    expect(() => encodeInstances(manifestOf(p), [{ island: "Dream" }])).toThrow(
      /Instance 0: missing feature “bill_length_mm”/,
    );
    expect(() => encodeInstances(manifestOf(p), [{ ...validation[0], body_mass_g: "heavy" }])).toThrow(
      ValidationError,
    );
  });

  it("standardises a regression target and decodes predictions back to its units", async () => {
    const { p, dir } = await materialize(mlp(10, 1, "mse"), "builtin-diabetes");
    const target = p.steps.find((s) => s.kind === "standardize_target");
    expect(target).toMatchObject({ kind: "standardize_target", column: "target" });
    const y = readFloats(dir, "y_train.bin");
    expect(Math.abs(y.reduce((a, b) => a + b, 0) / y.length)).toBeLessThan(1e-4);
    if (target?.kind !== "standardize_target") throw new Error("no target step");
    expect(decodeOutputs(manifestOf(p), Float32Array.of(0, 1), 2)).toEqual([
      { value: expect.closeTo(target.mean, 4) },
      { value: expect.closeTo(target.mean + target.std, 4) },
    ]);
  });

  it("turns a text into character windows, split by position", async () => {
    const { p, dir } = await materialize(models.charLstm(), "builtin-declaration", { validation_split: 0.2 });
    const tokens = p.steps.find((s) => s.kind === "char_tokens");
    expect(tokens).toMatchObject({ sequence_length: 16 });
    expect(p.labels).toHaveLength(96);
    expect(p.steps.find((s) => s.kind === "split")).toMatchObject({ method: "sequential" });
    const bytes = fs.readFileSync(path.join(dir, "x_train.bin"));
    expect(bytes.byteLength).toBe(p.rows.train * 16 * 4);
    const encoded = encodeInstances(manifestOf(p), [{ text: "We hold these truths" }]);
    expect(encoded.values).toBeInstanceOf(Int32Array);
    expect(encoded.values.length).toBe(16);
  });

  it("refuses a dataset that does not fit, with the reason", async () => {
    await expect(materialize(mlp(4, 5), "builtin-iris")).rejects.toThrow(
      /The target “species” has 3 classes but the model's Output gives 5 logits/,
    );
    await expect(materialize(models.irisMlp(), "builtin-digits")).rejects.toBeInstanceOf(ValidationError);
    // An uploaded table without a target role (no column could be guessed as one).
    const { key, user } = await signUpWithKey(app);
    const ds = await upload(app, key, "a,b,c\n1.5,2.5,3.5\n3.25,4.5,5.75\n", "t.csv");
    expect(ds.status).toBe(201);
    await expect(
      materializeDataset(db, {
        ownerId: user.id,
        datasetId: ds.json.dataset.id,
        datasetVersionId: ds.json.version.id,
        graph: mlp(2, 2),
        config: config({}),
        dir: path.join(root, "no-target"),
      }),
    ).rejects.toThrow(/no target column/);
    // Another account's private dataset is not found.
    await expect(
      materializeDataset(db, {
        ownerId: "someone-else",
        datasetId: ds.json.dataset.id,
        datasetVersionId: ds.json.version.id,
        graph: mlp(2, 2),
        config: config({}),
        dir: path.join(root, "other"),
      }),
    ).rejects.toThrow(/not found/);
  });

  it("fine-tuning a table model: the base model's statistics when the features are the same", async () => {
    const { user } = await signUpWithKey(app);
    const features = Array.from({ length: 64 }, (_, i) => `pixel_${Math.floor(i / 8)}_${i % 8}`);
    const scaled = {
      features,
      impute: features.map(() => 5),
      transform: { kind: "scale" as const, factor: 0.0625 },
    };
    // The built-in digits are scaled anyway: an inherited standardisation is what shows.
    const mean = features.map(() => 4);
    const standardized = {
      ...scaled,
      transform: { kind: "standardize" as const, mean, std: features.map(() => 2) },
    };
    const graph = models.digitsCnn();
    const run = async (encoding: typeof scaled | typeof standardized) => {
      const dir = fs.mkdtempSync(path.join(root, "inherit-"));
      const p = await materializeDataset(db, {
        ownerId: user.id,
        datasetId: "builtin-digits",
        datasetVersionId: "builtin-digits-v1",
        graph,
        config: config({}),
        dir,
        encoding,
      });
      return { p, x: readFloats(dir, "x_train.bin"), dir };
    };
    const a = await run(standardized);
    expect(a.p.steps.find((st) => st.kind === "standardize")).toMatchObject({ source: "base_model", mean });
    expect(a.p.steps.find((st) => st.kind === "impute")).toMatchObject({ values: features.map(() => 5) });
    const plain = await materialize(graph, "builtin-digits");
    const raw = readFloats(plain.dir, "x_train.bin").map((v) => v * 16);
    expect(Math.max(...a.x.map((v, i) => Math.abs(v - (raw[i] - 4) / 2)))).toBeLessThan(1e-4);
    // Serving encodes raw rows the same way.
    const rows = readCsvObjects("data/builtin/digits.csv");
    const first = splitRows(a.dir, "train")
      .slice(0, 3)
      .map((r) => {
        const { digit: _digit, ...pixels } = rows[r];
        return pixels;
      });
    const served = encodeInstances(manifestOf(a.p), first).values;
    expect(Math.max(...Array.from(served, (v, i) => Math.abs(v - a.x[i])))).toBeLessThan(1e-5);

    const b = await run(scaled);
    expect(b.p.steps.find((st) => st.kind === "scale")).toMatchObject({
      factor: 0.0625,
      source: "base_model",
    });
    // Other feature names: the dataset's own statistics, as for any job.
    const c = await run({ ...standardized, features: features.map((f) => `x_${f}`) });
    expect(c.p.steps.find((st) => st.kind === "scale")).toMatchObject({ factor: 1 / 16 });
    expect(c.p.steps.some((st) => "source" in st)).toBe(false);
  });

  it("fine-tuning a language model: the base vocabulary, characters outside it dropped and counted", async () => {
    const vocabulary = [" ", ...Array.from("abcdefghijklmnopqrstuvwxyz")];
    const dir = fs.mkdtempSync(path.join(root, "vocab-"));
    const p = await materializeDataset(db, {
      ownerId: "nobody",
      datasetId: "builtin-declaration",
      datasetVersionId: "builtin-declaration-v1",
      graph: models.charLstm(),
      config: config({ validation_split: 0.2 }),
      dir,
      vocabulary,
    });
    const tokens = p.steps.find((st) => st.kind === "char_tokens");
    expect(tokens).toMatchObject({ vocabulary, source: "base_model" });
    const text = fs
      .readFileSync("data/builtin/declaration_of_independence.txt", "utf8")
      .replace(/\r?\n$/, "");
    const outside = Array.from(text).filter((ch) => !vocabulary.includes(ch)).length;
    expect(tokens && "dropped" in tokens ? tokens.dropped : -1).toBe(outside);
    expect(p.labels?.slice(0, vocabulary.length)).toEqual(vocabulary);
    const ids = new Int32Array(fs.readFileSync(path.join(dir, "x_train.bin")).buffer.slice(0));
    expect(Math.max(...ids)).toBeLessThan(vocabulary.length);
  });
});
