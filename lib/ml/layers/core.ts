import { z } from "zod";
import { activationFlopsPerElement, fusedActivationSchema } from "./activations";
import { defineLayer } from "./layer-def";
import { formatShape, numel, rankError } from "./shape-math";

export const denseParamsSchema = z.object({
  units: z
    .number()
    .int()
    .min(1)
    .max(1_048_576)
    .default(64)
    .describe("Output features (out_features of nn.Linear)"),
  bias: z.boolean().default(true).describe("Learn an additive bias"),
  activation: fusedActivationSchema,
});

export const denseLayer = defineLayer({
  type: "Dense",
  label: "Dense (Linear)",
  category: "Core",
  description: "Fully-connected layer applied to the last dimension, like nn.Linear.",
  pytorch: "nn.Linear(in_features=shape[-1], out_features=units, bias=bias) + optional activation",
  paramsSchema: denseParamsSchema,
  inputs: { min: 1, max: 1 },
  hasOutput: true,
  inputDtype: "float32",
  inferShape: ([x], p) => {
    if (x.length < 1) return { error: rankError("Dense", "at least 1-D", x), port: 0 };
    return { shape: [...x.slice(0, -1), p.units] };
  },
  paramCount: ([x], p) => x[x.length - 1] * p.units + (p.bias ? p.units : 0),
  flops: ([x], p, out) => {
    const rows = numel(x.slice(0, -1));
    const inF = x[x.length - 1];
    return (
      rows * (2 * inF * p.units + (p.bias ? p.units : 0)) +
      numel(out) * activationFlopsPerElement(p.activation)
    );
  },
});

export const flattenParamsSchema = z.object({});

export const flattenLayer = defineLayer({
  type: "Flatten",
  label: "Flatten",
  category: "Core",
  description: "Flattens every non-batch dimension into one: [C,H,W] -> [C*H*W].",
  pytorch: "nn.Flatten()  # start_dim=1",
  paramsSchema: flattenParamsSchema,
  inputs: { min: 1, max: 1 },
  hasOutput: true,
  inputDtype: "any",
  outputDtype: ([d]) => d,
  inferShape: ([x]) => ({ shape: [numel(x)] }),
  paramCount: () => 0,
  flops: () => 0,
});

export const reshapeParamsSchema = z.object({
  shape: z
    .array(z.number().int().min(-1).max(1_000_000))
    .min(1)
    .max(4)
    .default([-1])
    .refine((s) => !s.includes(0), { message: "dimensions must be positive or -1" })
    .refine((s) => s.filter((d) => d === -1).length <= 1, { message: "at most one dimension may be -1" })
    .describe("Target shape without the batch dimension; one entry may be -1 (inferred)"),
});

export const reshapeLayer = defineLayer({
  type: "Reshape",
  label: "Reshape",
  category: "Core",
  description: "Reshapes each sample to the target shape (same number of elements).",
  pytorch: "x.reshape(x.shape[0], *shape)",
  paramsSchema: reshapeParamsSchema,
  inputs: { min: 1, max: 1 },
  hasOutput: true,
  inputDtype: "any",
  outputDtype: ([d]) => d,
  inferShape: ([x], p) => {
    const total = numel(x);
    const known = p.shape.filter((d) => d !== -1);
    const knownProduct = numel(known);
    if (known.length === p.shape.length) {
      if (knownProduct !== total) {
        return {
          error: `cannot reshape ${formatShape(x)} (${total} elements) to ${formatShape(p.shape)} (${knownProduct} elements)`,
          port: 0,
        };
      }
      return { shape: [...p.shape] };
    }
    if (total % knownProduct !== 0) {
      return {
        error: `cannot reshape ${formatShape(x)} (${total} elements) to ${formatShape(p.shape)}`,
        port: 0,
      };
    }
    return { shape: p.shape.map((d) => (d === -1 ? total / knownProduct : d)) };
  },
  paramCount: () => 0,
  flops: () => 0,
});

export const dropoutParamsSchema = z.object({
  p: z.number().min(0).lt(1).default(0.5).describe("Probability of zeroing an element during training"),
});

export const dropoutLayer = defineLayer({
  type: "Dropout",
  label: "Dropout",
  category: "Core",
  description: "Randomly zeroes elements during training; identity at inference.",
  pytorch: "nn.Dropout(p)",
  paramsSchema: dropoutParamsSchema,
  inputs: { min: 1, max: 1 },
  hasOutput: true,
  inputDtype: "float32",
  inferShape: ([x]) => ({ shape: [...x] }),
  paramCount: () => 0,
  flops: () => 0,
});

export const embeddingParamsSchema = z.object({
  num_embeddings: z
    .number()
    .int()
    .min(1)
    .max(10_000_000)
    .default(1000)
    .describe("Vocabulary size (token ids must be < num_embeddings)"),
  embedding_dim: z.number().int().min(1).max(65_536).default(64).describe("Size of each embedding vector"),
});

export const embeddingLayer = defineLayer({
  type: "Embedding",
  label: "Embedding",
  category: "Core",
  description: "Looks up a learned vector for each int64 token id: [T] -> [T, embedding_dim].",
  pytorch: "nn.Embedding(num_embeddings, embedding_dim)",
  paramsSchema: embeddingParamsSchema,
  inputs: { min: 1, max: 1 },
  hasOutput: true,
  inputDtype: "int64",
  inferShape: ([x], p) => ({ shape: [...x, p.embedding_dim] }),
  paramCount: (_x, p) => p.num_embeddings * p.embedding_dim,
  flops: () => 0,
});
