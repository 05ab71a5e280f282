/** Zooming a metric chart: the selected x range as the step window to fetch in finer detail. */
import type { PointFields, XAxisKey } from "./series";

/** Points asked for when a job page opens, and for a zoomed window (per series). */
export const HISTORY_MAX_POINTS = 2000;

export interface StepWindow {
  from_step: number;
  to_step: number;
}

/**
 * The steps under a selection from `a` to `b` on the chart's x axis (either order). On an epoch axis,
 * the window spans the steps whose epoch lies in the range. Null when the selection holds less than
 * two distinct steps (a click, not a drag).
 */
export function zoomWindow(
  a: number,
  b: number,
  x: XAxisKey,
  points: Iterable<PointFields>,
): StepWindow | null {
  const lo = Math.min(a, b);
  const hi = Math.max(a, b);
  if (x === "step") {
    const from = Math.max(0, Math.floor(lo));
    const to = Math.ceil(hi);
    return to > from ? { from_step: from, to_step: to } : null;
  }
  let from = Number.POSITIVE_INFINITY;
  let to = Number.NEGATIVE_INFINITY;
  for (const p of points) {
    if (p.epoch === null || p.epoch < lo || p.epoch > hi) continue;
    from = Math.min(from, p.step);
    to = Math.max(to, p.step);
  }
  return Number.isFinite(from) && to > from ? { from_step: from, to_step: to } : null;
}
