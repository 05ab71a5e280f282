import { describe, expect, it } from "vitest";
import { type ComparedJob, compareStyle, configDiff, parseIds } from "./config-diff";

describe("configDiff", () => {
  const jobs: ComparedJob[] = [
    { id: "a", fields: { epochs: 10, optimizer: "adam", runtime: "tfjs" } },
    { id: "b", fields: { epochs: 20, optimizer: "adam", runtime: "tfjs", extra: true } },
  ];
  it("flags the fields the jobs disagree on", () => {
    expect(configDiff(jobs)).toEqual([
      { field: "epochs", values: [10, 20], differs: true },
      { field: "optimizer", values: ["adam", "adam"], differs: false },
      { field: "runtime", values: ["tfjs", "tfjs"], differs: false },
      { field: "extra", values: [null, true], differs: true },
    ]);
  });
  it("can keep only the differing rows", () => {
    expect(configDiff(jobs, true).map((r) => r.field)).toEqual(["epochs", "extra"]);
  });
  it("treats a single job as agreeing with itself", () => {
    expect(configDiff([jobs[0]]).every((r) => !r.differs)).toBe(true);
  });
});

describe("compare helpers", () => {
  it("gives distinct colours, then dashes past the palette", () => {
    const colors = new Set(Array.from({ length: 12 }, (_, i) => compareStyle(i).color));
    expect(colors.size).toBe(12);
    expect(compareStyle(0).dashed).toBe(false);
    expect(compareStyle(12)).toEqual({ color: compareStyle(0).color, dashed: true });
  });
  it("parses ?ids=", () => {
    expect(parseIds(" a, b,,a ,c")).toEqual(["a", "b", "c"]);
    expect(parseIds(null)).toEqual([]);
    expect(parseIds("a,b,c", 2)).toEqual(["a", "b"]);
  });
});
