/**
 * Verification corpus of the code generators: graphs that together use every layer type of the
 * catalog, every activation (standalone and fused), every loss and every optimizer, plus the
 * starter templates. tests/codegen/* generate each one, run it in PyTorch and TensorFlow.js and
 * compare output shapes and parameter counts with `analyzeGraph`.
 */
import { GraphBuilder } from "../graph-builder";
import type { ArchitectureGraph, TrainingConfigInput } from "../graph-types";
import { listTemplates } from "../templates";

export interface CorpusGraph {
  id: string;
  description: string;
  graph: ArchitectureGraph;
  training: TrainingConfigInput;
}

function mlp(): CorpusGraph {
  const b = new GraphBuilder();
  b.add("Input", { shape: [12] }, { id: "features" });
  b.add("Dense", { units: 32, activation: "relu" }, { id: "hidden1", inputs: ["features"] });
  b.add("Dropout", { p: 0.2 }, { id: "dropout", inputs: ["hidden1"] });
  b.add("Dense", { units: 16, activation: "tanh" }, { id: "hidden2", inputs: ["dropout"] });
  b.add("Dense", { units: 3 }, { id: "logits", inputs: ["hidden2"] });
  b.add("Output", { loss: "cross_entropy", num_classes: 3 }, { id: "output", inputs: ["logits"] });
  return {
    id: "mlp",
    description: "Tabular MLP classifier with dropout (cross-entropy, Adam)",
    graph: b.build(),
    training: { epochs: 20, batch_size: 16, learning_rate: 0.01, optimizer: "adam" },
  };
}

function lenet5(): CorpusGraph {
  const b = new GraphBuilder();
  b.add("Input", { shape: [1, 28, 28] }, { id: "image" });
  b.add(
    "Conv2D",
    { out_channels: 6, kernel_size: 5, padding: 2, activation: "tanh" },
    { id: "c1", inputs: ["image"] },
  );
  b.add("AvgPool2D", { kernel_size: 2 }, { id: "s2", inputs: ["c1"] });
  b.add("Conv2D", { out_channels: 16, kernel_size: 5, activation: "tanh" }, { id: "c3", inputs: ["s2"] });
  b.add("AvgPool2D", { kernel_size: 2, stride: 2 }, { id: "s4", inputs: ["c3"] });
  b.add("Flatten", {}, { id: "flatten", inputs: ["s4"] });
  b.add("Dense", { units: 120, activation: "tanh" }, { id: "c5", inputs: ["flatten"] });
  b.add("Dense", { units: 84, activation: "tanh" }, { id: "f6", inputs: ["c5"] });
  b.add("Dense", { units: 10 }, { id: "logits", inputs: ["f6"] });
  b.add("Output", { loss: "cross_entropy", num_classes: 10 }, { id: "output", inputs: ["logits"] });
  return {
    id: "lenet5",
    description:
      "LeNet-5: Conv2D with padding, average pooling, Flatten (SGD; flip and padded-crop augmentation)",
    graph: b.build(),
    training: {
      epochs: 10,
      batch_size: 64,
      learning_rate: 0.05,
      optimizer: "sgd",
      augmentation: { horizontal_flip: true, crop_padding: 2 },
    },
  };
}

function resnetBlock(): CorpusGraph {
  const b = new GraphBuilder();
  b.add("Input", { shape: [3, 32, 32] }, { id: "image" });
  b.add(
    "Conv2D",
    { out_channels: 16, kernel_size: 3, stride: 2, padding: 1, bias: false },
    { id: "stem", inputs: ["image"] },
  );
  b.add("BatchNorm", {}, { id: "stem_bn", inputs: ["stem"] });
  b.add("Activation", { activation: "relu" }, { id: "stem_relu", inputs: ["stem_bn"] });
  b.add("MaxPool2D", { kernel_size: 3, stride: 2, padding: 1 }, { id: "stem_pool", inputs: ["stem_relu"] });
  b.add(
    "Conv2D",
    { out_channels: 16, kernel_size: 3, padding: 1, bias: false },
    { id: "conv_a", inputs: ["stem_pool"] },
  );
  b.add("BatchNorm", {}, { id: "bn_a", inputs: ["conv_a"] });
  b.add("Activation", { activation: "relu" }, { id: "relu_a", inputs: ["bn_a"] });
  b.add(
    "Conv2D",
    { out_channels: 16, kernel_size: 3, padding: 1, bias: false },
    { id: "conv_b", inputs: ["relu_a"] },
  );
  b.add("BatchNorm", { momentum: 0.05 }, { id: "bn_b", inputs: ["conv_b"] });
  b.add("Add", {}, { id: "residual", inputs: ["stem_pool", "bn_b"] });
  b.add("Activation", { activation: "relu" }, { id: "block_out", inputs: ["residual"] });
  b.add("GlobalAvgPool", {}, { id: "pool", inputs: ["block_out"] });
  b.add("Dense", { units: 10 }, { id: "logits", inputs: ["pool"] });
  b.add("Output", { loss: "cross_entropy", num_classes: 10 }, { id: "output", inputs: ["logits"] });
  return {
    id: "resnet-block",
    description: "ResNet stem and basic block: strided conv, BatchNorm2d, max pool with padding, Add skip",
    graph: b.build(),
    // Every augmentation (colour jitter: RGB input).
    training: {
      epochs: 5,
      batch_size: 32,
      learning_rate: 0.1,
      optimizer: "sgd",
      weight_decay: 0.0001,
      augmentation: {
        horizontal_flip: true,
        crop_padding: 4,
        rotation_degrees: 15,
        translate: 0.1,
        color_jitter: 0.3,
      },
    },
  };
}

function inceptionConcat(): CorpusGraph {
  const b = new GraphBuilder();
  b.add("Input", { shape: [3, 16, 16] }, { id: "image" });
  b.add(
    "Conv2D",
    { out_channels: 8, kernel_size: 1, activation: "relu" },
    { id: "branch_1x1", inputs: ["image"] },
  );
  b.add(
    "Conv2D",
    { out_channels: 8, kernel_size: 3, padding: 1, activation: "leaky_relu" },
    { id: "branch_3x3", inputs: ["image"] },
  );
  b.add("MaxPool2D", { kernel_size: 3, stride: 1, padding: 1 }, { id: "branch_pool", inputs: ["image"] });
  b.add("Conv2D", { out_channels: 4, kernel_size: 1 }, { id: "pool_proj", inputs: ["branch_pool"] });
  b.add("Concatenate", { axis: 0 }, { id: "channels", inputs: ["branch_1x1", "branch_3x3", "pool_proj"] });
  b.add(
    "Conv2D",
    { out_channels: 8, kernel_size: 3, stride: 2, activation: "elu" },
    { id: "reduce", inputs: ["channels"] },
  );
  b.add("Flatten", {}, { id: "flatten", inputs: ["reduce"] });
  b.add("Dense", { units: 1 }, { id: "logit", inputs: ["flatten"] });
  b.add("Output", { loss: "binary_cross_entropy" }, { id: "output", inputs: ["logit"] });
  return {
    id: "inception-concat",
    description:
      "Inception-style branches joined on the channel axis (Concatenate axis 0), binary cross-entropy",
    graph: b.build(),
    // Rotation alone (no shift).
    training: { epochs: 5, batch_size: 16, learning_rate: 0.001, augmentation: { rotation_degrees: 10 } },
  };
}

function tabularBranches(): CorpusGraph {
  const b = new GraphBuilder();
  b.add("Input", { shape: [10] }, { id: "features" });
  b.add("Dense", { units: 16, activation: "relu" }, { id: "wide", inputs: ["features"] });
  b.add("Dense", { units: 8, activation: "sigmoid" }, { id: "narrow", inputs: ["features"] });
  b.add("Concatenate", {}, { id: "joined", inputs: ["wide", "narrow", "features"] });
  b.add("Dense", { units: 4, bias: false }, { id: "prediction", inputs: ["joined"] });
  b.add("Output", { loss: "mse" }, { id: "output", inputs: ["prediction"] });
  return {
    id: "tabular-branches",
    description: "Two Dense branches and a skip concatenated on the last axis, multi-output regression (MSE)",
    graph: b.build(),
    training: { epochs: 10, batch_size: 32, learning_rate: 0.005, validation_split: 0.1 },
  };
}

function conv1dSignal(): CorpusGraph {
  const b = new GraphBuilder();
  b.add("Input", { shape: [4, 64] }, { id: "signal" });
  b.add(
    "Conv1D",
    { out_channels: 16, kernel_size: 5, padding: 2, activation: "relu" },
    { id: "conv1", inputs: ["signal"] },
  );
  b.add("MaxPool1D", { kernel_size: 2 }, { id: "pool1", inputs: ["conv1"] });
  b.add(
    "Conv1D",
    { out_channels: 32, kernel_size: 3, stride: 2, padding: 1 },
    { id: "conv2", inputs: ["pool1"] },
  );
  b.add("AvgPool1D", { kernel_size: 3, stride: 1, padding: 1 }, { id: "smooth", inputs: ["conv2"] });
  b.add("MaxPool1D", { kernel_size: 3, stride: 2, padding: 1 }, { id: "pool2", inputs: ["smooth"] });
  b.add("GlobalAvgPool", { data_format: "channels_first" }, { id: "gap", inputs: ["pool2"] });
  b.add("Dense", { units: 5 }, { id: "logits", inputs: ["gap"] });
  b.add("Output", { loss: "cross_entropy", num_classes: 5 }, { id: "output", inputs: ["logits"] });
  return {
    id: "conv1d-signal",
    description: "Conv1D with padding and stride, max and average pooling 1D (with padding), global average",
    graph: b.build(),
    training: { epochs: 10, batch_size: 32, learning_rate: 0.001 },
  };
}

function lstmClassifier(): CorpusGraph {
  const b = new GraphBuilder();
  b.add("Input", { shape: [30], dtype: "int64" }, { id: "tokens", label: "Token ids" });
  b.add("Embedding", { num_embeddings: 500, embedding_dim: 32 }, { id: "embed", inputs: ["tokens"] });
  b.add(
    "LSTM",
    { hidden_size: 24, num_layers: 2, dropout: 0.1, return_sequences: false },
    { id: "encoder", inputs: ["embed"] },
  );
  b.add("Dropout", { p: 0.3 }, { id: "dropout", inputs: ["encoder"] });
  b.add("Dense", { units: 3 }, { id: "logits", inputs: ["dropout"] });
  b.add("Output", { loss: "cross_entropy", num_classes: 3 }, { id: "output", inputs: ["logits"] });
  return {
    id: "lstm-classifier",
    description: "Embedding + 2-layer LSTM (inter-layer dropout) classifier on its last step",
    graph: b.build(),
    training: { epochs: 5, batch_size: 32, learning_rate: 0.002 },
  };
}

function gruBidirectional(): CorpusGraph {
  const b = new GraphBuilder();
  b.add("Input", { shape: [20, 6] }, { id: "series" });
  b.add(
    "GRU",
    { hidden_size: 16, bidirectional: true, return_sequences: true },
    { id: "gru1", inputs: ["series"] },
  );
  b.add("LayerNorm", {}, { id: "norm", inputs: ["gru1"] });
  b.add("GRU", { hidden_size: 8, bidirectional: true }, { id: "gru2", inputs: ["norm"] });
  b.add("Dense", { units: 4 }, { id: "logits", inputs: ["gru2"] });
  b.add("Output", { loss: "cross_entropy", num_classes: 4 }, { id: "output", inputs: ["logits"] });
  return {
    id: "gru-bidirectional",
    description: "Stacked bidirectional GRUs (sequences, then last step) over a float series (RMSprop)",
    graph: b.build(),
    training: { epochs: 5, batch_size: 16, learning_rate: 0.001, optimizer: "rmsprop" },
  };
}

function transformerEncoder(): CorpusGraph {
  const b = new GraphBuilder();
  b.add("Input", { shape: [16], dtype: "int64" }, { id: "tokens" });
  b.add("Embedding", { num_embeddings: 200, embedding_dim: 32 }, { id: "embed", inputs: ["tokens"] });
  b.add(
    "MultiHeadAttention",
    { num_heads: 4, dropout: 0.1, causal: true },
    { id: "attn", label: "Causal self-attention", inputs: ["embed"] },
  );
  b.add("Add", {}, { id: "res1", inputs: ["embed", "attn"] });
  b.add("LayerNorm", {}, { id: "ln1", inputs: ["res1"] });
  b.add("Dense", { units: 64, activation: "gelu" }, { id: "ffn_up", inputs: ["ln1"] });
  b.add("Dropout", { p: 0.1 }, { id: "ffn_drop", inputs: ["ffn_up"] });
  b.add("Dense", { units: 32 }, { id: "ffn_down", inputs: ["ffn_drop"] });
  b.add("Add", {}, { id: "res2", inputs: ["ln1", "ffn_down"] });
  b.add("LayerNorm", { eps: 1e-6 }, { id: "ln2", inputs: ["res2"] });
  b.add("GlobalAvgPool", { data_format: "channels_last" }, { id: "mean", inputs: ["ln2"] });
  b.add("Dense", { units: 2 }, { id: "logits", inputs: ["mean"] });
  b.add("Output", { loss: "cross_entropy", num_classes: 2 }, { id: "output", inputs: ["logits"] });
  return {
    id: "transformer-encoder",
    description:
      "Embedding + causal multi-head self-attention block, LayerNorm, GELU FFN, mean over tokens (AdamW)",
    graph: b.build(),
    training: { epochs: 5, batch_size: 32, learning_rate: 0.0005, optimizer: "adamw", weight_decay: 0.01 },
  };
}

function crossAttention(): CorpusGraph {
  const b = new GraphBuilder();
  b.add("Input", { shape: [10, 12] }, { id: "context" });
  b.add("Dense", { units: 16 }, { id: "query", inputs: ["context"] });
  b.add("Dense", { units: 8 }, { id: "value", inputs: ["context"] });
  // query [10,16], key = the raw context [10,12] (kdim 12), value [10,8] (vdim 8).
  b.add("MultiHeadAttention", { num_heads: 2 }, { id: "cross", inputs: ["query", "context", "value"] });
  // Two inputs: query, and key = value = context.
  b.add("MultiHeadAttention", { num_heads: 4 }, { id: "cross2", inputs: ["cross", "context"] });
  b.add("Flatten", {}, { id: "flatten", inputs: ["cross2"] });
  b.add("Dense", { units: 1 }, { id: "prediction", inputs: ["flatten"] });
  b.add("Output", { loss: "mse", num_classes: 1 }, { id: "output", inputs: ["prediction"] });
  return {
    id: "cross-attention",
    description: "Multi-head attention with separate query/key/value (kdim and vdim differ) and key = value",
    graph: b.build(),
    training: { epochs: 5, batch_size: 16, learning_rate: 0.001 },
  };
}

function normalisation(): CorpusGraph {
  const b = new GraphBuilder();
  b.add("Input", { shape: [6] }, { id: "features" });
  b.add("BatchNorm", { eps: 0.001 }, { id: "input_bn", inputs: ["features"] });
  b.add("Dense", { units: 32 }, { id: "project", inputs: ["input_bn"] });
  b.add("LayerNorm", { eps: 1e-6 }, { id: "ln", inputs: ["project"] });
  b.add("Reshape", { shape: [4, 8] }, { id: "to_channels", inputs: ["ln"] });
  b.add("BatchNorm", { momentum: 0.3 }, { id: "channel_bn", inputs: ["to_channels"] });
  b.add("Conv1D", { out_channels: 8, kernel_size: 3, padding: 1 }, { id: "conv", inputs: ["channel_bn"] });
  b.add("LayerNorm", {}, { id: "conv_ln", inputs: ["conv"] });
  b.add("Flatten", {}, { id: "flatten", inputs: ["conv_ln"] });
  b.add("Dense", { units: 1 }, { id: "prediction", inputs: ["flatten"] });
  b.add("Output", { loss: "mse" }, { id: "output", inputs: ["prediction"] });
  return {
    id: "normalisation",
    description: "BatchNorm1d on [F] and [C, L], LayerNorm on [F] and [C, L] with custom eps/momentum",
    graph: b.build(),
    training: { epochs: 5, batch_size: 16, learning_rate: 0.001 },
  };
}

function reshapes(): CorpusGraph {
  const b = new GraphBuilder();
  b.add("Input", { shape: [784] }, { id: "pixels" });
  b.add("Reshape", { shape: [1, 28, 28] }, { id: "image", inputs: ["pixels"] });
  b.add("Conv2D", { out_channels: 4, kernel_size: 3, stride: 2 }, { id: "conv", inputs: ["image"] });
  b.add("Reshape", { shape: [4, -1] }, { id: "rows", inputs: ["conv"] });
  b.add("Dense", { units: 8, activation: "relu" }, { id: "per_channel", inputs: ["rows"] });
  b.add("Reshape", { shape: [-1] }, { id: "flat", inputs: ["per_channel"] });
  b.add("Dense", { units: 6 }, { id: "head", inputs: ["flat"] });
  b.add("Reshape", { shape: [2, 3] }, { id: "grid", inputs: ["head"] });
  b.add("Output", { loss: "mse" }, { id: "output", inputs: ["grid"] });
  return {
    id: "reshapes",
    description:
      "Reshape to an image, to [4, -1], to [-1] and to a [2, 3] regression target; Dense on 2-D input",
    graph: b.build(),
    training: { epochs: 5, batch_size: 32, learning_rate: 0.001 },
  };
}

function activations(): CorpusGraph {
  const b = new GraphBuilder();
  let x = b.add("Input", { shape: [16] }, { id: "features" });
  const standalone: [string, Record<string, unknown>][] = [
    ["relu", {}],
    ["gelu", {}],
    ["sigmoid", {}],
    ["tanh", {}],
    ["softmax", {}],
    ["leaky_relu", { negative_slope: 0.2 }],
    ["silu", {}],
    ["elu", { alpha: 0.5 }],
  ];
  for (const [activation, extra] of standalone) {
    x = b.add("Activation", { activation, ...extra }, { id: `act_${activation}`, inputs: [x] });
  }
  for (const activation of ["relu", "gelu", "sigmoid", "tanh", "softmax", "leaky_relu", "silu", "elu"]) {
    x = b.add("Dense", { units: 16, activation }, { id: `dense_${activation}`, inputs: [x] });
  }
  x = b.add("Dense", { units: 3 }, { id: "logits", inputs: [x] });
  b.add("Output", { loss: "binary_cross_entropy", num_classes: 3 }, { id: "output", inputs: [x] });
  return {
    id: "activations",
    description:
      "Every activation as a layer (with custom slope/alpha) and fused into Dense; multi-label BCE",
    graph: b.build(),
    training: { epochs: 5, batch_size: 16, learning_rate: 0.001 },
  };
}

function segmentation(): CorpusGraph {
  const b = new GraphBuilder();
  b.add("Input", { shape: [1, 16, 16] }, { id: "image" });
  b.add(
    "Conv2D",
    { out_channels: 8, kernel_size: 3, padding: 1, activation: "silu" },
    { id: "enc", inputs: ["image"] },
  );
  b.add(
    "Conv2D",
    { out_channels: 4, kernel_size: 3, padding: 1, activation: "softmax" },
    { id: "mix", inputs: ["enc"] },
  );
  b.add(
    "Conv2D",
    { out_channels: 4, kernel_size: 3, padding: 1, activation: "gelu" },
    { id: "refine", inputs: ["mix"] },
  );
  b.add("Conv2D", { out_channels: 1, kernel_size: 1 }, { id: "mask", inputs: ["refine"] });
  b.add("Output", { loss: "binary_cross_entropy" }, { id: "output", inputs: ["mask"] });
  return {
    id: "segmentation",
    description:
      "Fully convolutional mask prediction [1, 16, 16] with BCE; fused silu/softmax/gelu on Conv2D",
    graph: b.build(),
    training: { epochs: 5, batch_size: 8, learning_rate: 0.001, validation_split: 0 },
  };
}

function globalPooling(): CorpusGraph {
  const b = new GraphBuilder();
  b.add("Input", { shape: [4, 6, 6] }, { id: "image" });
  b.add(
    "Conv2D",
    { out_channels: 8, kernel_size: 3, padding: 1, activation: "relu" },
    { id: "conv", inputs: ["image"] },
  );
  b.add("GlobalAvgPool", { data_format: "channels_first" }, { id: "per_channel", inputs: ["conv"] });
  b.add("GlobalAvgPool", { data_format: "channels_last" }, { id: "per_column", inputs: ["conv"] });
  b.add("Concatenate", { axis: 0 }, { id: "pooled", inputs: ["per_channel", "per_column"] });
  b.add("Dense", { units: 3 }, { id: "logits", inputs: ["pooled"] });
  b.add("Output", { loss: "cross_entropy" }, { id: "output", inputs: ["logits"] });
  return {
    id: "global-pooling",
    description: "GlobalAvgPool channels_first and channels_last on the same [C, H, W] tensor",
    graph: b.build(),
    training: { epochs: 5, batch_size: 16, learning_rate: 0.001 },
  };
}

function sharedInputs(): CorpusGraph {
  const b = new GraphBuilder();
  b.add("Input", { shape: [6, 8] }, { id: "sequence" });
  b.add("Dense", { units: 8, activation: "tanh" }, { id: "proj", inputs: ["sequence"] });
  // The same tensor on several ports of one layer.
  b.add("Add", {}, { id: "doubled", inputs: ["proj", "proj"] });
  b.add("MultiHeadAttention", { num_heads: 2 }, { id: "attend", inputs: ["doubled", "doubled", "sequence"] });
  b.add("Concatenate", {}, { id: "twice", inputs: ["attend", "attend"] });
  b.add("GlobalAvgPool", { data_format: "channels_last" }, { id: "mean", inputs: ["twice"] });
  b.add("Dense", { units: 2 }, { id: "logits", inputs: ["mean"] });
  b.add("Output", { loss: "cross_entropy" }, { id: "output", inputs: ["logits"] });
  return {
    id: "shared-inputs",
    description: "One tensor on several ports of Add, MultiHeadAttention (query = key) and Concatenate",
    graph: b.build(),
    training: { epochs: 5, batch_size: 16, learning_rate: 0.001 },
  };
}

function dilatedConv(): CorpusGraph {
  const b = new GraphBuilder();
  b.add("Input", { shape: [2, 40] }, { id: "signal" });
  b.add(
    "Conv1D",
    { out_channels: 8, kernel_size: 3, dilation: 2, activation: "relu" },
    { id: "dil2", inputs: ["signal"] },
  );
  b.add(
    "Conv1D",
    { out_channels: 8, kernel_size: 3, dilation: 4, padding: 4 },
    { id: "dil4", inputs: ["dil2"] },
  );
  b.add("Reshape", { shape: [8, 6, 6] }, { id: "image", inputs: ["dil4"] });
  b.add("Conv2D", { out_channels: 2, kernel_size: 3, dilation: 2 }, { id: "dil_2d", inputs: ["image"] });
  b.add("Flatten", {}, { id: "flatten", inputs: ["dil_2d"] });
  b.add("Dense", { units: 2 }, { id: "logits", inputs: ["flatten"] });
  b.add("Output", { loss: "cross_entropy" }, { id: "output", inputs: ["logits"] });
  return {
    id: "dilated-conv",
    description: "Dilated Conv1D/Conv2D (PyTorch only: TensorFlow.js cannot train dilation > 1)",
    graph: b.build(),
    training: { epochs: 5, batch_size: 16, learning_rate: 0.001 },
  };
}

/** Every corpus graph, the starter templates last. */
export function codegenCorpus(): CorpusGraph[] {
  return [
    mlp(),
    lenet5(),
    resnetBlock(),
    inceptionConcat(),
    tabularBranches(),
    conv1dSignal(),
    lstmClassifier(),
    gruBidirectional(),
    transformerEncoder(),
    crossAttention(),
    normalisation(),
    reshapes(),
    activations(),
    segmentation(),
    globalPooling(),
    sharedInputs(),
    dilatedConv(),
    ...listTemplates().map((t) => ({
      id: `template-${t.id}`,
      description: `Starter template "${t.name}"`,
      graph: t.graph,
      training: t.training,
    })),
  ];
}
