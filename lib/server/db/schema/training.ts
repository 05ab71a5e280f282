import { sql } from "drizzle-orm";
import {
  bigint,
  boolean,
  check,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  uniqueIndex,
} from "drizzle-orm/pg-core";
import type { ArchitectureGraph, TrainingConfig } from "../../../ml/graph-types";
import { users } from "./accounts";
import { createdAt, timestamps, tstz } from "./columns";

// The shapes stored in this area's jsonb columns: services and routes import them
// from here, so that the database layer imports nothing above db/.
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
    }
  /**
   * Pictures: decoded with decodeImage to the Input's C×H×W (`resize` to H×W; 1 channel = BT.601 luma,
   * 3 = RGB; alpha on white), then x / 255 and (x − mean[c]) / std[c] per channel (normalizeImage), with
   * the mean and std of the training images. Serving applies the same two functions.
   */
  | {
      kind: "image";
      channels: 1 | 3;
      height: number;
      width: number;
      resize: "stretch" | "crop" | "pad";
      mean: number[];
      std: number[];
      /** `base_model`: a fine-tuning run normalising with its base model's statistics (InheritedImageEncoding). */
      source?: "dataset" | "base_model";
    };

export interface Preprocessing {
  task: "classification" | "binary_classification" | "regression" | "language_modeling";
  /** Input columns in the order the model sees them (after one-hot: the encoded names). */
  input_features: string[];
  /** The raw columns an instance must carry (before encoding). */
  raw_features: { name: string; type: "number" | "category" | "text" | "image"; categories?: string[] }[];
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
 * How an image base model's pictures were decoded and normalised when it was pretrained (its
 * `image` step): a fine-tuning run on an image ZIP normalises its pictures with these statistics
 * (the weights expect that scale) instead of its own training pictures'. Channels and size are the
 * graph's Input, the resize mode the run's configuration (the base model's unless overridden).
 */
export interface InheritedImageEncoding {
  kind: "image";
  channels: 1 | 3;
  height: number;
  width: number;
  resize: "stretch" | "crop" | "pad";
  mean: number[];
  std: number[];
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
  /**
   * Tables: the base model's feature encoding, reused when the dataset has the same feature columns;
   * pictures: the base model's image normalisation (InheritedImageEncoding).
   */
  encoding?: InheritedEncoding | InheritedImageEncoding | null;
}

/**
 * Training jobs (contract §4.6, decisions "Training"). A job snapshots the architecture and the
 * configuration it was created with, so later edits of the project never change a job. Execution of
 * managed runtimes (pytorch, tfjs) happens in a `training.run` entry of the durable jobs table
 * (`runner_task_id`); an `external` job is never executed here and learns its state from uploads.
 */
export const TRAINING_STATES = [
  "queued",
  "running",
  "succeeded",
  "failed",
  "cancelled",
  "timed_out",
] as const;
export type TrainingState = (typeof TRAINING_STATES)[number];
export const TRAINING_RUNTIMES = ["auto", "pytorch", "tfjs", "external"] as const;
export type TrainingRuntime = (typeof TRAINING_RUNTIMES)[number];

export const trainingJobs = pgTable(
  "training_jobs",
  {
    id: text("id").primaryKey(),
    ownerId: text("owner_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** No foreign key: a job outlives its project (its snapshot is enough to reproduce it). */
    projectId: text("project_id").notNull(),
    projectName: text("project_name").notNull(),
    /** The architecture version trained, or null when the project's current state was. */
    versionId: text("version_id"),
    name: text("name").notNull(),
    graph: jsonb("graph").$type<ArchitectureGraph>().notNull(),
    config: jsonb("config").$type<TrainingConfig>().notNull(),
    datasetId: text("dataset_id").notNull(),
    datasetVersionId: text("dataset_version_id").notNull(),
    /** As asked (`auto` included) and as resolved when the job started (null until then). */
    runtime: text("runtime", { enum: TRAINING_RUNTIMES }).notNull(),
    resolvedRuntime: text("resolved_runtime"),
    strategy: text("strategy").notNull().default("single"),
    recipeId: text("recipe_id"),
    /** Set for fine-tuning runs: the base model the weights start from. */
    baseModelId: text("base_model_id"),
    /** Fine-tuning runs: how the base weights are used (freeze, schedule, replaced head…). */
    fineTune: jsonb("fine_tune").$type<FineTuneSettings | null>(),
    state: text("state", { enum: TRAINING_STATES }).notNull().default("queued"),
    statusHistory: jsonb("status_history").$type<StatusChange[]>().notNull().default([]),
    /** Why the job ended this way (failed, cancelled, timed out); null otherwise. */
    reason: text("reason"),
    progress: jsonb("progress").$type<TrainingProgress | null>(),
    /** Final (or latest epoch's) metrics: name → value. */
    metrics: jsonb("metrics").$type<Record<string, number>>().notNull().default({}),
    /** The preprocessing applied to the dataset, in order, with the label names (set when data is prepared). */
    preprocessing: jsonb("preprocessing").$type<Preprocessing | null>(),
    /** The durable task executing a managed job (null for external jobs and while waiting for a slot). */
    runnerTaskId: text("runner_task_id"),
    /** A job waits (queued, no runner task) while its owner already runs the plan's concurrent maximum. */
    dispatched: boolean("dispatched").notNull().default(false),
    cancelRequested: boolean("cancel_requested").notNull().default(false),
    /** Per-job event id counter: the stream's `id:` values are 1, 2, 3… */
    lastEventId: bigint("last_event_id", { mode: "number" }).notNull().default(0),
    /** Compute seconds measured so far (all attempts) and credits charged for them, in thousandths. */
    computeSeconds: doublePrecision("compute_seconds").notNull().default(0),
    creditsChargedMilli: bigint("credits_charged_milli", { mode: "number" }).notNull().default(0),
    /** The model artifact (blob keys of its files and its manifest), set when the job succeeded. */
    artifactFormat: text("artifact_format"),
    artifactFiles: jsonb("artifact_files").$type<ArtifactFile[]>().notNull().default([]),
    artifactManifest: jsonb("artifact_manifest").$type<Record<string, unknown> | null>(),
    restartCount: integer("restart_count").notNull().default(0),
    startedAt: tstz("started_at"),
    finishedAt: tstz("finished_at"),
    ...timestamps(),
  },
  (t) => [
    index("training_jobs_owner_created_idx").on(t.ownerId, t.createdAt),
    index("training_jobs_owner_state_idx").on(t.ownerId, t.state),
    index("training_jobs_dataset_idx").on(t.datasetId),
    check(
      "training_jobs_state_check",
      sql`${t.state} in ('queued', 'running', 'succeeded', 'failed', 'cancelled', 'timed_out')`,
    ),
  ],
);

export type TrainingJobRow = typeof trainingJobs.$inferSelect;

/**
 * Every event of a job (status, metric, log, checkpoint, progress), stored once with a per-job
 * increasing id (`seq`). Metric name/step/value are columns so that series can be queried and
 * downsampled in SQL. `client_id` is the uploader's event id: a repeat is a duplicate, not stored twice.
 */
export const TRAINING_EVENT_KINDS = ["status", "metric", "log", "checkpoint", "progress"] as const;
export type TrainingEventKind = (typeof TRAINING_EVENT_KINDS)[number];

export const trainingEvents = pgTable(
  "training_events",
  {
    jobId: text("job_id")
      .notNull()
      .references(() => trainingJobs.id, { onDelete: "cascade" }),
    seq: bigint("seq", { mode: "number" }).notNull(),
    kind: text("kind", { enum: TRAINING_EVENT_KINDS }).notNull(),
    data: jsonb("data").$type<Record<string, unknown>>().notNull(),
    /** Metrics: series name, step, epoch, value. Logs: level in `name`. */
    name: text("name"),
    step: bigint("step", { mode: "number" }),
    epoch: integer("epoch"),
    value: doublePrecision("value"),
    clientId: text("client_id"),
    at: tstz("at").notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.jobId, t.seq] }),
    index("training_events_series_idx").on(t.jobId, t.kind, t.name, t.step),
    uniqueIndex("training_events_client_id_idx").on(t.jobId, t.clientId),
  ],
);

export type TrainingEventRow = typeof trainingEvents.$inferSelect;

/** Checkpoints: one per epoch (the best flagged), blob `checkpoints/<id>`. */
export const trainingCheckpoints = pgTable(
  "training_checkpoints",
  {
    id: text("id").primaryKey(),
    jobId: text("job_id")
      .notNull()
      .references(() => trainingJobs.id, { onDelete: "cascade" }),
    epoch: integer("epoch").notNull(),
    step: bigint("step", { mode: "number" }).notNull().default(0),
    metrics: jsonb("metrics").$type<Record<string, number>>().notNull().default({}),
    isBest: boolean("is_best").notNull().default(false),
    blobKey: text("blob_key").notNull(),
    sizeBytes: bigint("size_bytes", { mode: "number" }).notNull(),
    sha256: text("sha256").notNull(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("training_checkpoints_job_epoch_idx").on(t.jobId, t.epoch)],
);

export type TrainingCheckpointRow = typeof trainingCheckpoints.$inferSelect;

/**
 * Stream tokens (`lst_`, 5 minutes to open a stream) and upload tokens (`lut_`, until the job ends),
 * each bound to one job. Only the SHA-256 of the token is stored.
 */
export const TRAINING_TOKEN_KINDS = ["stream", "upload"] as const;
export const trainingTokens = pgTable(
  "training_tokens",
  {
    tokenHash: text("token_hash").primaryKey(),
    kind: text("kind", { enum: TRAINING_TOKEN_KINDS }).notNull(),
    /** The job (or, later, deployment) the token is bound to. */
    subjectId: text("subject_id").notNull(),
    ownerId: text("owner_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    expiresAt: tstz("expires_at"),
    createdAt: createdAt(),
  },
  (t) => [index("training_tokens_subject_idx").on(t.subjectId)],
);

/**
 * Metric series rolled up at ingestion into fixed-width step buckets (widths 256, 4,096 and 65,536),
 * keeping each bucket's first, last, minimum and maximum point: a downsampled view of a
 * million-point series reads a few hundred rows instead of scanning the series (M4, as metrics.ts
 * computes it in SQL for windows and small series).
 */
export const trainingMetricRollups = pgTable(
  "training_metric_rollups",
  {
    jobId: text("job_id")
      .notNull()
      .references(() => trainingJobs.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    width: integer("width").notNull(),
    bucket: bigint("bucket", { mode: "number" }).notNull(),
    n: bigint("n", { mode: "number" }).notNull(),
    firstStep: bigint("first_step", { mode: "number" }).notNull(),
    firstValue: doublePrecision("first_value").notNull(),
    firstEpoch: integer("first_epoch"),
    firstAt: tstz("first_at").notNull(),
    lastStep: bigint("last_step", { mode: "number" }).notNull(),
    lastValue: doublePrecision("last_value").notNull(),
    lastEpoch: integer("last_epoch"),
    lastAt: tstz("last_at").notNull(),
    minStep: bigint("min_step", { mode: "number" }).notNull(),
    minValue: doublePrecision("min_value").notNull(),
    minEpoch: integer("min_epoch"),
    minAt: tstz("min_at").notNull(),
    maxStep: bigint("max_step", { mode: "number" }).notNull(),
    maxValue: doublePrecision("max_value").notNull(),
    maxEpoch: integer("max_epoch"),
    maxAt: tstz("max_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.jobId, t.name, t.width, t.bucket] })],
);
