import { describe, expect, it } from "vitest";
import { emaSmooth } from "./smoothing";

describe("emaSmooth", () => {
  it("returns the values unchanged at weight 0", () => {
    expect(emaSmooth([3, 1, 2], 0)).toEqual([3, 1, 2]);
  });

  it("starts at the first value (debiased) and follows TensorBoard's formula", () => {
    const out = emaSmooth([1, 2, 3], 0.5);
    expect(out[0]).toBeCloseTo(1);
    // last = 0.5·0.5 + 0.5·2 = 1.25; debias 1 − 0.25 = 0.75 → 1.6667
    expect(out[1]).toBeCloseTo(1.25 / 0.75);
    // last = 1.25·0.5 + 1.5 = 2.125; debias 0.875 → 2.4286
    expect(out[2]).toBeCloseTo(2.125 / 0.875);
  });

  it("keeps a constant series constant", () => {
    for (const v of emaSmooth([5, 5, 5, 5, 5], 0.9)) expect(v).toBeCloseTo(5);
  });

  it("passes non-finite values through without disturbing the average", () => {
    const out = emaSmooth([1, Number.NaN, 1], 0.6);
    expect(out[0]).toBeCloseTo(1);
    expect(Number.isNaN(out[1])).toBe(true);
    expect(out[2]).toBeCloseTo(1);
  });

  it("clamps the weight below 1 so the line still moves", () => {
    const out = emaSmooth([0, 10], 1);
    expect(out[1]).toBeGreaterThan(0);
  });
});
