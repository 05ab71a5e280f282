import Link from "next/link";
import { Badge } from "@/components/ui/badge";
import type { Schemas } from "@/lib/api/client";
import { formatBytes, formatCount, formatLabel, formatRelative, taskLabel } from "@/lib/datasets-ui/format";

/** Datasets as a table: name and description, format, task, rows, columns, size, last update. */
export function DatasetTable({ datasets, caption }: { datasets: Schemas["Dataset"][]; caption: string }) {
  return (
    <div className="overflow-x-auto rounded-lg border border-border bg-panel">
      <table className="w-full min-w-[760px] table-fixed text-sm">
        <caption className="sr-only">{caption}</caption>
        <colgroup>
          <col />
          <col className="w-24" />
          <col className="w-40" />
          <col className="w-20" />
          <col className="w-22" />
          <col className="w-22" />
          <col className="w-26" />
        </colgroup>
        <thead>
          <tr className="border-b border-border bg-panel-2/60 text-left text-xs text-muted">
            <th scope="col" className="px-4 py-2 font-medium">
              Name
            </th>
            <th scope="col" className="px-3 py-2 font-medium">
              Format
            </th>
            <th scope="col" className="px-3 py-2 font-medium">
              Task
            </th>
            <th scope="col" className="px-3 py-2 text-right font-medium">
              Rows
            </th>
            <th scope="col" className="px-3 py-2 text-right font-medium">
              Columns
            </th>
            <th scope="col" className="px-3 py-2 text-right font-medium">
              Size
            </th>
            <th scope="col" className="px-4 py-2 text-right font-medium">
              Updated
            </th>
          </tr>
        </thead>
        <tbody>
          {datasets.map((d) => (
            <tr
              key={d.id}
              className="border-t border-border first:border-t-0 hover:bg-panel-2/50"
              data-testid="dataset-row"
            >
              <td className="px-4 py-2.5">
                <div className="flex min-w-0 items-center gap-2">
                  <Link
                    href={`/datasets/${d.id}`}
                    className="truncate font-medium text-fg hover:text-accent hover:underline"
                  >
                    {d.name}
                  </Link>
                  {d.builtin ? <Badge tone="accent">Built-in</Badge> : null}
                  {!d.builtin && d.read_only ? <Badge>Public · {d.owner?.username}</Badge> : null}
                </div>
                {d.description ? <p className="mt-0.5 truncate text-xs text-muted">{d.description}</p> : null}
              </td>
              <td className="whitespace-nowrap px-3 py-2.5 text-muted">{formatLabel(d.format)}</td>
              <td className="whitespace-nowrap px-3 py-2.5 text-muted">{d.task ? taskLabel(d.task) : "–"}</td>
              <td className="px-3 py-2.5 text-right tabular-nums">{formatCount(d.row_count)}</td>
              <td className="px-3 py-2.5 text-right tabular-nums">{d.columns.length || "–"}</td>
              <td className="whitespace-nowrap px-3 py-2.5 text-right tabular-nums">
                {formatBytes(d.size_bytes)}
              </td>
              <td className="whitespace-nowrap px-4 py-2.5 text-right text-muted">
                {d.builtin ? "–" : <time dateTime={d.updated_at}>{formatRelative(d.updated_at)}</time>}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
