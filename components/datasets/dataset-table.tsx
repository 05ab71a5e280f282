import Link from "next/link";
import { Badge } from "@/components/ui/badge";
import { LIST_ROW, ListTable } from "@/components/ui/list-table";
import type { Schemas } from "@/lib/api/client";
import { formatBytes, formatCount, formatLabel, formatRelative, taskLabel } from "@/lib/datasets-ui/format";

/** Datasets as a table: name and description, format, task, rows, columns, size, last update. */
export function DatasetTable({ datasets, caption }: { datasets: Schemas["Dataset"][]; caption: string }) {
  return (
    <ListTable
      caption={caption}
      columns={[
        { header: "Name" },
        { header: "Format", width: "w-24" },
        { header: "Task", width: "w-40" },
        { header: "Rows", width: "w-20", align: "right" },
        { header: "Columns", width: "w-22", align: "right" },
        { header: "Size", width: "w-22", align: "right" },
        { header: "Updated", width: "w-26", align: "right" },
      ]}
    >
      {datasets.map((d) => (
        <tr key={d.id} className={LIST_ROW} data-testid="dataset-row">
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
    </ListTable>
  );
}
