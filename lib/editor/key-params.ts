/** The few params worth showing on a node's face, per layer type ("32 filters", "3×3", "relu"). */
import type { LayerType } from "@/lib/ml";
import { formatShapeText } from "./format";

type P = Record<string, unknown>;

const num = (v: unknown): number | undefined => (typeof v === "number" ? v : undefined);
const str = (v: unknown): string | undefined => (typeof v === "string" ? v : undefined);

function activation(p: P): string[] {
  const a = str(p.activation);
  return a && a !== "none" ? [a] : [];
}

function kernel(size: unknown, dims: 1 | 2): string[] {
  const k = num(size);
  if (k === undefined) return [];
  return [dims === 2 ? `${k}×${k}` : `k${k}`];
}

function window(p: P, dims: 1 | 2, defaultStride: number | undefined): string[] {
  const out = kernel(p.kernel_size, dims);
  const stride = num(p.stride);
  if (stride !== undefined && stride !== (defaultStride ?? num(p.kernel_size))) out.push(`stride ${stride}`);
  const padding = num(p.padding);
  if (padding) out.push(`pad ${padding}`);
  return out;
}

/** Short descriptions of the most telling params; `params` should have defaults applied. */
export function keyParams(type: LayerType, p: P): string[] {
  switch (type) {
    case "Input": {
      const shape = Array.isArray(p.shape) ? formatShapeText(p.shape as number[]) : "?";
      return p.dtype === "int64" ? [shape, "int64"] : [shape];
    }
    case "Output": {
      const out = [str(p.loss) ?? ""].filter(Boolean);
      const classes = num(p.num_classes);
      if (classes !== undefined) out.push(`${classes} classes`);
      return out;
    }
    case "Dense":
      return [`${num(p.units) ?? "?"} units`, ...activation(p)];
    case "Reshape":
      return Array.isArray(p.shape) ? [`→ ${formatShapeText(p.shape as number[])}`] : [];
    case "Dropout":
      return [`p = ${num(p.p) ?? "?"}`];
    case "Embedding":
      return [`${num(p.num_embeddings) ?? "?"} × ${num(p.embedding_dim) ?? "?"}`];
    case "Conv1D":
    case "Conv2D":
      return [
        `${num(p.out_channels) ?? "?"} filters`,
        ...window(p, type === "Conv2D" ? 2 : 1, 1),
        ...activation(p),
      ];
    case "MaxPool1D":
    case "AvgPool1D":
      return window(p, 1, undefined);
    case "MaxPool2D":
    case "AvgPool2D":
      return window(p, 2, undefined);
    case "GlobalAvgPool":
      return p.data_format === "channels_last" ? ["channels last"] : [];
    case "LSTM":
    case "GRU": {
      const out = [`${num(p.hidden_size) ?? "?"} hidden`];
      const layers = num(p.num_layers);
      if (layers && layers > 1) out.push(`${layers} layers`);
      if (p.bidirectional === true) out.push("bidirectional");
      if (p.return_sequences === true) out.push("sequences");
      return out;
    }
    case "MultiHeadAttention":
      return [`${num(p.num_heads) ?? "?"} heads`, ...(p.causal === true ? ["causal"] : [])];
    case "Activation":
      return [str(p.activation) ?? "?"];
    case "Concatenate":
      return [`axis ${num(p.axis) ?? "?"}`];
    default:
      return [];
  }
}
