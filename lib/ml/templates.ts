/**
 * Starter templates offered by "New model". Positions are laid out top-to-bottom
 * (rows of ROW_HEIGHT px, side branches offset by COL_WIDTH px).
 */
import type { ArchitectureGraph, GraphEdge, LayerNode, LayerType, TrainingConfig } from "./graph-types";
import { DEFAULT_TRAINING_CONFIG } from "./graph-types";

export const TEMPLATE_IDS = [
  "mlp-classifier",
  "cnn-image",
  "cnn-vgg",
  "cnn-resnet",
  "lstm-sequence",
  "transformer-block",
] as const;
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

/** Conv (no bias: BatchNorm follows) → BatchNorm → ReLU, one row each, starting at `row`. */
function convBnRelu(name: string, channels: number, row: number, stride = 1, col = 0): Spec[] {
  return [
    [name, "Conv2D", { out_channels: channels, kernel_size: 3, padding: 1, stride, bias: false }, row, col],
    [`${name}_bn`, "BatchNorm", {}, row + 1, col],
    [`${name}_relu`, "Activation", { activation: "relu" }, row + 2, col],
  ];
}

function cnnVgg(): Template {
  return {
    id: "cnn-vgg",
    name: "VGG-style CNN",
    description:
      "Two blocks of two 3×3 convolutions with batch norm (32, 64 channels) and max pooling, global average pooling, dropout; for 32×32 RGB images in 10 classes (e.g. CIFAR-10).",
    graph: build(
      [
        ["input", "Input", { shape: [3, 32, 32], dtype: "float32" }, 0],
        ...convBnRelu("conv1a", 32, 1),
        ...convBnRelu("conv1b", 32, 4),
        ["pool1", "MaxPool2D", { kernel_size: 2 }, 7],
        ...convBnRelu("conv2a", 64, 8),
        ...convBnRelu("conv2b", 64, 11),
        ["pool2", "MaxPool2D", { kernel_size: 2 }, 14],
        ["gap", "GlobalAvgPool", {}, 15],
        ["dropout", "Dropout", { p: 0.3 }, 16],
        ["logits", "Dense", { units: 10 }, 17],
        ["output", "Output", { loss: "cross_entropy", num_classes: 10 }, 18],
      ],
      chain(
        "input",
        ...["conv1a", "conv1b"].flatMap((c) => [c, `${c}_bn`, `${c}_relu`]),
        "pool1",
        ...["conv2a", "conv2b"].flatMap((c) => [c, `${c}_bn`, `${c}_relu`]),
        "pool2",
        "gap",
        "dropout",
        "logits",
        "output",
      ),
    ),
    training: {
      ...DEFAULT_TRAINING_CONFIG,
      epochs: 20,
      batch_size: 64,
      learning_rate: 0.001,
      optimizer: "adamw",
      weight_decay: 0.0005,
      augmentation: {
        horizontal_flip: true,
        crop_padding: 4,
        rotation_degrees: 0,
        translate: 0,
        color_jitter: 0,
      },
    },
  };
}

/**
 * A residual block of the small ResNet: two 3×3 conv + BatchNorm, added to the block's input (or
 * to a strided 1×1 conv + BatchNorm of it when the block halves the size and widens), then ReLU.
 */
function residualBlock(
  name: string,
  from: string,
  channels: number,
  row: number,
  downsample: boolean,
): { specs: Spec[]; links: [string, string, number?][]; out: string } {
  const stride = downsample ? 2 : 1;
  const specs: Spec[] = [
    ...convBnRelu(`${name}_conv1`, channels, row, stride),
    [`${name}_conv2`, "Conv2D", { out_channels: channels, kernel_size: 3, padding: 1, bias: false }, row + 3],
    [`${name}_bn2`, "BatchNorm", {}, row + 4],
    [`${name}_add`, "Add", {}, row + 5, 0, "Residual"],
    [`${name}_out`, "Activation", { activation: "relu" }, row + 6],
  ];
  const links: [string, string, number?][] = [
    ...chain(from, `${name}_conv1`, `${name}_conv1_bn`, `${name}_conv1_relu`, `${name}_conv2`, `${name}_bn2`),
    [`${name}_bn2`, `${name}_add`, 0],
  ];
  if (downsample) {
    specs.push(
      [
        `${name}_skip`,
        "Conv2D",
        { out_channels: channels, kernel_size: 1, stride: 2, bias: false },
        row + 1,
        1,
        "Shortcut",
      ],
      [`${name}_skip_bn`, "BatchNorm", {}, row + 2, 1],
    );
    links.push(...chain(from, `${name}_skip`, `${name}_skip_bn`), [`${name}_skip_bn`, `${name}_add`, 1]);
  } else {
    links.push([from, `${name}_add`, 1]);
  }
  links.push([`${name}_add`, `${name}_out`]);
  return { specs, links, out: `${name}_out` };
}

function cnnResnet(): Template {
  const block1 = residualBlock("block1", "stem_relu", 16, 4, false);
  const block2 = residualBlock("block2", block1.out, 32, 11, true);
  const block3 = residualBlock("block3", block2.out, 64, 18, true);
  return {
    id: "cnn-resnet",
    name: "Small ResNet",
    description:
      "A 3×3 stem and three residual blocks (16, 32, 64 channels; the last two halve the size through a strided 1×1 shortcut), global average pooling; for 32×32 RGB images in 10 classes (e.g. CIFAR-10).",
    graph: build(
      [
        ["input", "Input", { shape: [3, 32, 32], dtype: "float32" }, 0],
        ...convBnRelu("stem", 16, 1),
        ...block1.specs,
        ...block2.specs,
        ...block3.specs,
        ["gap", "GlobalAvgPool", {}, 25],
        ["logits", "Dense", { units: 10 }, 26],
        ["output", "Output", { loss: "cross_entropy", num_classes: 10 }, 27],
      ],
      [
        ...chain("input", "stem", "stem_bn", "stem_relu"),
        ...block1.links,
        ...block2.links,
        ...block3.links,
        ...chain(block3.out, "gap", "logits", "output"),
      ],
    ),
    training: {
      ...DEFAULT_TRAINING_CONFIG,
      epochs: 20,
      batch_size: 64,
      learning_rate: 0.001,
      optimizer: "adamw",
      weight_decay: 0.0005,
      augmentation: {
        horizontal_flip: true,
        crop_padding: 4,
        rotation_degrees: 0,
        translate: 0,
        color_jitter: 0,
      },
    },
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
  "cnn-vgg": cnnVgg,
  "cnn-resnet": cnnResnet,
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
