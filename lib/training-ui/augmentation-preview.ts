/**
 * The Train dialog's preview strip: a few random draws of the training augmentation, as CSS
 * transforms and filters of one sample picture. The programs apply the same kinds of change to the
 * pixels of each training batch (lib/ml/codegen); this shows their range, seeded so the strip does
 * not flicker while the user types. Pure: no DOM.
 */
import type { Augmentation } from "@/lib/ml";

export interface PreviewVariant {
  key: string;
  style: { transform: string; filter?: string };
  caption: string;
}

/** A small seeded generator (mulberry32): the same settings draw the same strip. */
function generator(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const uniform = (next: () => number, lo: number, hi: number) => lo + (hi - lo) * next();
const round = (v: number, digits = 2) => Number(v.toFixed(digits));

/**
 * `count` draws of the augmentation. Crop padding is shown relative to a 28-pixel picture (a shift of
 * up to `crop_padding` pixels each way); colour jitter only for RGB inputs.
 */
export function previewVariants(a: Augmentation, rgb: boolean, count: number, seed = 7): PreviewVariant[] {
  const next = generator(seed);
  const out: PreviewVariant[] = [];
  for (let i = 0; i < count; i++) {
    const flip = a.horizontal_flip && next() < 0.5;
    const angle = a.rotation_degrees > 0 ? uniform(next, -a.rotation_degrees, a.rotation_degrees) : 0;
    const shift = a.translate * 100;
    const crop = (a.crop_padding / 28) * 100;
    const dx = (shift > 0 ? uniform(next, -shift, shift) : 0) + (crop > 0 ? uniform(next, -crop, crop) : 0);
    const dy = (shift > 0 ? uniform(next, -shift, shift) : 0) + (crop > 0 ? uniform(next, -crop, crop) : 0);
    const j = rgb ? a.color_jitter : 0;
    const factors =
      j > 0 ? [uniform(next, 1 - j, 1 + j), uniform(next, 1 - j, 1 + j), uniform(next, 1 - j, 1 + j)] : null;
    const transform = `translate(${round(dx)}%, ${round(dy)}%) rotate(${round(angle, 1)}deg) scaleX(${flip ? -1 : 1})`;
    const parts = [
      flip ? "mirrored" : "",
      Math.abs(angle) >= 0.5 ? `${Math.round(angle)}°` : "",
      Math.abs(dx) >= 0.5 || Math.abs(dy) >= 0.5 ? "shifted" : "",
      factors ? "colours" : "",
    ].filter(Boolean);
    out.push({
      key: `v${i}`,
      style: factors
        ? {
            transform,
            filter: `brightness(${round(factors[0])}) contrast(${round(factors[1])}) saturate(${round(factors[2])})`,
          }
        : { transform },
      caption: parts.length > 0 ? parts.join(", ") : "unchanged",
    });
  }
  return out;
}
