/**
 * What a model takes and gives, as a dataset must match it: its Input's shape and dtype, its
 * Output's shape and loss, and its Embedding vocabulary. Pure (editor and server): the server's fit
 * rules (lib/server/modules/training/dataset-fit.ts) and "Fit to dataset" (fit-dataset.ts) read it.
 */
import type { AnalyzableGraph, GraphAnalysis } from "./infer-graph";

export interface ModelIO {
  inputShape: number[];
  inputDtype: "float32" | "int64";
  outputShape: number[];
  loss: "cross_entropy" | "binary_cross_entropy" | "mse";
  /** Smallest Embedding vocabulary, when the Input holds token ids. */
  vocabSize: number | null;
}

export const numel = (shape: readonly number[]) => shape.reduce((a, b) => a * b, 1);
export const fmtShape = (shape: readonly number[]) => `[${shape.join(", ")}]`;

/** The model's Input and Output as analysed, or why they cannot be used. */
export function modelIO(
  graph: AnalyzableGraph,
  analysis: GraphAnalysis,
): { ok: true; io: ModelIO } | { ok: false; reason: string } {
  const inputs = graph.nodes.filter((n) => n.type === "Input");
  const outputs = graph.nodes.filter((n) => n.type === "Output");
  if (inputs.length !== 1 || outputs.length !== 1)
    return { ok: false, reason: "The model needs exactly one Input and one Output." };
  const firstError = analysis.issues.find((i) => i.severity === "error");
  if (firstError) return { ok: false, reason: `The model has errors: ${firstError.message}` };
  const [input, output] = [inputs[0], outputs[0]];
  const inputShape = analysis.shapes[input.id];
  const outputShape = analysis.shapes[output.id];
  const inParams = analysis.resolvedParams[input.id];
  const outParams = analysis.resolvedParams[output.id];
  if (!inputShape || !outputShape || !inParams || !outParams)
    return { ok: false, reason: "The model's shapes cannot be inferred." };
  const inputDtype = inParams.dtype === "int64" ? "int64" : "float32";
  const loss =
    outParams.loss === "binary_cross_entropy" || outParams.loss === "mse" ? outParams.loss : "cross_entropy";
  const vocabs = graph.nodes.flatMap((n) => {
    const p = analysis.resolvedParams[n.id];
    return n.type === "Embedding" && p && typeof p.num_embeddings === "number" ? [p.num_embeddings] : [];
  });
  return {
    ok: true,
    io: {
      inputShape,
      inputDtype,
      outputShape,
      loss,
      vocabSize: inputDtype === "int64" && vocabs.length > 0 ? Math.min(...vocabs) : null,
    },
  };
}

/** The sentence for a model fed the wrong kind of data (token ids vs float features). */
export function taskMismatch(io: Pick<ModelIO, "inputDtype">, what: string): string {
  return io.inputDtype === "int64"
    ? `The model takes token ids (an int64 Input feeding an Embedding); ${what}.`
    : `The model takes float features; ${what}.`;
}

export interface ImageInputShape {
  channels: 1 | 3;
  height: number;
  width: number;
}

/** The model's Input as a picture [C, H, W] (1 or 3 channels, float32), or null when it is not one. */
export function imageInputOf(io: Pick<ModelIO, "inputShape" | "inputDtype">): ImageInputShape | null {
  const [channels, height, width] = io.inputShape;
  if (io.inputDtype !== "float32" || io.inputShape.length !== 3) return null;
  return channels === 1 || channels === 3 ? { channels, height, width } : null;
}
