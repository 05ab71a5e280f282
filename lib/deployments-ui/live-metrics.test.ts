import { describe, expect, it } from "vitest";
import { applyRequests, fillWindow, type LiveSamples, type Metrics, percentile } from "./live-metrics";

const empty = { requests: 0, errors: 0, client_errors: 0, p50_ms: null, p95_ms: null, p99_ms: null };

function metrics(series: Metrics["series"]): Metrics {
  return { window: "1h", bucket_seconds: 60, totals: { ...empty }, series };
}

describe("percentile", () => {
  it("uses the nearest rank", () => {
    expect(percentile([], 50)).toBeNull();
    expect(percentile([1, 2, 3, 4], 50)).toBe(2);
    expect(percentile([1, 2, 3, 4], 99)).toBe(4);
  });
});

describe("applyRequests", () => {
  const now = Date.parse("2026-01-01T10:30:00Z");
  it("counts requests, server and client errors into new buckets with their own percentiles", () => {
    const samples: LiveSamples = new Map();
    const m = applyRequests(
      metrics([]),
      [
        { at: "2026-01-01T10:29:05Z", status: 200, latency_ms: 4 },
        { at: "2026-01-01T10:29:40Z", status: 503, latency_ms: 1 },
        { at: "2026-01-01T10:29:59Z", status: 422, latency_ms: 2 },
        { at: "2026-01-01T10:28:10Z", status: 200, latency_ms: 8 },
      ],
      samples,
      3_600_000,
      now,
    );
    expect(m.series.map((p) => [p.at, p.requests, p.errors, p.client_errors, p.p50_ms, p.p99_ms])).toEqual([
      ["2026-01-01T10:28:00.000Z", 1, 0, 0, 8, 8],
      ["2026-01-01T10:29:00.000Z", 3, 1, 1, 2, 4],
    ]);
    expect(m.totals).toMatchObject({ requests: 4, errors: 1, client_errors: 1 });
  });

  it("counts a sampled line for the calls it stands for", () => {
    const m = applyRequests(
      metrics([]),
      [
        { at: "2026-01-01T10:29:05Z", status: 200, latency_ms: 4, weight: 40 },
        { at: "2026-01-01T10:29:05Z", status: 503, latency_ms: 1, weight: 3 },
        { at: "2026-01-01T10:29:06Z", status: 200, latency_ms: 2 },
      ],
      new Map(),
      3_600_000,
      now,
    );
    expect(m.totals).toMatchObject({ requests: 44, errors: 3, client_errors: 0 });
    expect(m.series[0]).toMatchObject({ requests: 44, errors: 3 });
  });

  it("adds to the route's buckets without touching their percentiles, and drops what left the window", () => {
    const samples: LiveSamples = new Map();
    const base = metrics([
      { at: "2026-01-01T09:00:00.000Z", ...empty, requests: 5, p50_ms: 3, p95_ms: 3, p99_ms: 3 },
      { at: "2026-01-01T10:29:00.000Z", ...empty, requests: 2, p50_ms: 5, p95_ms: 6, p99_ms: 6 },
    ]);
    const m = applyRequests(
      base,
      [{ at: "2026-01-01T10:29:30Z", status: 200, latency_ms: 100 }],
      samples,
      3_600_000,
      now,
    );
    expect(m.series).toHaveLength(1);
    expect(m.series[0]).toMatchObject({ requests: 3, p50_ms: 5, p99_ms: 6 });
    // The original is untouched (a new object for the cache).
    expect(base.series[1].requests).toBe(2);
  });
});

describe("fillWindow", () => {
  it("gives every bucket of the window, zero where nothing was asked", () => {
    const now = Date.parse("2026-01-01T10:30:20Z");
    const m = metrics([
      {
        at: "2026-01-01T10:29:00.000Z",
        requests: 3,
        errors: 1,
        client_errors: 0,
        p50_ms: 2,
        p95_ms: 3,
        p99_ms: 3,
      },
    ]);
    const rows = fillWindow(m, 3_600_000, now);
    expect(rows).toHaveLength(60);
    expect(rows[0].at).toBe("2026-01-01T09:31:00.000Z");
    expect(rows[59].at).toBe("2026-01-01T10:30:00.000Z");
    expect(rows[58]).toMatchObject({ requests: 3, p50_ms: 2 });
    expect(rows[59]).toMatchObject({ requests: 0, p50_ms: null });
  });
});
