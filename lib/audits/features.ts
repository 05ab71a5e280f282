/**
 * Text → a fixed-width vector of numbers, so a table model (a fine-tuned MLP of the catalog) can
 * learn a classification workload: the hashing trick over lower-cased word unigrams and character
 * trigrams (FNV-1a into `width` buckets, a second hash bit choosing the sign), then scaled to unit
 * length. The same function encodes the training dataset and the held-out calls, so a candidate
 * sees its evaluation inputs exactly as it saw its training inputs.
 */

export const DEFAULT_FEATURE_WIDTH = 30;

export function featureNames(width = DEFAULT_FEATURE_WIDTH): string[] {
  return Array.from({ length: width }, (_, i) => `f${String(i).padStart(2, "0")}`);
}

function fnv1a(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}

export function textFeatures(text: string, width = DEFAULT_FEATURE_WIDTH): number[] {
  const v = new Array<number>(width).fill(0);
  const lower = text.toLowerCase();
  const tokens = lower.match(/[a-z0-9']+/g) ?? [];
  const grams: string[] = tokens.map((t) => `w:${t}`);
  const padded = ` ${lower.replace(/\s+/g, " ")} `;
  for (let i = 0; i + 3 <= padded.length; i++) grams.push(`c:${padded.slice(i, i + 3)}`);
  for (const g of grams) {
    const h = fnv1a(g);
    v[h % width] += (h >>> 31) & 1 ? -1 : 1;
  }
  const norm = Math.sqrt(v.reduce((s, x) => s + x * x, 0));
  return norm > 0 ? v.map((x) => Math.round((x / norm) * 1e6) / 1e6) : v;
}

/** One table row: the features keyed by name (what a deployment of the candidate takes). */
export function featureRow(text: string, width = DEFAULT_FEATURE_WIDTH): Record<string, number> {
  const names = featureNames(width);
  const values = textFeatures(text, width);
  return Object.fromEntries(names.map((n, i) => [n, values[i]]));
}
