/**
 * The windows of a text split, for evaluating a character language model: the same text parts as
 * materializeText made for the job (the version's explicit line split, or the sequential cut at
 * `validation_split`), tokenised with the vocabulary the model's manifest records, in windows of
 * its sequence length predicting the next character (taken with the same stride beyond
 * MAX_TEXT_WINDOWS). Characters outside the vocabulary are skipped, as serving skips them.
 */
import fs from "node:fs";
import type { TrainingConfig } from "../../../ml/graph-types";
import type { Db } from "../../db/client";
import type { EvaluationSplit } from "../../db/schema/evaluations";
import { ValidationError } from "../../errors";
import { MAX_TEXT_CHARACTERS, MAX_TEXT_WINDOWS, resolveVersion } from "../training/prepared-dataset";

export interface TextWindows {
  /** Windows (samples). */
  rows: number;
  /** Tokens per window. */
  sequenceLength: number;
  /** Characters of the split's text. */
  characters: number;
  /** Of those, characters outside the model's vocabulary (skipped). */
  unknownCharacters: number;
  /**
   * Windows start … start + count − 1: their token ids (count × sequenceLength) and the next
   * character's token id after each. Built per batch, so that memory stays that of the text.
   */
  batch(start: number, count: number): { x: Int32Array; y: Int32Array };
}

/** The text of one split (or all of it), as materializeText cut it. */
export function splitText(
  lines: readonly string[],
  splits: { train: number[]; validation?: number[]; test?: number[] } | null,
  validationSplit: number,
  split: EvaluationSplit,
): string {
  if (splits) {
    const join = (rows: readonly number[]) =>
      rows
        .filter((r) => r >= 0 && r < lines.length)
        .map((r) => lines[r])
        .join("\n");
    if (split === "all") return lines.join("\n");
    return join(split === "train" ? splits.train : (splits[split] ?? []));
  }
  const chars = Array.from(lines.join("\n"));
  if (split === "all") return chars.join("");
  if (split === "test") return "";
  const cut = Math.round(chars.length * (1 - validationSplit));
  return (split === "train" ? chars.slice(0, cut) : chars.slice(cut)).join("");
}

/** Token windows of `text` (see the module comment). */
export function textWindows(
  text: string,
  vocabulary: readonly string[],
  sequenceLength: number,
): TextWindows {
  const index = new Map(vocabulary.map((ch, i) => [ch, i] as const));
  const chars = Array.from(text);
  const ids = new Int32Array(chars.length);
  let known = 0;
  for (const ch of chars) {
    const id = index.get(ch);
    if (id !== undefined) ids[known++] = id;
  }
  const T = sequenceLength;
  const count = Math.max(0, known - T);
  const stride = Math.max(1, Math.ceil(count / MAX_TEXT_WINDOWS));
  const rows = Math.ceil(count / stride);
  return {
    rows,
    sequenceLength: T,
    characters: chars.length,
    unknownCharacters: chars.length - known,
    batch(start, n) {
      const size = Math.max(0, Math.min(n, rows - start));
      const x = new Int32Array(size * T);
      const y = new Int32Array(size);
      for (let w = 0; w < size; w++) {
        const first = (start + w) * stride;
        x.set(ids.subarray(first, first + T), w * T);
        y[w] = ids[first + T];
      }
      return { x, y };
    },
  };
}

/** Reads a text dataset version and returns the windows of one split for a model's vocabulary. */
export async function readTextWindows(
  db: Db,
  input: {
    ownerId: string;
    datasetId: string;
    datasetVersionId: string;
    config: TrainingConfig;
    split: EvaluationSplit;
    vocabulary: readonly string[];
    sequenceLength: number;
  },
): Promise<TextWindows> {
  const v = await resolveVersion(db, input.ownerId, input.datasetId, input.datasetVersionId);
  if (v.schema.format !== "text")
    throw new ValidationError(
      "This model is a character language model: evaluate it on a text dataset, not a table.",
    );
  const stat = await fs.promises.stat(v.file);
  if (stat.size > MAX_TEXT_CHARACTERS * 4)
    throw new ValidationError(
      `The text is too large to evaluate (at most ${MAX_TEXT_CHARACTERS} characters).`,
    );
  const content = await fs.promises.readFile(v.file, "utf8");
  const lines = content.split("\n").map((l) => (l.endsWith("\r") ? l.slice(0, -1) : l));
  if (lines.length > 0 && lines[lines.length - 1] === "") lines.pop();
  const text = splitText(lines, v.splits, input.config.validation_split, input.split);
  const windows = textWindows(text, input.vocabulary, input.sequenceLength);
  if (windows.unknownCharacters > 0 && windows.unknownCharacters === windows.characters)
    throw new ValidationError(
      "None of the text's characters are in the model's vocabulary, so it cannot be evaluated on it.",
    );
  return windows;
}
