import { CheckCircle2, Loader2 } from "lucide-react";
import { cn } from "./cn";

/**
 * A labelled progress bar: the label on the left (with a spinner while `busy`, a check once `done`),
 * the percentage on the right, and an accessible progressbar below.
 */
export function ProgressBar({
  percent,
  label,
  ariaLabel,
  busy = false,
  done = false,
  percentTestId,
}: {
  percent: number;
  label: string;
  ariaLabel: string;
  busy?: boolean;
  done?: boolean;
  percentTestId?: string;
}) {
  return (
    <div className="space-y-1.5">
      <div className="flex items-center justify-between gap-3 text-sm">
        <span className="flex items-center gap-2 text-muted">
          {done ? (
            <CheckCircle2 aria-hidden className="h-4 w-4 text-ok" />
          ) : busy ? (
            <Loader2 aria-hidden className="h-4 w-4 animate-spin" />
          ) : null}
          {label}
        </span>
        <span className="font-medium tabular-nums" data-testid={percentTestId}>
          {percent}%
        </span>
      </div>
      <div
        role="progressbar"
        aria-label={ariaLabel}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent}
        aria-valuetext={`${percent}% (${label})`}
        className="h-2 overflow-hidden rounded-full bg-panel-2"
      >
        <div
          className={cn("h-full rounded-full transition-[width] duration-200", done ? "bg-ok" : "bg-accent")}
          style={{ width: `${percent}%` }}
        />
      </div>
    </div>
  );
}
