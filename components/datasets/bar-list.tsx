import { cn } from "@/components/ui/cn";
import type { BarListItem } from "@/lib/datasets-ui/chart-data";
import { formatCount, formatPercent } from "@/lib/datasets-ui/format";

/** Labelled horizontal bars (most frequent values, classes): readable as a plain list. */
export function BarList({ items, label }: { items: BarListItem[]; label: string }) {
  return (
    <ul className="mt-3 space-y-1.5" aria-label={label}>
      {items.map((item) => (
        <li key={`${item.other ? "other:" : ""}${item.label}`} className="text-xs">
          <div className="flex items-baseline justify-between gap-2">
            <span
              className={cn("truncate", item.other ? "text-muted italic" : "font-medium")}
              title={item.label}
            >
              {item.label}
            </span>
            <span className="shrink-0 text-muted tabular-nums">
              {formatCount(item.count)} · {formatPercent(item.share)}
            </span>
          </div>
          <div className="mt-0.5 h-1.5 rounded-full bg-panel-2">
            <div
              className={cn("h-full rounded-full", item.other ? "bg-muted/40" : "bg-accent")}
              style={{ width: `${Math.max(item.width * 100, 1)}%` }}
            />
          </div>
        </li>
      ))}
    </ul>
  );
}
