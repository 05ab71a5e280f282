/**
 * How the curated base models are pretrained (scripts/build-catalog.ts) and how their held-out
 * figures are checked (tests/training/catalog-weights.test.ts): each model's architecture, training
 * configuration and the prepared dataset (lib/ml/codegen/README.md, "Prepared dataset") it is
 * trained on, with train / validation / test splits. Everything is seeded, so preparing a model's
 * data twice gives the same bytes.
 *
 * Tables are prepared by materializeDataset (the preprocessing a training job applies): its seeded
 * validation split becomes the held-out test split, and the rest is split again (seeded) into
 * train and validation (the validation rows choose the best epoch). The digits model keeps the
 * rows of digits 0–4 only. The picture model's digits are drawn as PNG files (datasets/digit-pictures.ts)
 * and prepared as an image ZIP job prepares pictures (decodeImage to uint8 C×H×W, the per-channel
 * mean and std of the training pictures in an `image` step), so that a fine-tuning run on a user's
 * image ZIP decodes and normalises its pictures the same way. Text uses a fixed vocabulary (printable ASCII and the newline), so that
 * any English ASCII text can be encoded with the base model's own vocabulary when it is fine-tuned.
 *
 * Past ~400 lines: most of it is the list of curated models (data), not logic.
 */
import fs from "node:fs";
import path from "node:path";
import type { BaseModelTask } from "../../../ml/catalog/types";
import { GraphBuilder } from "../../../ml/graph-builder";
import type { ArchitectureGraph, LayerType, TrainingConfig } from "../../../ml/graph-types";
import { DEFAULT_IMAGE_RESIZE, DEFAULT_TRAINING_CONFIG } from "../../../ml/graph-types";
import type { Db } from "../../db/client";
import type { Preprocessing } from "../../db/schema/training";
import { builtinPath, builtinVersionData, builtinVersionId, findBuiltin } from "../datasets/builtin";
import { digitRows, drawDigit } from "../datasets/digit-pictures";
import { decodeImage } from "../datasets/image-decode";
import { materializeDataset } from "./materialize";

export const CATALOG_SEED = 42;
/** Fraction of the rows (or of the text) held out as the test split. */
export const TEST_FRACTION = 0.2;
/** Fraction of the remaining rows (or text) used as the validation split. */
export const VALIDATION_FRACTION = 0.15;

/** Printable ASCII (space to tilde) and the newline, in code-point order: 96 characters. */
export const ASCII_VOCABULARY: readonly string[] = [
  "\n",
  ...Array.from({ length: 95 }, (_, i) => String.fromCharCode(32 + i)),
];

export interface PretrainSpec {
  id: string;
  name: string;
  task: BaseModelTask;
  description: string;
  graph: ArchitectureGraph;
  config: TrainingConfig;
  /** Node ids of the head (the layers a fine-tuning run replaces when its labels differ). */
  head: string[];
  input: string;
  output: string;
  /** The licence of the weights; the data's licence is added from the dataset. */
  weightsLicense: string;
  dataset: { id: string; description: string; attribution: string; license: string };
  /** Tables: keep only rows whose label is one of these (in this order)... */
  keepLabels?: string[];
  /** ...after materialising the whole dataset for this graph (its head sized to every label). */
  prepareGraph?: ArchitectureGraph;
  /** Text: characters of context per window. */
  sequenceLength?: number;
  /**
   * Pictures: the built-in digits of these classes drawn as `size`×`size` grayscale PNGs
   * (datasets/digit-pictures.ts) and prepared through the image path (decodeImage, uint8 pixels, the
   * per-channel statistics of the training pictures), as an image ZIP job prepares its pictures.
   */
  pictures?: { digits: number[]; size: number };
}

const cfg = (overrides: Partial<TrainingConfig>): TrainingConfig => ({
  ...DEFAULT_TRAINING_CONFIG,
  seed: CATALOG_SEED,
  validation_split: TEST_FRACTION,
  ...overrides,
});

type Layer = [id: string, type: LayerType, params: Record<string, unknown>];

/** Input → layers → Output, with the given node ids (the generated code names layers after them). */
function chain(
  input: { shape: number[]; dtype?: "float32" | "int64" },
  layers: Layer[],
  output: Record<string, unknown> = { loss: "cross_entropy" },
): ArchitectureGraph {
  const b = new GraphBuilder();
  let last = b.add("Input", { shape: input.shape, dtype: input.dtype ?? "float32" }, { id: "input" });
  for (const [id, type, params] of layers) last = b.add(type, params, { id, inputs: [last] });
  b.add("Output", output, { id: "output", inputs: [last] });
  const graph = b.build();
  // A readable top-to-bottom layout for the editor.
  graph.nodes.forEach((n, i) => {
    n.position = { x: 0, y: i * 110 };
  });
  return graph;
}

function digitsCnn(classes: number): ArchitectureGraph {
  return chain({ shape: [64] }, [
    ["reshape", "Reshape", { shape: [1, 8, 8] }],
    ["conv1", "Conv2D", { out_channels: 16, kernel_size: 3, padding: 1, activation: "relu" }],
    ["pool1", "MaxPool2D", { kernel_size: 2 }],
    ["conv2", "Conv2D", { out_channels: 32, kernel_size: 3, padding: 1, activation: "relu" }],
    ["pool2", "MaxPool2D", { kernel_size: 2 }],
    ["flatten", "Flatten", {}],
    ["fc1", "Dense", { units: 64, activation: "relu" }],
    ["head", "Dense", { units: classes }],
  ]);
}

/** The LeNet-5 of the "CNN image classifier" template (lib/ml/templates.ts), its last Dense named `head`. */
function lenet(classes: number): ArchitectureGraph {
  return chain({ shape: [1, 28, 28] }, [
    ["conv1", "Conv2D", { out_channels: 6, kernel_size: 5, padding: 2, activation: "relu" }],
    ["pool1", "MaxPool2D", { kernel_size: 2 }],
    ["conv2", "Conv2D", { out_channels: 16, kernel_size: 5, activation: "relu" }],
    ["pool2", "MaxPool2D", { kernel_size: 2 }],
    ["flatten", "Flatten", {}],
    ["fc1", "Dense", { units: 120, activation: "relu" }],
    ["fc2", "Dense", { units: 84, activation: "relu" }],
    ["head", "Dense", { units: classes }],
  ]);
}

const UCI_SKLEARN =
  "UCI Machine Learning Repository (Dua & Graff, University of California, Irvine); scikit-learn packaging (BSD-3-Clause, © the scikit-learn developers)";

export const PRETRAIN_SPECS: readonly PretrainSpec[] = [
  {
    id: "digits-cnn-0-4",
    name: "Digits CNN (pretrained on 0–4)",
    task: "image_classification",
    description:
      "A small convolutional network for 8×8 grey images, pretrained on the handwritten digits 0–4 only. Fine-tune it on 5–9 or on all ten digits: the convolutions are kept and the head is replaced.",
    graph: digitsCnn(5),
    config: cfg({ epochs: 20, batch_size: 32, learning_rate: 0.003, optimizer: "adam" }),
    head: ["head"],
    input: "8×8 grey image as 64 pixel values 0–16 (pixel_<row>_<col>, row by row), scaled to 0–1",
    output: "5 logits: digits 0–4",
    weightsLicense: "MIT (the repository's licence)",
    dataset: {
      id: "builtin-digits",
      description: "Optical Recognition of Handwritten Digits, the rows of digits 0–4",
      attribution: `Optical Recognition of Handwritten Digits (E. Alpaydin, C. Kaynak), ${UCI_SKLEARN}`,
      license: "BSD-3-Clause (scikit-learn packaging)",
    },
    keepLabels: ["0", "1", "2", "3", "4"],
    prepareGraph: digitsCnn(10),
  },
  {
    id: "digits-lenet-28",
    name: "LeNet for 28×28 pictures (pretrained on digits 0–4)",
    task: "image_classification",
    description:
      "The LeNet-5 of the CNN image classifier template, pretrained on 28×28 grayscale pictures of the handwritten digits 0–4. Fine-tune it on your own image ZIP (one folder per class): every picture is converted, resized and normalised as the base model's were, the convolutions are kept and the head is replaced when your classes differ.",
    graph: lenet(5),
    config: cfg({
      epochs: 30,
      batch_size: 32,
      learning_rate: 0.002,
      optimizer: "adam",
      resize: "stretch",
      augmentation: {
        horizontal_flip: false,
        crop_padding: 2,
        rotation_degrees: 10,
        translate: 0,
        color_jitter: 0,
      },
    }),
    head: ["head"],
    input:
      "a picture (PNG, JPEG, WebP, GIF…), converted to grayscale, stretched to 28×28, scaled to 0–1 and normalised with the pretraining pictures' mean and std",
    output: "5 logits: digits 0–4",
    weightsLicense: "MIT (the repository's licence)",
    dataset: {
      id: "builtin-digits",
      description:
        "Optical Recognition of Handwritten Digits, the digits 0–4 drawn as 28×28 grayscale pictures (white ink on black)",
      attribution: `Optical Recognition of Handwritten Digits (E. Alpaydin, C. Kaynak), ${UCI_SKLEARN}`,
      license: "BSD-3-Clause (scikit-learn packaging)",
    },
    pictures: { digits: [0, 1, 2, 3, 4], size: 28 },
  },
  {
    id: "breast-cancer-mlp",
    name: "Breast cancer classifier (MLP)",
    task: "classification",
    description:
      "A two-layer MLP on the 30 standardised cell-nucleus measurements of the Wisconsin diagnostic data (malignant or benign). Fine-tune it on your own rows with the same 30 measurements, with the same or new labels.",
    graph: chain({ shape: [30] }, [
      ["fc1", "Dense", { units: 32, activation: "relu" }],
      ["fc2", "Dense", { units: 16, activation: "relu" }],
      ["head", "Dense", { units: 2 }],
    ]),
    config: cfg({ epochs: 60, batch_size: 32, learning_rate: 0.003, optimizer: "adam" }),
    head: ["head"],
    input:
      "30 numeric measurements of a fine-needle aspirate (mean_radius … worst_fractal_dimension), standardised",
    output: "2 logits: benign, malignant",
    weightsLicense: "MIT (the repository's licence)",
    dataset: {
      id: "builtin-breast-cancer",
      description: "Breast Cancer Wisconsin (Diagnostic)",
      attribution: `Breast Cancer Wisconsin (Diagnostic) (W. H. Wolberg, W. N. Street, O. L. Mangasarian), ${UCI_SKLEARN}`,
      license: "BSD-3-Clause (scikit-learn packaging)",
    },
  },
  {
    id: "char-lstm-declaration",
    name: "Character LSTM (Declaration of Independence)",
    task: "language_modeling",
    description:
      "A character-level language model: 32 characters of context → embedding → LSTM(64) → the next character, over printable ASCII. Pretrained on an excerpt of the Declaration of Independence; fine-tune it on any English text.",
    graph: chain({ shape: [32], dtype: "int64" }, [
      ["embedding", "Embedding", { num_embeddings: ASCII_VOCABULARY.length, embedding_dim: 24 }],
      ["lstm", "LSTM", { hidden_size: 64, num_layers: 1, return_sequences: false }],
      ["head", "Dense", { units: ASCII_VOCABULARY.length }],
    ]),
    config: cfg({ epochs: 20, batch_size: 64, learning_rate: 0.01, optimizer: "adam" }),
    head: ["head"],
    input: "32 character ids from a fixed vocabulary: the newline and printable ASCII (96 characters)",
    output: "96 logits: the next character, in vocabulary order",
    weightsLicense: "MIT (the repository's licence)",
    dataset: {
      id: "builtin-declaration",
      description: "Excerpt of the United States Declaration of Independence (1776), about 3 KB",
      attribution:
        "United States Declaration of Independence (1776), transcription of the National Archives; public domain",
      license: "Public domain",
    },
    sequenceLength: 32,
  },
];

export function findPretrainSpec(id: string): PretrainSpec | undefined {
  return PRETRAIN_SPECS.find((s) => s.id === id);
}

// ---------------------------------------------------------------------------------------------
// Prepared data

export interface PreparedCatalogData {
  /** What was done to the raw data (as a training job records it). */
  preprocessing: Preprocessing;
  features: string[] | null;
  labels: string[] | null;
  vocab: string[] | null;
  rows: { train: number; validation: number; test: number };
}

type SplitName = "train" | "validation" | "test";
const SUFFIX: Record<SplitName, string> = { train: "train", validation: "val", test: "test" };

interface Split {
  x: Float32Array | Int32Array | Uint8Array;
  y: Int32Array;
  index?: Int32Array;
}

/** Seeded pseudo-random numbers in [0, 1) (mulberry32, as materialize.ts). */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function readArray(file: string, kind: "float32" | "int32"): Float32Array | Int32Array {
  const bytes = fs.readFileSync(file);
  const copy = new Uint8Array(bytes).buffer;
  return kind === "float32" ? new Float32Array(copy) : new Int32Array(copy);
}

function writeArray(file: string, values: Float32Array | Int32Array | Uint8Array): void {
  if (values instanceof Uint8Array) {
    fs.writeFileSync(file, values);
    return;
  }
  const view = new DataView(new ArrayBuffer(values.length * 4));
  values.forEach((v, i) => {
    if (values instanceof Int32Array) view.setInt32(i * 4, v, true);
    else view.setFloat32(i * 4, v, true);
  });
  fs.writeFileSync(file, new Uint8Array(view.buffer));
}

function writeDataset(
  dir: string,
  info: {
    task: Preprocessing["task"];
    xDtype: "float32" | "int32" | "uint8";
    shape: number[];
    /** uint8 pictures: the statistics train.py normalises them with (dataset.json `image`). */
    image?: {
      channels: number;
      height: number;
      width: number;
      resize: string;
      mean: number[];
      std: number[];
    };
  },
  labels: string[] | null,
  features: string[] | null,
  splits: Record<SplitName, Split>,
  preprocessing: Preprocessing,
): void {
  fs.mkdirSync(dir, { recursive: true });
  const entries: Record<string, { rows: number; x: string; y: string; index?: string }> = {};
  for (const name of ["train", "validation", "test"] as const) {
    const s = splits[name];
    const files = { x: `x_${SUFFIX[name]}.bin`, y: `y_${SUFFIX[name]}.bin` };
    writeArray(path.join(dir, files.x), s.x);
    writeArray(path.join(dir, files.y), s.y);
    entries[name] = { rows: s.y.length, ...files };
    if (s.index) {
      entries[name].index = `i_${SUFFIX[name]}.bin`;
      writeArray(path.join(dir, entries[name].index), s.index);
    }
  }
  const dataset = {
    format: "layerline-prepared-dataset",
    version: 1,
    task: info.task,
    x: { dtype: info.xDtype, shape: info.shape },
    y: { dtype: "int32", shape: [] },
    labels,
    features,
    ...(info.image ? { image: info.image } : {}),
    splits: entries,
  };
  fs.writeFileSync(path.join(dir, "dataset.json"), `${JSON.stringify(dataset, null, 2)}\n`);
  fs.writeFileSync(path.join(dir, "preprocessing.json"), `${JSON.stringify(preprocessing, null, 2)}\n`);
}

/** The samples at `picks` (sample positions) of a split. */
function take(x: Float32Array, y: Int32Array, index: Int32Array, width: number, picks: number[]): Split {
  const out = {
    x: new Float32Array(picks.length * width),
    y: new Int32Array(picks.length),
    index: new Int32Array(picks.length),
  };
  picks.forEach((p, i) => {
    out.x.set(x.subarray(p * width, (p + 1) * width), i * width);
    out.y[i] = y[p];
    out.index[i] = index[p];
  });
  return out;
}

async function prepareTable(db: Db, spec: PretrainSpec, dir: string): Promise<PreparedCatalogData> {
  const builtin = findBuiltin(spec.dataset.id);
  if (!builtin) throw new Error(`Unknown built-in dataset ${spec.dataset.id}`);
  // Materialise every class (the graph's head sized to the dataset), then keep the chosen labels.
  const raw = path.join(dir, "materialized");
  const p = await materializeDataset(db, {
    ownerId: "catalog-build",
    datasetId: builtin.id,
    datasetVersionId: builtinVersionId(builtin),
    graph: spec.prepareGraph ?? spec.graph,
    config: spec.config,
    dir: raw,
  });
  const allLabels = p.labels ?? [];
  const labels = spec.keepLabels ?? allLabels;
  const remap = new Map(labels.map((l, i) => [allLabels.indexOf(l), i] as const));
  const width = p.input_features.length;
  const load = (suffix: string) => ({
    x: readArray(path.join(raw, `x_${suffix}.bin`), "float32") as Float32Array,
    y: readArray(path.join(raw, `y_${suffix}.bin`), "int32") as Int32Array,
    index: readArray(path.join(raw, `i_${suffix}.bin`), "int32") as Int32Array,
  });
  const kept = (s: { y: Int32Array }) => Array.from(s.y.keys()).filter((i) => remap.has(s.y[i]));
  const relabel = (s: Split): Split => ({ ...s, y: s.y.map((c) => remap.get(c) ?? -1) });

  const trainPool = load("train");
  const heldOut = load("val");
  // The materialised validation rows are the held-out test split; the rest is split again.
  const test = relabel(take(heldOut.x, heldOut.y, heldOut.index, width, kept(heldOut)));
  const pool = kept(trainPool);
  const next = random(spec.config.seed + 1);
  const order = [...pool];
  for (let i = order.length - 1; i > 0; i--) {
    const j = Math.floor(next() * (i + 1));
    [order[i], order[j]] = [order[j], order[i]];
  }
  const nVal = Math.floor(order.length * VALIDATION_FRACTION);
  const byPosition = (picks: number[]) => [...picks].sort((a, b) => a - b);
  const validation = relabel(
    take(trainPool.x, trainPool.y, trainPool.index, width, byPosition(order.slice(0, nVal))),
  );
  const train = relabel(
    take(trainPool.x, trainPool.y, trainPool.index, width, byPosition(order.slice(nVal))),
  );
  const rows = { train: train.y.length, validation: validation.y.length, test: test.y.length };
  const preprocessing: Preprocessing = {
    ...p,
    labels,
    steps: p.steps.map((s) => {
      if (s.kind === "encode_labels") return { ...s, labels };
      if (s.kind === "split") return { ...s, method: "random", ...rows };
      return s;
    }),
    rows,
  };
  fs.rmSync(raw, { recursive: true, force: true });
  writeDataset(
    dir,
    { task: p.task, xDtype: "float32", shape: p.input_shape },
    labels,
    p.input_features,
    { train, validation, test },
    preprocessing,
  );
  return { preprocessing, features: p.input_features, labels, vocab: null, rows };
}

async function prepareText(spec: PretrainSpec, dir: string): Promise<PreparedCatalogData> {
  const builtin = findBuiltin(spec.dataset.id);
  if (!builtin || !spec.sequenceLength) throw new Error(`${spec.id}: not a text model`);
  const column = (await builtinVersionData(builtin)).schema.columns[0]?.name ?? "text";
  const content = fs.readFileSync(builtinPath(builtin), "utf8").replace(/\r\n/g, "\n").replace(/\n+$/, "");
  const vocab = [...ASCII_VOCABULARY];
  const index = new Map(vocab.map((ch, i) => [ch, i] as const));
  const chars = Array.from(content);
  const outside = chars.filter((ch) => !index.has(ch));
  if (outside.length > 0)
    throw new Error(`${spec.id}: characters outside the vocabulary: ${outside.join("")}`);
  // By position: train, then validation, then test (windows never straddle two splits).
  const testStart = Math.round(chars.length * (1 - TEST_FRACTION));
  const valStart = Math.round(testStart * (1 - VALIDATION_FRACTION));
  const T = spec.sequenceLength;
  const windows = (text: string[]): Split => {
    const ids = text.map((ch) => index.get(ch) ?? 0);
    const n = Math.max(0, ids.length - T);
    const x = new Int32Array(n * T);
    const y = new Int32Array(n);
    for (let w = 0; w < n; w++) {
      for (let t = 0; t < T; t++) x[w * T + t] = ids[w + t];
      y[w] = ids[w + T];
    }
    return { x, y };
  };
  const splits = {
    train: windows(chars.slice(0, valStart)),
    validation: windows(chars.slice(valStart, testStart)),
    test: windows(chars.slice(testStart)),
  };
  const rows = {
    train: splits.train.y.length,
    validation: splits.validation.y.length,
    test: splits.test.y.length,
  };
  const preprocessing: Preprocessing = {
    task: "language_modeling",
    input_features: Array.from({ length: T }, (_, i) => `token_${i}`),
    raw_features: [{ name: column, type: "text" }],
    target: null,
    labels: vocab,
    input_shape: [T],
    input_dtype: "int64",
    steps: [
      { kind: "select_columns", features: [column], target: null },
      { kind: "split", method: "sequential", seed: null, ...rows },
      { kind: "char_tokens", vocabulary: vocab, sequence_length: T },
    ],
    rows,
  };
  writeDataset(
    dir,
    { task: "language_modeling", xDtype: "int32", shape: [T] },
    vocab,
    null,
    splits,
    preprocessing,
  );
  return { preprocessing, features: null, labels: null, vocab, rows };
}

/** Seeded shuffle of 0…n−1 (Fisher–Yates). */
function shuffled(n: number, seed: number): number[] {
  const next = random(seed);
  const order = Array.from({ length: n }, (_, i) => i);
  for (let i = order.length - 1; i > 0; i--) {
    const j = Math.floor(next() * (i + 1));
    [order[i], order[j]] = [order[j], order[i]];
  }
  return order;
}

/**
 * Pictures: the chosen digits drawn as PNGs and decoded by decodeImage (the decoder of image jobs
 * and of serving) to uint8 C×H×W; seeded splits (20% test, then 15% of the rest validation); the
 * per-channel mean and std of x / 255 over the training pictures (as materialize-images.ts).
 */
async function prepareImages(spec: PretrainSpec, dir: string): Promise<PreparedCatalogData> {
  const pictures = spec.pictures;
  if (!pictures) throw new Error(`${spec.id}: not a picture model`);
  const channels = 1 as const;
  const { size } = pictures;
  const resize = spec.config.resize ?? DEFAULT_IMAGE_RESIZE;
  const rows = digitRows()
    .map((row, index) => ({ row, index }))
    .filter(({ row }) => pictures.digits.includes(row.label));
  const labels = pictures.digits.map(String);
  const plane = size * size * channels;
  const x = new Uint8Array(rows.length * plane);
  for (let i = 0; i < rows.length; i++) {
    const png = await drawDigit(rows[i].row, { size, channels, format: "png" });
    x.set(await decodeImage(png, { channels, height: size, width: size, resize }), i * plane);
  }
  const y = Int32Array.from(rows, ({ row }) => pictures.digits.indexOf(row.label));
  const index = Int32Array.from(rows, (r) => r.index);

  const order = shuffled(rows.length, spec.config.seed);
  const nTest = Math.floor(rows.length * TEST_FRACTION);
  const rest = order.slice(nTest);
  const again = shuffled(rest.length, spec.config.seed + 1).map((i) => rest[i]);
  const nVal = Math.floor(rest.length * VALIDATION_FRACTION);
  const pick = (picks: number[]): Split => {
    const sorted = [...picks].sort((a, b) => a - b);
    const out = {
      x: new Uint8Array(sorted.length * plane),
      y: new Int32Array(sorted.length),
      index: new Int32Array(sorted.length),
    };
    sorted.forEach((p, k) => {
      out.x.set(x.subarray(p * plane, (p + 1) * plane), k * plane);
      out.y[k] = y[p];
      out.index[k] = index[p];
    });
    return out;
  };
  const splits = {
    train: pick(again.slice(nVal)),
    validation: pick(again.slice(0, nVal)),
    test: pick(order.slice(0, nTest)),
  };
  // Per-channel mean and population std of x / 255 over the training pictures (one channel here).
  let sum = 0;
  let squares = 0;
  for (const v of splits.train.x) {
    sum += v / 255;
    squares += (v / 255) ** 2;
  }
  const count = splits.train.x.length;
  const mean = sum / count;
  const variance = Math.max(0, squares / count - mean * mean);
  const image = {
    channels,
    height: size,
    width: size,
    resize,
    mean: [mean],
    std: [variance > 1e-12 ? Math.sqrt(variance) : 1],
  };
  const counts = {
    train: splits.train.y.length,
    validation: splits.validation.y.length,
    test: splits.test.y.length,
  };
  const preprocessing: Preprocessing = {
    task: "classification",
    input_features: ["image"],
    raw_features: [{ name: "image", type: "image" }],
    target: "label",
    labels,
    input_shape: [channels, size, size],
    input_dtype: "float32",
    steps: [
      { kind: "split", method: "random", seed: spec.config.seed, ...counts },
      { kind: "encode_labels", column: "label", labels },
      { kind: "image", ...image },
    ],
    rows: counts,
  };
  writeDataset(
    dir,
    { task: "classification", xDtype: "uint8", shape: [channels, size, size], image },
    labels,
    ["image"],
    splits,
    preprocessing,
  );
  return { preprocessing, features: ["image"], labels, vocab: null, rows: counts };
}

/**
 * Writes the prepared dataset (train, validation and test splits) a base model is pretrained on
 * into `dir`, and returns its features, labels or vocabulary in the order the model uses them.
 */
export function prepareCatalogData(db: Db, spec: PretrainSpec, dir: string): Promise<PreparedCatalogData> {
  if (spec.pictures) return prepareImages(spec, dir);
  return spec.task === "language_modeling" ? prepareText(spec, dir) : prepareTable(db, spec, dir);
}
