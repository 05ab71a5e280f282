import { describe, expect, it } from "vitest";
import { sequential } from "@/lib/ml/graph-builder";
import { median, modelSeconds, splitSamples, workOf } from "./estimate";

const mlp = sequential({ shape: [4] }, [
  ["Dense", { units: 16, activation: "relu" }],
  ["Dense", { units: 3 }],
]).graph;

describe("estimate (pure parts)", () => {
  it("counts parameters, FLOPs, steps and memory of a training run", () => {
    const w = workOf(mlp, { epochs: 10, batch_size: 16, optimizer: "adam" }, { train: 120, validation: 30 });
    expect(w.params).toBe(131);
    expect(w.steps_per_epoch).toBe(8);
    expect(w.training_flops).toBe(10 * w.flops_per_sample * (3 * 120 + 30));
    expect(w.memory.weights_bytes).toBe(524);
    expect(w.memory.gradients_bytes).toBe(524);
    expect(w.memory.optimizer_bytes).toBe(1048);
    // Outputs per sample: input 4, dense 16, dense 3, output 3 → 26 values × 16 × 4 bytes × 2.
    expect(w.memory.activations_bytes).toBe(26 * 16 * 4 * 2);
    expect(w.memory.total_bytes).toBe(524 * 4 + 26 * 16 * 8);
    const sgd = workOf(mlp, { epochs: 1, batch_size: 16, optimizer: "sgd" }, { train: 1, validation: 0 });
    expect(sgd.memory.optimizer_bytes).toBe(0);
    // A batch never holds more samples than the training set.
    expect(sgd.memory.activations_bytes).toBe(26 * 1 * 8);
  });

  it("models seconds from measured coefficients, splits and medians", () => {
    const w = workOf(mlp, { epochs: 2, batch_size: 16, optimizer: "adam" }, { train: 32, validation: 0 });
    const t = {
      start_seconds: 1,
      step_seconds: 0.01,
      epoch_seconds: 0.1,
      flops_per_second: w.training_flops,
    };
    expect(modelSeconds(w, t)).toBeCloseTo(1 + 2 * (2 * 0.01 + 0.1) + 1, 10);
    expect(splitSamples(150, 0.2, null)).toEqual({ train: 120, validation: 30 });
    expect(splitSamples(150, 0.2, { train: 100, validation: 25 })).toEqual({ train: 100, validation: 25 });
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 2, 3])).toBe(2.5);
  });
});
