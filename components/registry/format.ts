/** 1536 → "1.5 KB" (binary multiples, as file browsers show them). */
export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  const units = ["KB", "MB", "GB", "TB"];
  let v = n / 1024;
  let i = 0;
  while (v >= 1024 && i < units.length - 1) {
    v /= 1024;
    i++;
  }
  return `${v < 10 ? v.toFixed(1) : Math.round(v)} ${units[i]}`;
}

/** The metrics a table row shows first: accuracy-like shares as percentages, the rest to 4 digits. */
const PREFERRED = ["accuracy", "val_accuracy", "test_accuracy", "r2", "val_loss", "loss", "perplexity"];

export function formatMetricValue(key: string, v: number): string {
  if (!Number.isFinite(v)) return "–";
  if (/accuracy|precision|recall|f1|auc/.test(key) && v >= 0 && v <= 1) return `${(v * 100).toFixed(1)}%`;
  const abs = Math.abs(v);
  if (abs >= 1000) return v.toLocaleString("en-US", { maximumFractionDigits: 1 });
  if (abs !== 0 && abs < 1e-3) return v.toExponential(2);
  return String(Number(v.toPrecision(4)));
}

export function metricLabel(key: string): string {
  const s = key.replace(/_/g, " ");
  return s.charAt(0).toUpperCase() + s.slice(1);
}

/** Up to `max` metrics, the preferred ones first. */
export function keyMetrics(metrics: Record<string, number>, max = 2): [string, number][] {
  const entries = Object.entries(metrics);
  const rank = (k: string) => {
    const i = PREFERRED.indexOf(k);
    return i === -1 ? PREFERRED.length : i;
  };
  return entries.sort((a, b) => rank(a[0]) - rank(b[0]) || a[0].localeCompare(b[0])).slice(0, max);
}

/** Whether a finalized version carries PyTorch weights (weights.pt in its manifest): a fine-tuning base. */
export function carriesWeights(version: {
  state: string;
  artifact_manifest: Record<string, unknown> | null;
}) {
  const files = version.artifact_manifest?.files;
  return (
    version.state === "ready" &&
    Array.isArray(files) &&
    files.some((f) => typeof f === "object" && f !== null && (f as { name?: unknown }).name === "weights.pt")
  );
}
