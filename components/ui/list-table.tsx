import type { ReactNode } from "react";
import { cn } from "./cn";

export interface ListColumn {
  header: ReactNode;
  /** Tailwind width class of the column (e.g. "w-28"); none: it takes the rest. */
  width?: string;
  align?: "left" | "right";
  /** A tooltip on the header (what the figure means). */
  title?: string;
}

/** The row class of a list table: a line between rows and a hover tint. */
export const LIST_ROW = "border-t border-border first:border-t-0 hover:bg-panel-2/50";

/**
 * The studio's list tables (datasets, deployments, audits…): a bordered, horizontally scrolling
 * fixed-layout table with a screen-reader caption and one header row; the caller gives the body
 * rows (with LIST_ROW). The first and last columns get the wider outer padding.
 */
export function ListTable({
  caption,
  columns,
  children,
}: {
  caption: string;
  columns: ListColumn[];
  children: ReactNode;
}) {
  const last = columns.length - 1;
  return (
    <div className="overflow-x-auto rounded-lg border border-border bg-panel">
      <table className="w-full min-w-[760px] table-fixed text-sm">
        <caption className="sr-only">{caption}</caption>
        <colgroup>
          {columns.map((c, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: the columns are fixed for a table
            <col key={i} className={c.width} />
          ))}
        </colgroup>
        <thead>
          <tr className="border-b border-border bg-panel-2/60 text-left text-xs text-muted">
            {columns.map((c, i) => (
              <th
                // biome-ignore lint/suspicious/noArrayIndexKey: the columns are fixed for a table
                key={i}
                scope="col"
                title={c.title}
                className={cn(
                  "py-2 font-medium",
                  i === 0 || i === last ? "px-4" : "px-3",
                  c.align === "right" && "text-right",
                )}
              >
                {c.header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
    </div>
  );
}
