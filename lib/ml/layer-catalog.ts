/**
 * The layer catalog: every layer type the editor offers, with its params
 * schema, arity, shape inference, parameter count and FLOPs.
 * See `layers/layer-def.ts` for the contract and the FLOP convention.
 */
import { z } from "zod";
import { isLayerType, LAYER_TYPES, type LayerType } from "./graph-types";
import { activationLayer } from "./layers/activation";
import { multiHeadAttentionLayer } from "./layers/attention";
import { conv1dLayer, conv2dLayer } from "./layers/conv";
import { denseLayer, dropoutLayer, embeddingLayer, flattenLayer, reshapeLayer } from "./layers/core";
import { inputLayer, outputLayer } from "./layers/io";
import { LAYER_CATEGORIES, type LayerCategory, type LayerDef } from "./layers/layer-def";
import { addLayer, concatenateLayer } from "./layers/merge";
import { batchNormLayer, layerNormLayer } from "./layers/normalization";
import {
  avgPool1dLayer,
  avgPool2dLayer,
  globalAvgPoolLayer,
  maxPool1dLayer,
  maxPool2dLayer,
} from "./layers/pooling";
import { gruLayer, lstmLayer } from "./layers/recurrent";

export { ACTIVATIONS, type ActivationName, type FusedActivation } from "./layers/activations";
export { LOSSES, type LossName } from "./layers/io";
export { LAYER_CATEGORIES, type LayerCategory, type LayerDef, type ShapeResult } from "./layers/layer-def";
export { normalizeAxis } from "./layers/merge";
export { poolStride } from "./layers/pooling";

/** Precise per-type definitions (params typed from each schema). */
export const layerDefs = {
  Input: inputLayer,
  Output: outputLayer,
  Dense: denseLayer,
  Flatten: flattenLayer,
  Reshape: reshapeLayer,
  Dropout: dropoutLayer,
  Embedding: embeddingLayer,
  Conv1D: conv1dLayer,
  Conv2D: conv2dLayer,
  MaxPool1D: maxPool1dLayer,
  MaxPool2D: maxPool2dLayer,
  AvgPool1D: avgPool1dLayer,
  AvgPool2D: avgPool2dLayer,
  GlobalAvgPool: globalAvgPoolLayer,
  BatchNorm: batchNormLayer,
  LayerNorm: layerNormLayer,
  LSTM: lstmLayer,
  GRU: gruLayer,
  MultiHeadAttention: multiHeadAttentionLayer,
  Activation: activationLayer,
  Add: addLayer,
  Concatenate: concatenateLayer,
} as const satisfies Record<LayerType, LayerDef>;

/** Resolved (defaults applied) params of a given layer type. */
export type LayerParams<T extends LayerType> = z.output<(typeof layerDefs)[T]["paramsSchema"]>;

/** Catalog keyed by layer type, erased to the common contract. */
export const layerCatalog: Readonly<Record<LayerType, LayerDef>> = layerDefs;

export function getLayerDef(type: string): LayerDef | undefined {
  return isLayerType(type) ? layerCatalog[type] : undefined;
}

/** Palette groups in category order, each listing its layer definitions. */
export function catalogByCategory(): { category: LayerCategory; layers: LayerDef[] }[] {
  return LAYER_CATEGORIES.map((category) => ({
    category,
    layers: LAYER_TYPES.map((t) => layerCatalog[t]).filter((d) => d.category === category),
  })).filter((g) => g.layers.length > 0);
}

/** Default params of a layer type (what a freshly dropped node gets). */
export function defaultParams(type: LayerType): Record<string, unknown> {
  return layerCatalog[type].paramsSchema.parse({});
}

export interface ParamError {
  /** Dotted path of the offending field, e.g. "units" or "shape.1" ("" for the whole object). */
  param: string;
  message: string;
}

export type ResolveParamsResult =
  | { ok: true; params: Record<string, unknown>; unknownKeys: string[] }
  | { ok: false; errors: ParamError[]; unknownKeys: string[] };

/**
 * Validates raw node params against the layer's schema and applies defaults.
 * Unknown keys are not errors (they are stripped) but are reported in `unknownKeys`.
 */
export function resolveParams(type: LayerType, params: unknown): ResolveParamsResult {
  const schema = layerCatalog[type].paramsSchema;
  const known = schema.shape;
  const unknownKeys =
    params !== null && typeof params === "object" ? Object.keys(params).filter((k) => !(k in known)) : [];
  const parsed = schema.safeParse(params ?? {});
  if (parsed.success) return { ok: true, params: parsed.data, unknownKeys };
  return {
    ok: false,
    unknownKeys,
    errors: parsed.error.issues.map((issue) => ({
      param: issue.path.map(String).join("."),
      message: issue.message,
    })),
  };
}

/** A params field description for generating an inspector form. */
export type ParamField = {
  name: string;
  description: string;
  optional: boolean;
} & (
  | {
      kind: "int" | "number";
      default?: number;
      min?: number;
      max?: number;
      exclusiveMin?: number;
      exclusiveMax?: number;
    }
  | { kind: "boolean"; default?: boolean }
  | { kind: "enum"; options: string[]; default?: string }
  | {
      kind: "int_array";
      default?: number[];
      minItems?: number;
      maxItems?: number;
      itemMin?: number;
      itemMax?: number;
    }
);

type JsonSchemaProp = {
  type?: string;
  description?: string;
  default?: unknown;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  enum?: unknown[];
  minItems?: number;
  maxItems?: number;
  items?: JsonSchemaProp;
};

const SAFE_INT = Number.MAX_SAFE_INTEGER;
const bound = (n: number | undefined): number | undefined =>
  n === undefined || Math.abs(n) >= SAFE_INT ? undefined : n;

const fieldCache = new Map<LayerType, ParamField[]>();

/** Form description of any flat zod object schema (layer params, the training configuration). */
export function schemaFields(schema: z.ZodObject): ParamField[] {
  const json = z.toJSONSchema(schema, { io: "input", unrepresentable: "any" }) as {
    properties?: Record<string, JsonSchemaProp>;
  };
  const fields: ParamField[] = [];
  for (const [name, prop] of Object.entries(json.properties ?? {})) {
    const base = { name, description: prop.description ?? "", optional: prop.default === undefined };
    if (prop.enum) {
      fields.push({
        ...base,
        kind: "enum",
        options: prop.enum.map(String),
        default: prop.default as string | undefined,
      });
    } else if (prop.type === "boolean") {
      fields.push({ ...base, kind: "boolean", default: prop.default as boolean | undefined });
    } else if (prop.type === "integer" || prop.type === "number") {
      fields.push({
        ...base,
        kind: prop.type === "integer" ? "int" : "number",
        default: prop.default as number | undefined,
        min: bound(prop.minimum),
        max: bound(prop.maximum),
        exclusiveMin: prop.exclusiveMinimum,
        exclusiveMax: prop.exclusiveMaximum,
      });
    } else if (prop.type === "array") {
      fields.push({
        ...base,
        kind: "int_array",
        default: prop.default as number[] | undefined,
        minItems: prop.minItems,
        maxItems: prop.maxItems,
        itemMin: bound(prop.items?.minimum),
        itemMax: bound(prop.items?.maximum),
      });
    }
  }
  return fields;
}

/** Form description of a layer's params, derived from its zod schema. */
export function paramFields(type: LayerType): ParamField[] {
  const cached = fieldCache.get(type);
  if (cached) return cached;
  const fields = schemaFields(layerCatalog[type].paramsSchema);
  fieldCache.set(type, fields);
  return fields;
}
