import { z } from "zod";
import { activationFlopsPerElement, fusedActivationSchema } from "./activations";
import { defineLayer, type ShapeResult } from "./layer-def";
import { formatShape, numel, rankError, windowOutput } from "./shape-math";

function convParamsSchema() {
  return z.object({
    out_channels: z
      .number()
      .int()
      .min(1)
      .max(65_536)
      .default(32)
      .describe("Number of output channels (filters)"),
    kernel_size: z
      .number()
      .int()
      .min(1)
      .max(255)
      .default(3)
      .describe("Size of the (square) convolution window"),
    stride: z.number().int().min(1).max(255).default(1).describe("Step between windows"),
    padding: z.number().int().min(0).max(255).default(0).describe("Zero padding added on each side"),
    dilation: z.number().int().min(1).max(255).default(1).describe("Spacing between kernel elements"),
    bias: z.boolean().default(true).describe("Learn an additive bias per output channel"),
    activation: fusedActivationSchema,
  });
}

export const conv1dParamsSchema = convParamsSchema();
export const conv2dParamsSchema = convParamsSchema();
type ConvParams = z.output<typeof conv1dParamsSchema>;

function convSpatial(layer: string, spatial: number[], p: ConvParams): ShapeResult | number[] {
  const out: number[] = [];
  for (const len of spatial) {
    const o = windowOutput(len, p.kernel_size, p.stride, p.padding, p.dilation);
    if (o < 1) {
      const eff = p.dilation * (p.kernel_size - 1) + 1;
      return {
        error: `${layer}: kernel ${eff} (effective) is larger than the padded input ${len + 2 * p.padding} for input size ${formatShape(spatial)}`,
        port: 0,
      };
    }
    out.push(o);
  }
  return out;
}

function convFlops(inChannels: number, p: ConvParams, out: number[], kernelElems: number): number {
  const outElems = numel(out);
  return (
    outElems * (2 * inChannels * kernelElems + (p.bias ? 1 : 0) + activationFlopsPerElement(p.activation))
  );
}

export const conv1dLayer = defineLayer({
  type: "Conv1D",
  label: "Conv1D",
  category: "Convolution",
  description: "1-D convolution over a channels-first sequence [C, L] -> [out_channels, L'].",
  pytorch:
    "nn.Conv1d(in_channels=C, out_channels, kernel_size, stride, padding, dilation, bias=bias) + optional activation",
  paramsSchema: conv1dParamsSchema,
  inputs: { min: 1, max: 1 },
  hasOutput: true,
  inputDtype: "float32",
  inferShape: ([x], p) => {
    if (x.length !== 2) return { error: rankError("Conv1D", "a 2-D [C, L]", x), port: 0 };
    const sp = convSpatial("Conv1D", [x[1]], p);
    if (!Array.isArray(sp)) return sp;
    return { shape: [p.out_channels, ...sp] };
  },
  paramCount: ([x], p) => p.out_channels * x[0] * p.kernel_size + (p.bias ? p.out_channels : 0),
  flops: ([x], p, out) => convFlops(x[0], p, out, p.kernel_size),
});

export const conv2dLayer = defineLayer({
  type: "Conv2D",
  label: "Conv2D",
  category: "Convolution",
  description: "2-D convolution over a channels-first image [C, H, W] -> [out_channels, H', W'].",
  pytorch:
    "nn.Conv2d(in_channels=C, out_channels, kernel_size, stride, padding, dilation, bias=bias) + optional activation",
  paramsSchema: conv2dParamsSchema,
  inputs: { min: 1, max: 1 },
  hasOutput: true,
  inputDtype: "float32",
  inferShape: ([x], p) => {
    if (x.length !== 3) return { error: rankError("Conv2D", "a 3-D [C, H, W]", x), port: 0 };
    const sp = convSpatial("Conv2D", [x[1], x[2]], p);
    if (!Array.isArray(sp)) return sp;
    return { shape: [p.out_channels, ...sp] };
  },
  paramCount: ([x], p) =>
    p.out_channels * x[0] * p.kernel_size * p.kernel_size + (p.bias ? p.out_channels : 0),
  flops: ([x], p, out) => convFlops(x[0], p, out, p.kernel_size * p.kernel_size),
});
