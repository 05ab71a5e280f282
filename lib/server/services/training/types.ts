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

/**
 * One step of the preprocessing applied to the dataset before training, in order (see
 * materialize.ts; artifact-reader.ts applies the same steps to the raw instances it predicts on).
 * Statistics (means, standard deviations, categories) come from the training rows only.
 */
export type PreprocessingStep =
  | { kind: "select_columns"; features: string[]; target: string | null }
  /** Rows whose target is missing were left out. */
  | { kind: "drop_missing"; rows_dropped: number }
  /** `sequential`: a text split at a character position (windows of one text never straddle splits). */
  | {
      kind: "split";
      method: "explicit" | "random" | "sequential";
      seed: number | null;
      train: number;
      validation: number;
      test: number;
    }
  /** A missing number (null, empty, not a number) becomes the training mean of its column. */
  | { kind: "impute"; columns: string[]; values: number[] }
  /** The column becomes one 0/1 input per category, named `column=category`; other values give all zeros. */
  | { kind: "one_hot"; column: string; categories: string[] }
  /** x → (x − mean) / std (std 1 where the training rows had a constant column). */
  | { kind: "standardize"; columns: string[]; mean: number[]; std: number[] }
  /** x → x × factor (image pixels). */
  | { kind: "scale"; columns: string[]; factor: number }
  /** Class names in output order: the target's i-th label is class i. */
  | { kind: "encode_labels"; column: string; labels: string[] }
  /** Regression: the model learns (y − mean) / std; a prediction is output × std + mean. */
  | { kind: "standardize_target"; column: string; mean: number; std: number }
  /** The encoded features, in `input_features` order, reshaped to the model's Input. */
  | { kind: "reshape"; shape: number[] }
  /** Text: one token per character (its index in `vocabulary`); windows of `sequence_length` predict the next character. */
  | { kind: "char_tokens"; vocabulary: string[]; sequence_length: number };

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
