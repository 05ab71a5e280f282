/**
 * The contract every catalog entry implements.
 *
 * FLOP convention (all counts are per sample, i.e. batch size 1, forward pass):
 * - a multiply-accumulate (MAC) counts as 2 FLOPs (so a Linear layer is
 *   2 * in * out, plus `out` for the bias add);
 * - bias additions and simple elementwise ops (add, ReLU and every other
 *   activation, dropout at inference = 0) count 1 FLOP per element;
 *   softmax counts 3 FLOPs per element (exp, sum, divide);
 * - pooling counts 1 FLOP per window element per output element;
 * - normalisation at inference counts 2 FLOPs per element (folded scale + shift)
 *   for BatchNorm and 5 per element for LayerNorm (mean, var, normalise, scale, shift);
 * - embedding lookups, reshapes and concatenations are 0 FLOPs.
 * These are the usual "model FLOPs" approximations; they are meant for
 * comparing architectures, not for predicting wall-clock time.
 */
import type { z } from "zod";
import type { Dtype, LayerType, Shape } from "../graph-types";

export const LAYER_CATEGORIES = [
  "Input/Output",
  "Core",
  "Convolution",
  "Pooling",
  "Normalization",
  "Recurrent",
  "Attention",
  "Merge",
  "Activation",
] as const;
export type LayerCategory = (typeof LAYER_CATEGORIES)[number];

/** Result of shape inference: an output shape, or an error attributed to an input port. */
export type ShapeResult = { shape: Shape } | { error: string; port?: number };

/** Which element type a layer accepts on its inputs. */
export type InputDtype = Dtype | "any";

/** Zod schema type used for layer params. */
export type ParamsSchema = z.ZodObject;

export interface LayerDef<S extends ParamsSchema = ParamsSchema> {
  readonly type: LayerType;
  /** Human-readable name for the palette. */
  readonly label: string;
  readonly category: LayerCategory;
  /** One-sentence description for tooltips. */
  readonly description: string;
  /** The PyTorch construct the code generator should emit (documentation). */
  readonly pytorch: string;
  /** Params schema; every field has a default (or is optional) and a `.describe()` text. */
  readonly paramsSchema: S;
  /** Number of input ports: edges target ports 0..max-1, and ports 0..min-1 are required. */
  readonly inputs: { readonly min: number; readonly max: number };
  /** False for layers whose output may not feed other layers (Output). */
  readonly hasOutput: boolean;
  /** Element type required on every input. "any": whatever, but all inputs equal. */
  readonly inputDtype: InputDtype;
  /** Element type of the output. Defaults to float32 when omitted. */
  outputDtype?(inputDtypes: Dtype[], params: z.output<S>): Dtype;
  /** Output shape (batch excluded) from the input shapes in port order. */
  inferShape(inputShapes: Shape[], params: z.output<S>): ShapeResult;
  /** Trainable parameters; equals PyTorch's sum(p.numel() for p in module.parameters()). */
  paramCount(inputShapes: Shape[], params: z.output<S>): number;
  /** Forward FLOPs per sample, see the convention at the top of this file. */
  flops(inputShapes: Shape[], params: z.output<S>, outputShape: Shape): number;
}

/** Identity helper that keeps the precise params type while checking the contract. */
export function defineLayer<S extends ParamsSchema>(def: LayerDef<S>): LayerDef<S> {
  return def;
}
