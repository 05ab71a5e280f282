import { z } from "zod";
import { ACTIVATIONS, activationFlopsPerElement } from "./activations";
import { defineLayer } from "./layer-def";
import { numel } from "./shape-math";

export const activationParamsSchema = z.object({
  activation: z
    .enum(ACTIVATIONS)
    .default("relu")
    .describe("Activation function (softmax is taken over the last dimension)"),
  negative_slope: z
    .number()
    .min(0)
    .max(1)
    .default(0.01)
    .describe("Slope for negative inputs (leaky_relu only)"),
  alpha: z.number().gt(0).max(10).default(1).describe("Saturation value for negative inputs (elu only)"),
});

export const activationLayer = defineLayer({
  type: "Activation",
  label: "Activation",
  category: "Activation",
  description: "Elementwise non-linearity (relu, gelu, sigmoid, tanh, softmax, leaky_relu, silu, elu).",
  pytorch:
    "nn.ReLU | nn.GELU | nn.Sigmoid | nn.Tanh | nn.Softmax(dim=-1) | nn.LeakyReLU(negative_slope) | nn.SiLU | nn.ELU(alpha)",
  paramsSchema: activationParamsSchema,
  inputs: { min: 1, max: 1 },
  hasOutput: true,
  inputDtype: "float32",
  inferShape: ([x]) => ({ shape: [...x] }),
  paramCount: () => 0,
  flops: (_x, p, out) => numel(out) * activationFlopsPerElement(p.activation),
});
