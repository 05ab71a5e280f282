import type { LucideIcon } from "lucide-react";
import type { ReactNode } from "react";

/** What a new user sees where there is nothing yet: what this place is for and what to do next. */
export function EmptyState({
  icon: Icon,
  title,
  children,
  action,
}: {
  icon: LucideIcon;
  title: string;
  children: ReactNode;
  action?: ReactNode;
}) {
  return (
    <div className="flex flex-col items-center rounded-lg border border-dashed border-border bg-panel px-6 py-14 text-center">
      <div className="mb-4 flex h-12 w-12 items-center justify-center rounded-full bg-accent-soft text-accent">
        <Icon aria-hidden className="h-6 w-6" />
      </div>
      <h2 className="text-base font-semibold">{title}</h2>
      <div className="mt-1 max-w-md text-sm text-muted">{children}</div>
      {action ? <div className="mt-5">{action}</div> : null}
    </div>
  );
}
