/** model.py: an nn.Module whose forward() follows the graph's topological order. */
import type { FusedActivation } from "../layer-catalog";
import { call, type Expr, kwarg, list, PYTHON_STYLE, pyFloat, pyTuple, statement, thousands } from "./format";
import { pyStr } from "./literals";
import type { CodegenPlan, PlannedNode } from "./plan";

const I1 = "    ";
const I2 = "        ";

/** Which imports the generated module needs besides `torch` and `nn`. */
interface Uses {
  functional: boolean;
}

const BN_EPS = 1e-5;
const BN_MOMENTUM = 0.1;
const LEAKY_SLOPE = 0.01;

/** `expr` with a (fused or standalone) activation applied. */
function activate(
  activation: FusedActivation,
  expr: Expr,
  uses: Uses,
  options: { negativeSlope?: number; alpha?: number } = {},
): Expr {
  switch (activation) {
    case "none":
      return expr;
    case "sigmoid":
    case "tanh":
      return call(`torch.${activation}`, expr);
    case "softmax":
      uses.functional = true;
      return call("F.softmax", expr, kwarg("dim", "-1"));
    case "leaky_relu": {
      uses.functional = true;
      const slope = options.negativeSlope ?? LEAKY_SLOPE;
      return slope === LEAKY_SLOPE
        ? call("F.leaky_relu", expr)
        : call("F.leaky_relu", expr, kwarg("negative_slope", pyFloat(slope)));
    }
    case "elu": {
      uses.functional = true;
      const alpha = options.alpha ?? 1;
      return alpha === 1 ? call("F.elu", expr) : call("F.elu", expr, kwarg("alpha", pyFloat(alpha)));
    }
    default:
      uses.functional = true;
      return call(`F.${activation}`, expr);
  }
}

/** The module created in __init__ for a node, or null for nodes expressed with tensor operations. */
function moduleFor(node: PlannedNode): Expr | null {
  const inShape = node.inputShapes[0] ?? [];
  switch (node.type) {
    case "Dense": {
      const args: Expr[] = [String(inShape[inShape.length - 1]), String(node.params.units)];
      if (!node.params.bias) args.push(kwarg("bias", "False"));
      return call("nn.Linear", ...args);
    }
    case "Dropout":
      return call("nn.Dropout", kwarg("p", pyFloat(node.params.p)));
    case "Embedding":
      return call("nn.Embedding", String(node.params.num_embeddings), String(node.params.embedding_dim));
    case "Conv1D":
    case "Conv2D": {
      const p = node.params;
      const args: Expr[] = [
        String(inShape[0]),
        String(p.out_channels),
        kwarg("kernel_size", String(p.kernel_size)),
      ];
      if (p.stride !== 1) args.push(kwarg("stride", String(p.stride)));
      if (p.padding !== 0) args.push(kwarg("padding", String(p.padding)));
      if (p.dilation !== 1) args.push(kwarg("dilation", String(p.dilation)));
      if (!p.bias) args.push(kwarg("bias", "False"));
      return call(node.type === "Conv1D" ? "nn.Conv1d" : "nn.Conv2d", ...args);
    }
    case "MaxPool1D":
    case "MaxPool2D":
    case "AvgPool1D":
    case "AvgPool2D": {
      const p = node.params;
      const args: Expr[] = [kwarg("kernel_size", String(p.kernel_size))];
      if (p.stride !== undefined && p.stride !== p.kernel_size) args.push(kwarg("stride", String(p.stride)));
      if (p.padding !== 0) args.push(kwarg("padding", String(p.padding)));
      const cls = {
        MaxPool1D: "MaxPool1d",
        MaxPool2D: "MaxPool2d",
        AvgPool1D: "AvgPool1d",
        AvgPool2D: "AvgPool2d",
      }[node.type];
      return call(`nn.${cls}`, ...args);
    }
    case "BatchNorm": {
      const args: Expr[] = [String(inShape[0])];
      if (node.params.eps !== BN_EPS) args.push(kwarg("eps", pyFloat(node.params.eps)));
      if (node.params.momentum !== BN_MOMENTUM) args.push(kwarg("momentum", pyFloat(node.params.momentum)));
      return call(inShape.length === 3 ? "nn.BatchNorm2d" : "nn.BatchNorm1d", ...args);
    }
    case "LayerNorm": {
      const args: Expr[] = [String(inShape[inShape.length - 1])];
      if (node.params.eps !== BN_EPS) args.push(kwarg("eps", pyFloat(node.params.eps)));
      return call("nn.LayerNorm", ...args);
    }
    case "LSTM":
    case "GRU": {
      const p = node.params;
      const args: Expr[] = [String(inShape[1]), String(p.hidden_size)];
      if (p.num_layers !== 1) args.push(kwarg("num_layers", String(p.num_layers)));
      args.push(kwarg("batch_first", "True"));
      if (p.num_layers > 1 && p.dropout > 0) args.push(kwarg("dropout", pyFloat(p.dropout)));
      if (p.bidirectional) args.push(kwarg("bidirectional", "True"));
      return call(`nn.${node.type}`, ...args);
    }
    case "MultiHeadAttention": {
      const [q, k = q, v = k] = node.inputShapes;
      const embed = q[1];
      const args: Expr[] = [String(embed), String(node.params.num_heads)];
      if (node.params.dropout > 0) args.push(kwarg("dropout", pyFloat(node.params.dropout)));
      args.push(kwarg("batch_first", "True"));
      if (k[1] !== embed || v[1] !== embed)
        args.push(kwarg("kdim", String(k[1])), kwarg("vdim", String(v[1])));
      return call("nn.MultiheadAttention", ...args);
    }
    default:
      return null;
  }
}

/** forward() statements computing a node's output into its variable. */
function forwardLines(node: PlannedNode, uses: Uses): string[] {
  const [x] = node.inputs;
  const self = `self.${node.name}`;
  const assign = (expr: Expr) => statement(I2, `${node.name} = `, expr, "", PYTHON_STYLE);
  switch (node.type) {
    case "Dense":
    case "Conv1D":
    case "Conv2D":
      return [assign(activate(node.params.activation, call(self, x), uses))];
    case "Dropout":
    case "Embedding":
    case "MaxPool1D":
    case "MaxPool2D":
    case "AvgPool1D":
    case "AvgPool2D":
    case "BatchNorm":
    case "LayerNorm":
      return [assign(call(self, x))];
    case "Flatten":
      return [assign(call("torch.flatten", x, "1"))];
    case "Reshape":
      return [assign(call(`${x}.reshape`, "-1", ...node.shape.map(String)))];
    case "Activation":
      return [
        assign(
          activate(node.params.activation, x, uses, {
            negativeSlope: node.params.negative_slope,
            alpha: node.params.alpha,
          }),
        ),
      ];
    case "Add":
      return [`${I2}${node.name} = ${node.inputs.join(" + ")}`];
    case "Concatenate": {
      const axis = node.params.axis;
      return [
        assign(call("torch.cat", list(node.inputs), kwarg("dim", String(axis >= 0 ? axis + 1 : axis)))),
      ];
    }
    case "GlobalAvgPool": {
      const rank = node.inputShapes[0].length;
      // Batch-inclusive dims to average: the spatial ones (channels first) or all but the last.
      const dims =
        node.params.data_format === "channels_first"
          ? Array.from({ length: rank - 1 }, (_, i) => i + 2)
          : Array.from({ length: rank - 1 }, (_, i) => i + 1);
      return [assign(call(`${x}.mean`, kwarg("dim", dims.length === 1 ? String(dims[0]) : pyTuple(dims))))];
    }
    case "LSTM":
    case "GRU": {
      const lines = [`${I2}${node.name}, _ = ${self}(${x})`];
      if (!node.params.return_sequences) lines.push(`${I2}${node.name} = ${node.name}[:, -1, :]`);
      return lines;
    }
    case "MultiHeadAttention": {
      const [q, k = q, v = k] = node.inputs;
      const args: Expr[] = [q, k, v, kwarg("need_weights", "False")];
      if (node.params.causal) {
        const [tq, tk] = [node.inputShapes[0][0], (node.inputShapes[1] ?? node.inputShapes[0])[0]];
        args.push(
          kwarg(
            "attn_mask",
            call(
              `torch.ones(${tq}, ${tk}, dtype=torch.bool, device=${q}.device).triu`,
              // Position i may attend to positions <= i: mask everything above the diagonal.
              "1",
            ),
          ),
        );
      }
      return [statement(I2, `${node.name}, _ = `, call(self, ...args), "", PYTHON_STYLE)];
    }
    case "Input":
    case "Output":
      return [];
  }
}

function shapeText(shape: readonly number[]): string {
  return `[${shape.join(", ")}]`;
}

export function generateModelPy(plan: CodegenPlan): string {
  const uses: Uses = { functional: false };
  const init: string[] = [];
  const forward: string[] = [];
  for (const node of plan.layers) {
    const module = moduleFor(node);
    if (module) init.push(statement(I2, `self.${node.name} = `, module, "", PYTHON_STYLE));
    forward.push(...forwardLines(node, uses));
  }
  const inputName = plan.input.name;
  const returned = plan.output.inputs[0];
  const dtype = plan.input.params.dtype;
  const lossDoc = {
    cross_entropy: "nn.CrossEntropyLoss on the logits",
    binary_cross_entropy: "nn.BCEWithLogitsLoss on the logits",
    mse: "nn.MSELoss",
  }[plan.loss];

  const imports = [
    "import torch",
    ...(uses.functional ? ["import torch.nn.functional as F"] : []),
    "from torch import nn",
  ];
  const constants = [
    `INPUT_SHAPE = ${pyTuple(plan.input.shape)}`,
    `INPUT_DTYPE = torch.${dtype}`,
    `OUTPUT_SHAPE = ${pyTuple(plan.output.shape)}`,
    `LOSS = ${pyStr(plan.loss)}  # ${lossDoc}`,
  ];
  if (plan.vocabSize !== null)
    constants.push(`VOCAB_SIZE = ${plan.vocabSize}  # token ids must be < VOCAB_SIZE`);

  const lines = [
    `"""PyTorch model generated by Layerline for ${pyStr(plan.projectName)}.`,
    "",
    `Input: ${shapeText(plan.input.shape)} ${dtype} per sample (batch dimension first, not shown).`,
    `Output: ${shapeText(plan.output.shape)}, trained with ${plan.loss}.`,
    `Trainable parameters: ${thousands(plan.totalParams)}.`,
    '"""',
    "",
    ...imports,
    "",
    ...constants,
    "",
    "",
    `class ${plan.className}(nn.Module):`,
    `${I1}def __init__(self) -> None:`,
    `${I2}super().__init__()`,
    ...init,
    "",
    `${I1}def forward(self, ${inputName}: torch.Tensor) -> torch.Tensor:`,
    ...forward,
    `${I2}return ${returned}`,
    "",
    "",
    `def build_model() -> ${plan.className}:`,
    `${I1}return ${plan.className}()`,
    "",
  ];
  return lines.join("\n");
}
