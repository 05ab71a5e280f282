import { z } from "zod";
import { defineLayer, type LayerDef, type ShapeResult } from "./layer-def";
import { formatShape, numel, rankError, windowOutput } from "./shape-math";

function poolParamsSchema() {
  return z
    .object({
      kernel_size: z
        .number()
        .int()
        .min(1)
        .max(255)
        .default(2)
        .describe("Size of the (square) pooling window"),
      stride: z
        .number()
        .int()
        .min(1)
        .max(255)
        .optional()
        .describe("Step between windows; defaults to kernel_size when empty"),
      padding: z
        .number()
        .int()
        .min(0)
        .max(127)
        .default(0)
        .describe("Implicit padding on each side (at most kernel_size / 2)"),
    })
    .refine((p) => p.padding * 2 <= p.kernel_size, {
      message: "padding must be at most half of kernel_size",
      path: ["padding"],
    });
}

export const maxPool1dParamsSchema = poolParamsSchema();
export const maxPool2dParamsSchema = poolParamsSchema();
export const avgPool1dParamsSchema = poolParamsSchema();
export const avgPool2dParamsSchema = poolParamsSchema();
type PoolSchema = typeof maxPool1dParamsSchema;
type PoolParams = z.output<PoolSchema>;

/** Effective stride of a pooling layer (PyTorch: stride=None means kernel_size). */
export function poolStride(p: PoolParams): number {
  return p.stride ?? p.kernel_size;
}

function poolShape(layer: string, x: number[], dims: 1 | 2, p: PoolParams): ShapeResult {
  const expected = dims === 1 ? "a 2-D [C, L]" : "a 3-D [C, H, W]";
  if (x.length !== dims + 1) return { error: rankError(layer, expected, x), port: 0 };
  const out = [x[0]];
  for (const len of x.slice(1)) {
    const o = windowOutput(len, p.kernel_size, poolStride(p), p.padding);
    if (o < 1) {
      return {
        error: `${layer}: kernel_size ${p.kernel_size} is larger than the padded input ${formatShape(x)}`,
        port: 0,
      };
    }
    out.push(o);
  }
  return { shape: out };
}

function makePool(
  type: "MaxPool1D" | "MaxPool2D" | "AvgPool1D" | "AvgPool2D",
  schema: PoolSchema,
  dims: 1 | 2,
  pytorch: string,
  description: string,
): LayerDef<PoolSchema> {
  return defineLayer({
    type,
    label: type,
    category: "Pooling",
    description,
    pytorch,
    paramsSchema: schema,
    inputs: { min: 1, max: 1 },
    hasOutput: true,
    inputDtype: "float32",
    inferShape: ([x], p) => poolShape(type, x, dims, p),
    paramCount: () => 0,
    flops: (_x, p, out) => numel(out) * p.kernel_size ** dims,
  });
}

export const maxPool1dLayer = makePool(
  "MaxPool1D",
  maxPool1dParamsSchema,
  1,
  "nn.MaxPool1d(kernel_size, stride=stride or kernel_size, padding)",
  "Max over sliding windows of a [C, L] sequence.",
);
export const maxPool2dLayer = makePool(
  "MaxPool2D",
  maxPool2dParamsSchema,
  2,
  "nn.MaxPool2d(kernel_size, stride=stride or kernel_size, padding)",
  "Max over sliding windows of a [C, H, W] image.",
);
export const avgPool1dLayer = makePool(
  "AvgPool1D",
  avgPool1dParamsSchema,
  1,
  "nn.AvgPool1d(kernel_size, stride=stride or kernel_size, padding)",
  "Average over sliding windows of a [C, L] sequence.",
);
export const avgPool2dLayer = makePool(
  "AvgPool2D",
  avgPool2dParamsSchema,
  2,
  "nn.AvgPool2d(kernel_size, stride=stride or kernel_size, padding)",
  "Average over sliding windows of a [C, H, W] image.",
);

export const globalAvgPoolParamsSchema = z.object({
  data_format: z
    .enum(["channels_first", "channels_last"])
    .default("channels_first")
    .describe(
      "channels_first: average the spatial dims of [C, L] / [C, H, W] -> [C]; channels_last: average every dim but the last, e.g. a [T, F] sequence over time -> [F]",
    ),
});

export const globalAvgPoolLayer = defineLayer({
  type: "GlobalAvgPool",
  label: "GlobalAvgPool",
  category: "Pooling",
  description:
    "Averages over all positions: [C, L] or [C, H, W] -> [C] (channels_first), or [T, F] -> [F] (channels_last).",
  pytorch:
    "channels_first: x.mean(dim=(2,) or (2, 3)) i.e. nn.AdaptiveAvgPool1d/2d(1) + flatten; channels_last: x.mean(dim=tuple(range(1, x.dim() - 1)))",
  paramsSchema: globalAvgPoolParamsSchema,
  inputs: { min: 1, max: 1 },
  hasOutput: true,
  inputDtype: "float32",
  inferShape: ([x], p) => {
    if (p.data_format === "channels_first") {
      if (x.length !== 2 && x.length !== 3) {
        return { error: rankError("GlobalAvgPool (channels_first)", "a [C, L] or [C, H, W]", x), port: 0 };
      }
      return { shape: [x[0]] };
    }
    if (x.length < 2)
      return { error: rankError("GlobalAvgPool (channels_last)", "at least a 2-D [T, F]", x), port: 0 };
    return { shape: [x[x.length - 1]] };
  },
  paramCount: () => 0,
  flops: ([x]) => numel(x),
});
