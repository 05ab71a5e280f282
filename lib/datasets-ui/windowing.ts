/**
 * Which rows of a long, fixed-row-height list to render: the ones in view plus a few either side,
 * and the empty space above and below them that keeps the scrollbar true to the whole list.
 *
 * Browsers cap an element's height (Firefox at about 17.9 million pixels, Chrome at 33.5 million), so a
 * list taller than MAX_SCROLL_HEIGHT gets a scroll area of that height instead, and scroll positions
 * map linearly onto rows: the scrollbar still spans every row, and rows render at their natural height.
 */
export const MAX_SCROLL_HEIGHT = 15_000_000;

export interface WindowInput {
  count: number;
  rowHeight: number;
  scrollTop: number;
  viewportHeight: number;
  /** Rows rendered beyond each edge of the viewport. */
  overscan?: number;
  /** The tallest scroll area to use (tests). */
  maxHeight?: number;
}

export interface WindowRange {
  /** First rendered row (inclusive). */
  start: number;
  /** Last rendered row (exclusive). */
  end: number;
  /** Height of the space above the first rendered row. */
  padTop: number;
  /** Height of the space below the last rendered row. */
  padBottom: number;
  /** Height of the scroll area (the list's height, or less when the list is very tall). */
  totalHeight: number;
  /** First row in view (0-based) and the row after the last one in view. */
  firstVisible: number;
  lastVisible: number;
}

function scrollGeometry(count: number, rowHeight: number, viewportHeight: number, maxHeight: number) {
  const natural = count * rowHeight;
  const total = Math.min(natural, maxHeight);
  const naturalRange = Math.max(0, natural - viewportHeight);
  const range = Math.max(0, total - viewportHeight);
  // Row-space pixels per scroll pixel (1 unless the list is taller than the cap).
  const scale = range > 0 ? naturalRange / range : 1;
  return { total, range, naturalRange, scale };
}

export function windowRange({
  count,
  rowHeight,
  scrollTop,
  viewportHeight,
  overscan = 8,
  maxHeight = MAX_SCROLL_HEIGHT,
}: WindowInput): WindowRange {
  if (count <= 0 || rowHeight <= 0)
    return { start: 0, end: 0, padTop: 0, padBottom: 0, totalHeight: 0, firstVisible: 0, lastVisible: 0 };
  const g = scrollGeometry(count, rowHeight, viewportHeight, maxHeight);
  const top = Math.max(0, Math.min(scrollTop, g.range));
  const naturalTop = Math.min(g.naturalRange, top * g.scale);
  const first = Math.min(count - 1, Math.floor(naturalTop / rowHeight));
  const visible = Math.ceil(Math.max(viewportHeight, rowHeight) / rowHeight) + 1;
  const start = Math.max(0, first - overscan);
  const end = Math.min(count, first + visible + overscan);
  // Row `start` sits where it would be in the full list, relative to the viewport's top.
  const padTop = Math.max(0, Math.round(top - (naturalTop - start * rowHeight)));
  const padBottom = Math.max(0, g.total - padTop - (end - start) * rowHeight);
  return {
    start,
    end,
    padTop,
    padBottom,
    totalHeight: g.total,
    firstVisible: first,
    lastVisible: Math.min(count, Math.floor((naturalTop + viewportHeight) / rowHeight)),
  };
}

/** The scrollTop that brings `row` to the top of the viewport (clamped to the list). */
export function scrollTopForRow(
  row: number,
  count: number,
  rowHeight: number,
  viewportHeight: number,
  maxHeight = MAX_SCROLL_HEIGHT,
): number {
  const g = scrollGeometry(count, rowHeight, viewportHeight, maxHeight);
  const naturalTop = Math.max(0, Math.min(g.naturalRange, row * rowHeight));
  // Rounded up: the browser keeps whole pixels, and rounding down could show the row before.
  return g.scale > 0 ? Math.min(g.range, Math.ceil(naturalTop / g.scale)) : 0;
}

/** The pages (of `pageSize` rows) that rows [start, end) fall in, within a list of `count` rows. */
export function pagesFor(start: number, end: number, pageSize: number, count: number): number[] {
  const from = Math.max(0, Math.min(start, count));
  const to = Math.max(from, Math.min(end, count));
  if (to <= from || pageSize <= 0) return [];
  const pages: number[] = [];
  for (let p = Math.floor(from / pageSize); p <= Math.floor((to - 1) / pageSize); p++) pages.push(p);
  return pages;
}
