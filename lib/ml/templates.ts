/**
 * Starter templates offered by "New model". Positions are laid out top-to-bottom
 * (rows of ROW_HEIGHT px, side branches offset by COL_WIDTH px).
 */
import type { ArchitectureGraph, GraphEdge, LayerNode, LayerType, TrainingConfig } from "./graph-types";
import { DEFAULT_TRAINING_CONFIG } from "./graph-types";

export const TEMPLATE_IDS = ["mlp-classifier", "cnn-image", "lstm-sequence", "transformer-block"] as const;
export type TemplateId = (typeof TEMPLATE_IDS)[number];

export interface Template {
  id: TemplateId;
  name: string;
  description: string;
  graph: ArchitectureGraph;
  training: TrainingConfig;
}

const ROW_HEIGHT = 110;
const COL_WIDTH = 260;

type Spec = [
  id: string,
  type: LayerType,
  params: Record<string, unknown>,
  row: number,
  col?: number,
  label?: string,
];

function build(specs: Spec[], links: [source: string, target: string, port?: number][]): ArchitectureGraph {
  const nodes: LayerNode[] = specs.map(([id, type, params, row, col = 0, label]) => {
    const node: LayerNode = { id, type, params, position: { x: col * COL_WIDTH, y: row * ROW_HEIGHT } };
    if (label !== undefined) node.label = label;
    return node;
  });
  const edges: GraphEdge[] = links.map(([source, target, port]) => {
    const edge: GraphEdge = { id: `e-${source}-${target}${port ? `-${port}` : ""}`, source, target };
    if (port !== undefined) edge.targetPort = port;
    return edge;
  });
  return { nodes, edges };
}

/** Consecutive links a -> b -> c ... on port 0. */
function chain(...ids: string[]): [string, string][] {
  const out: [string, string][] = [];
  for (let i = 1; i < ids.length; i++) out.push([ids[i - 1], ids[i]]);
  return out;
}

function mlpClassifier(): Template {
  return {
    id: "mlp-classifier",
    name: "MLP classifier",
    description: "A small multilayer perceptron for tabular data (e.g. Iris: 4 features, 3 classes).",
    graph: build(
      [
        ["input", "Input", { shape: [4], dtype: "float32" }, 0],
        ["hidden", "Dense", { units: 16, activation: "relu" }, 1],
        ["logits", "Dense", { units: 3 }, 2],
        ["output", "Output", { loss: "cross_entropy", num_classes: 3 }, 3],
      ],
      chain("input", "hidden", "logits", "output"),
    ),
    training: { ...DEFAULT_TRAINING_CONFIG, epochs: 50, batch_size: 16, learning_rate: 0.01 },
  };
}

function cnnImage(): Template {
  return {
    id: "cnn-image",
    name: "CNN image classifier",
    description: "LeNet-5 style convolutional network for 28x28 grayscale images (e.g. MNIST).",
    graph: build(
      [
        ["input", "Input", { shape: [1, 28, 28], dtype: "float32" }, 0],
        ["conv1", "Conv2D", { out_channels: 6, kernel_size: 5, padding: 2, activation: "relu" }, 1],
        ["pool1", "MaxPool2D", { kernel_size: 2 }, 2],
        ["conv2", "Conv2D", { out_channels: 16, kernel_size: 5, activation: "relu" }, 3],
        ["pool2", "MaxPool2D", { kernel_size: 2 }, 4],
        ["flatten", "Flatten", {}, 5],
        ["fc1", "Dense", { units: 120, activation: "relu" }, 6],
        ["fc2", "Dense", { units: 84, activation: "relu" }, 7],
        ["logits", "Dense", { units: 10 }, 8],
        ["output", "Output", { loss: "cross_entropy", num_classes: 10 }, 9],
      ],
      chain("input", "conv1", "pool1", "conv2", "pool2", "flatten", "fc1", "fc2", "logits", "output"),
    ),
    training: { ...DEFAULT_TRAINING_CONFIG, epochs: 10, batch_size: 64 },
  };
}

function lstmSequence(): Template {
  return {
    id: "lstm-sequence",
    name: "LSTM sequence classifier",
    description: "Embeds token ids and classifies the sequence from the last LSTM state (e.g. sentiment).",
    graph: build(
      [
        ["input", "Input", { shape: [100], dtype: "int64" }, 0, 0, "Token ids"],
        ["embedding", "Embedding", { num_embeddings: 10000, embedding_dim: 128 }, 1],
        ["lstm", "LSTM", { hidden_size: 128, num_layers: 1, return_sequences: false }, 2],
        ["dropout", "Dropout", { p: 0.3 }, 3],
        ["logits", "Dense", { units: 2 }, 4],
        ["output", "Output", { loss: "cross_entropy", num_classes: 2 }, 5],
      ],
      chain("input", "embedding", "lstm", "dropout", "logits", "output"),
    ),
    training: { ...DEFAULT_TRAINING_CONFIG, epochs: 5, batch_size: 64 },
  };
}

function transformerBlock(): Template {
  return {
    id: "transformer-block",
    name: "Transformer block",
    description:
      "One post-norm transformer encoder block over token embeddings, mean-pooled for classification.",
    graph: build(
      [
        ["input", "Input", { shape: [64], dtype: "int64" }, 0, 0, "Token ids"],
        ["embedding", "Embedding", { num_embeddings: 10000, embedding_dim: 128 }, 1],
        ["attention", "MultiHeadAttention", { num_heads: 4 }, 2, 1, "Self-attention"],
        ["residual1", "Add", {}, 3],
        ["norm1", "LayerNorm", {}, 4],
        ["ffn1", "Dense", { units: 512, activation: "gelu" }, 5, 1, "Feed-forward"],
        ["ffn2", "Dense", { units: 128 }, 6, 1],
        ["residual2", "Add", {}, 7],
        ["norm2", "LayerNorm", {}, 8],
        ["pool", "GlobalAvgPool", { data_format: "channels_last" }, 9, 0, "Mean over tokens"],
        ["logits", "Dense", { units: 2 }, 10],
        ["output", "Output", { loss: "cross_entropy", num_classes: 2 }, 11],
      ],
      [
        ["input", "embedding"],
        ["embedding", "attention"],
        ["embedding", "residual1", 0],
        ["attention", "residual1", 1],
        ["residual1", "norm1"],
        ["norm1", "ffn1"],
        ["ffn1", "ffn2"],
        ["norm1", "residual2", 0],
        ["ffn2", "residual2", 1],
        ...chain("residual2", "norm2", "pool", "logits", "output"),
      ],
    ),
    training: {
      ...DEFAULT_TRAINING_CONFIG,
      epochs: 5,
      batch_size: 32,
      learning_rate: 0.0003,
      optimizer: "adamw",
      weight_decay: 0.01,
    },
  };
}

const builders: Record<TemplateId, () => Template> = {
  "mlp-classifier": mlpClassifier,
  "cnn-image": cnnImage,
  "lstm-sequence": lstmSequence,
  "transformer-block": transformerBlock,
};

/** A fresh (mutable) copy of one template. */
export function getTemplate(id: TemplateId): Template {
  return builders[id]();
}

/** Fresh copies of all templates, in display order. */
export function listTemplates(): Template[] {
  return TEMPLATE_IDS.map((id) => builders[id]());
}
