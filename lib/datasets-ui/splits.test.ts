import { describe, expect, it } from "vitest";
import { mulberry32, shuffleInPlace } from "./random";
import {
  allocate,
  classBalance,
  MISSING_LABEL,
  randomSplit,
  type SplitMembership,
  splitsRequestBody,
  stratifiedSplit,
  validatePercents,
} from "./splits";

const P = { train: 80, validation: 10, test: 10 };

function expectPartition(m: SplitMembership, n: number) {
  const all = [...m.train, ...m.validation, ...m.test].sort((a, b) => a - b);
  expect(all).toEqual(Array.from({ length: n }, (_, i) => i));
  for (const rows of Object.values(m)) expect(rows).toEqual([...rows].sort((a, b) => a - b));
}

describe("seeded randomness", () => {
  it("repeats with the same seed and differs with another", () => {
    const a = mulberry32(42);
    const b = mulberry32(42);
    const seqA = [a(), a(), a()];
    expect([b(), b(), b()]).toEqual(seqA);
    const c = mulberry32(43);
    expect(c()).not.toBe(seqA[0]);
    for (const v of seqA) expect(v).toBeGreaterThanOrEqual(0);
    for (const v of seqA) expect(v).toBeLessThan(1);
  });
  it("shuffles into a permutation", () => {
    const xs = shuffleInPlace(
      Array.from({ length: 50 }, (_, i) => i),
      mulberry32(1),
    );
    expect([...xs].sort((a, b) => a - b)).toEqual(Array.from({ length: 50 }, (_, i) => i));
    expect(xs).not.toEqual(Array.from({ length: 50 }, (_, i) => i));
  });
});

describe("percentages", () => {
  it("must add up to 100 with some training rows", () => {
    expect(validatePercents(P)).toBeNull();
    expect(validatePercents({ train: 70, validation: 20, test: 20 })).toMatch(/110/);
    expect(validatePercents({ train: 0, validation: 50, test: 50 })).toMatch(/train/i);
    expect(validatePercents({ train: 110, validation: -10, test: 0 })).toMatch(/between/);
  });
  it("allocates exactly n rows, each split within one of its share", () => {
    expect(allocate(10, P)).toEqual({ train: 8, validation: 1, test: 1 });
    expect(allocate(7, { train: 70, validation: 15, test: 15 })).toEqual({
      train: 5,
      validation: 1,
      test: 1,
    });
    expect(allocate(3, { train: 100, validation: 0, test: 0 })).toEqual({ train: 3, validation: 0, test: 0 });
    for (const n of [0, 1, 2, 99, 1001]) {
      const c = allocate(n, { train: 60, validation: 25, test: 15 });
      expect(c.train + c.validation + c.test).toBe(n);
      expect(Math.abs(c.validation - n * 0.25)).toBeLessThan(1);
    }
  });
});

describe("random split", () => {
  it("puts every row in exactly one split, reproducibly", () => {
    const a = randomSplit(1000, P, 7);
    expectPartition(a, 1000);
    expect([a.train.length, a.validation.length, a.test.length]).toEqual([800, 100, 100]);
    expect(randomSplit(1000, P, 7)).toEqual(a);
    expect(randomSplit(1000, P, 8).test).not.toEqual(a.test);
  });
  it("copes with tiny datasets", () => {
    const m = randomSplit(1, P, 1);
    expect(m).toEqual({ train: [0], validation: [], test: [] });
  });
});

describe("stratified split", () => {
  // 60 a, 30 b, 10 c, interleaved in file order.
  const labels = Array.from({ length: 100 }, (_, i) => (i % 10 === 0 ? "c" : i % 10 <= 3 ? "b" : "a"));

  it("keeps each class's share in every split", () => {
    const m = stratifiedSplit(labels, P, 3);
    expectPartition(m, 100);
    const bal = classBalance(labels, m);
    expect(bal.classes).toEqual(["a", "b", "c"]);
    expect(bal.splits.map((s) => s.counts)).toEqual([
      [48, 24, 8],
      [6, 3, 1],
      [6, 3, 1],
    ]);
    expect(bal.overall).toEqual([60, 30, 10]);
  });
  it("is reproducible and independent of how classes are first met", () => {
    expect(stratifiedSplit(labels, P, 3)).toEqual(stratifiedSplit(labels, P, 3));
    expect(stratifiedSplit(labels, P, 4)).not.toEqual(stratifiedSplit(labels, P, 3));
  });
  it("treats missing labels as a class of their own", () => {
    const ls = ["x", null, "x", null, "x", null, "x", null, "x", null];
    const m = stratifiedSplit(ls, { train: 60, validation: 20, test: 20 }, 1);
    expectPartition(m, 10);
    const bal = classBalance(ls, m);
    expect(bal.classes).toEqual([MISSING_LABEL, "x"]);
    expect(bal.splits[0].counts).toEqual([3, 3]);
  });
  it("sends a class too small for every split to train", () => {
    const ls = [...Array.from({ length: 20 }, () => "big"), "rare"];
    const m = stratifiedSplit(ls, P, 5);
    expect(m.train).toContain(20);
  });
});

describe("class balance and request body", () => {
  it("folds rare classes into Other beyond the limit", () => {
    const ls = ["a", "a", "a", "b", "b", "c", "d", "e"];
    const m: SplitMembership = { train: [0, 1, 2, 3, 4, 5, 6, 7], validation: [], test: [] };
    const bal = classBalance(ls, m, 3);
    expect(bal.classes).toEqual(["a", "b", "Other"]);
    expect(bal.hasOther).toBe(true);
    expect(bal.splits[0].counts).toEqual([3, 2, 3]);
    expect(bal.splits[1]).toEqual({ split: "validation", total: 0, counts: [0, 0, 0] });
  });
  it("leaves empty splits out of the body", () => {
    expect(splitsRequestBody({ train: [0, 2], validation: [], test: [1] })).toEqual({
      splits: { train: [0, 2], test: [1] },
    });
  });
});
