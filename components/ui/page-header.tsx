import { ChevronRight, Radio } from "lucide-react";
import Link from "next/link";
import type { ReactNode } from "react";
import { cn } from "./cn";

export interface Crumb {
  href: string;
  label: ReactNode;
}

/**
 * The one page header of the studio: a breadcrumb (the parents, then the page), the title with its
 * badges, a description, the actions on the right, and below them whatever the page shows first
 * (alerts, key figures). A list page passes a title, a description and its actions; a detail page
 * adds its parents and the rest.
 */
export function PageHeader({
  title,
  crumbs,
  current,
  badges,
  description,
  actions,
  children,
}: {
  title: ReactNode;
  /** The parent pages, outermost first; the breadcrumb ends with `current` (default: the title). */
  crumbs?: readonly Crumb[];
  current?: ReactNode;
  /** Shown beside the title (state, visibility, task, the live indicator). */
  badges?: ReactNode;
  description?: ReactNode;
  actions?: ReactNode;
  /** Below the title row: alerts, key figures. */
  children?: ReactNode;
}) {
  const detail = crumbs !== undefined;
  return (
    <header className={cn("mb-6", (detail || children) && "space-y-4")}>
      {crumbs ? (
        <nav aria-label="Breadcrumb" className="flex items-center gap-1 text-sm text-muted">
          {crumbs.map((c) => (
            <span key={c.href} className="flex min-w-0 items-center gap-1">
              <Link href={c.href} className="truncate hover:text-fg hover:underline">
                {c.label}
              </Link>
              <ChevronRight aria-hidden className="h-3.5 w-3.5 shrink-0" />
            </span>
          ))}
          <span aria-current="page" className="truncate text-fg">
            {current ?? title}
          </span>
        </nav>
      ) : null}
      <div className={cn("flex flex-wrap justify-between gap-4", detail ? "items-start" : "items-end")}>
        <div className="min-w-0">
          <div className="flex min-w-0 flex-wrap items-center gap-3">
            <h1 className="truncate text-2xl font-semibold tracking-tight">{title}</h1>
            {badges}
          </div>
          {description ? <div className="mt-1 max-w-3xl text-sm text-muted">{description}</div> : null}
        </div>
        {actions ? <div className="flex flex-wrap items-center gap-2">{actions}</div> : null}
      </div>
      {children}
    </header>
  );
}

/** One key figure of a header's figures (a `<dl>`). */
export function HeaderStat({
  label,
  children,
  testId,
  className,
}: {
  label: string;
  children: ReactNode;
  testId?: string;
  /** Replaces the default `min-w-0`. */
  className?: string;
}) {
  return (
    <div className={className ?? "min-w-0"}>
      <dt className="text-xs text-muted">{label}</dt>
      <dd className="mt-0.5 truncate text-sm font-medium tabular-nums" data-testid={testId}>
        {children}
      </dd>
    </div>
  );
}

/** Whether a live stream is following the page (training jobs, deployments). */
export function LiveIndicator({
  status,
}: {
  status: "idle" | "connecting" | "live" | "reconnecting" | "ended";
}) {
  return (
    <span
      className={cn("inline-flex items-center gap-1 text-xs", status === "live" ? "text-ok" : "text-muted")}
      role="status"
    >
      <Radio aria-hidden className="h-3.5 w-3.5" />
      {status === "live" ? "Live" : status === "reconnecting" ? "Reconnecting…" : "Connecting…"}
    </span>
  );
}
