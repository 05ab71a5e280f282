/**
 * The metrics route's answer, kept current from the event stream's `request` events: each request
 * is counted into its time bucket (requests, 5xx errors, 4xx client errors), for as many calls as
 * it stands for (`weight`: a busy second's request lines are a sample). A bucket that only the
 * stream has seen takes its latency percentiles from the requests it saw; the route's own buckets
 * keep theirs until it is read again (percentiles do not add up).
 */

export interface MetricValues {
  requests: number;
  errors: number;
  client_errors: number;
  p50_ms: number | null;
  p95_ms: number | null;
  p99_ms: number | null;
}

export interface Metrics {
  window: string;
  bucket_seconds: number;
  totals: MetricValues;
  series: (MetricValues & { at: string })[];
}

export interface LiveRequest {
  at: string;
  status: number;
  latency_ms: number;
  /** The calls this line stands for (a sample's line; default 1). */
  weight?: number;
}

/** Nearest-rank percentile of ascending values. */
export function percentile(sorted: readonly number[], p: number): number | null {
  if (sorted.length === 0) return null;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1];
}

/** Latencies of the requests counted into buckets that only the stream has seen, by bucket start. */
export type LiveSamples = Map<number, number[]>;

export function applyRequests<M extends Metrics>(
  metrics: M,
  requests: readonly LiveRequest[],
  samples: LiveSamples,
  windowMs: number,
  now: number,
): M {
  if (requests.length === 0) return metrics;
  const size = metrics.bucket_seconds * 1000;
  const series = metrics.series.map((p) => ({ ...p }));
  const byStart = new Map(series.map((p) => [Math.floor(Date.parse(p.at) / size) * size, p]));
  const totals = { ...metrics.totals };
  for (const r of requests) {
    const t = Date.parse(r.at);
    if (!Number.isFinite(t)) continue;
    const start = Math.floor(t / size) * size;
    let point = byStart.get(start);
    if (!point) {
      point = {
        at: new Date(start).toISOString(),
        requests: 0,
        errors: 0,
        client_errors: 0,
        p50_ms: null,
        p95_ms: null,
        p99_ms: null,
      };
      byStart.set(start, point);
      series.push(point);
      samples.set(start, []);
    }
    const calls = r.weight ?? 1;
    const err = r.status >= 500 ? calls : 0;
    const clientErr = r.status >= 400 && r.status < 500 ? calls : 0;
    point.requests += calls;
    point.errors += err;
    point.client_errors += clientErr;
    totals.requests += calls;
    totals.errors += err;
    totals.client_errors += clientErr;
    const live = samples.get(start);
    if (live) {
      live.push(r.latency_ms);
      live.sort((a, b) => a - b);
      point.p50_ms = percentile(live, 50);
      point.p95_ms = percentile(live, 95);
      point.p99_ms = percentile(live, 99);
    }
  }
  series.sort((a, b) => Date.parse(a.at) - Date.parse(b.at));
  const from = now - windowMs;
  return { ...metrics, totals, series: series.filter((p) => Date.parse(p.at) + size > from) };
}

export const WINDOW_MS: Record<string, number> = {
  "1h": 3_600_000,
  "24h": 86_400_000,
  "7d": 604_800_000,
};

/**
 * One row per bucket of the window ending now (the route sends only buckets that saw requests), so
 * the charts' time axis spans the whole window and quiet minutes read as zero.
 */
export function fillWindow(
  metrics: Metrics,
  windowMs: number,
  now: number,
): (MetricValues & { at: string; start: number })[] {
  const size = metrics.bucket_seconds * 1000;
  const byStart = new Map(metrics.series.map((p) => [Math.floor(Date.parse(p.at) / size) * size, p]));
  const last = Math.floor(now / size) * size;
  const first = last - (Math.ceil(windowMs / size) - 1) * size;
  const rows: (MetricValues & { at: string; start: number })[] = [];
  for (let start = first; start <= last; start += size) {
    const p = byStart.get(start);
    rows.push(
      p
        ? { ...p, start }
        : {
            at: new Date(start).toISOString(),
            start,
            requests: 0,
            errors: 0,
            client_errors: 0,
            p50_ms: null,
            p95_ms: null,
            p99_ms: null,
          },
    );
  }
  return rows;
}
