import { describe, expect, it } from "vitest";
import { describeFetchProgress, isFinished, nameFromUrl } from "./url-import";

describe("nameFromUrl", () => {
  it("names a dataset after the file in the URL", () => {
    expect(nameFromUrl("https://example.com/data/iris.csv")).toBe("iris");
    expect(nameFromUrl("https://example.com/a/b/penguins%20v2.final.parquet?dl=1#x")).toBe(
      "penguins v2.final",
    );
    expect(nameFromUrl("  http://example.com/rows.jsonl  ")).toBe("rows");
  });
  it("falls back to the host, and to nothing for text that is not a URL", () => {
    expect(nameFromUrl("https://data.example.org/")).toBe("data.example.org");
    expect(nameFromUrl("https://data.example.org")).toBe("data.example.org");
    expect(nameFromUrl("not a url")).toBe("");
    expect(nameFromUrl("https://example.com/%E0%A4%A.csv")).toBe("%E0%A4%A");
  });
  it("keeps names within the API's limit", () => {
    expect(nameFromUrl(`https://example.com/${"a".repeat(300)}.csv`)).toHaveLength(120);
  });
});

describe("describeFetchProgress", () => {
  it("puts the task's state and message into words", () => {
    expect(describeFetchProgress(undefined)).toBe("Waiting to start…");
    expect(describeFetchProgress({ state: "queued", progress: 0, message: null })).toBe("Waiting to start…");
    expect(
      describeFetchProgress({ state: "running", progress: 0.3, message: "Downloaded 1572864 bytes" }),
    ).toBe("Downloading… 1.5 MB");
    expect(describeFetchProgress({ state: "running", progress: 0.9, message: "Profiling" })).toBe(
      "Downloaded. Reading and profiling the file…",
    );
    expect(describeFetchProgress({ state: "running", progress: 0, message: "Downloading" })).toBe(
      "Downloading…",
    );
    expect(describeFetchProgress({ state: "succeeded", progress: 1, message: null })).toBe(
      "Downloaded and profiled",
    );
  });
  it("knows when a task is finished", () => {
    expect(isFinished(undefined)).toBe(false);
    expect(isFinished({ state: "running", progress: 0.5, message: null })).toBe(false);
    for (const state of ["succeeded", "failed", "cancelled"] as const)
      expect(isFinished({ state, progress: 1, message: null })).toBe(true);
  });
});
