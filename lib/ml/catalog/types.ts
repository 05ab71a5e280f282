/**
 * The base-model catalog (GET /foundation-catalog): curated models pretrained offline from data in
 * this repository by `npm run catalog:build` (scripts/build-catalog.ts, seeded). Each entry's weights
 * are a PyTorch state_dict of the model the generated code builds from `graph` (same parameter
 * names), committed under data/catalog/ with their SHA-256. Fine-tuning runs start from them.
 */
import type { ArchitectureGraph, TrainingConfig } from "../graph-types";

export type BaseModelTask = "classification" | "regression" | "image_classification" | "language_modeling";

export interface BaseModelWeights {
  /** Path relative to data/catalog/ (e.g. "digits-cnn-0-4.pt"). */
  file: string;
  format: "pytorch_state_dict";
  bytes: number;
  /** Lower-case hex SHA-256 of the file. */
  sha256: string;
}

export interface BaseModelEntry {
  /** Stable id, e.g. "digits-cnn-0-4". */
  id: string;
  name: string;
  task: BaseModelTask;
  description: string;
  /** The architecture (a DAG the editor opens). */
  graph: ArchitectureGraph;
  /** The configuration it was pretrained with. */
  config: TrainingConfig;
  /** Trainable parameters. */
  params: number;
  /** Input, in words (e.g. "8×8 grey image, pixels 0–16"). */
  input: string;
  /** Output, in words. */
  output: string;
  /** Raw input feature names in order (tables and images), or null (text). */
  features: string[] | null;
  /** Output labels of the pretrained head (classification), else null. */
  labels: string[] | null;
  /** Character vocabulary of a language model, in index order, else null. */
  vocab: string[] | null;
  /** Node ids of the head: replaced when a fine-tuning run's label set differs. */
  head: string[];
  license: string;
  training_data: {
    dataset_id: string;
    description: string;
    attribution: string;
    rows: number;
  };
  /** Measured figures on held-out data (e.g. accuracy, loss, perplexity) and what they were measured on. */
  evaluation: {
    split: string;
    rows: number;
    metrics: Record<string, number>;
    /** The epoch whose weights were kept (lowest validation loss), and its validation figures. */
    best_epoch?: number;
    validation?: { rows: number; metrics: Record<string, number> };
  };
  weights: BaseModelWeights;
  built_with: { script: string; seed: number; torch: string };
  /** Samples of each split it was pretrained with (test: the held-out rows of `evaluation`). */
  splits?: { train: number; validation: number; test: number };
  /**
   * How raw inputs were encoded for pretraining (the training job's preprocessing steps, e.g. the
   * pixel scale, the standardisation statistics, the character vocabulary and window length).
   */
  preprocessing?: {
    input_shape: number[];
    input_dtype: "float32" | "int64";
    steps: ({ kind: string } & Record<string, unknown>)[];
  };
}

export interface BaseModelCatalog {
  format: "layerline.catalog/v1";
  models: BaseModelEntry[];
}

/** Layer types that hold weights: what a fine-tuning run can freeze. */
export const WEIGHTED_LAYER_TYPES: ReadonlySet<string> = new Set([
  "Dense",
  "Embedding",
  "Conv1D",
  "Conv2D",
  "BatchNorm",
  "LayerNorm",
  "LSTM",
  "GRU",
  "MultiHeadAttention",
]);
