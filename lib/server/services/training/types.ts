/**
 * Shapes stored in the training tables' jsonb columns. Types only: the database schema imports them,
 * so this module must stay free of runtime dependencies.
 */
import type { TrainingState } from "../../db/schema/training";

export interface StatusChange {
  status: TrainingState;
  /** ISO 8601 time of the change. */
  at: string;
  reason: string | null;
}

export interface TrainingProgress {
  epoch: number;
  epochs: number;
  step: number;
  steps: number;
}

/** One step of the preprocessing applied to the dataset before training, in order. */
export type PreprocessingStep =
  | { kind: "select_columns"; features: string[]; target: string | null }
  | { kind: "drop_missing"; rows_dropped: number }
  | { kind: "one_hot"; column: string; categories: string[] }
  | { kind: "standardize"; columns: string[]; mean: number[]; std: number[] }
  | { kind: "scale"; columns: string[]; factor: number }
  | { kind: "encode_labels"; column: string; labels: string[] }
  | { kind: "reshape"; shape: number[] }
  | { kind: "char_tokens"; vocabulary: string[]; sequence_length: number }
  | { kind: "split"; method: "explicit" | "random"; seed: number | null; train: number; validation: number; test: number };

export interface Preprocessing {
  task: "classification" | "binary_classification" | "regression" | "language_modeling";
  /** Input columns in the order the model sees them (after one-hot: the encoded names). */
  input_features: string[];
  /** The raw columns an instance must carry (before encoding). */
  raw_features: { name: string; type: "number" | "category" | "text"; categories?: string[] }[];
  target: string | null;
  /** Class names in output order (classification), else null. */
  labels: string[] | null;
  input_shape: number[];
  input_dtype: "float32" | "int64";
  steps: PreprocessingStep[];
  rows: { train: number; validation: number; test: number };
}

export interface ArtifactFile {
  name: string;
  blob_key: string;
  size_bytes: number;
  sha256: string;
}
