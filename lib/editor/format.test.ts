import { describe, expect, it } from "vitest";
import { formatCount, formatFlops, formatParamValue, formatShapeText, groupThousands } from "./format";
import { keyParams } from "./key-params";

describe("format", () => {
  it("formats counts compactly", () => {
    expect(formatCount(0)).toBe("0");
    expect(formatCount(320)).toBe("320");
    expect(formatCount(1234)).toBe("1.23K");
    expect(formatCount(61_706)).toBe("61.7K");
    expect(formatCount(1_200_000)).toBe("1.2M");
    expect(formatCount(345_000_000)).toBe("345M");
  });

  it("formats FLOPs", () => {
    expect(formatFlops(850)).toBe("850 FLOPs");
    expect(formatFlops(2_345_678)).toBe("2.3 MFLOPs");
    expect(formatFlops(1.1e9)).toBe("1.1 GFLOPs");
  });

  it("formats shapes and values", () => {
    expect(formatShapeText([32, 26, 26])).toBe("[32, 26, 26]");
    expect(formatShapeText(null)).toBe("?");
    expect(formatParamValue([1, 28, 28])).toBe("[1, 28, 28]");
    expect(formatParamValue(undefined)).toBe("—");
    expect(formatParamValue(true)).toBe("true");
  });
});

describe("keyParams", () => {
  it("summarises the telling params of a layer", () => {
    expect(
      keyParams("Conv2D", { out_channels: 32, kernel_size: 3, stride: 1, padding: 0, activation: "relu" }),
    ).toEqual(["32 filters", "3×3", "relu"]);
    expect(
      keyParams("Conv2D", { out_channels: 8, kernel_size: 5, stride: 2, padding: 2, activation: "none" }),
    ).toEqual(["8 filters", "5×5", "stride 2", "pad 2"]);
    expect(keyParams("Dense", { units: 10, activation: "none" })).toEqual(["10 units"]);
    expect(keyParams("Input", { shape: [100], dtype: "int64" })).toEqual(["[100]", "int64"]);
    expect(keyParams("MaxPool2D", { kernel_size: 2, padding: 0 })).toEqual(["2×2"]);
    expect(
      keyParams("LSTM", { hidden_size: 64, num_layers: 2, bidirectional: true, return_sequences: false }),
    ).toEqual(["64 hidden", "2 layers", "bidirectional"]);
    expect(keyParams("Flatten", {})).toEqual([]);
    expect(keyParams("Output", { loss: "cross_entropy", num_classes: 10 })).toEqual([
      "cross_entropy",
      "10 classes",
    ]);
  });
});

describe("formatRelativeTime", () => {
  it("says how long ago", async () => {
    const { formatRelativeTime } = await import("./format");
    const now = Date.parse("2025-06-10T12:00:00Z");
    expect(formatRelativeTime("2025-06-10T11:59:50Z", now)).toBe("just now");
    expect(formatRelativeTime("2025-06-10T11:55:00Z", now)).toBe("5 min ago");
    expect(formatRelativeTime("2025-06-10T09:00:00Z", now)).toBe("3 h ago");
    expect(formatRelativeTime("2025-06-09T12:00:00Z", now)).toBe("1 day ago");
    expect(formatRelativeTime("2025-05-01T12:00:00Z", now)).toBe("May 1, 2025");
  });
});

describe("groupThousands", () => {
  it("groups like en-US without Intl", () => {
    for (const n of [0, 7, 999, 1000, 12345, 1234567, 1e12, -4321, 99.9]) {
      expect(groupThousands(n)).toBe(Math.trunc(n).toLocaleString("en-US"));
    }
  });
});
