import { CheckCircle2, CircleDashed, CircleSlash, XCircle } from "lucide-react";
import type { AuditReport } from "./types";

const ICON = {
  succeeded: <CheckCircle2 aria-hidden className="h-4 w-4 text-ok" />,
  failed: <XCircle aria-hidden className="h-4 w-4 text-danger" />,
  running: <CircleDashed aria-hidden className="h-4 w-4 text-accent" />,
  skipped: <CircleSlash aria-hidden className="h-4 w-4 text-muted" />,
} as const;

/** The steps the CLI recorded, oldest first. */
export function StepsTimeline({ steps }: { steps: AuditReport["steps"] }) {
  if (steps.length === 0) return <p className="px-5 py-4 text-sm text-muted">No steps recorded.</p>;
  return (
    <ol className="divide-y divide-border" data-testid="audit-steps">
      {steps.map((s) => (
        <li key={s.id} className="flex items-start gap-3 px-5 py-2.5 text-sm">
          <span className="mt-0.5" title={s.status}>
            {ICON[s.status]}
          </span>
          <span className="min-w-0 flex-1">
            <span className="font-medium">{s.name}</span>
            {s.message ? <span className="block truncate text-xs text-muted">{s.message}</span> : null}
          </span>
          <time className="whitespace-nowrap text-xs text-muted" dateTime={s.at}>
            {new Date(s.at).toLocaleTimeString("en-GB")}
          </time>
        </li>
      ))}
    </ol>
  );
}
