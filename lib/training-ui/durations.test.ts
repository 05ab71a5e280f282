import { describe, expect, it } from "vitest";
import { formatAgo, formatDuration, jobDurations } from "./durations";

describe("formatDuration", () => {
  it("uses two units at most", () => {
    expect(formatDuration(0)).toBe("0 s");
    expect(formatDuration(42_500)).toBe("42 s");
    expect(formatDuration(185_000)).toBe("3 min 5 s");
    expect(formatDuration(180_000)).toBe("3 min");
    expect(formatDuration(7_800_000)).toBe("2 h 10 min");
    expect(formatDuration(3 * 86_400_000 + 4 * 3_600_000)).toBe("3 d 4 h");
    expect(formatDuration(-1)).toBe("–");
  });
});

describe("jobDurations", () => {
  const t = (s: number) => new Date(Date.UTC(2025, 0, 1, 0, 0, s)).toISOString();
  const now = Date.UTC(2025, 0, 1, 0, 0, 100);
  it("measures the wait and the run of a finished job", () => {
    expect(jobDurations({ created_at: t(0), started_at: t(5), finished_at: t(65) }, now)).toEqual({
      queued: 5000,
      running: 60_000,
    });
  });
  it("counts up to now while running or queued", () => {
    expect(jobDurations({ created_at: t(0), started_at: t(10), finished_at: null }, now)).toEqual({
      queued: 10_000,
      running: 90_000,
    });
    expect(jobDurations({ created_at: t(0), started_at: null, finished_at: null }, now)).toEqual({
      queued: 100_000,
      running: null,
    });
  });
  it("ends the wait of a job cancelled in the queue when it finished", () => {
    expect(jobDurations({ created_at: t(0), started_at: null, finished_at: t(20) }, now).queued).toBe(20_000);
  });
});

describe("formatAgo", () => {
  const now = Date.UTC(2025, 0, 1, 12, 0, 0);
  it("keeps the largest unit", () => {
    expect(formatAgo(new Date(now - 10_000).toISOString(), now)).toBe("just now");
    expect(formatAgo(new Date(now - 185_000).toISOString(), now)).toBe("3 min ago");
    expect(formatAgo(new Date(now - 7_800_000).toISOString(), now)).toBe("2 h ago");
    expect(formatAgo(new Date(now + 240_000).toISOString(), now)).toBe("in 4 min");
    expect(formatAgo("nope", now)).toBe("–");
  });
});
