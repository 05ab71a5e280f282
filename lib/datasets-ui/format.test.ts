import { describe, expect, it } from "vitest";
import {
  baseName,
  formatBytes,
  formatCompact,
  formatCount,
  formatPercent,
  formatRelative,
  formatStat,
  taskLabel,
} from "./format";

describe("formatBytes", () => {
  it("uses bytes below 1 KB and binary units above", () => {
    expect(formatBytes(0)).toBe("0 B");
    expect(formatBytes(1023)).toBe("1023 B");
    expect(formatBytes(1024)).toBe("1 KB");
    expect(formatBytes(1536)).toBe("1.5 KB");
    expect(formatBytes(5 * 1024 ** 3)).toBe("5 GB");
    expect(formatBytes(200 * 1024 ** 2)).toBe("200 MB");
    expect(formatBytes(12.345 * 1024 ** 2)).toBe("12.3 MB");
    expect(formatBytes(3 * 1024 ** 4)).toBe("3 TB");
  });
  it("refuses nonsense", () => {
    expect(formatBytes(-1)).toBe("–");
    expect(formatBytes(Number.NaN)).toBe("–");
  });
});

describe("numbers", () => {
  it("groups counts", () => {
    expect(formatCount(100000)).toBe("100,000");
    expect(formatCount(null)).toBe("–");
  });
  it("formats percentages with a decimal only when small", () => {
    expect(formatPercent(0.8)).toBe("80%");
    expect(formatPercent(0.0123)).toBe("1.2%");
    expect(formatPercent(0)).toBe("0%");
    expect(formatPercent(1)).toBe("100%");
    expect(formatPercent(0.0004)).toBe("<0.1%");
    expect(formatPercent(0.996)).toBe("99.6%");
  });
  it("formats statistics to 4 significant digits", () => {
    expect(formatStat(5.843333333)).toBe("5.843");
    expect(formatStat(150)).toBe("150");
    expect(formatStat(1234567)).toBe("1,234,567");
    expect(formatStat(1234.56)).toBe("1,234.6");
    expect(formatStat(0.00012)).toBe("1.20e-4");
    expect(formatStat("2024-01-01")).toBe("2024-01-01");
    expect(formatStat(null)).toBe("–");
  });
  it("compacts axis labels", () => {
    expect(formatCompact(12_000)).toBe("12k");
    expect(formatCompact(3_400_000)).toBe("3.4M");
    expect(formatCompact(4.3)).toBe("4.3");
    expect(formatCompact(0.123456)).toBe("0.123");
  });
});

describe("dates and names", () => {
  const now = new Date("2025-06-01T12:00:00Z");
  it("says how long ago", () => {
    expect(formatRelative("2025-06-01T11:59:50Z", now)).toBe("just now");
    expect(formatRelative("2025-06-01T11:55:00Z", now)).toBe("5 min ago");
    expect(formatRelative("2025-06-01T09:00:00Z", now)).toBe("3 h ago");
    expect(formatRelative("2025-05-31T12:00:00Z", now)).toBe("1 day ago");
    expect(formatRelative("2025-01-01T00:00:00Z", now)).toBe("Jan 1, 2025");
  });
  it("strips the extension for a default name", () => {
    expect(baseName("customers.v2.csv")).toBe("customers.v2");
    expect(baseName(".env")).toBe(".env");
    expect(baseName("README")).toBe("README");
  });
  it("labels tasks", () => {
    expect(taskLabel("classification")).toBe("Classification");
    expect(taskLabel(null)).toBe("No task yet");
  });
});
