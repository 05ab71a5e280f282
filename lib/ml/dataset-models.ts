/**
 * "Train a model on this data": a model sized to a dataset, as AutoTrain makes one. The dataset is
 * described by its shape (table width and target, picture size and classes, text vocabulary); each
 * family is a template or a small stack whose Input, Embedding and head are sized to it, with the
 * family's recipe defaults. Pure: the server measures the dataset (training/project-from-dataset.ts)
 * and checks the result fits it.
 */
import { GraphBuilder } from "./graph-builder";
import {
  type ArchitectureGraph,
  DEFAULT_TRAINING_CONFIG,
  type LayerNode,
  type TrainingConfig,
} from "./graph-types";
import { getTemplate } from "./templates";

export const MODEL_FAMILIES = ["mlp", "cnn", "resnet", "lstm", "transformer"] as const;
export type ModelFamily = (typeof MODEL_FAMILIES)[number];

export const FAMILY_NAMES: Record<ModelFamily, string> = {
  mlp: "MLP",
  cnn: "CNN (LeNet-5)",
  resnet: "Small ResNet",
  lstm: "LSTM language model",
  transformer: "Transformer language model",
};

export type DataShape =
  | { kind: "table"; features: number; target: { kind: "classes"; count: number } | { kind: "value" } }
  | { kind: "images"; channels: 1 | 3; height: number; width: number; classes: number }
  | { kind: "text"; vocabulary: number };

/** The families that fit a kind of data, the first being the default. */
export function familiesFor(shape: DataShape): ModelFamily[] {
  if (shape.kind === "table") return ["mlp"];
  if (shape.kind === "images") return ["cnn", "resnet"];
  return ["lstm", "transformer"];
}

export interface SizedModel {
  family: ModelFamily;
  graph: ArchitectureGraph;
  training: TrainingConfig;
  /** One sentence: what was sized to what. */
  description: string;
}

const clamp = (v: number, lo: number, hi: number) => Math.max(lo, Math.min(hi, v));
const pow2 = (v: number) => 2 ** Math.round(Math.log2(Math.max(1, v)));

function mlp(shape: Extract<DataShape, { kind: "table" }>): SizedModel {
  const hidden = clamp(pow2(shape.features * 2), 16, 128);
  const classes = shape.target.kind === "classes" ? shape.target.count : null;
  const b = new GraphBuilder();
  let last = b.add("Input", { shape: [shape.features], dtype: "float32" }, { id: "input" });
  last = b.add("Dense", { units: hidden, activation: "relu" }, { id: "hidden1", inputs: [last] });
  last = b.add(
    "Dense",
    { units: Math.max(8, hidden / 2), activation: "relu" },
    { id: "hidden2", inputs: [last] },
  );
  last = b.add("Dense", { units: classes ?? 1 }, { id: "head", inputs: [last] });
  b.add("Output", classes !== null ? { loss: "cross_entropy", num_classes: classes } : { loss: "mse" }, {
    id: "output",
    inputs: [last],
  });
  return {
    family: "mlp",
    graph: b.build(),
    training: { ...DEFAULT_TRAINING_CONFIG, epochs: 60, batch_size: 32, learning_rate: 0.005 },
    description:
      `An MLP for ${shape.features} input values (two hidden layers of ${hidden} and ${Math.max(8, hidden / 2)}), ` +
      (classes !== null ? `${classes} classes out.` : "one value out (regression)."),
  };
}

/** A template with its Input reshaped and its head (the last Dense before the Output) resized. */
function resized(
  templateId: "cnn-image" | "cnn-resnet",
  input: number[],
  classes: number,
): { graph: ArchitectureGraph; training: TrainingConfig } {
  const t = getTemplate(templateId);
  const outputId = t.graph.nodes.find((n) => n.type === "Output")?.id;
  const headId = t.graph.edges.find((e) => e.target === outputId)?.source;
  const nodes: LayerNode[] = t.graph.nodes.map((n) => {
    if (n.type === "Input") return { ...n, params: { ...n.params, shape: input } };
    if (n.id === headId) return { ...n, params: { ...n.params, units: classes } };
    if (n.type === "Output") return { ...n, params: { ...n.params, num_classes: classes } };
    return n;
  });
  return { graph: { nodes, edges: t.graph.edges }, training: t.training };
}

function images(shape: Extract<DataShape, { kind: "images" }>, family: "cnn" | "resnet"): SizedModel {
  const input = [shape.channels, shape.height, shape.width];
  const { graph, training } = resized(family === "cnn" ? "cnn-image" : "cnn-resnet", input, shape.classes);
  const augmentation = {
    horizontal_flip: false,
    crop_padding: 2,
    rotation_degrees: 10,
    translate: 0,
    color_jitter: shape.channels === 3 ? 0.1 : 0,
  };
  return {
    family,
    graph,
    training: { ...training, epochs: Math.max(training.epochs, 15), augmentation },
    description:
      `${family === "cnn" ? "LeNet-5" : "A small ResNet"} for ${shape.channels === 1 ? "grayscale" : "RGB"} ` +
      `${shape.width}×${shape.height} pictures, ${shape.classes} classes out; light augmentation ` +
      "(crop after padding 2, rotation ±10°).",
  };
}

function lstm(shape: Extract<DataShape, { kind: "text" }>): SizedModel {
  const vocabulary = Math.max(2, shape.vocabulary);
  const b = new GraphBuilder();
  let last = b.add("Input", { shape: [32], dtype: "int64" }, { id: "input" });
  last = b.add(
    "Embedding",
    { num_embeddings: vocabulary, embedding_dim: 32 },
    { id: "embedding", inputs: [last] },
  );
  last = b.add(
    "LSTM",
    { hidden_size: 128, num_layers: 1, return_sequences: false },
    { id: "lstm", inputs: [last] },
  );
  last = b.add("Dense", { units: vocabulary }, { id: "head", inputs: [last] });
  b.add("Output", { loss: "cross_entropy", num_classes: vocabulary }, { id: "output", inputs: [last] });
  return {
    family: "lstm",
    graph: b.build(),
    training: { ...DEFAULT_TRAINING_CONFIG, epochs: 10, batch_size: 64, learning_rate: 0.005 },
    description: `A character LSTM reading 32 characters and predicting the next of ${vocabulary}.`,
  };
}

/**
 * A small transformer language model: one post-norm encoder block (self-attention and a feed-forward
 * layer, each with a residual and a LayerNorm) over the window's character embeddings, then every
 * position's features flattened into the next character's logits (so the order of the window counts
 * without a positional encoding).
 */
function transformer(shape: Extract<DataShape, { kind: "text" }>): SizedModel {
  const vocabulary = Math.max(2, shape.vocabulary);
  const width = 64;
  const b = new GraphBuilder();
  const input = b.add("Input", { shape: [32], dtype: "int64" }, { id: "input" });
  const embedding = b.add(
    "Embedding",
    { num_embeddings: vocabulary, embedding_dim: width },
    { id: "embedding", inputs: [input] },
  );
  const attention = b.add("MultiHeadAttention", { num_heads: 4 }, { id: "attention", inputs: [embedding] });
  const residual1 = b.add("Add", {}, { id: "residual1", inputs: [embedding, attention] });
  const norm1 = b.add("LayerNorm", {}, { id: "norm1", inputs: [residual1] });
  const ffn1 = b.add("Dense", { units: 4 * width, activation: "gelu" }, { id: "ffn1", inputs: [norm1] });
  const ffn2 = b.add("Dense", { units: width }, { id: "ffn2", inputs: [ffn1] });
  const residual2 = b.add("Add", {}, { id: "residual2", inputs: [norm1, ffn2] });
  const norm2 = b.add("LayerNorm", {}, { id: "norm2", inputs: [residual2] });
  const flat = b.add("Flatten", {}, { id: "flatten", inputs: [norm2] });
  const head = b.add("Dense", { units: vocabulary }, { id: "head", inputs: [flat] });
  b.add("Output", { loss: "cross_entropy", num_classes: vocabulary }, { id: "output", inputs: [head] });
  return {
    family: "transformer",
    graph: b.build(),
    training: { ...DEFAULT_TRAINING_CONFIG, epochs: 10, batch_size: 64, learning_rate: 0.002 },
    description:
      `A small transformer reading 32 characters (one attention block, ${width}-wide) and predicting ` +
      `the next of ${vocabulary}.`,
  };
}

/** The model of `family` sized to the data (the data's default family when none is given). */
export function sizedModel(shape: DataShape, family?: ModelFamily): SizedModel {
  const allowed = familiesFor(shape);
  const chosen = family ?? allowed[0];
  if (!allowed.includes(chosen))
    throw new RangeError(
      `A ${FAMILY_NAMES[chosen]} does not fit this data; choose ${allowed.map((f) => f).join(" or ")}.`,
    );
  if (shape.kind === "table") return mlp(shape);
  if (shape.kind === "images") return images(shape, chosen === "resnet" ? "resnet" : "cnn");
  return chosen === "transformer" ? transformer(shape) : lstm(shape);
}
