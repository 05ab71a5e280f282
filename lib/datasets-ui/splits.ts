import { mulberry32, shuffleInPlace } from "./random";

/**
 * Train/validation/test splits computed in the browser: explicit row membership (0-based row indices
 * in file order), random or stratified by a label, reproducible from a seed. The result is what
 * POST /datasets/{id}/versions/{version_id}/splits/explicit takes.
 */

export const SPLIT_NAMES = ["train", "validation", "test"] as const;
export type SplitName = (typeof SPLIT_NAMES)[number];

export const SPLIT_LABELS: Record<SplitName, string> = {
  train: "Train",
  validation: "Validation",
  test: "Test",
};

/** Whole percentages per split. */
export type SplitPercents = Record<SplitName, number>;
/** Sorted row indices per split. */
export type SplitMembership = Record<SplitName, number[]>;

/** The label used for rows without a value in the stratification column. */
export const MISSING_LABEL = "(missing)";

/** What is wrong with the percentages, or null when they can be used. */
export function validatePercents(p: SplitPercents): string | null {
  for (const name of SPLIT_NAMES) {
    const v = p[name];
    if (!Number.isFinite(v) || v < 0 || v > 100) return `${SPLIT_LABELS[name]} must be between 0 and 100 %.`;
  }
  if (p.train <= 0) return "The train split needs some rows.";
  const sum = p.train + p.validation + p.test;
  if (Math.abs(sum - 100) > 1e-9) return `The percentages add up to ${Number(sum.toFixed(2))} %, not 100 %.`;
  return null;
}

/**
 * Splits `n` items by the percentages with the largest-remainder method: the counts add up to `n`
 * and each is within one of its exact share.
 */
export function allocate(n: number, p: SplitPercents): Record<SplitName, number> {
  if (!SPLIT_NAMES.some((name) => p[name] > 0)) return { train: n, validation: 0, test: 0 };
  const exact = SPLIT_NAMES.map((name) => (n * p[name]) / 100);
  const counts = exact.map(Math.floor);
  let left = n - counts.reduce((a, b) => a + b, 0);
  const order = SPLIT_NAMES.map((_, i) => i).sort(
    (a, b) => exact[b] - counts[b] - (exact[a] - counts[a]) || a - b,
  );
  for (let k = 0; left > 0; k = (k + 1) % order.length) {
    const i = order[k];
    if (p[SPLIT_NAMES[i]] > 0) {
      counts[i]++;
      left--;
    }
  }
  return { train: counts[0], validation: counts[1], test: counts[2] };
}

function distribute(indices: number[], counts: Record<SplitName, number>, into: SplitMembership): void {
  let at = 0;
  for (const name of SPLIT_NAMES) {
    for (let k = 0; k < counts[name]; k++) into[name].push(indices[at++]);
  }
}

function emptyMembership(): SplitMembership {
  return { train: [], validation: [], test: [] };
}

function sortAll(m: SplitMembership): SplitMembership {
  for (const name of SPLIT_NAMES) m[name].sort((a, b) => a - b);
  return m;
}

/** Every row in exactly one split, chosen at random (uniformly) with the seed. */
export function randomSplit(rowCount: number, p: SplitPercents, seed: number): SplitMembership {
  const indices = Array.from({ length: rowCount }, (_, i) => i);
  shuffleInPlace(indices, mulberry32(seed));
  const out = emptyMembership();
  distribute(indices, allocate(rowCount, p), out);
  return sortAll(out);
}

/**
 * Every class is split by the same percentages (a class too small for every split goes to train
 * first), so each split has the class balance of the whole. Rows without a label form their own class.
 */
export function stratifiedSplit(
  labels: readonly (string | null)[],
  p: SplitPercents,
  seed: number,
): SplitMembership {
  const random = mulberry32(seed);
  const groups = new Map<string, number[]>();
  labels.forEach((label, row) => {
    const key = label ?? MISSING_LABEL;
    let g = groups.get(key);
    if (!g) {
      g = [];
      groups.set(key, g);
    }
    g.push(row);
  });
  const out = emptyMembership();
  // A fixed class order, so that the same seed gives the same split whatever order rows come in.
  for (const key of [...groups.keys()].sort()) {
    const rows = groups.get(key) ?? [];
    shuffleInPlace(rows, random);
    distribute(rows, allocate(rows.length, p), out);
  }
  return sortAll(out);
}

export interface SplitBalance {
  split: SplitName;
  total: number;
  /** In the order of `classes`. */
  counts: number[];
}

export interface ClassBalance {
  /** Classes, most frequent overall first (ties by name); at most `maxClasses`, the rest as "Other". */
  classes: string[];
  splits: SplitBalance[];
  /** Rows per class over all splits, in the order of `classes`. */
  overall: number[];
  /** The last class is "Other": the classes beyond the limit together. */
  hasOther: boolean;
}

/** How many rows of each class each split holds. */
export function classBalance(
  labels: readonly (string | null)[],
  membership: SplitMembership,
  maxClasses = 8,
): ClassBalance {
  const frequency = new Map<string, number>();
  for (const l of labels) {
    const key = l ?? MISSING_LABEL;
    frequency.set(key, (frequency.get(key) ?? 0) + 1);
  }
  const ranked = [...frequency.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
  const overflow = ranked.length > maxClasses;
  const kept = (overflow ? ranked.slice(0, maxClasses - 1) : ranked).map(([k]) => k);
  const classes = overflow ? [...kept, "Other"] : kept;
  const slot = new Map(kept.map((k, i) => [k, i]));
  const otherSlot = overflow ? classes.length - 1 : -1;
  const overall = new Array<number>(classes.length).fill(0);
  const splits = SPLIT_NAMES.map((split) => {
    const counts = new Array<number>(classes.length).fill(0);
    for (const row of membership[split]) {
      const i = slot.get(labels[row] ?? MISSING_LABEL) ?? otherSlot;
      if (i >= 0) {
        counts[i]++;
        overall[i]++;
      }
    }
    return { split, total: membership[split].length, counts };
  });
  return { classes, splits, overall, hasOther: overflow };
}

/** The request body of the explicit-splits route: empty splits are left out (the API refuses them). */
export function splitsRequestBody(m: SplitMembership): { splits: Partial<SplitMembership> } {
  const splits: Partial<SplitMembership> = { train: m.train };
  if (m.validation.length > 0) splits.validation = m.validation;
  if (m.test.length > 0) splits.test = m.test;
  return { splits };
}
