import { describe, expect, it } from "vitest";
import { MAX_SCROLL_HEIGHT, pagesFor, scrollTopForRow, windowRange } from "./windowing";

describe("windowRange", () => {
  it("renders the rows in view plus overscan", () => {
    const r = windowRange({
      count: 100_000,
      rowHeight: 32,
      scrollTop: 3200,
      viewportHeight: 320,
      overscan: 5,
    });
    expect(r.start).toBe(95);
    expect(r.end).toBe(100 + 11 + 5);
    expect(r.padTop).toBe(95 * 32);
    expect(r.padTop + (r.end - r.start) * 32 + r.padBottom).toBe(r.totalHeight);
    expect(r.totalHeight).toBe(3_200_000);
  });
  it("clamps at both ends", () => {
    const top = windowRange({ count: 50, rowHeight: 30, scrollTop: -100, viewportHeight: 300, overscan: 2 });
    expect(top.start).toBe(0);
    const bottom = windowRange({
      count: 50,
      rowHeight: 30,
      scrollTop: 99_999,
      viewportHeight: 300,
      overscan: 2,
    });
    expect(bottom.end).toBe(50);
    expect(bottom.padBottom).toBe(0);
  });
  it("handles short and empty lists", () => {
    expect(windowRange({ count: 3, rowHeight: 30, scrollTop: 0, viewportHeight: 600 })).toMatchObject({
      start: 0,
      end: 3,
      padBottom: 0,
    });
    expect(windowRange({ count: 0, rowHeight: 30, scrollTop: 0, viewportHeight: 600 }).end).toBe(0);
  });
  it("scrolls a row to the top", () => {
    expect(scrollTopForRow(10, 100, 32, 320)).toBe(320);
    expect(scrollTopForRow(99, 100, 32, 320)).toBe(100 * 32 - 320);
    expect(scrollTopForRow(-5, 100, 32, 320)).toBe(0);
  });
});

describe("very long lists", () => {
  const input = { count: 1_000_000, rowHeight: 32, viewportHeight: 496, overscan: 4 };
  it("caps the scroll area and still reaches every row", () => {
    const top = windowRange({ ...input, scrollTop: 0 });
    expect(top.totalHeight).toBe(MAX_SCROLL_HEIGHT);
    expect(top).toMatchObject({ start: 0, firstVisible: 0, padTop: 0 });
    const bottom = windowRange({ ...input, scrollTop: MAX_SCROLL_HEIGHT });
    expect(bottom.end).toBe(1_000_000);
    expect(bottom.lastVisible).toBe(1_000_000);
    expect(bottom.padBottom).toBe(0);
    expect(bottom.padTop + (bottom.end - bottom.start) * 32).toBe(MAX_SCROLL_HEIGHT);
  });
  it("maps scroll positions onto rows linearly, rows at their natural height", () => {
    const mid = windowRange({ ...input, scrollTop: (MAX_SCROLL_HEIGHT - 496) / 2 });
    expect(mid.firstVisible).toBeGreaterThanOrEqual(499_990);
    expect(mid.firstVisible).toBeLessThanOrEqual(500_000);
    expect(mid.padTop + mid.padBottom + (mid.end - mid.start) * 32).toBe(MAX_SCROLL_HEIGHT);
  });
  it("scrolls exactly to a row", () => {
    for (const row of [1, 12_345, 500_000, 999_984]) {
      const scrollTop = scrollTopForRow(row, input.count, input.rowHeight, input.viewportHeight);
      expect(Number.isInteger(scrollTop)).toBe(true);
      expect(windowRange({ ...input, scrollTop }).firstVisible, String(row)).toBe(row);
    }
    const last = scrollTopForRow(999_999, input.count, input.rowHeight, input.viewportHeight);
    expect(windowRange({ ...input, scrollTop: last }).lastVisible).toBe(1_000_000);
  });
  it("does not scale lists that fit", () => {
    const r = windowRange({ count: 100_000, rowHeight: 32, viewportHeight: 496, scrollTop: 32 * 5000 });
    expect(r).toMatchObject({ firstVisible: 5000, totalHeight: 3_200_000 });
  });
});

describe("pagesFor", () => {
  it("lists the pages a range of rows falls in", () => {
    expect(pagesFor(0, 40, 500, 100_000)).toEqual([0]);
    expect(pagesFor(480, 520, 500, 100_000)).toEqual([0, 1]);
    expect(pagesFor(99_990, 100_100, 500, 100_000)).toEqual([199]);
    expect(pagesFor(0, 0, 500, 100)).toEqual([]);
    expect(pagesFor(10, 5, 500, 100)).toEqual([]);
    expect(pagesFor(0, 1500, 500, 1000)).toEqual([0, 1]);
  });
});
