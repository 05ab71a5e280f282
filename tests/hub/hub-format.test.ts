import { describe, expect, it } from "vitest";
import {
  formatBytes,
  formatCount,
  formatMetric,
  orderedMetrics,
  parseSearchParams,
  searchHref,
  shortText,
  taskLabel,
} from "@/components/hub/hub-format";

describe("hub page helpers", () => {
  it("reads the search page's URL, dropping empty and unknown values", () => {
    expect(
      parseSearchParams({
        q: "  iris ",
        task: "",
        sort: "sideways",
        page: "0",
        tags: ["a,b", "c"],
        license: "mit",
      }),
    ).toEqual({
      q: "iris",
      task: undefined,
      framework: undefined,
      license: "mit",
      tags: "a,b",
      category: undefined,
      sort: undefined,
      page: undefined,
    });
    expect(parseSearchParams({ sort: "stars", page: "3" })).toMatchObject({ sort: "stars", page: 3 });
  });

  it("writes search URLs with only the parameters given, and round-trips them", () => {
    expect(searchHref({})).toBe("/hub/search");
    expect(searchHref({ q: "iris flowers", sort: "stars", page: 1 })).toBe(
      "/hub/search?q=iris+flowers&sort=stars",
    );
    const p = { q: "a&b", task: "tabular-classification", tags: "iris,e2e", page: 2 } as const;
    const url = new URL(searchHref(p), "http://x");
    expect(parseSearchParams(Object.fromEntries(url.searchParams))).toMatchObject(p);
  });

  it("formats counts, sizes and metrics", () => {
    expect(formatCount(999)).toBe("999");
    expect(formatCount(1234)).toBe("1.2K");
    expect(formatCount(56_789)).toBe("57K");
    expect(formatCount(2_500_000)).toBe("2.5M");
    expect(formatBytes(512)).toBe("512 B");
    expect(formatBytes(56_149)).toBe("54.8 KB");
    expect(formatBytes(3 * 1024 ** 2)).toBe("3.0 MB");
    expect(formatMetric(0.966666)).toBe("0.9667");
    expect(formatMetric(0.5)).toBe("0.5");
    expect(formatMetric(30)).toBe("30");
  });

  it("puts the headline metrics first and drops non-finite ones", () => {
    expect(orderedMetrics({ zeta: 1, loss: 0.2, accuracy: 0.9, bad: Number.NaN }).map(([k]) => k)).toEqual([
      "accuracy",
      "loss",
      "zeta",
    ]);
    expect(orderedMetrics({ loss: 1, accuracy: 1, f1: 1 }, 2)).toHaveLength(2);
  });

  it("labels tasks and shortens descriptions on a word boundary", () => {
    expect(taskLabel("tabular-classification")).toBe("Tabular classification");
    expect(taskLabel("text_generation")).toBe("Text generation");
    expect(shortText("short")).toBe("short");
    const long = "word ".repeat(50);
    const cut = shortText(long, 30);
    expect(cut.endsWith("…")).toBe(true);
    expect(cut.length).toBeLessThanOrEqual(31);
    expect(cut).not.toMatch(/wor…$/);
  });
});
