import { describe, expect, it } from "vitest";
import type { ModelManifest, Prediction } from "../training/artifact-reader";
import { summarize } from "./summarize";

const manifest = (output: ModelManifest["output"]) => ({ output }) as ModelManifest;
const p = (label: string, a: number): Prediction => ({ label, probabilities: { a, b: 1 - a } });

describe("summarize", () => {
  it("counts rows of a class the model cannot output as errors", () => {
    const { metrics, result } = summarize(
      manifest({ name: "output", kind: "labels", labels: ["a", "b"] }),
      ["a", "b", "c", "a"],
      [p("a", 0.9), p("b", 0.2), p("a", 0.6), p("a", 0.7)],
    );
    expect(metrics.accuracy).toBeCloseTo(3 / 4);
    expect(metrics.rows_with_unknown_class).toBe(1);
    expect(metrics.rows).toBe(4);
    if (result.kind !== "classification") throw new Error(result.kind);
    expect(result.confusion_matrix).toEqual([
      [2, 0],
      [0, 1],
    ]);
    expect(result.roc.map((c) => c.label)).toEqual(["b"]);
  });

  it("gives regression figures in the target's units with a sample of points", () => {
    const { metrics, result } = summarize(
      manifest({ name: "output", kind: "value", target: "y", shape: [1] }),
      [1, 2, 3],
      [{ value: 1 }, { value: 2 }, { value: 4 }],
    );
    expect(metrics.mse).toBeCloseTo(1 / 3);
    expect(result).toMatchObject({ kind: "regression", rows: 3, target: "y" });
    if (result.kind === "regression") expect(result.points).toHaveLength(3);
  });
});
