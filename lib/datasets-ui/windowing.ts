/**
 * Which rows of a long, fixed-row-height list to render: the ones in view plus a few either side,
 * and the empty space above and below them that keeps the scrollbar true to the whole list.
 */
export interface WindowInput {
  count: number;
  rowHeight: number;
  scrollTop: number;
  viewportHeight: number;
  /** Rows rendered beyond each edge of the viewport. */
  overscan?: number;
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
  totalHeight: number;
}

export function windowRange({
  count,
  rowHeight,
  scrollTop,
  viewportHeight,
  overscan = 8,
}: WindowInput): WindowRange {
  const totalHeight = count * rowHeight;
  if (count <= 0 || rowHeight <= 0) return { start: 0, end: 0, padTop: 0, padBottom: 0, totalHeight: 0 };
  const top = Math.max(0, Math.min(scrollTop, Math.max(0, totalHeight - viewportHeight)));
  const first = Math.floor(top / rowHeight);
  const visible = Math.ceil(Math.max(viewportHeight, rowHeight) / rowHeight) + 1;
  const start = Math.max(0, first - overscan);
  const end = Math.min(count, first + visible + overscan);
  return { start, end, padTop: start * rowHeight, padBottom: (count - end) * rowHeight, totalHeight };
}

/** The scrollTop that brings `row` to the top of the viewport (clamped to the list). */
export function scrollTopForRow(
  row: number,
  count: number,
  rowHeight: number,
  viewportHeight: number,
): number {
  const max = Math.max(0, count * rowHeight - viewportHeight);
  return Math.max(0, Math.min(max, row * rowHeight));
}
