import { describe, expect, it } from "vitest";
import type { ModelManifest } from "../training/artifact-reader";
import { MicroBatcher } from "./micro-batcher";

/** A two-feature regression "model" whose output is the first input plus the second. */
const manifest = {
  task: "regression",
  input_features: [
    { name: "a", type: "number" },
    { name: "b", type: "number" },
  ],
  input: { name: "input", shape: [2], dtype: "float32", features: ["a", "b"], preprocessing: [] },
  output: { name: "output", kind: "value", target: "y", shape: [1] },
} as unknown as ModelManifest;

function fakeModel() {
  const sizes: number[] = [];
  return {
    sizes,
    model: {
      manifest,
      async run(batch: { count: number; values: Float32Array | Int32Array }) {
        sizes.push(batch.count);
        await new Promise((r) => setTimeout(r, 5));
        return Float32Array.from(
          { length: batch.count },
          (_, i) => batch.values[2 * i] + batch.values[2 * i + 1],
        );
      },
    },
  };
}

describe("MicroBatcher", () => {
  it("runs a lone request at once and coalesces requests that arrive while the model is busy", async () => {
    const { model, sizes } = fakeModel();
    const b = new MicroBatcher(model, { maxBatch: 8 });
    const results = await Promise.all(Array.from({ length: 10 }, (_, i) => b.predict([{ a: i, b: 100 }])));
    expect(results.map((r) => r[0])).toEqual(Array.from({ length: 10 }, (_, i) => ({ value: i + 100 })));
    expect(sizes[0]).toBe(1);
    expect(sizes.slice(1)).toEqual([8, 1]);
  });

  it("rejects a request that does not fit before it joins a batch", async () => {
    const { model } = fakeModel();
    const b = new MicroBatcher(model);
    expect(() => b.predict([{ a: 1 }])).toThrow(/missing feature/);
  });
});
