import { describe, expect, it } from "vitest";
import { formatProbability, showOutput } from "./outputs";

describe("showOutput", () => {
  it("sorts a classification's classes by probability", () => {
    expect(showOutput({ label: "b", probabilities: { a: 0.1, b: 0.7, c: 0.2 } })).toEqual({
      kind: "label",
      label: "b",
      classes: [
        { name: "b", probability: 0.7 },
        { name: "c", probability: 0.2 },
        { name: "a", probability: 0.1 },
      ],
    });
  });
  it("reads regression values and falls back to JSON", () => {
    expect(showOutput({ value: 3.5 })).toEqual({ kind: "value", value: 3.5 });
    expect(showOutput({ values: [1, 2] })).toEqual({ kind: "values", values: [1, 2] });
    expect(showOutput("x")).toEqual({ kind: "raw", json: '"x"' });
  });
  it("formats probabilities", () => {
    expect(formatProbability(0.9731)).toBe("97.3%");
    expect(formatProbability(0.00001)).toBe("<0.1%");
    expect(formatProbability(0)).toBe("0.0%");
  });
});
