/**
 * Shapes stored in training_evaluations.result. Types only: the database schema imports them, so this
 * module must stay free of runtime dependencies.
 */

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
