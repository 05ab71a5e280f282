/**
 * Core data model of an architecture diagram.
 *
 * Pure and isomorphic: imported by the browser editor and by the server.
 * Shapes everywhere EXCLUDE the batch dimension (PyTorch conventions:
 * images are channels-first [C,H,W], Conv1D sequences are [C,L], and
 * recurrent/attention/embedding sequences are [T,F] with batch_first=True).
 */
import { z } from "zod";

/** Every layer type known to the catalog (see `layer-catalog.ts`). */
export const LAYER_TYPES = [
  "Input",
  "Output",
  "Dense",
  "Flatten",
  "Reshape",
  "Dropout",
  "Embedding",
  "Conv1D",
  "Conv2D",
  "MaxPool1D",
  "MaxPool2D",
  "AvgPool1D",
  "AvgPool2D",
  "GlobalAvgPool",
  "BatchNorm",
  "LayerNorm",
  "LSTM",
  "GRU",
  "MultiHeadAttention",
  "Activation",
  "Add",
  "Concatenate",
] as const;

export const layerTypeSchema = z.enum(LAYER_TYPES);
export type LayerType = z.infer<typeof layerTypeSchema>;

export function isLayerType(value: unknown): value is LayerType {
  return typeof value === "string" && (LAYER_TYPES as readonly string[]).includes(value);
}

/** A tensor shape without the batch dimension, e.g. [1, 28, 28]. */
export type Shape = number[];

/** Element type of a tensor flowing along an edge. */
export const DTYPES = ["float32", "int64"] as const;
export type Dtype = (typeof DTYPES)[number];

export const positionSchema = z.object({
  x: z.number().finite(),
  y: z.number().finite(),
});
export type Position = z.infer<typeof positionSchema>;

export const layerNodeSchema = z.object({
  id: z.string().min(1),
  type: layerTypeSchema,
  params: z.record(z.string(), z.unknown()),
  position: positionSchema,
  label: z.string().optional(),
});
export type LayerNode = z.infer<typeof layerNodeSchema>;

export const graphEdgeSchema = z.object({
  id: z.string().min(1),
  source: z.string().min(1),
  target: z.string().min(1),
  /** Input port on the target (0-based). Omitted means port 0. */
  targetPort: z.number().int().min(0).optional(),
});
export type GraphEdge = z.infer<typeof graphEdgeSchema>;

export const architectureGraphSchema = z.object({
  nodes: z.array(layerNodeSchema),
  edges: z.array(graphEdgeSchema),
});
export type ArchitectureGraph = z.infer<typeof architectureGraphSchema>;

export const OPTIMIZERS = ["adam", "adamw", "sgd", "rmsprop"] as const;
export type Optimizer = (typeof OPTIMIZERS)[number];

/**
 * Random changes to training images, applied per batch to the training split only (never to
 * validation, test or serving), on pixels scaled to [0, 1] before the per-channel normalisation.
 * Every field off by default.
 */
export const augmentationSchema = z
  .object({
    horizontal_flip: z.boolean().default(false).describe("Mirror half of the training images left to right"),
    crop_padding: z
      .number()
      .int()
      .min(0)
      .max(8)
      .default(0)
      .describe("Random crop after padding each side with this many zero pixels (0 = off)"),
    rotation_degrees: z
      .number()
      .min(0)
      .max(30)
      .default(0)
      .describe("Random rotation by up to ± this many degrees (0 = off)"),
    translate: z
      .number()
      .min(0)
      .max(0.25)
      .default(0)
      .describe("Random shift by up to ± this fraction of the width and height (0 = off)"),
    color_jitter: z
      .number()
      .min(0)
      .max(0.5)
      .default(0)
      .describe(
        "Random brightness, contrast and saturation factors in [1 − j, 1 + j] (RGB inputs only; 0 = off)",
      ),
  })
  .strict();
export type Augmentation = z.output<typeof augmentationSchema>;
export type AugmentationInput = z.input<typeof augmentationSchema>;

/** A short human summary, e.g. "flip, crop (pad 4), rotate ±10°" ("none" when every field is off). */
export function describeAugmentation(a: Partial<Augmentation>): string {
  const parts = [
    a.horizontal_flip ? "flip" : "",
    a.crop_padding ? `crop (pad ${a.crop_padding})` : "",
    a.rotation_degrees ? `rotate ±${a.rotation_degrees}°` : "",
    a.translate ? `shift ±${Math.round(a.translate * 100)}%` : "",
    a.color_jitter ? `colour jitter ${a.color_jitter}` : "",
  ].filter(Boolean);
  return parts.length > 0 ? parts.join(", ") : "none";
}

/** How an image is brought to the Input's height × width. */
export const IMAGE_RESIZE_MODES = ["stretch", "crop", "pad"] as const;
export type ImageResizeMode = (typeof IMAGE_RESIZE_MODES)[number];
/** The documented default: the whole picture, its aspect ratio not kept. */
export const DEFAULT_IMAGE_RESIZE: ImageResizeMode = "stretch";

/** Training hyper-parameters. Field names are snake_case: they are API fields. */
export const trainingConfigSchema = z.object({
  epochs: z.number().int().min(1).max(1000).default(10).describe("Number of passes over the training set"),
  batch_size: z.number().int().min(1).max(1024).default(32).describe("Samples per optimisation step"),
  learning_rate: z.number().gt(0).max(1).default(0.001).describe("Optimizer learning rate (0, 1]"),
  optimizer: z.enum(OPTIMIZERS).default("adam").describe("Optimisation algorithm"),
  weight_decay: z.number().min(0).default(0).describe("L2 penalty / decoupled weight decay (AdamW)"),
  seed: z
    .number()
    .int()
    .default(42)
    .describe("Random seed for weights init, shuffling and the validation split"),
  validation_split: z
    .number()
    .min(0)
    .max(0.5)
    .default(0.2)
    .describe("Fraction of the data held out for validation"),
  augmentation: augmentationSchema
    .optional()
    .describe("Image models: random changes to training images (all off when omitted)"),
  resize: z
    .enum(IMAGE_RESIZE_MODES)
    .optional()
    .describe(
      "Image datasets: how pictures reach the Input's height × width: stretch (default; the whole picture, " +
        "aspect ratio not kept), crop (cover, then cut the centre) or pad (fit inside, zero borders)",
    ),
});
/** Fully-resolved training config (defaults applied). */
export type TrainingConfig = z.output<typeof trainingConfigSchema>;
/** Training config as accepted from a client (every field optional). */
export type TrainingConfigInput = z.input<typeof trainingConfigSchema>;

export const DEFAULT_TRAINING_CONFIG: TrainingConfig = trainingConfigSchema.parse({});

/** Input port of an edge, defaulting to 0. */
export function edgePort(edge: Pick<GraphEdge, "targetPort">): number {
  return edge.targetPort ?? 0;
}
