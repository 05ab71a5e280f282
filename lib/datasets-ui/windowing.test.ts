import { describe, expect, it } from "vitest";
import { scrollTopForRow, windowRange } from "./windowing";

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
