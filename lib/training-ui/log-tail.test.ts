import { describe, expect, it } from "vitest";
import { appendLogLines, isAtBottom, lastPage, matchesLogFilter } from "./log-tail";

const line = (id: number, level: "debug" | "info" | "warning" | "error", message: string) => ({
  id,
  level,
  message,
  timestamp: "t",
});

describe("log tail", () => {
  it("filters by level and above, and by text ignoring case", () => {
    expect(matchesLogFilter(line(1, "info", "x"), { level: "warning" })).toBe(false);
    expect(matchesLogFilter(line(1, "error", "x"), { level: "warning" })).toBe(true);
    expect(matchesLogFilter(line(1, "info", "Epoch 3"), { q: "epoch" })).toBe(true);
    expect(matchesLogFilter(line(1, "info", "Epoch 3"), { q: "loss" })).toBe(false);
  });
  it("appends newer matching lines once, keeping the newest", () => {
    const held = [line(1, "info", "a"), line(2, "info", "b")];
    expect(appendLogLines(held, [line(2, "info", "b")], {}, 10)).toBe(held);
    const next = appendLogLines(held, [line(3, "debug", "c"), line(4, "info", "d")], { level: "info" }, 2);
    expect(next.map((l) => l.id)).toEqual([2, 4]);
  });
  it("knows when the view sits at its bottom", () => {
    expect(isAtBottom({ scrollTop: 880, scrollHeight: 1000, clientHeight: 100 })).toBe(true);
    expect(isAtBottom({ scrollTop: 500, scrollHeight: 1000, clientHeight: 100 })).toBe(false);
  });
  it("finds the last page", () => {
    expect(lastPage(0, 500)).toBe(1);
    expect(lastPage(1001, 500)).toBe(3);
  });
});
