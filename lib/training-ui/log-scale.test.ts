import { describe, expect, it } from "vitest";
import { logDomain, logTicks, positiveOnly } from "./log-scale";

describe("logDomain", () => {
  it("encloses the positive values in whole decades", () => {
    expect(logDomain([0.03, 2.4, 0.5])).toEqual([0.01, 10]);
    expect(logDomain([1, 10])).toEqual([1, 10]);
    expect(logDomain([5])).toEqual([1, 10]);
    expect(logDomain([1])).toEqual([1, 10]);
  });
  it("ignores values a log axis cannot draw", () => {
    expect(logDomain([0, -1, undefined, Number.NaN, 0.2])).toEqual([0.1, 1]);
    expect(logDomain([0, -3])).toBeNull();
  });
});

describe("logTicks", () => {
  it("puts a tick on every decade, thinned past the maximum", () => {
    expect(logTicks([0.001, 1])).toEqual([0.001, 0.01, 0.1, 1]);
    expect(logTicks([1e-10, 1e10], 5)).toHaveLength(5);
  });
});

describe("positiveOnly", () => {
  it("drops zero and negative values of the given keys, keeping rows unchanged otherwise", () => {
    const rows = [
      { x: 1, a: 0, b: 2 },
      { x: 2, a: 1, b: 3 },
    ];
    const out = positiveOnly(rows, ["a", "b"]);
    expect(out[0]).toEqual({ x: 1, b: 2 });
    expect(out[1]).toBe(rows[1]);
  });
});
