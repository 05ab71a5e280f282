import { describe, expect, it } from "vitest";
import {
  accuracyOf,
  addTokenLosses,
  confusionMatrix,
  downsampleCurve,
  languageModelMetrics,
  macroAverages,
  meanAuc,
  perClassMetrics,
  perplexity,
  regressionMetrics,
  rocCurve,
  rocCurves,
  samplePairs,
  trapezoidAuc,
} from "./metrics";

describe("classification metrics", () => {
  // truth:     a a a b b c
  // predicted: a a b b c c
  const truth = [0, 0, 0, 1, 1, 2];
  const predicted = [0, 0, 1, 1, 2, 2];
  const labels = ["a", "b", "c"];

  it("builds the confusion matrix by hand", () => {
    const m = confusionMatrix(truth, predicted, 3);
    expect(m).toEqual([
      [2, 1, 0],
      [0, 1, 1],
      [0, 0, 1],
    ]);
    expect(accuracyOf(m)).toBeCloseTo(4 / 6);
  });

  it("computes per-class precision, recall, F1 and macro averages", () => {
    const per = perClassMetrics(confusionMatrix(truth, predicted, 3), labels);
    expect(per[0]).toMatchObject({ label: "a", precision: 1, recall: 2 / 3, support: 3 });
    expect(per[0].f1).toBeCloseTo(0.8);
    expect(per[1]).toMatchObject({ precision: 0.5, recall: 0.5, f1: 0.5, support: 2 });
    expect(per[2]).toMatchObject({ precision: 0.5, recall: 1, support: 1 });
    expect(per[2].f1).toBeCloseTo(2 / 3);
    const macro = macroAverages(per);
    expect(macro.precision).toBeCloseTo((1 + 0.5 + 0.5) / 3);
    expect(macro.recall).toBeCloseTo((2 / 3 + 0.5 + 1) / 3);
    expect(macro.f1).toBeCloseTo((0.8 + 0.5 + 2 / 3) / 3);
  });

  it("gives 0 rather than NaN for a class never predicted and never present", () => {
    const per = perClassMetrics(confusionMatrix([0, 0], [0, 0], 2), ["x", "y"]);
    expect(per[1]).toEqual({ label: "y", precision: 0, recall: 0, f1: 0, support: 0 });
    expect(macroAverages(per).f1).toBe(1);
    expect(accuracyOf([])).toBe(0);
  });
});

describe("ROC", () => {
  it("computes a hand-checked curve and AUC", () => {
    // scores 0.9(+) 0.8(−) 0.7(+) 0.6(+) 0.2(−): 4 of the 6 (positive, negative) pairs ranked right → AUC 2/3.
    const points = rocCurve([0.9, 0.8, 0.7, 0.6, 0.2], [true, false, true, true, false]);
    expect(points).toEqual([
      { fpr: 0, tpr: 0 },
      { fpr: 0, tpr: 1 / 3 },
      { fpr: 0.5, tpr: 1 / 3 },
      { fpr: 0.5, tpr: 2 / 3 },
      { fpr: 0.5, tpr: 1 },
      { fpr: 1, tpr: 1 },
    ]);
    expect(trapezoidAuc(points ?? [])).toBeCloseTo(2 / 3);
  });

  it("moves tied scores together (a tie counts half)", () => {
    const points = rocCurve([0.5, 0.5], [true, false]) ?? [];
    expect(points).toEqual([
      { fpr: 0, tpr: 0 },
      { fpr: 1, tpr: 1 },
    ]);
    expect(trapezoidAuc(points)).toBeCloseTo(0.5);
  });

  it("is null without both kinds of rows; perfect scores give AUC 1", () => {
    expect(rocCurve([0.1, 0.2], [true, true])).toBeNull();
    expect(trapezoidAuc(rocCurve([0.9, 0.1], [true, false]) ?? [])).toBe(1);
  });

  it("uses only the positive class for binary tasks, one-vs-rest otherwise", () => {
    const binary = rocCurves(
      [
        [0.2, 0.8],
        [0.7, 0.3],
      ],
      [1, 0],
      ["no", "yes"],
    );
    expect(binary.map((c) => c.label)).toEqual(["yes"]);
    expect(binary[0].auc).toBe(1);
    const multi = rocCurves(
      [
        [0.8, 0.1, 0.1],
        [0.1, 0.8, 0.1],
        [0.1, 0.1, 0.8],
      ],
      [0, 1, 2],
      ["a", "b", "c"],
    );
    expect(multi.map((c) => c.auc)).toEqual([1, 1, 1]);
    expect(meanAuc(multi)).toBe(1);
    expect(meanAuc([])).toBeNull();
  });

  it("downsamples to at most 200 points, keeping both ends", () => {
    const many = Array.from({ length: 1001 }, (_, i) => ({ fpr: i / 1000, tpr: Math.sqrt(i / 1000) }));
    const few = downsampleCurve(many);
    expect(few).toHaveLength(200);
    expect(few[0]).toEqual(many[0]);
    expect(few[199]).toEqual(many[1000]);
  });
});

describe("regression and language-model metrics", () => {
  it("computes MSE, MAE and R² by hand", () => {
    // errors: 0.5, -0.5, 0, 1 → MSE 1.5/4, MAE 2/4; mean 2.5, SS_tot 5.
    const m = regressionMetrics([1, 2, 3, 4], [0.5, 2.5, 3, 3]);
    expect(m.mse).toBeCloseTo(0.375);
    expect(m.mae).toBeCloseTo(0.5);
    expect(m.r2).toBeCloseTo(1 - 1.5 / 5);
    expect(m.rmse).toBeCloseTo(Math.sqrt(0.375));
    expect(regressionMetrics([2, 2], [2, 2]).r2).toBe(0);
  });

  it("takes perplexity as exp of the mean loss", () => {
    expect(perplexity([Math.log(4), Math.log(4)])).toBeCloseTo(4);
    expect(perplexity([0])).toBe(1);
    expect(perplexity([])).toBeNaN();
  });
});

describe("next-token losses", () => {
  it("matches log-softmax cross-entropy by hand, perplexity = exp(loss)", () => {
    // Row 0: logits [0, ln 3] → p(1) = 3/4, target 1; row 1: uniform over 2, target 0 (a tie: argmax 0).
    const totals = addTokenLosses({ lossSum: 0, correct: 0, tokens: 0 }, [0, Math.log(3), 5, 5], 2, [1, 0]);
    const m = languageModelMetrics(totals);
    expect(m.loss).toBeCloseTo((-Math.log(3 / 4) + Math.log(2)) / 2);
    expect(m.perplexity).toBeCloseTo(Math.exp(m.loss));
    expect(m.bits_per_character).toBeCloseTo(m.loss / Math.LN2);
    expect(m.accuracy).toBe(1);
    expect(languageModelMetrics({ lossSum: 0, correct: 0, tokens: 0 })).toMatchObject({
      loss: 0,
      accuracy: 0,
    });
  });

  it("samples at most max pairs, evenly", () => {
    const a = Array.from({ length: 1000 }, (_, i) => i);
    const s = samplePairs(a, a, 100);
    expect(s).toHaveLength(100);
    expect(s[1]).toEqual({ actual: 10, predicted: 10 });
    expect(samplePairs([1, 2], [3, 4])).toEqual([
      { actual: 1, predicted: 3 },
      { actual: 2, predicted: 4 },
    ]);
  });
});
