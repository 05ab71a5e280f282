import { describe, expect, it } from "vitest";
import { canRedo, canUndo, emptyHistory, record, redo, undo } from "./history";

function must<T>(value: T | null): T {
  if (value === null) throw new Error("expected a step");
  return value;
}

describe("history", () => {
  it("undoes and redoes in order", () => {
    let h = emptyHistory<number>();
    h = record(h, 1, { now: 0 });
    h = record(h, 2, { now: 10_000 });
    // current state is 3
    const u1 = must(undo(h, 3));
    expect(u1.state).toBe(2);
    const u2 = must(undo(u1.history, 2));
    expect(u2.state).toBe(1);
    expect(canUndo(u2.history)).toBe(false);
    expect(undo(u2.history, 1)).toBeNull();
    const r1 = must(redo(u2.history, 1));
    expect(r1.state).toBe(2);
    const r2 = must(redo(r1.history, 2));
    expect(r2.state).toBe(3);
    expect(canRedo(r2.history)).toBe(false);
  });

  it("a new change clears the redo stack", () => {
    let h = record(emptyHistory<string>(), "a", { now: 0 });
    const u = must(undo(h, "b"));
    h = record(u.history, "a", { now: 5000 });
    expect(canRedo(h)).toBe(false);
    expect(h.past).toEqual(["a"]);
  });

  it("coalesces changes with the same key inside the window", () => {
    let h = emptyHistory<string>();
    h = record(h, "1", { key: "units", now: 0 });
    h = record(h, "12", { key: "units", now: 300 });
    h = record(h, "128", { key: "units", now: 600 });
    expect(h.past).toEqual(["1"]);
    h = record(h, "x", { key: "units", now: 5000 });
    expect(h.past).toEqual(["1", "x"]);
    h = record(h, "y", { key: "other", now: 5100 });
    expect(h.past).toEqual(["1", "x", "y"]);
  });

  it("after an undo the same key starts a new entry", () => {
    let h = record(emptyHistory<string>(), "a", { key: "k", now: 0 });
    h = must(undo(h, "b")).history;
    h = record(h, "a", { key: "k", now: 100 });
    expect(h.past).toEqual(["a"]);
  });

  it("keeps at most `limit` entries", () => {
    let h = emptyHistory<number>();
    for (let i = 0; i < 10; i++) h = record(h, i, { limit: 3, now: i * 10_000 });
    expect(h.past).toEqual([7, 8, 9]);
  });
});
