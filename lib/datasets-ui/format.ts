/** Display formatting for the datasets studio: sizes, counts, statistics, hashes and dates. */

const BYTE_UNITS = ["KB", "MB", "GB", "TB"] as const;

/** 1536 → "1.5 KB"; binary multiples, at most 3 significant digits, no trailing ".0". */
export function formatBytes(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes < 0) return "–";
  if (bytes < 1024) return `${Math.round(bytes)} B`;
  let value = bytes;
  let unit: (typeof BYTE_UNITS)[number] = "KB";
  for (const u of BYTE_UNITS) {
    value /= 1024;
    unit = u;
    if (value < 1024) break;
  }
  const digits = value >= 100 ? 0 : value >= 10 ? 1 : 2;
  return `${Number(value.toFixed(digits))} ${unit}`;
}

/** 100000 → "100,000" */
export function formatCount(n: number | null | undefined): string {
  if (n === null || n === undefined || !Number.isFinite(n)) return "–";
  return n.toLocaleString("en-US");
}

/** 0.8 → "80%", 0.05 → "5%", 0.0123 → "1.2%": one decimal below 10%. */
export function formatPercent(fraction: number): string {
  if (!Number.isFinite(fraction)) return "–";
  const p = fraction * 100;
  if (p === 0 || p === 100) return `${p}%`;
  if (p < 0.1) return "<0.1%";
  if (p > 99.9) return ">99.9%";
  const whole = Math.round(p);
  return `${p < 10 || whole === 100 ? Number(p.toFixed(1)) : whole}%`;
}

/**
 * A statistic for people: integers grouped, other numbers to 4 significant digits (scientific only for
 * very small or very large magnitudes); strings as they are; nothing as "–".
 */
export function formatStat(v: number | string | null | undefined): string {
  if (v === null || v === undefined) return "–";
  if (typeof v === "string") return v;
  if (!Number.isFinite(v)) return String(v);
  if (Number.isInteger(v) && Math.abs(v) < 1e15) return v.toLocaleString("en-US");
  const abs = Math.abs(v);
  if (abs !== 0 && (abs < 1e-3 || abs >= 1e9)) return v.toExponential(2);
  if (abs >= 1000) return v.toLocaleString("en-US", { maximumFractionDigits: 1 });
  return String(Number(v.toPrecision(4)));
}

/** Compact numbers for axis labels: 1200 → "1.2k", 3_400_000 → "3.4M". */
export function formatCompact(v: number): string {
  if (!Number.isFinite(v)) return String(v);
  const abs = Math.abs(v);
  if (abs >= 1e9) return `${Number((v / 1e9).toPrecision(3))}B`;
  if (abs >= 1e6) return `${Number((v / 1e6).toPrecision(3))}M`;
  if (abs >= 1e4) return `${Number((v / 1e3).toPrecision(3))}k`;
  return String(Number(v.toPrecision(3)));
}

export function shortHash(hash: string, length = 12): string {
  return hash.slice(0, length);
}

/** "Mar 4, 2025" */
export function formatDate(iso: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return "–";
  return d.toLocaleDateString("en-US", { year: "numeric", month: "short", day: "numeric" });
}

/** "just now", "5 min ago", "3 h ago", "2 days ago", then the date. */
export function formatRelative(iso: string, now: Date = new Date()): string {
  const then = new Date(iso);
  if (Number.isNaN(then.getTime())) return "–";
  const seconds = Math.round((now.getTime() - then.getTime()) / 1000);
  if (seconds < 45) return "just now";
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `${minutes} min ago`;
  const hours = Math.round(minutes / 60);
  if (hours < 24) return `${hours} h ago`;
  const days = Math.round(hours / 24);
  if (days < 14) return `${days} day${days === 1 ? "" : "s"} ago`;
  return formatDate(iso);
}

export const FORMAT_LABELS: Record<string, string> = {
  csv: "CSV",
  tsv: "TSV",
  jsonl: "JSON Lines",
  json: "JSON records",
  parquet: "Parquet",
  image_zip: "Images (ZIP)",
  text: "Text",
};

export const TASK_LABELS: Record<string, string> = {
  classification: "Classification",
  regression: "Regression",
  image_classification: "Image classification",
  language_modeling: "Language modeling",
};

export function formatLabel(format: string): string {
  return FORMAT_LABELS[format] ?? format;
}

export function taskLabel(task: string | null | undefined): string {
  if (!task) return "No task yet";
  return TASK_LABELS[task] ?? task;
}

/** "iris_2024.final.csv" → "iris_2024.final" */
export function baseName(fileName: string): string {
  const dot = fileName.lastIndexOf(".");
  return dot > 0 ? fileName.slice(0, dot) : fileName;
}
