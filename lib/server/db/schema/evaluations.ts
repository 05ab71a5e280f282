import { sql } from "drizzle-orm";
import { check, index, jsonb, pgTable, text } from "drizzle-orm/pg-core";
import { users } from "./accounts";
import { timestamps, tstz } from "./columns";
import { trainingJobs } from "./training";

// The shapes stored in this area's jsonb columns: services and routes import them
// from here, so that the database layer imports nothing above db/.
export interface ClassMetrics {
  label: string;
  precision: number;
  recall: number;
  f1: number;
  /** Rows whose true class is this one. */
  support: number;
}

export interface RocPoint {
  fpr: number;
  tpr: number;
}

export interface RocCurve {
  /** The positive class (one-vs-rest). */
  label: string;
  auc: number;
  /** From (0, 0) to (1, 1), at most 200 points. */
  points: RocPoint[];
}

/** A misclassified picture of an image evaluation, named by its path in the dataset's ZIP. */
export interface EvaluationSample {
  path: string;
  actual: string;
  predicted: string;
  /** The model's probability of the predicted class. */
  confidence: number;
}

export type EvaluationResult =
  | {
      kind: "classification";
      rows: number;
      labels: string[];
      /** matrix[i][j]: rows of true class labels[i] predicted as labels[j]. */
      confusion_matrix: number[][];
      per_class: ClassMetrics[];
      /** Binary: one curve (the positive class, labels[1]); otherwise one per class. */
      roc: RocCurve[];
      /** Image models: misclassified pictures, the most confident first (GET …/samples/{n}/image). */
      samples?: EvaluationSample[];
    }
  | {
      kind: "regression";
      rows: number;
      /** The target's name, when the model recorded it. */
      target: string | null;
      /** At most 500 (actual, predicted) pairs, evenly spaced by row, for a scatter plot. */
      points?: { actual: number; predicted: number }[];
    }
  | {
      kind: "language_modeling";
      /** Windows evaluated (each predicts the character after it). */
      rows: number;
      /** Characters of the evaluated text. */
      characters: number;
      /** Of those, characters outside the model's vocabulary (skipped, as serving skips them). */
      unknown_characters: number;
      vocabulary_size: number;
      sequence_length: number;
    };

/**
 * Evaluations of a job's model artifact on a dataset version and split (issue 13). Computed by a
 * `training.evaluate` task of the durable jobs table (`runner_task_id`) from the same artifact a
 * deployment serves; `metrics` holds the headline numbers, `result` the tables and curves.
 */
export const EVALUATION_SPLITS = ["train", "validation", "test", "all"] as const;
export type EvaluationSplit = (typeof EVALUATION_SPLITS)[number];
export const EVALUATION_STATES = ["queued", "running", "succeeded", "failed"] as const;
export type EvaluationState = (typeof EVALUATION_STATES)[number];

export const trainingEvaluations = pgTable(
  "training_evaluations",
  {
    id: text("id").primaryKey(),
    ownerId: text("owner_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    jobId: text("job_id")
      .notNull()
      .references(() => trainingJobs.id, { onDelete: "cascade" }),
    datasetId: text("dataset_id").notNull(),
    datasetVersionId: text("dataset_version_id").notNull(),
    split: text("split", { enum: EVALUATION_SPLITS }).notNull(),
    state: text("state", { enum: EVALUATION_STATES }).notNull().default("queued"),
    /** Why the evaluation failed; null otherwise. */
    reason: text("reason"),
    runnerTaskId: text("runner_task_id"),
    /** Headline metrics: name → value (accuracy, macro_f1, roc_auc, mse, mae, r2…). */
    metrics: jsonb("metrics").$type<Record<string, number>>().notNull().default({}),
    result: jsonb("result").$type<EvaluationResult | null>(),
    startedAt: tstz("started_at"),
    finishedAt: tstz("finished_at"),
    ...timestamps(),
  },
  (t) => [
    index("training_evaluations_job_created_idx").on(t.jobId, t.createdAt),
    index("training_evaluations_owner_idx").on(t.ownerId),
    check(
      "training_evaluations_state_check",
      sql`${t.state} in ('queued', 'running', 'succeeded', 'failed')`,
    ),
    check("training_evaluations_split_check", sql`${t.split} in ('train', 'validation', 'test', 'all')`),
  ],
);

export type TrainingEvaluationRow = typeof trainingEvaluations.$inferSelect;
