import { z } from "zod";
import { defineLayer } from "./layer-def";
import { numel, rankError } from "./shape-math";

export const batchNormParamsSchema = z.object({
  eps: z.number().gt(0).max(1).default(1e-5).describe("Value added to the variance for numerical stability"),
  momentum: z.number().min(0).max(1).default(0.1).describe("Update factor of the running mean/variance"),
});

export const batchNormLayer = defineLayer({
  type: "BatchNorm",
  label: "BatchNorm",
  category: "Normalization",
  description:
    "Batch normalisation over the channel dimension (dim 0 of the shape): BatchNorm1d for [F] or [C, L], BatchNorm2d for [C, H, W].",
  pytorch: "nn.BatchNorm1d(C, eps, momentum) for rank 1-2, nn.BatchNorm2d(C, eps, momentum) for rank 3",
  paramsSchema: batchNormParamsSchema,
  inputs: { min: 1, max: 1 },
  hasOutput: true,
  inputDtype: "float32",
  inferShape: ([x]) => {
    if (x.length < 1 || x.length > 3)
      return { error: rankError("BatchNorm", "an [F], [C, L] or [C, H, W]", x), port: 0 };
    return { shape: [...x] };
  },
  // weight + bias per channel; running_mean/var are buffers, not parameters.
  paramCount: ([x]) => 2 * x[0],
  flops: ([x]) => 2 * numel(x),
});

export const layerNormParamsSchema = z.object({
  eps: z.number().gt(0).max(1).default(1e-5).describe("Value added to the variance for numerical stability"),
});

export const layerNormLayer = defineLayer({
  type: "LayerNorm",
  label: "LayerNorm",
  category: "Normalization",
  description: "Layer normalisation over the last dimension with a learned elementwise scale and shift.",
  pytorch: "nn.LayerNorm(shape[-1], eps=eps)  # elementwise_affine=True, bias=True",
  paramsSchema: layerNormParamsSchema,
  inputs: { min: 1, max: 1 },
  hasOutput: true,
  inputDtype: "float32",
  inferShape: ([x]) => {
    if (x.length < 1) return { error: rankError("LayerNorm", "at least 1-D", x), port: 0 };
    return { shape: [...x] };
  },
  paramCount: ([x]) => 2 * x[x.length - 1],
  flops: ([x]) => 5 * numel(x),
});
