import { describe, expect, it } from "vitest";
import { downsampleM4, m4Bucket, m4BucketCount, type StepPoint } from "./downsample";

function series(n: number, f: (step: number) => number): StepPoint[] {
  return Array.from({ length: n }, (_, step) => ({ step, value: f(step) }));
}

describe("downsampleM4", () => {
  it("returns a series that already fits whole, sorted by step", () => {
    const points = [
      { step: 3, value: 1 },
      { step: 1, value: 2 },
      { step: 2, value: 3 },
    ];
    expect(downsampleM4(points, 10).map((p) => p.step)).toEqual([1, 2, 3]);
    expect(downsampleM4([], 4)).toEqual([]);
  });

  it("keeps at most maxPoints, sorted, without duplicates", () => {
    const points = series(100_000, (s) => Math.sin(s / 500) + ((s * 7919) % 13) / 100);
    for (const maxPoints of [4, 5, 100, 999, 1000]) {
      const out = downsampleM4(points, maxPoints);
      expect(out.length).toBeLessThanOrEqual(maxPoints);
      expect(out.length).toBeGreaterThan(maxPoints / 2);
      for (let i = 1; i < out.length; i++) expect(out[i].step).toBeGreaterThan(out[i - 1].step);
      expect(new Set(out).size).toBe(out.length);
    }
  });

  it("keeps the first, last, global minimum and maximum", () => {
    const points = series(50_000, (s) => Math.cos(s / 1000));
    points[12_345].value = -10;
    points[40_001].value = 10;
    const out = downsampleM4(points, 200);
    expect(out[0]).toBe(points[0]);
    expect(out[out.length - 1]).toBe(points[points.length - 1]);
    expect(out).toContain(points[12_345]);
    expect(out).toContain(points[40_001]);
  });

  it("keeps every bucket's extremes", () => {
    const points = series(10_000, (s) => ((s * 2654435761) % 1000) / 7);
    const maxPoints = 400;
    const buckets = m4BucketCount(maxPoints);
    const out = new Set(downsampleM4(points, maxPoints));
    const byBucket = new Map<number, StepPoint[]>();
    for (const p of points) {
      const b = m4Bucket(p.step, 0, 9_999, buckets);
      byBucket.set(b, [...(byBucket.get(b) ?? []), p]);
    }
    expect(byBucket.size).toBe(buckets);
    for (const members of byBucket.values()) {
      const min = Math.min(...members.map((p) => p.value));
      const max = Math.max(...members.map((p) => p.value));
      expect(members.find((p) => p.value === min && out.has(p))).toBeDefined();
      expect(members.find((p) => p.value === max && out.has(p))).toBeDefined();
      expect(out.has(members[0])).toBe(true);
      expect(out.has(members[members.length - 1])).toBe(true);
    }
  });

  it("handles sparse steps, repeated steps and unsorted input", () => {
    const points: StepPoint[] = [];
    for (let i = 0; i < 5000; i++) points.push({ step: (i * 37) % 5000, value: i % 17 });
    for (let i = 0; i < 100; i++) points.push({ step: 1_000_000 + i, value: -i });
    points.push({ step: 10, value: 99 });
    const out = downsampleM4(points, 40);
    expect(out.length).toBeLessThanOrEqual(40);
    for (let i = 1; i < out.length; i++) expect(out[i].step).toBeGreaterThanOrEqual(out[i - 1].step);
    expect(out.some((p) => p.value === 99)).toBe(true);
    expect(out.some((p) => p.value === -99)).toBe(true);
  });

  it("refuses fewer than 4 points", () => {
    expect(() =>
      downsampleM4(
        series(10, () => 0),
        3,
      ),
    ).toThrow(RangeError);
  });
});
