import { describe, expect, it } from "vitest";
import {
  formatMetric,
  formatScore,
  formatShare,
  headlines,
  heatMap,
  MAX_HEAT,
  mainFigure,
  niceAxis,
  residualHistogram,
} from "./present";

describe("evaluation presentation", () => {
  it("shades each row by its share of the true class", () => {
    const cells = heatMap([
      [8, 2],
      [0, 0],
    ]);
    expect(cells[0].map((c) => c.share)).toEqual([0.8, 0.2]);
    expect(cells[0][0].heat).toBeCloseTo(0.8 * MAX_HEAT);
    expect(cells[1].map((c) => c.heat)).toEqual([0, 0]);
  });

  it("formats shares and metrics for people", () => {
    expect(formatShare(0.93333)).toBe("93.3%");
    expect(formatShare(1)).toBe("100%");
    expect(formatShare(undefined)).toBe("–");
    expect(formatMetric(2.634012)).toBe("2.634");
    expect(formatMetric(3149.46)).toBe("3,149.5");
    expect(formatMetric(0.00012)).toBe("1.20e-4");
  });

  it("picks the headline figures of each kind", () => {
    expect(headlines("language_modeling", { loss: 2, perplexity: Math.exp(2) }).map((h) => h.value)).toEqual([
      "2.000",
      "7.389",
      "–",
      "–",
    ]);
    expect(headlines("classification", { accuracy: 0.5 })[0]).toMatchObject({
      label: "Accuracy",
      value: "50.0%",
    });
    expect(mainFigure({ r2: 0.5, rows: 3 })).toEqual({ label: "R²", value: "0.5" });
    expect(mainFigure({ loss: 2, perplexity: 7.389, accuracy: 0.4 })?.label).toBe("Perplexity");
    expect(mainFigure({})).toBeNull();
  });
});

describe("axes and histograms", () => {
  it("widens a range to round ticks", () => {
    expect(niceAxis(28.8, 332)).toEqual({ domain: [0, 400], ticks: [0, 100, 200, 300, 400] });
    expect(niceAxis(0.12, 0.93).ticks).toEqual([0, 0.5, 1]);
    expect(niceAxis(-3.2, 3.2, 7).ticks).toEqual([-4, -2, 0, 2, 4]);
    expect(niceAxis(5, 5).domain[0]).toBeLessThan(5);
    expect(formatScore(1)).toBe("1.000");
  });

  it("bins residuals symmetrically and counts every point", () => {
    const bins = residualHistogram(
      [
        { actual: 10, predicted: 12 },
        { actual: 10, predicted: 8 },
        { actual: 5, predicted: 5.5 },
      ],
      4,
    );
    expect(bins.reduce((a, b) => a + b.count, 0)).toBe(3);
    expect(bins[0].from).toBe(-(bins.at(-1)?.to ?? 0));
    expect(residualHistogram([])).toEqual([]);
  });
});
