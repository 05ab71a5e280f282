import { z } from "zod";
import { defineLayer, type LayerDef } from "./layer-def";
import { rankError } from "./shape-math";

function recurrentParamsSchema() {
  return z.object({
    hidden_size: z.number().int().min(1).max(16_384).default(128).describe("Features in the hidden state"),
    num_layers: z.number().int().min(1).max(16).default(1).describe("Number of stacked recurrent layers"),
    bidirectional: z
      .boolean()
      .default(false)
      .describe("Run a second layer backwards in time and concatenate both"),
    return_sequences: z
      .boolean()
      .default(false)
      .describe(
        "true: output every time step [T, H*dirs]; false: only the last time step [H*dirs] (output[:, -1, :])",
      ),
    dropout: z
      .number()
      .min(0)
      .lt(1)
      .default(0)
      .describe("Dropout between stacked layers (only when num_layers > 1)"),
  });
}

export const lstmParamsSchema = recurrentParamsSchema();
export const gruParamsSchema = recurrentParamsSchema();
type RecurrentSchema = typeof lstmParamsSchema;
type RecurrentParams = z.output<RecurrentSchema>;

/**
 * Parameters of nn.LSTM / nn.GRU: per layer and direction
 * gates * (H*in + H*H + 2H) (weight_ih, weight_hh, bias_ih, bias_hh), where
 * in = input features for layer 0 and H*dirs for the following layers.
 */
export function recurrentParamCount(gates: number, inputSize: number, p: RecurrentParams): number {
  const h = p.hidden_size;
  const dirs = p.bidirectional ? 2 : 1;
  let total = 0;
  for (let layer = 0; layer < p.num_layers; layer++) {
    const inSize = layer === 0 ? inputSize : h * dirs;
    total += dirs * gates * (h * inSize + h * h + 2 * h);
  }
  return total;
}

function makeRecurrent(
  type: "LSTM" | "GRU",
  schema: RecurrentSchema,
  gates: number,
): LayerDef<RecurrentSchema> {
  return defineLayer({
    type,
    label: type,
    category: "Recurrent",
    description:
      type === "LSTM"
        ? "Long short-term memory over a [T, F] sequence (batch_first)."
        : "Gated recurrent unit over a [T, F] sequence (batch_first).",
    pytorch: `nn.${type}(input_size=F, hidden_size, num_layers, batch_first=True, bidirectional, dropout); return_sequences=false -> output[:, -1, :]`,
    paramsSchema: schema,
    inputs: { min: 1, max: 1 },
    hasOutput: true,
    inputDtype: "float32",
    inferShape: ([x], p) => {
      if (x.length !== 2) return { error: rankError(type, "a 2-D [T, F] sequence", x), port: 0 };
      const features = p.hidden_size * (p.bidirectional ? 2 : 1);
      return { shape: p.return_sequences ? [x[0], features] : [features] };
    },
    paramCount: ([x], p) => recurrentParamCount(gates, x[1], p),
    // Per time step, layer and direction: 2*G*H*(in+H) for the matmuls plus
    // ~3*G*H for the bias adds and gate non-linearities.
    flops: ([x], p) => {
      const h = p.hidden_size;
      const dirs = p.bidirectional ? 2 : 1;
      let perStep = 0;
      for (let layer = 0; layer < p.num_layers; layer++) {
        const inSize = layer === 0 ? x[1] : h * dirs;
        perStep += dirs * (2 * gates * h * (inSize + h) + 3 * gates * h);
      }
      return x[0] * perStep;
    },
  });
}

export const lstmLayer = makeRecurrent("LSTM", lstmParamsSchema, 4);
export const gruLayer = makeRecurrent("GRU", gruParamsSchema, 3);
