import { describe, expect, it } from "vitest";
import { coarsenBins, histogramData, topValueBars } from "./chart-data";

describe("histogram data", () => {
  const bins = [
    { lo: 4.3, hi: 4.66, count: 9 },
    { lo: 4.66, hi: 5.02, count: 21 },
    { lo: 5.02, hi: 5.38, count: 10 },
    { lo: 5.38, hi: 5.74, count: 0 },
  ];
  it("labels ranges and computes shares", () => {
    const d = histogramData(bins);
    expect(d[0]).toEqual({ label: "4.3–4.66", lo: 4.3, hi: 4.66, count: 9, share: 0.225 });
    expect(d.reduce((a, b) => a + b.share, 0)).toBeCloseTo(1);
    expect(histogramData([{ lo: 0, hi: 2.5, count: 1 }], true)[0].label).toBe("0–3");
  });
  it("merges bins pairwise for small charts", () => {
    expect(coarsenBins(bins, 2)).toEqual([
      { lo: 4.3, hi: 5.02, count: 30 },
      { lo: 5.02, hi: 5.74, count: 10 },
    ]);
    expect(coarsenBins(bins.slice(0, 3), 2)).toEqual([
      { lo: 4.3, hi: 5.02, count: 30 },
      { lo: 5.02, hi: 5.38, count: 10 },
    ]);
    expect(coarsenBins(bins, 20)).toHaveLength(4);
  });
});

describe("top values", () => {
  it("adds an Other bar for values not listed", () => {
    const bars = topValueBars(
      [
        { value: "a", count: 50 },
        { value: "b", count: 30 },
        { value: "", count: 5 },
      ],
      100,
    );
    expect(bars.map((b) => [b.label, b.count, b.width])).toEqual([
      ["a", 50, 1],
      ["b", 30, 0.6],
      ["(empty)", 5, 0.1],
      ["Other values", 15, 0.3],
    ]);
    expect(bars[3].other).toBe(true);
    expect(bars[0].share).toBe(0.5);
  });
  it("has no Other bar when all values are listed", () => {
    const bars = topValueBars([{ value: "x", count: 3 }], 3);
    expect(bars).toHaveLength(1);
    expect(bars[0].other).toBeUndefined();
  });
});
