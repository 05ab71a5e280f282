import { describe, expect, it } from "vitest";
import { chartGroups, chartRows, groupSeries, mergePoints, stepExtent } from "./series";

const pt = (name: string, step: number, value: number, epoch: number | null = null) => ({
  name,
  step,
  epoch,
  value,
  timestamp: "2025-01-01T00:00:00Z",
});

const page = (items: ReturnType<typeof pt>[], downsampled = false) => ({
  items,
  total: items.length,
  page: 1,
  limit: 2000,
  pages: 1,
  downsampled,
});

describe("mergePoints", () => {
  it("appends new steps in order, per series, keeping series sorted by name", () => {
    const cached = page([pt("loss", 1, 0.9), pt("loss", 2, 0.8)]);
    const merged = mergePoints(cached, [pt("val_loss", 2, 0.85), pt("loss", 3, 0.7)]);
    expect(merged.items.map((p) => `${p.name}@${p.step}`)).toEqual([
      "loss@1",
      "loss@2",
      "loss@3",
      "val_loss@2",
    ]);
    expect(merged.total).toBe(4);
    expect(merged.limit).toBe(2000);
  });

  it("deduplicates by (name, step): a replayed point changes nothing", () => {
    const cached = page([pt("loss", 1, 0.9), pt("loss", 2, 0.8)]);
    expect(mergePoints(cached, [pt("loss", 2, 0.8)])).toBe(cached);
    expect(mergePoints(cached, [])).toBe(cached);
  });

  it("replaces the value of a step reported again (a restart re-runs an epoch)", () => {
    const cached = page([pt("loss", 1, 0.9), pt("loss", 2, 0.8)]);
    const merged = mergePoints(cached, [pt("loss", 2, 0.5)]);
    expect(merged.items.map((p) => p.value)).toEqual([0.9, 0.5]);
    expect(cached.items[1].value).toBe(0.8);
  });

  it("inserts a missing step in the middle when the history is complete", () => {
    const cached = page([pt("loss", 1, 0.9), pt("loss", 3, 0.7)]);
    expect(mergePoints(cached, [pt("loss", 2, 0.8)]).items.map((p) => p.step)).toEqual([1, 2, 3]);
  });

  it("does not refill the gaps of a downsampled history, but appends after it", () => {
    const cached = page([pt("loss", 1, 0.9), pt("loss", 100, 0.2)], true);
    const merged = mergePoints(cached, [pt("loss", 50, 0.5), pt("loss", 101, 0.19)]);
    expect(merged.items.map((p) => p.step)).toEqual([1, 100, 101]);
  });

  it("skips non-finite values", () => {
    const cached = page([pt("loss", 1, 0.9)]);
    expect(mergePoints(cached, [pt("loss", 2, Number.NaN)])).toBe(cached);
  });
});

describe("chartGroups", () => {
  it("pairs training and validation series, losses then accuracy first", () => {
    expect(chartGroups(["val_accuracy", "accuracy", "mae", "val_loss", "loss", "val_only"])).toEqual([
      { metric: "loss", train: "loss", validation: "val_loss" },
      { metric: "accuracy", train: "accuracy", validation: "val_accuracy" },
      { metric: "mae", train: "mae", validation: null },
      { metric: "only", train: null, validation: "val_only" },
    ]);
  });
});

describe("chartRows", () => {
  const series = groupSeries([
    pt("loss", 10, 1, 1),
    pt("loss", 20, 0.5, 2),
    pt("val_loss", 20, 0.6, 2),
    pt("loss", 30, 0.25, 3),
  ]);
  it("aligns lines on steps, with raw values beside the smoothed ones", () => {
    const rows = chartRows(
      [
        { key: "train", points: series.get("loss") ?? [] },
        { key: "val", points: series.get("val_loss") ?? [] },
      ],
      "step",
      0,
    );
    expect(rows).toEqual([
      { x: 10, train: 1, train__raw: 1 },
      { x: 20, train: 0.5, train__raw: 0.5, val: 0.6, val__raw: 0.6 },
      { x: 30, train: 0.25, train__raw: 0.25 },
    ]);
  });
  it("uses epochs (the last point of each) and smooths", () => {
    const rows = chartRows(
      [{ key: "train", points: [pt("loss", 1, 4, 1), pt("loss", 2, 2, 1), pt("loss", 3, 1, 2)] }],
      "epoch",
      0.5,
    );
    expect(rows.map((r) => r.x)).toEqual([1, 2]);
    expect(rows[0].train__raw).toBe(2);
    expect(rows[0].train).toBeCloseTo(2);
    expect(rows[1].train).toBeLessThan(2);
    expect(rows[1].train).toBeGreaterThan(1);
  });
  it("leaves points without an epoch off an epoch axis", () => {
    expect(chartRows([{ key: "a", points: [pt("loss", 1, 1)] }], "epoch", 0)).toEqual([]);
  });
});

describe("stepExtent", () => {
  it("spans every series", () => {
    const s = groupSeries([pt("a", 5, 1), pt("a", 9, 1), pt("b", 2, 1)]);
    expect(stepExtent(s.values())).toEqual([2, 9]);
    expect(stepExtent([])).toBeNull();
  });
});
