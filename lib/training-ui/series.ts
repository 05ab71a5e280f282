/**
 * Metric series of a training job: merging live points (from the event stream) into the cached
 * history (from GET …/metrics), grouping series into charts (training and `val_` overlaid) and
 * building chart rows.
 */
import { emaSmooth } from "./smoothing";

/** What the merging needs of a metric point (the API's MetricPoint has these and a timestamp). */
export interface PointFields {
  name: string;
  step: number;
  epoch: number | null;
  value: number;
}

/** What the merging needs of a cached metrics page (the API's MetricsPage). */
export interface SeriesPage<P extends PointFields> {
  items: P[];
  total: number;
  downsampled: boolean;
}

/**
 * Merges live points into a cached page of points (sorted by name, then step), deduplicated by
 * (name, step): a point for a step already held replaces its value; a new step is inserted in order.
 * When the history was downsampled, a point at or before the last step held for its series is already
 * represented (its bucket's first, last, min and max were kept) and is skipped: a stream replaying
 * from the start never refills the gaps the server left on purpose. Returns `page` itself when nothing
 * changed, so that subscribers do not re-render.
 */
export function mergePoints<T extends SeriesPage<PointFields>>(
  page: T,
  incoming: readonly T["items"][number][],
): T {
  type P = T["items"][number];
  if (incoming.length === 0) return page;
  const bySeries = new Map<string, P[]>();
  for (const p of page.items) {
    let list = bySeries.get(p.name);
    if (!list) {
      list = [];
      bySeries.set(p.name, list);
    }
    list.push(p);
  }
  const lastStepHeld = new Map<string, number>();
  if (page.downsampled)
    for (const [name, list] of bySeries) lastStepHeld.set(name, list[list.length - 1].step);
  let changed = false;
  for (const point of incoming) {
    if (!Number.isFinite(point.value)) continue;
    let list = bySeries.get(point.name);
    if (!list) {
      list = [];
      bySeries.set(point.name, list);
    }
    const index = lowerBound(list, point.step);
    if (index < list.length && list[index].step === point.step) {
      if (list[index].value !== point.value || list[index].epoch !== point.epoch) {
        list[index] = point;
        changed = true;
      }
      continue;
    }
    const held = lastStepHeld.get(point.name);
    if (held !== undefined && point.step <= held) continue;
    list.splice(index, 0, point);
    changed = true;
  }
  if (!changed) return page;
  const names = [...bySeries.keys()].sort();
  const items = names.flatMap((n) => bySeries.get(n) ?? []);
  return { ...page, items, total: items.length };
}

/** First index whose step is ≥ `step` (the list is sorted by step). */
function lowerBound(list: readonly PointFields[], step: number): number {
  let lo = 0;
  let hi = list.length;
  // Live points almost always go at the end: check that first.
  if (hi > 0 && list[hi - 1].step < step) return hi;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (list[mid].step < step) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Points of each series, in step order. */
export function groupSeries<P extends PointFields>(items: readonly P[]): Map<string, P[]> {
  const out = new Map<string, P[]>();
  for (const p of items) {
    const list = out.get(p.name);
    if (list) list.push(p);
    else out.set(p.name, [p]);
  }
  for (const list of out.values()) list.sort((a, b) => a.step - b.step);
  return out;
}

export const VALIDATION_PREFIX = "val_";

/** One chart: a metric on the training set and, when reported, on the validation set. */
export interface ChartGroup {
  /** "loss", "accuracy"… */
  metric: string;
  train: string | null;
  validation: string | null;
}

/** Losses first, then accuracy, then the others alphabetically. */
function metricOrder(name: string): number {
  if (/loss/i.test(name)) return 0;
  if (/acc/i.test(name)) return 1;
  return 2;
}

/** Pairs `x` with `val_x`: one chart per metric, losses and accuracy first. */
export function chartGroups(seriesNames: Iterable<string>): ChartGroup[] {
  const groups = new Map<string, ChartGroup>();
  for (const name of seriesNames) {
    const isVal = name.startsWith(VALIDATION_PREFIX) && name.length > VALIDATION_PREFIX.length;
    const metric = isVal ? name.slice(VALIDATION_PREFIX.length) : name;
    const g = groups.get(metric) ?? { metric, train: null, validation: null };
    if (isVal) g.validation = name;
    else g.train = name;
    groups.set(metric, g);
  }
  return [...groups.values()].sort(
    (a, b) => metricOrder(a.metric) - metricOrder(b.metric) || a.metric.localeCompare(b.metric),
  );
}

/** Whether a metric improves downwards (losses and errors), as the server decides the best step. */
export function lowerIsBetter(metric: string): boolean {
  return /loss|error/i.test(metric);
}

export type XAxisKey = "step" | "epoch";

/** One row of a chart: the x value, then per line its smoothed value and its raw value. */
export type ChartRow = { x: number } & Record<string, number | undefined>;

/**
 * Rows for a line chart with one line per named series, aligned on x (step or epoch). With x = epoch,
 * the last point of each epoch is used. Smoothed values go under the series key, raw ones under
 * `<key>__raw` (the tooltip shows both). Points without an epoch are left out of an epoch axis.
 */
export function chartRows<P extends PointFields>(
  lines: readonly { key: string; points: readonly P[] }[],
  x: XAxisKey,
  smoothing: number,
): ChartRow[] {
  const rows = new Map<number, ChartRow>();
  for (const { key, points } of lines) {
    const picked: { x: number; value: number }[] = [];
    for (const p of points) {
      const xv = x === "step" ? p.step : p.epoch;
      if (xv === null) continue;
      const prev = picked[picked.length - 1];
      if (prev && prev.x === xv) prev.value = p.value;
      else picked.push({ x: xv, value: p.value });
    }
    const smoothed = emaSmooth(
      picked.map((p) => p.value),
      smoothing,
    );
    picked.forEach((p, i) => {
      let row = rows.get(p.x);
      if (!row) {
        row = { x: p.x } as ChartRow;
        rows.set(p.x, row);
      }
      row[key] = smoothed[i];
      row[`${key}__raw`] = p.value;
    });
  }
  return [...rows.values()].sort((a, b) => a.x - b.x);
}

/** Smallest and largest step of the given series (for the zoom window), or null when empty. */
export function stepExtent(series: Iterable<readonly PointFields[]>): [number, number] | null {
  let lo = Number.POSITIVE_INFINITY;
  let hi = Number.NEGATIVE_INFINITY;
  for (const list of series) {
    if (list.length === 0) continue;
    lo = Math.min(lo, list[0].step);
    hi = Math.max(hi, list[list.length - 1].step);
  }
  return Number.isFinite(lo) ? [lo, hi] : null;
}
