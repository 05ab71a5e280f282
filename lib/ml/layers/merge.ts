import { z } from "zod";
import { defineLayer } from "./layer-def";
import { formatShape, numel, shapesEqual } from "./shape-math";

export const addParamsSchema = z.object({});

export const addLayer = defineLayer({
  type: "Add",
  label: "Add",
  category: "Merge",
  description: "Elementwise sum of 2 or more tensors of identical shape (residual connections).",
  pytorch: "x0 + x1 + ...",
  paramsSchema: addParamsSchema,
  inputs: { min: 2, max: 8 },
  hasOutput: true,
  inputDtype: "float32",
  inferShape: (inputs) => {
    const first = inputs[0];
    for (let port = 1; port < inputs.length; port++) {
      if (!shapesEqual(first, inputs[port])) {
        return {
          error: `Add needs equal shapes: port ${port} is ${formatShape(inputs[port])} but port 0 is ${formatShape(first)}`,
          port,
        };
      }
    }
    return { shape: [...first] };
  },
  paramCount: () => 0,
  flops: (inputs, _p, out) => (inputs.length - 1) * numel(out),
});

export const concatenateParamsSchema = z.object({
  axis: z
    .number()
    .int()
    .min(-4)
    .max(3)
    .default(-1)
    .describe(
      "Dimension to join along, indexing the shape WITHOUT the batch (0 = channels for [C,H,W]; -1 = last); torch dim = axis + 1 when axis >= 0",
    ),
});

/** Normalises a batch-less axis (may be negative) for a tensor of the given rank, or null if out of range. */
export function normalizeAxis(axis: number, rank: number): number | null {
  const a = axis < 0 ? axis + rank : axis;
  return a >= 0 && a < rank ? a : null;
}

export const concatenateLayer = defineLayer({
  type: "Concatenate",
  label: "Concatenate",
  category: "Merge",
  description: "Joins 2 or more tensors along one axis; all other dimensions must match.",
  pytorch: "torch.cat([x0, x1, ...], dim=axis + 1 if axis >= 0 else axis)",
  paramsSchema: concatenateParamsSchema,
  inputs: { min: 2, max: 8 },
  hasOutput: true,
  inputDtype: "any",
  outputDtype: ([d]) => d,
  inferShape: (inputs, p) => {
    const first = inputs[0];
    const axis = normalizeAxis(p.axis, first.length);
    if (axis === null) {
      return {
        error: `axis ${p.axis} is out of range for ${first.length}-D input ${formatShape(first)}`,
        port: 0,
      };
    }
    const out = [...first];
    for (let port = 1; port < inputs.length; port++) {
      const s = inputs[port];
      if (s.length !== first.length) {
        return {
          error: `Concatenate needs equal ranks: port ${port} is ${formatShape(s)} but port 0 is ${formatShape(first)}`,
          port,
        };
      }
      for (let d = 0; d < s.length; d++) {
        if (d !== axis && s[d] !== first[d]) {
          return {
            error: `Concatenate along axis ${p.axis}: port ${port} is ${formatShape(s)} but port 0 is ${formatShape(first)} (dimension ${d} differs)`,
            port,
          };
        }
      }
      out[axis] += s[axis];
    }
    return { shape: out };
  },
  paramCount: () => 0,
  flops: () => 0,
});
