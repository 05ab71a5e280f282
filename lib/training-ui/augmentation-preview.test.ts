import { describe, expect, it } from "vitest";
import { previewVariants } from "./augmentation-preview";

const off = { horizontal_flip: false, crop_padding: 0, rotation_degrees: 0, translate: 0, color_jitter: 0 };

describe("previewVariants", () => {
  it("leaves the picture unchanged when every augmentation is off", () => {
    for (const v of previewVariants(off, true, 4)) {
      expect(v.style.transform).toBe("translate(0%, 0%) rotate(0deg) scaleX(1)");
      expect(v.style.filter).toBeUndefined();
      expect(v.caption).toBe("unchanged");
    }
  });

  it("draws rotations and shifts within their bounds, the same for the same settings", () => {
    const a = { ...off, rotation_degrees: 10, translate: 0.1 };
    const first = previewVariants(a, false, 20);
    expect(previewVariants(a, false, 20)).toEqual(first);
    for (const v of first) {
      const [, dx, dy, angle] = v.style.transform.match(/translate\((.+)%, (.+)%\) rotate\((.+)deg\)/) ?? [];
      expect(Math.abs(Number(angle))).toBeLessThanOrEqual(10);
      expect(Math.abs(Number(dx))).toBeLessThanOrEqual(10);
      expect(Math.abs(Number(dy))).toBeLessThanOrEqual(10);
    }
    expect(new Set(first.map((v) => v.style.transform)).size).toBeGreaterThan(10);
  });

  it("mirrors some draws only when flipping is on, and jitters colours only for RGB inputs", () => {
    const flipped = previewVariants({ ...off, horizontal_flip: true }, false, 20);
    expect(flipped.some((v) => v.style.transform.endsWith("scaleX(-1)"))).toBe(true);
    expect(flipped.some((v) => v.style.transform.endsWith("scaleX(1)"))).toBe(true);
    expect(previewVariants({ ...off, color_jitter: 0.3 }, false, 5).every((v) => !v.style.filter)).toBe(true);
    const rgb = previewVariants({ ...off, color_jitter: 0.3 }, true, 5);
    for (const v of rgb) {
      for (const f of (v.style.filter ?? "").match(/\d+(\.\d+)?/g) ?? []) {
        expect(Number(f)).toBeGreaterThanOrEqual(0.7);
        expect(Number(f)).toBeLessThanOrEqual(1.3);
      }
    }
  });
});
