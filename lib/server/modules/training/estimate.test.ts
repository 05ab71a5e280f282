import { describe, expect, it } from "vitest";
import { sequential } from "@/lib/ml/graph-builder";
import {
  graphShapeKey,
  measuredReportSeconds,
  median,
  modelSeconds,
  sameShapeSeconds,
  splitSamples,
  textSamples,
  workOf,
} from "./estimate";

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
    const w = workOf(mlp, { epochs: 2, batch_size: 16, optimizer: "adam" }, { train: 32, validation: 16 });
    expect(w.validation_steps_per_epoch).toBe(1);
    const t = {
      start_seconds: 1,
      step_seconds: 0.01,
      epoch_seconds: 0.1,
      flops_per_second: w.training_flops,
      conv_flops_per_second: 1,
      end_seconds: 0.5,
      report_seconds: 0.2,
    };
    // start + end + 2 epochs × ((2 training + ½ validation step) × step + epoch + report) + all FLOPs in 1 s.
    expect(modelSeconds(w, t)).toBeCloseTo(1 + 0.5 + 2 * (2.5 * 0.01 + 0.1 + 0.2) + 1, 10);
    expect(splitSamples(150, 0.2, null)).toEqual({ train: 120, validation: 30 });
    expect(splitSamples(150, 0.2, { train: 100, validation: 25 })).toEqual({ train: 100, validation: 25 });
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 2, 3])).toBe(2.5);
  });

  it("takes the per-epoch upload cost from measured jobs, and the epoch time from jobs of the same shape", () => {
    const t = {
      start_seconds: 1,
      step_seconds: 0,
      epoch_seconds: 0,
      flops_per_second: 1e30,
      conv_flops_per_second: 1e30,
      end_seconds: 1,
      report_seconds: 0,
    };
    const work = (epochs: number) =>
      workOf(mlp, { epochs, batch_size: 16, optimizer: "adam" }, { train: 120, validation: 30 });
    // Jobs that took 2 s of fixed costs and 0.1 s per epoch (one of them slower).
    const jobs = [
      { work: work(10), seconds: 3 },
      { work: work(20), seconds: 4 },
      { work: work(10), seconds: 5 },
    ];
    expect(measuredReportSeconds(jobs, t)).toBeCloseTo(0.1, 10);
    // A job faster than the fixed costs measures no negative cost.
    expect(measuredReportSeconds([{ work: work(10), seconds: 1 }], t)).toBe(0);
    // 40 epochs of a shape whose jobs ran 0.1 s and 0.3 s per epoch (median 0.2).
    expect(
      sameShapeSeconds(
        work(40),
        [
          { epochs: 10, seconds: 3 },
          { epochs: 10, seconds: 5 },
        ],
        t,
      ),
    ).toBeCloseTo(2 + 40 * 0.2, 10);
    // A job that ran in less than the runner's measured fixed costs (a busy benchmark): the same
    // epochs still give its own seconds, not the fixed costs.
    expect(sameShapeSeconds(work(10), [{ epochs: 10, seconds: 1.5 }], t)).toBeCloseTo(1.5, 10);
  });

  it("runs convolutions at their own measured rate, and counts a text's windows", () => {
    const cnn = sequential({ shape: [1, 8, 8] }, [
      ["Conv2D", { out_channels: 4, kernel_size: 3, padding: 1 }],
      ["Flatten", {}],
      ["Dense", { units: 3 }],
    ]).graph;
    const w = workOf(cnn, { epochs: 1, batch_size: 10, optimizer: "sgd" }, { train: 10, validation: 0 });
    expect(w.training_conv_flops).toBeGreaterThan(0);
    expect(w.training_conv_flops).toBeLessThan(w.training_flops);
    const t = {
      start_seconds: 0,
      step_seconds: 0,
      epoch_seconds: 0,
      flops_per_second: 1,
      conv_flops_per_second: 10,
      end_seconds: 0,
      report_seconds: 0,
    };
    expect(modelSeconds(w, t)).toBeCloseTo(
      w.training_flops - w.training_conv_flops + w.training_conv_flops / 10,
      6,
    );
    // 1,000 characters, 80 % for training: 800 − 16 and 200 − 16 windows of 16.
    expect(textSamples(1000, 16, 0.2)).toEqual({ train: 784, validation: 184 });
  });

  it("keys a graph by what training sees, not where its nodes are drawn", () => {
    const moved = structuredClone(mlp);
    moved.nodes.reverse();
    for (const n of moved.nodes) (n as { position?: { x: number; y: number } }).position = { x: 1, y: 2 };
    expect(graphShapeKey(moved)).toBe(graphShapeKey(mlp));
    const wider = structuredClone(mlp);
    const dense = wider.nodes.find((n) => n.type === "Dense");
    if (dense) dense.params = { ...dense.params, units: 32 };
    expect(graphShapeKey(wider)).not.toBe(graphShapeKey(mlp));
  });
});
