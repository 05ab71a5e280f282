/** Compact number, shape and FLOP formatting for nodes, edges and the status bar. */
import type { Shape } from "@/lib/ml";

/** 1234 → "1.23K", 61706 → "61.7K", 1_200_000 → "1.2M". */
export function formatCount(n: number): string {
  const abs = Math.abs(n);
  const units: [number, string][] = [
    [1e12, "T"],
    [1e9, "B"],
    [1e6, "M"],
    [1e3, "K"],
  ];
  for (const [size, suffix] of units) {
    if (abs >= size) {
      const v = n / size;
      const digits = Math.abs(v) >= 100 ? 0 : Math.abs(v) >= 10 ? 1 : 2;
      return `${Number(v.toFixed(digits))}${suffix}`;
    }
  }
  return String(Math.round(n));
}

/** Forward FLOPs per sample: "850 FLOPs", "2.3 MFLOPs", "1.1 GFLOPs". */
export function formatFlops(n: number): string {
  const units: [number, string][] = [
    [1e12, "T"],
    [1e9, "G"],
    [1e6, "M"],
    [1e3, "K"],
  ];
  for (const [size, prefix] of units) {
    if (n >= size) {
      const v = n / size;
      return `${Number(v.toFixed(v >= 100 ? 0 : 1))} ${prefix}FLOPs`;
    }
  }
  return `${Math.round(n)} FLOPs`;
}

/** "[32, 26, 26]"; "?" when the shape is unknown. */
export function formatShapeText(shape: Shape | null | undefined): string {
  return shape ? `[${shape.join(", ")}]` : "?";
}

/** A param value as text in lists: arrays as "[1, 28, 28]", undefined as "—". */
export function formatParamValue(value: unknown): string {
  if (value === undefined || value === null) return "—";
  if (Array.isArray(value)) return `[${value.map(String).join(", ")}]`;
  return String(value);
}

/** "just now", "5 min ago", "3 h ago", "2 days ago", then the date. */
export function formatRelativeTime(iso: string, now: number = Date.now()): string {
  const then = new Date(iso).getTime();
  const s = Math.max(0, Math.round((now - then) / 1000));
  if (s < 45) return "just now";
  const m = Math.round(s / 60);
  if (m < 60) return `${m} min ago`;
  const h = Math.round(m / 60);
  if (h < 24) return `${h} h ago`;
  const d = Math.round(h / 24);
  if (d < 7) return `${d} day${d === 1 ? "" : "s"} ago`;
  return new Date(iso).toLocaleDateString("en", { day: "numeric", month: "short", year: "numeric" });
}

/**
 * An integer with thousands separators ("12,345"), without Intl: the editor's status bar draws it on
 * the first frame, where setting up a number formatter costs tens of milliseconds.
 */
export function groupThousands(n: number): string {
  const sign = n < 0 ? "-" : "";
  return sign + String(Math.trunc(Math.abs(n))).replace(/\B(?=(\d{3})+(?!\d))/g, ",");
}
