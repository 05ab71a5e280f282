import type { FieldError } from "../../errors";

/**
 * Explicit splits: the caller names the rows (0-based indices in file order) of each split. Valid
 * when every split given is non-empty, `train` is given, every index is within the version's rows and
 * no row is in two splits (or twice in one).
 */
export const SPLIT_NAMES = ["train", "validation", "test"] as const;
export type SplitName = (typeof SPLIT_NAMES)[number];
export type ExplicitSplits = Partial<Record<SplitName, number[]>>;

const MAX_ERRORS = 20;

export function validateExplicitSplits(splits: ExplicitSplits, rowCount: number): FieldError[] {
  const errors: FieldError[] = [];
  const add = (path: string, message: string) => {
    if (errors.length < MAX_ERRORS) errors.push({ path, message });
  };
  if (!splits.train) add("splits.train", "A train split is required.");
  // Which split holds each row: 0 = none, 1 + index in SPLIT_NAMES otherwise.
  const owner = new Uint8Array(Math.max(0, rowCount));
  SPLIT_NAMES.forEach((name, s) => {
    const rows = splits[name];
    if (rows === undefined) return;
    if (rows.length === 0) add(`splits.${name}`, "A split cannot be empty.");
    rows.forEach((row, i) => {
      if (!Number.isInteger(row) || row < 0 || row >= rowCount) {
        add(
          `splits.${name}.${i}`,
          `Row ${row} is out of range (the version has ${rowCount} rows, numbered from 0).`,
        );
        return;
      }
      const prev = owner[row];
      if (prev === 0) owner[row] = s + 1;
      else if (prev === s + 1) add(`splits.${name}.${i}`, `Row ${row} appears twice in ${name}.`);
      else
        add(
          `splits.${name}.${i}`,
          `Row ${row} is already in ${SPLIT_NAMES[prev - 1]}; splits must be disjoint.`,
        );
    });
  });
  return errors;
}
