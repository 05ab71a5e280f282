import { z } from "zod";
import { defineLayer } from "./layer-def";
import { formatShape, rankError } from "./shape-math";

export const multiHeadAttentionParamsSchema = z.object({
  num_heads: z
    .number()
    .int()
    .min(1)
    .max(256)
    .default(4)
    .describe("Number of attention heads; must divide the embedding size"),
  dropout: z.number().min(0).lt(1).default(0).describe("Dropout on the attention weights"),
  causal: z
    .boolean()
    .default(false)
    .describe("Mask future positions (each query attends only to keys at or before it)"),
});

/**
 * Resolves the query/key/value shapes: one input = self-attention;
 * two inputs = query on port 0, key = value on port 1; three = q, k, v.
 */
function qkv(inputs: number[][]): [number[], number[], number[]] {
  const q = inputs[0];
  const k = inputs[1] ?? q;
  const v = inputs[2] ?? k;
  return [q, k, v];
}

export const multiHeadAttentionLayer = defineLayer({
  type: "MultiHeadAttention",
  label: "MultiHeadAttention",
  category: "Attention",
  description:
    "Multi-head attention on [T, E] sequences. One input: self-attention; more: query, key, value on ports 0..2 (value defaults to key).",
  pytorch:
    "nn.MultiheadAttention(embed_dim=E, num_heads, dropout, batch_first=True, kdim, vdim); out, _ = mha(q, k, v, need_weights=False)",
  paramsSchema: multiHeadAttentionParamsSchema,
  inputs: { min: 1, max: 3 },
  hasOutput: true,
  inputDtype: "float32",
  inferShape: (inputs, p) => {
    for (let port = 0; port < inputs.length; port++) {
      if (inputs[port].length !== 2) {
        return { error: rankError("MultiHeadAttention", "a 2-D [T, E] sequence", inputs[port]), port };
      }
    }
    const [q, k, v] = qkv(inputs);
    const embed = q[1];
    if (embed % p.num_heads !== 0) {
      return { error: `embed_dim ${embed} is not divisible by num_heads ${p.num_heads}`, port: 0 };
    }
    if (k[0] !== v[0]) {
      return {
        error: `key ${formatShape(k)} and value ${formatShape(v)} must have the same sequence length`,
        port: 2,
      };
    }
    return { shape: [q[0], embed] };
  },
  // in_proj (3 projections, E x E or E x kdim / E x vdim) + in_proj_bias 3E + out_proj E*E + E.
  paramCount: (inputs) => {
    const [q, k, v] = qkv(inputs);
    const e = q[1];
    return e * e + e * k[1] + e * v[1] + 3 * e + e * e + e;
  },
  flops: (inputs, p) => {
    const [q, k, v] = qkv(inputs);
    const e = q[1];
    const tq = q[0];
    const tk = k[0];
    const projections = 2 * tq * e * e + 2 * tk * k[1] * e + 2 * tk * v[1] * e + (tq + 2 * tk) * e;
    const scores = 2 * tq * tk * e;
    const softmax = 3 * p.num_heads * tq * tk;
    const weighted = 2 * tq * tk * e;
    const out = 2 * tq * e * e + tq * e;
    return projections + scores + softmax + weighted + out;
  },
});
