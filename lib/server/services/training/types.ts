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
  /** `source: "base_model"`: a fine-tuning run reusing its base model's statistics (InheritedEncoding). */
  | {
      kind: "standardize";
      columns: string[];
      mean: number[];
      std: number[];
      source?: "dataset" | "base_model";
    }
  /** x → x × factor (image pixels). */
  | { kind: "scale"; columns: string[]; factor: number; source?: "dataset" | "base_model" }
  /** Class names in output order: the target's i-th label is class i. */
  | { kind: "encode_labels"; column: string; labels: string[] }
  /** Regression: the model learns (y − mean) / std; a prediction is output × std + mean. */
  | { kind: "standardize_target"; column: string; mean: number; std: number }
  /** The encoded features, in `input_features` order, reshaped to the model's Input. */
  | { kind: "reshape"; shape: number[] }
  /** Text: one token per character (its index in `vocabulary`); windows of `sequence_length` predict the next character. */
  | {
      kind: "char_tokens";
      vocabulary: string[];
      sequence_length: number;
      /**
       * Fine-tuning runs: the vocabulary is the base model's (`source: "base_model"`), and characters
       * of the text outside it are dropped (`dropped` of them), as serving skips them.
       */
      source?: "dataset" | "base_model";
      dropped?: number;
    };

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

/**
 * How a table base model encoded its numeric features when it was pretrained: a fine-tuning run on
 * a dataset with the same feature columns encodes them the same way (the weights expect that
 * scale), instead of with statistics of its own training rows.
 */
export interface InheritedEncoding {
  features: string[];
  /** The value a missing number becomes, per feature. */
  impute: number[];
  transform: { kind: "standardize"; mean: number[]; std: number[] } | { kind: "scale"; factor: number };
}

/**
 * What makes a training job a fine-tuning run (POST /training/foundation-runs), besides its
 * `base_model_id`: how the base model's weights are used. Layer ids are the graph's node ids.
 */
export interface FineTuneSettings {
  base_model_name: string;
  /** SHA-256 of the base weights the run starts from (a restart refuses other bytes). */
  base_weights_sha256: string;
  /** The base model's task and head (absent in runs created before registry and hub base models). */
  base_task?: "classification" | "regression" | "image_classification" | "language_modeling";
  base_head?: string[];
  /** Where the base model came from: the catalog, a registry model version, or a hub model. */
  base_source?:
    | { kind: "catalog" }
    | { kind: "model_version"; registry_model_id: string; registry_model_name: string; version: number }
    | { kind: "hub_model"; hub_model_id: string; owner: string };
  /** "none": train every layer; "base": only the layers not loaded from the base model; or these layers. */
  freeze: "none" | "base" | string[];
  lr_schedule: "constant" | "cosine" | "linear";
  warmup_epochs: number;
  /** Head layers started afresh because the dataset's labels differ from the base model's. */
  replaced_layers: string[];
  /** The base model's labels, and the run's (classification), else null. */
  base_labels: string[] | null;
  labels: string[] | null;
  /** Language models: the base vocabulary the dataset's text is encoded with. */
  vocabulary: string[] | null;
  /** Tables: the base model's feature encoding, reused when the dataset has the same feature columns. */
  encoding?: InheritedEncoding | null;
}
