import { describe, expect, it } from "vitest";
import { toCell } from "./cells";

describe("toCell", () => {
  it("shows JSON values as text and keeps missing values missing", () => {
    expect(toCell(null)).toBeNull();
    expect(toCell(undefined)).toBeNull();
    expect(toCell(1.5)).toBe("1.5");
    expect(toCell(true)).toBe("true");
    expect(toCell("")).toBe("");
    expect(toCell("2024-01-02")).toBe("2024-01-02");
    expect(toCell({ k: [1, 2] })).toBe('{"k":[1,2]}');
    expect(toCell([1, "a"])).toBe('[1,"a"]');
  });
});
