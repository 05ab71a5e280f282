import { z } from "zod";
import { DTYPES } from "../graph-types";
import { defineLayer } from "./layer-def";
import { formatShape, numel } from "./shape-math";

export const inputParamsSchema = z.object({
  shape: z
    .array(z.number().int().min(1).max(1_000_000))
    .min(1)
    .max(4)
    .default([1, 28, 28])
    .describe(
      "Shape of one sample, batch excluded: [C,H,W] for images, [C,L] for Conv1D signals, [T] token ids, [T,F] sequences, [F] features",
    ),
  dtype: z
    .enum(DTYPES)
    .default("float32")
    .describe("Element type: float32 for features, int64 for token ids feeding an Embedding"),
});

export const inputLayer = defineLayer({
  type: "Input",
  label: "Input",
  category: "Input/Output",
  description: "Entry point of the model: declares the shape and dtype of one sample.",
  pytorch: "forward() argument",
  paramsSchema: inputParamsSchema,
  inputs: { min: 0, max: 0 },
  hasOutput: true,
  inputDtype: "any",
  outputDtype: (_dtypes, p) => p.dtype,
  inferShape: (_inputs, p) => ({ shape: [...p.shape] }),
  paramCount: () => 0,
  flops: () => 0,
});

export const LOSSES = ["cross_entropy", "binary_cross_entropy", "mse"] as const;
export type LossName = (typeof LOSSES)[number];

export const outputParamsSchema = z.object({
  loss: z
    .enum(LOSSES)
    .default("cross_entropy")
    .describe(
      "Training loss: cross_entropy = nn.CrossEntropyLoss on logits [C]; binary_cross_entropy = nn.BCEWithLogitsLoss on logits of the target's shape ([1], [K] multi-label, [1,H,W] masks); mse = nn.MSELoss on any shape",
    ),
  num_classes: z
    .number()
    .int()
    .min(1)
    .max(1_000_000)
    .optional()
    .describe("Expected number of classes/labels; when set it must match the incoming size"),
});

export const outputLayer = defineLayer({
  type: "Output",
  label: "Output",
  category: "Input/Output",
  description:
    "Model head marker: identity that records which loss to train with. Feed it raw logits (no softmax/sigmoid) for the classification losses.",
  pytorch: "return value of forward(); loss: nn.CrossEntropyLoss | nn.BCEWithLogitsLoss | nn.MSELoss",
  paramsSchema: outputParamsSchema,
  inputs: { min: 1, max: 1 },
  hasOutput: false,
  inputDtype: "float32",
  inferShape: ([x], p) => {
    if (p.loss === "cross_entropy") {
      if (x.length !== 1) {
        return {
          error: `cross_entropy expects 1-D logits [C] but got ${formatShape(x)}; add Flatten/Dense or GlobalAvgPool before the Output`,
          port: 0,
        };
      }
      if (x[0] < 2)
        return { error: `cross_entropy needs at least 2 classes but got ${formatShape(x)}`, port: 0 };
      if (p.num_classes !== undefined && p.num_classes !== x[0]) {
        return {
          error: `num_classes is ${p.num_classes} but the incoming logits are ${formatShape(x)}`,
          port: 0,
        };
      }
    } else if (p.loss === "binary_cross_entropy") {
      // Targets have the same shape as the logits: [1] binary, [K] multi-label, [1,H,W] masks...
      if (p.num_classes !== undefined && p.num_classes !== x[x.length - 1]) {
        return {
          error: `num_classes is ${p.num_classes} but the incoming logits are ${formatShape(x)} (last dimension)`,
          port: 0,
        };
      }
    } else if (p.num_classes !== undefined && p.num_classes !== numel(x)) {
      return {
        error: `num_classes is ${p.num_classes} but the incoming output has ${numel(x)} values ${formatShape(x)}`,
        port: 0,
      };
    }
    return { shape: [...x] };
  },
  paramCount: () => 0,
  flops: () => 0,
});
