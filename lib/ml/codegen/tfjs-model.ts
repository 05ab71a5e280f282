/**
 * model.mjs: a functional tf.LayersModel with the same shapes and trainable parameter counts as the
 * PyTorch model. Tensors keep PyTorch's channels-first layout ([C, H, W], [C, L]); layers that only
 * work channels-last in TensorFlow.js get transposed inputs (tf.layers.permute). A 1-D signal stays
 * steps-first ([L, C]) between consecutive Conv1D / pooling / BatchNorm layers and is transposed
 * back only where a channels-first consumer needs it.
 */
import type { FusedActivation } from "../layer-catalog";
import { type CallExpr, call, type Expr, flat, JS_STYLE, obj, prop, statement, thousands } from "./format";
import { jsStr } from "./literals";
import { NameAllocator } from "./naming";
import type { CodegenPlan, PlannedNode } from "./plan";
import type { TorchLayerClass } from "./tfjs-layers";

const I1 = "  ";
const I2 = "    ";
const LEAKY_SLOPE = 0.01;

const arr = (values: readonly number[]) => `[${values.join(", ")}]`;
/** A JavaScript number literal, small ones in exponent form (1e-5 rather than 0.00001). */
const num = (n: number) => (n !== 0 && Math.abs(n) < 1e-3 ? n.toExponential() : String(n));

/** TF.js activation identifiers of the fused activations that behave like PyTorch's. */
const FUSABLE: Partial<Record<FusedActivation, string>> = {
  relu: "relu",
  gelu: "gelu",
  sigmoid: "sigmoid",
  tanh: "tanh",
  silu: "swish",
  elu: "elu",
};

/** A node's output: its channels-first variable and/or (1-D signals) its steps-first one. */
interface Value {
  base: string;
  channelsFirst?: string;
  stepsFirst?: string;
}

class ModelWriter {
  readonly lines: string[] = [];
  readonly custom = new Set<TorchLayerClass>();
  private readonly names = new NameAllocator();
  private readonly values = new Map<string, Value>();

  constructor(plan: CodegenPlan) {
    this.names.reserve(plan.input.name);
    for (const node of plan.layers) this.names.reserve(node.name);
  }

  /** A fresh variable (and layer) name derived from a node's name. */
  aux(base: string, suffix: string): string {
    return this.names.allocate(`${base}_${suffix}`, base);
  }

  set(node: string, value: Value): void {
    this.values.set(node, value);
  }

  private value(node: string): Value {
    const value = this.values.get(node);
    if (!value) throw new Error(`no value for ${node}`);
    return value;
  }

  /** The node's output in PyTorch's layout, transposed back from steps-first on first use. */
  cf(node: string): string {
    const v = this.value(node);
    v.channelsFirst ??= this.permute(this.aux(v.base, "channels_first"), [2, 1], v.stepsFirst ?? "");
    return v.channelsFirst;
  }

  /** A [C, L] output as [L, C] (what TF.js' 1-D layers work on), transposed on first use. */
  sf(node: string): string {
    const v = this.value(node);
    v.stepsFirst ??= this.permute(this.aux(v.base, "steps_first"), [2, 1], v.channelsFirst ?? "");
    return v.stepsFirst;
  }

  /**
   * `const name = <layer>.apply(input);`, broken like prettier / biome: `tf.layers.x(...)` as a
   * member chain, `new X({...})` with its object hugged.
   */
  apply(name: string, layer: CallExpr, input: string): string {
    const prefix = `const ${name} = `;
    const oneLine = `${I1}${prefix}${flat(layer)}.apply(${input});`;
    if (oneLine.length <= JS_STYLE.width || !layer.callee.startsWith("tf.layers.")) {
      this.lines.push(statement(I1, prefix, layer, `.apply(${input});`, JS_STYLE));
    } else {
      const method = call(layer.callee.slice("tf.layers".length), ...layer.args);
      this.lines.push(
        `${I1}${prefix}tf.layers`,
        statement(I2, "", method, "", JS_STYLE),
        `${I2}.apply(${input});`,
      );
    }
    return name;
  }

  layer(factory: string, name: string, config: Expr[]): CallExpr {
    if (factory.startsWith("new ")) this.custom.add(factory.slice(4) as TorchLayerClass);
    return call(factory, obj([prop("name", jsStr(name)), ...config]));
  }

  /**
   * The inputs of a multi-input layer with repeated tensors replaced by copies: TF.js' executor
   * disposes a tensor given twice to one layer before its other consumers run.
   */
  distinct(inputs: string[]): string[] {
    const seen = new Set<string>();
    return inputs.map((input) => {
      if (!seen.has(input)) {
        seen.add(input);
        return input;
      }
      const copy = this.aux(input, "copy");
      this.lines.push(`${I1}// A copy: TF.js disposes a tensor given twice to one layer too early.`);
      return this.apply(
        copy,
        this.layer("tf.layers.activation", copy, [prop("activation", jsStr("linear"))]),
        input,
      );
    });
  }

  permute(name: string, dims: number[], input: string): string {
    return this.apply(name, this.layer("tf.layers.permute", name, [prop("dims", arr(dims))]), input);
  }

  /** Zeros or -Infinity on both sides of the trailing axes (`padding[i]` each). */
  pad(name: string, padding: number[], fill: "zeros" | "min", input: string): string {
    const config: Expr[] = [prop("padding", arr(padding))];
    if (fill === "min") config.push(prop("fill", jsStr("min")));
    return this.apply(name, this.layer("new ConstantPad", name, config), input);
  }

  /** Standalone activation layers (softmax over the last axis, leaky ReLU with PyTorch's slope...). */
  activation(
    name: string,
    activation: Exclude<FusedActivation, "none">,
    input: string,
    options: { negativeSlope?: number; alpha?: number } = {},
  ): string {
    if (activation === "softmax") {
      return this.apply(name, this.layer("tf.layers.softmax", name, [prop("axis", "-1")]), input);
    }
    if (activation === "leaky_relu") {
      const alpha = options.negativeSlope ?? LEAKY_SLOPE;
      return this.apply(name, this.layer("tf.layers.leakyReLU", name, [prop("alpha", num(alpha))]), input);
    }
    if (activation === "elu" && options.alpha !== undefined && options.alpha !== 1) {
      return this.apply(name, this.layer("new TorchELU", name, [prop("alpha", num(options.alpha))]), input);
    }
    const id = FUSABLE[activation] ?? activation;
    return this.apply(name, this.layer("tf.layers.activation", name, [prop("activation", jsStr(id))]), input);
  }
}

/** The fused activation's config entry, or the activation to apply as a separate layer. */
function splitActivation(activation: FusedActivation): {
  fused: Expr[];
  separate: Exclude<FusedActivation, "none"> | null;
} {
  if (activation === "none") return { fused: [], separate: null };
  const id = FUSABLE[activation];
  return id
    ? { fused: [prop("activation", jsStr(id))], separate: null }
    : { fused: [], separate: activation };
}

function convConfig(p: { out_channels: number; kernel_size: number; stride: number; bias: boolean }): Expr[] {
  const config: Expr[] = [prop("filters", String(p.out_channels)), prop("kernelSize", String(p.kernel_size))];
  if (p.stride !== 1) config.push(prop("strides", String(p.stride)));
  if (!p.bias) config.push(prop("useBias", "false"));
  return config;
}

function poolConfig(p: { kernel_size: number; stride?: number }): Expr[] {
  const config: Expr[] = [prop("poolSize", String(p.kernel_size))];
  if (p.stride !== undefined && p.stride !== p.kernel_size) config.push(prop("strides", String(p.stride)));
  return config;
}

/** Zero padding of the two spatial axes of a [C, H, W] tensor. */
function zeroPad2d(w: ModelWriter, name: string, padding: number, input: string): string {
  const padName = w.aux(name, "pad");
  const config = [prop("padding", String(padding)), prop("dataFormat", jsStr("channelsFirst"))];
  return w.apply(padName, w.layer("tf.layers.zeroPadding2d", padName, config), input);
}

/** Emits a node's layers; returns its output. */
function emit(w: ModelWriter, node: PlannedNode): Value {
  const [src] = node.inputs;
  const inShape = node.inputShapes[0] ?? [];
  const name = node.name;
  const cf = (channelsFirst: string): Value => ({ base: name, channelsFirst });
  const sf = (stepsFirst: string): Value => ({ base: name, stepsFirst });
  switch (node.type) {
    case "Dense": {
      const config: Expr[] = [prop("units", String(node.params.units))];
      if (!node.params.bias) config.push(prop("useBias", "false"));
      // Dense acts on the last axis, where softmax (dim=-1) can stay fused.
      const activation = node.params.activation;
      const { fused, separate } =
        activation === "softmax"
          ? { fused: [prop("activation", jsStr("softmax"))], separate: null }
          : splitActivation(activation);
      const out = w.apply(name, w.layer("tf.layers.dense", name, [...config, ...fused]), w.cf(src));
      return cf(separate ? w.activation(w.aux(name, "act"), separate, out) : out);
    }
    case "Conv2D": {
      const p = node.params;
      const { fused, separate } = splitActivation(p.activation);
      const input = p.padding > 0 ? zeroPad2d(w, name, p.padding, w.cf(src)) : w.cf(src);
      const config = [...convConfig(p), prop("dataFormat", jsStr("channelsFirst")), ...fused];
      const out = w.apply(name, w.layer("tf.layers.conv2d", name, config), input);
      // Separate activations act on the last axis (softmax) or elementwise: channels-first is right.
      return cf(separate ? w.activation(w.aux(name, "act"), separate, out) : out);
    }
    case "Conv1D": {
      const p = node.params;
      const { fused, separate } = splitActivation(p.activation);
      let input = w.sf(src);
      if (p.padding > 0) input = w.pad(w.aux(name, "pad"), [p.padding, 0], "zeros", input);
      const out = w.apply(name, w.layer("tf.layers.conv1d", name, [...convConfig(p), ...fused]), input);
      if (separate === "softmax") {
        // softmax over dim=-1 of [C, L] is over the steps: back to channels-first first.
        const back = w.permute(w.aux(name, "channels_first"), [2, 1], out);
        return cf(w.activation(w.aux(name, "act"), separate, back));
      }
      return sf(separate ? w.activation(w.aux(name, "act"), separate, out) : out);
    }
    case "MaxPool2D":
    case "AvgPool2D": {
      const p = node.params;
      const max = node.type === "MaxPool2D";
      let input = w.cf(src);
      if (p.padding > 0) {
        input = max
          ? w.pad(w.aux(name, "pad"), [p.padding, p.padding], "min", input)
          : zeroPad2d(w, name, p.padding, input);
      }
      const config = [...poolConfig(p), prop("dataFormat", jsStr("channelsFirst"))];
      const factory = max ? "tf.layers.maxPooling2d" : "tf.layers.averagePooling2d";
      return cf(w.apply(name, w.layer(factory, name, config), input));
    }
    case "MaxPool1D":
    case "AvgPool1D": {
      const p = node.params;
      const max = node.type === "MaxPool1D";
      let input = w.sf(src);
      if (p.padding > 0) input = w.pad(w.aux(name, "pad"), [p.padding, 0], max ? "min" : "zeros", input);
      const factory = max ? "tf.layers.maxPooling1d" : "tf.layers.averagePooling1d";
      return sf(w.apply(name, w.layer(factory, name, poolConfig(p)), input));
    }
    case "GlobalAvgPool": {
      const rank = inShape.length;
      if (node.params.data_format === "channels_first") {
        if (rank === 2)
          return cf(w.apply(name, w.layer("tf.layers.globalAveragePooling1d", name, []), w.sf(src)));
        const config = [prop("dataFormat", jsStr("channelsFirst"))];
        return cf(w.apply(name, w.layer("tf.layers.globalAveragePooling2d", name, config), w.cf(src)));
      }
      let input = w.cf(src);
      if (rank > 2) {
        // Average every axis but the last: flatten them into one "steps" axis first.
        const rows = inShape.slice(0, -1).reduce((a, b) => a * b, 1);
        const rowsName = w.aux(name, "rows");
        const config = [prop("targetShape", arr([rows, inShape[rank - 1]]))];
        input = w.apply(rowsName, w.layer("tf.layers.reshape", rowsName, config), input);
      }
      return cf(w.apply(name, w.layer("tf.layers.globalAveragePooling1d", name, []), input));
    }
    case "BatchNorm": {
      const config: Expr[] = [prop("axis", "-1")];
      // Keras' defaults are epsilon 1e-3 and momentum 0.99 (its momentum weighs the old average).
      if (node.params.eps !== 1e-3) config.push(prop("epsilon", num(node.params.eps)));
      const momentum = Number((1 - node.params.momentum).toPrecision(12));
      if (momentum !== 0.99) config.push(prop("momentum", num(momentum)));
      const layer = w.layer("tf.layers.batchNormalization", name, config);
      // TF.js trains batch normalisation on the last axis only: the channels must be last.
      if (inShape.length === 1) return cf(w.apply(name, layer, w.cf(src)));
      if (inShape.length === 2) return sf(w.apply(name, layer, w.sf(src)));
      const moved = w.permute(w.aux(name, "channels_last"), [2, 3, 1], w.cf(src));
      return cf(w.permute(w.aux(name, "channels_first"), [3, 1, 2], w.apply(name, layer, moved)));
    }
    case "LayerNorm": {
      const config: Expr[] = [prop("axis", "-1"), prop("epsilon", num(node.params.eps))];
      return cf(w.apply(name, w.layer("tf.layers.layerNormalization", name, config), w.cf(src)));
    }
    case "Dropout":
      return cf(
        w.apply(name, w.layer("tf.layers.dropout", name, [prop("rate", num(node.params.p))]), w.cf(src)),
      );
    case "Embedding": {
      const config = [
        prop("numEmbeddings", String(node.params.num_embeddings)),
        prop("embeddingDim", String(node.params.embedding_dim)),
      ];
      return cf(w.apply(name, w.layer("new TorchEmbedding", name, config), w.cf(src)));
    }
    case "Flatten": {
      // tf.layers.flatten needs at least 2 axes per sample; flattening one is a reshape to itself.
      const layer =
        inShape.length >= 2
          ? w.layer("tf.layers.flatten", name, [])
          : w.layer("tf.layers.reshape", name, [prop("targetShape", arr(node.shape))]);
      return cf(w.apply(name, layer, w.cf(src)));
    }
    case "Reshape":
      return cf(
        w.apply(name, w.layer("tf.layers.reshape", name, [prop("targetShape", arr(node.shape))]), w.cf(src)),
      );
    case "Activation":
      return cf(
        w.activation(name, node.params.activation, w.cf(src), {
          negativeSlope: node.params.negative_slope,
          alpha: node.params.alpha,
        }),
      );
    case "Add": {
      const inputs = w.distinct(node.inputs.map((i) => w.cf(i)));
      return cf(w.apply(name, w.layer("tf.layers.add", name, []), `[${inputs.join(", ")}]`));
    }
    case "Concatenate": {
      const axis = node.params.axis >= 0 ? node.params.axis + 1 : node.params.axis;
      const inputs = w.distinct(node.inputs.map((i) => w.cf(i)));
      const layer = w.layer("tf.layers.concatenate", name, [prop("axis", String(axis))]);
      return cf(w.apply(name, layer, `[${inputs.join(", ")}]`));
    }
    case "LSTM":
    case "GRU": {
      const p = node.params;
      const config: Expr[] = [prop("hiddenSize", String(p.hidden_size))];
      if (p.num_layers !== 1) config.push(prop("numLayers", String(p.num_layers)));
      if (p.bidirectional) config.push(prop("bidirectional", "true"));
      if (p.return_sequences) config.push(prop("returnSequences", "true"));
      if (p.num_layers > 1 && p.dropout > 0) config.push(prop("dropout", num(p.dropout)));
      const factory = node.type === "LSTM" ? "new TorchLSTM" : "new TorchGRU";
      return cf(w.apply(name, w.layer(factory, name, config), w.cf(src)));
    }
    case "MultiHeadAttention": {
      // Self-attention takes the query alone; key defaults to query and value to key.
      const [q, k = q, v = k] = node.inputs.map((i) => w.cf(i));
      const inputs = v !== k ? [q, k, v] : k !== q ? [q, k] : [q];
      const config: Expr[] = [prop("numHeads", String(node.params.num_heads))];
      if (node.params.dropout > 0) config.push(prop("dropout", num(node.params.dropout)));
      if (node.params.causal) config.push(prop("causal", "true"));
      const layer = w.layer("new TorchMultiHeadAttention", name, config);
      return cf(w.apply(name, layer, inputs.length === 1 ? q : `[${w.distinct(inputs).join(", ")}]`));
    }
    case "Input":
    case "Output":
      return cf(src);
  }
}

export interface TfjsModelSource {
  model: string;
  customLayers: Set<TorchLayerClass>;
}

export function generateModelMjs(plan: CodegenPlan): TfjsModelSource {
  const w = new ModelWriter(plan);
  const tokens = plan.input.params.dtype === "int64";
  const inputConfig: Expr[] = [prop("name", jsStr(plan.input.name)), prop("shape", arr(plan.input.shape))];
  if (tokens) inputConfig.push(prop("dtype", jsStr("int32")));
  w.lines.push(
    statement(I1, `const ${plan.input.name} = `, call("tf.input", obj(inputConfig)), ";", JS_STYLE),
  );
  w.set(plan.input.name, { base: plan.input.name, channelsFirst: plan.input.name });
  for (const node of plan.layers) w.set(node.name, emit(w, node));
  const result = w.cf(plan.output.inputs[0]);
  const modelName = plan.className.replace(/Model$/, "").replace(/^./, (c) => c.toLowerCase()) || "model";

  const custom = [...w.custom].sort();
  const header = [
    `// TensorFlow.js model generated by Layerline for ${jsStr(plan.projectName)}.`,
    `// Input: ${arr(plan.input.shape)} ${tokens ? "int32 token ids" : "float32"} per sample.`,
    `// Output: ${arr(plan.output.shape)}, trained with ${plan.loss}.`,
    `// Trainable parameters: ${thousands(plan.totalParams)}.`,
    "// Tensors keep PyTorch's channels-first layout: shapes match the diagram and the PyTorch code.",
    'import * as tf from "@tensorflow/tfjs";',
    ...(custom.length > 0 ? [`import { ${custom.join(", ")} } from "./torch-layers.mjs";`] : []),
    "",
    `export const INPUT_SHAPE = ${arr(plan.input.shape)};`,
    `export const INPUT_DTYPE = ${jsStr(tokens ? "int32" : "float32")};`,
    `export const OUTPUT_SHAPE = ${arr(plan.output.shape)};`,
    `export const LOSS = ${jsStr(plan.loss)};`,
    ...(plan.vocabSize !== null
      ? [`export const VOCAB_SIZE = ${plan.vocabSize}; // token ids must be < VOCAB_SIZE`]
      : []),
    "",
    `/** The model as a functional tf.LayersModel: [batch, ${plan.input.shape.join(", ")}] -> [batch, ${plan.output.shape.join(
      ", ",
    )}]. */`,
    "export function buildModel() {",
  ];
  const footer = [
    statement(
      I1,
      "return ",
      call(
        "tf.model",
        obj([prop("name", jsStr(modelName)), prop("inputs", plan.input.name), prop("outputs", result)]),
      ),
      ";",
      JS_STYLE,
    ),
    "}",
    "",
  ];
  return { model: [...header, ...w.lines, ...footer].join("\n"), customLayers: w.custom };
}
