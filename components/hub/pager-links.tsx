import { ChevronLeft, ChevronRight } from "lucide-react";
import Link from "next/link";
import { buttonClass } from "@/components/ui/button";

/** Previous / next links of a server-rendered paged list (`{total, page, limit, pages}`). */
export function PagerLinks({
  data,
  href,
  noun,
}: {
  data: { total: number; page: number; limit: number; pages: number };
  href: (page: number) => string;
  noun: string;
}) {
  if (data.pages <= 1)
    return (
      <p className="text-sm text-muted">
        {data.total} {noun}
        {data.total === 1 ? "" : "s"}
      </p>
    );
  const disabled = "pointer-events-none opacity-50";
  return (
    <nav aria-label="Pages" className="flex items-center justify-between gap-4 text-sm text-muted">
      <span>
        {(data.page - 1) * data.limit + 1}–{Math.min(data.page * data.limit, data.total)} of {data.total}
      </span>
      <span className="flex items-center gap-2">
        <Link
          href={href(Math.max(1, data.page - 1))}
          aria-disabled={data.page <= 1}
          tabIndex={data.page <= 1 ? -1 : undefined}
          className={buttonClass("secondary", "sm", data.page <= 1 ? disabled : undefined)}
        >
          <ChevronLeft aria-hidden className="h-4 w-4" /> Previous
        </Link>
        <span>
          Page {data.page} of {data.pages}
        </span>
        <Link
          href={href(Math.min(data.pages, data.page + 1))}
          aria-disabled={data.page >= data.pages}
          tabIndex={data.page >= data.pages ? -1 : undefined}
          className={buttonClass("secondary", "sm", data.page >= data.pages ? disabled : undefined)}
        >
          Next <ChevronRight aria-hidden className="h-4 w-4" />
        </Link>
      </span>
    </nav>
  );
}
