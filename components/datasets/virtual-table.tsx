"use client";

import { CornerDownRight } from "lucide-react";
import { type FormEvent, useEffect, useId, useMemo, useRef, useState } from "react";
import { Button } from "@/components/ui/button";
import { cn } from "@/components/ui/cn";
import { inputClass } from "@/components/ui/field";
import type { Cell } from "@/lib/datasets-ui/cells";
import { scrollTopForRow, windowRange } from "@/lib/datasets-ui/windowing";

const ROW_HEIGHT = 32;
const HEADER_HEIGHT = 44;
const INDEX_WIDTH = 76;

export interface TableColumn {
  name: string;
  type: string;
}

const CHAR_WIDTH = 7.4;

/** A column wide enough for its name and most of its values (sampled), within bounds. */
function widthOf(c: TableColumn, sample: string[]): number {
  const lengths = sample.map((v) => v.length).sort((a, b) => a - b);
  const typical = lengths.length > 0 ? lengths[Math.floor(lengths.length * 0.9)] : 0;
  const chars = Math.max(c.name.length, Math.min(typical, 48));
  const min = c.type === "string" || c.type === "other" ? 120 : 88;
  return Math.round(Math.min(400, Math.max(min, chars * CHAR_WIDTH + 32)));
}

const NUMERIC = new Set(["integer", "float"]);

/**
 * A table that renders only the rows in view (fixed row height, spacer rows above and below), so
 * that 100,000 rows scroll as smoothly as 100. The header and the row numbers stay in place.
 */
export function VirtualTable({
  columns,
  rowCount,
  rowAt,
  label,
  height = 540,
  onRangeChange,
}: {
  columns: TableColumn[];
  rowCount: number;
  /** A row's cells, or undefined while they are loading (a placeholder row is shown). */
  rowAt: (index: number) => Cell[] | undefined;
  label: string;
  height?: number;
  /** Called with the rows rendered (start inclusive, end exclusive) whenever they change. */
  onRangeChange?: (start: number, end: number) => void;
}) {
  const scroller = useRef<HTMLElement>(null);
  const frame = useRef(0);
  const [scrollTop, setScrollTop] = useState(0);
  const [jump, setJump] = useState("");
  const jumpId = useId();
  // Widths from the first rows only (once they are there), so that they do not jump while scrolling.
  const sampleKey = Math.min(rowCount, 200);
  const sampleReady = sampleKey === 0 || rowAt(sampleKey - 1) !== undefined;
  // biome-ignore lint/correctness/useExhaustiveDependencies: rowAt changes identity with every page; the sample size and its arrival are what matter
  const widths = useMemo(() => {
    const sample: Cell[][] = [];
    for (let i = 0; i < sampleKey; i++) {
      const row = rowAt(i);
      if (row) sample.push(row);
    }
    return columns.map((c, k) =>
      widthOf(
        c,
        sample.map((r) => r[k] ?? ""),
      ),
    );
  }, [columns, sampleKey, sampleReady]);
  // Room for the longest row number ("1,000,000").
  const indexWidth = Math.max(INDEX_WIDTH, Math.ceil(rowCount.toLocaleString("en-US").length * 7.2 + 28));
  const totalWidth = indexWidth + widths.reduce((a, b) => a + b, 0);
  const viewport = height - HEADER_HEIGHT;
  const range = windowRange({
    count: rowCount,
    rowHeight: ROW_HEIGHT,
    scrollTop,
    viewportHeight: viewport,
    overscan: 12,
  });

  useEffect(() => () => cancelAnimationFrame(frame.current), []);
  useEffect(() => {
    onRangeChange?.(range.start, range.end);
  }, [onRangeChange, range.start, range.end]);

  const onScroll = () => {
    cancelAnimationFrame(frame.current);
    frame.current = requestAnimationFrame(() => {
      if (scroller.current) setScrollTop(scroller.current.scrollTop);
    });
  };

  const goTo = (e: FormEvent) => {
    e.preventDefault();
    const n = Number(jump);
    if (!Number.isInteger(n) || n < 1 || !scroller.current) return;
    const top = scrollTopForRow(Math.min(n, rowCount) - 1, rowCount, ROW_HEIGHT, viewport);
    scroller.current.scrollTop = top;
    setScrollTop(top);
  };

  const first = rowCount === 0 ? 0 : range.firstVisible + 1;
  const last = range.lastVisible;

  const rows = [];
  let waiting = false;
  for (let i = range.start; i < range.end; i++) {
    const cells = rowAt(i);
    if (!cells) {
      waiting = true;
      rows.push(
        <tr key={i} aria-rowindex={i + 2} style={{ height: ROW_HEIGHT }} data-row={i + 1} data-loading="">
          <th
            scope="row"
            className="sticky left-0 z-[1] border-r border-b border-border bg-panel px-3 text-right text-xs font-normal text-muted tabular-nums"
          >
            {(i + 1).toLocaleString("en-US")}
          </th>
          {columns.map((c, k) => (
            <td key={c.name} className="border-b border-border px-3">
              <span
                aria-hidden
                className="block h-2.5 animate-pulse rounded-full bg-border"
                style={{ width: `${40 + ((i * 7 + k * 13) % 45)}%` }}
              />
            </td>
          ))}
        </tr>,
      );
      continue;
    }
    rows.push(
      <tr key={i} aria-rowindex={i + 2} style={{ height: ROW_HEIGHT }} className="group" data-row={i + 1}>
        <th
          scope="row"
          className="sticky left-0 z-[1] border-r border-b border-border bg-panel px-3 text-right text-xs font-normal text-muted tabular-nums group-hover:bg-panel-2"
        >
          {(i + 1).toLocaleString("en-US")}
        </th>
        {columns.map((c, k) => {
          const v = cells[k];
          return (
            <td
              key={c.name}
              title={v !== null && v !== undefined && v.length > 24 ? v : undefined}
              className={cn(
                "overflow-hidden border-b border-border px-3 text-ellipsis whitespace-nowrap group-hover:bg-panel-2/60",
                NUMERIC.has(c.type) && "text-right tabular-nums",
              )}
            >
              {v === null || v === undefined ? <span className="text-xs text-muted italic">null</span> : v}
            </td>
          );
        })}
      </tr>,
    );
  }

  return (
    <div className="overflow-hidden rounded-lg border border-border bg-panel">
      <div className="flex flex-wrap items-center justify-between gap-3 border-b border-border px-4 py-2">
        <p className="text-xs text-muted tabular-nums" data-testid="visible-rows">
          {rowCount === 0
            ? "No rows"
            : `Rows ${first.toLocaleString("en-US")}–${last.toLocaleString("en-US")} of ${rowCount.toLocaleString("en-US")}`}
        </p>
        <form onSubmit={goTo} className="flex items-center gap-2">
          <label htmlFor={jumpId} className="text-xs whitespace-nowrap text-muted">
            Go to row
          </label>
          <input
            id={jumpId}
            type="number"
            min={1}
            max={rowCount}
            inputMode="numeric"
            value={jump}
            onChange={(e) => setJump(e.target.value)}
            className={cn(inputClass, "h-8 w-28 text-xs")}
          />
          <Button type="submit" size="sm" variant="secondary" aria-label="Go" disabled={jump === ""}>
            <CornerDownRight aria-hidden className="h-3.5 w-3.5" />
          </Button>
        </form>
      </div>
      <section
        ref={scroller}
        onScroll={onScroll}
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable by keyboard
        tabIndex={0}
        aria-label={label}
        aria-busy={waiting || undefined}
        className="overflow-auto overscroll-contain"
        style={{ height: Math.min(height, HEADER_HEIGHT + Math.max(rowCount, 3) * ROW_HEIGHT + 2) }}
      >
        <table
          className="text-sm"
          style={{
            tableLayout: "fixed",
            width: totalWidth,
            minWidth: "100%",
            borderCollapse: "separate",
            borderSpacing: 0,
          }}
          aria-rowcount={rowCount + 1}
        >
          <caption className="sr-only">{label}</caption>
          <colgroup>
            <col style={{ width: indexWidth }} />
            {widths.map((w, k) => (
              <col key={columns[k].name} style={{ width: w }} />
            ))}
          </colgroup>
          <thead>
            <tr aria-rowindex={1} style={{ height: HEADER_HEIGHT }}>
              <th
                scope="col"
                className="sticky top-0 left-0 z-[3] border-r border-b border-border bg-panel-2 px-3 text-right text-xs font-medium text-muted"
              >
                #
              </th>
              {columns.map((c) => (
                <th
                  key={c.name}
                  scope="col"
                  className={cn(
                    "sticky top-0 z-[2] border-b border-border bg-panel-2 px-3 text-left align-middle",
                    NUMERIC.has(c.type) && "text-right",
                  )}
                >
                  <span className="block truncate text-xs font-semibold text-fg" title={c.name}>
                    {c.name}
                  </span>
                  <span className="block text-[11px] font-normal text-muted">{c.type}</span>
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {range.padTop > 0 ? (
              <tr>
                <td colSpan={columns.length + 1} style={{ height: range.padTop, padding: 0 }} />
              </tr>
            ) : null}
            {rows}
            {range.padBottom > 0 ? (
              <tr>
                <td colSpan={columns.length + 1} style={{ height: range.padBottom, padding: 0 }} />
              </tr>
            ) : null}
          </tbody>
        </table>
      </section>
    </div>
  );
}
