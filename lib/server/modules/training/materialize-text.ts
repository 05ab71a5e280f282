/**
 * Text: one token per character, windows of the model's input length predicting the next character,
 * split by position.
 */
import fs from "node:fs";
import type { TrainingConfig } from "../../../ml/graph-types";
import type { Preprocessing } from "../../db/schema/training";
import { ValidationError } from "../../errors";
import { type ModelIO, type TextColumns, textModelProblem } from "./dataset-fit";
import {
  MAX_TEXT_CHARACTERS,
  MAX_TEXT_WINDOWS,
  type PreparedSplit,
  type ResolvedVersion,
  type SplitName,
  writePrepared,
} from "./prepared-dataset";

// ---------------------------------------------------------------------------------------------
// Text

/** Placeholder names of output classes beyond the vocabulary (never a target). */
export const UNUSED_CLASS_PREFIX = "<unused ";

/**
 * `baseVocabulary` (fine-tuning a language model): the text is encoded with the base model's
 * vocabulary instead of its own, so the Embedding and the Output keep their shapes; characters
 * outside it are dropped (as serving skips them) and counted in the `char_tokens` step.
 */
export async function materializeText(
  v: ResolvedVersion,
  columns: TextColumns,
  io: ModelIO,
  config: TrainingConfig,
  dir: string,
  baseVocabulary: string[] | null = null,
): Promise<Preprocessing> {
  const stat = await fs.promises.stat(v.file);
  if (stat.size > MAX_TEXT_CHARACTERS * 4)
    throw new ValidationError(
      `The text is too large for a character model (at most ${MAX_TEXT_CHARACTERS} characters).`,
    );
  const content = await fs.promises.readFile(v.file, "utf8");
  const lines = content.split("\n").map((l) => (l.endsWith("\r") ? l.slice(0, -1) : l));
  if (lines.length > 0 && lines[lines.length - 1] === "") lines.pop();

  let parts: Record<SplitName, string>;
  let method: "explicit" | "sequential";
  if (v.splits) {
    const join = (rows: number[]) =>
      rows
        .filter((r) => r >= 0 && r < lines.length)
        .map((r) => lines[r])
        .join("\n");
    parts = {
      train: join(v.splits.train),
      validation: join(v.splits.validation ?? []),
      test: join(v.splits.test ?? []),
    };
    method = "explicit";
  } else {
    const chars = Array.from(lines.join("\n"));
    const cut = Math.round(chars.length * (1 - config.validation_split));
    parts = { train: chars.slice(0, cut).join(""), validation: chars.slice(cut).join(""), test: "" };
    method = "sequential";
  }
  const all = Array.from(`${parts.train}${parts.validation}${parts.test}`);
  if (all.length > MAX_TEXT_CHARACTERS)
    throw new ValidationError(
      `The text is too large for a character model (at most ${MAX_TEXT_CHARACTERS} characters).`,
    );
  const vocabulary = baseVocabulary ?? [...new Set(all)].sort();
  const index = new Map(vocabulary.map((ch, i) => [ch, i] as const));
  const dropped = baseVocabulary ? all.filter((ch) => !index.has(ch)).length : 0;
  const trainLength = Array.from(parts.train).filter((ch) => index.has(ch)).length;
  const problem = textModelProblem(io, vocabulary.length, trainLength);
  if (problem) throw new ValidationError(problem);
  const T = io.inputShape[0];

  const windows = (text: string): PreparedSplit => {
    const ids = Array.from(text).flatMap((ch) => {
      const id = index.get(ch);
      return id === undefined ? [] : [id];
    });
    const count = Math.max(0, ids.length - T);
    const stride = Math.max(1, Math.ceil(count / MAX_TEXT_WINDOWS));
    const n = Math.ceil(count / stride);
    const x = new Int32Array(n * T);
    const y = new Int32Array(n);
    for (let w = 0; w < n; w++) {
      const start = w * stride;
      for (let t = 0; t < T; t++) x[w * T + t] = ids[start + t];
      y[w] = ids[start + T];
    }
    return { rows: n, x, y };
  };
  const prepared = {
    train: windows(parts.train),
    validation: windows(parts.validation),
    test: windows(parts.test),
  };
  const labels = [
    ...vocabulary,
    ...Array.from(
      { length: io.outputShape[0] - vocabulary.length },
      (_, i) => `${UNUSED_CLASS_PREFIX}${i + 1}>`,
    ),
  ];
  const p: Preprocessing = {
    task: "language_modeling",
    input_features: Array.from({ length: T }, (_, i) => `token_${i}`),
    raw_features: [{ name: columns.column, type: "text" }],
    target: null,
    labels,
    input_shape: io.inputShape,
    input_dtype: "int64",
    steps: [
      { kind: "select_columns", features: [columns.column], target: null },
      {
        kind: "split",
        method,
        seed: null,
        train: prepared.train.rows,
        validation: prepared.validation.rows,
        test: prepared.test.rows,
      },
      baseVocabulary
        ? { kind: "char_tokens", vocabulary, sequence_length: T, source: "base_model", dropped }
        : { kind: "char_tokens", vocabulary, sequence_length: T },
    ],
    rows: { train: prepared.train.rows, validation: prepared.validation.rows, test: prepared.test.rows },
  };
  writePrepared(dir, p, "int32", { dtype: "int32", shape: [] }, prepared);
  return p;
}
