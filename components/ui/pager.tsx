import { ChevronLeft, ChevronRight } from "lucide-react";
import { Button } from "./button";
import { cn } from "./cn";

/**
 * Pages of a paged list (`{total, page, limit, pages}`): "1–20 of 57" with Previous and Next, or just
 * the count when everything fits on one page.
 */
export function Pager({
  data,
  noun,
  onPage,
  className,
}: {
  data: { total: number; page: number; limit: number; pages: number };
  /** Singular name of an item ("project"): the one-page count reads "3 projects". */
  noun: string;
  onPage: (page: number) => void;
  className?: string;
}) {
  if (data.pages <= 1)
    return (
      <p className={cn("text-sm text-muted", className)}>
        {data.total} {noun}
        {data.total === 1 ? "" : "s"}
      </p>
    );
  return (
    <nav aria-label="Pages" className={cn("flex items-center justify-between text-sm text-muted", className)}>
      <span>
        {(data.page - 1) * data.limit + 1}–{Math.min(data.page * data.limit, data.total)} of {data.total}
      </span>
      <span className="flex items-center gap-2">
        <Button variant="secondary" size="sm" disabled={data.page <= 1} onClick={() => onPage(data.page - 1)}>
          <ChevronLeft aria-hidden className="h-4 w-4" /> Previous
        </Button>
        <span>
          Page {data.page} of {data.pages}
        </span>
        <Button
          variant="secondary"
          size="sm"
          disabled={data.page >= data.pages}
          onClick={() => onPage(data.page + 1)}
        >
          Next <ChevronRight aria-hidden className="h-4 w-4" />
        </Button>
      </span>
    </nav>
  );
}
