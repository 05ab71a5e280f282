import { Badge } from "@/components/ui/badge";
import { type JobState, stateLabel, stateTone } from "@/lib/training-ui/states";

/** A job's state as a coloured badge; a running job's dot pulses. */
export function StateBadge({ state, cancelling }: { state: JobState; cancelling?: boolean }) {
  return (
    <Badge tone={stateTone(state)}>
      <span className="inline-flex items-center gap-1.5" data-testid="job-state" data-state={state}>
        {state === "running" || state === "queued" ? (
          <span aria-hidden className="relative flex h-1.5 w-1.5">
            {state === "running" ? (
              <span className="absolute inline-flex h-full w-full animate-ping rounded-full bg-current opacity-60" />
            ) : null}
            <span className="relative inline-flex h-1.5 w-1.5 rounded-full bg-current" />
          </span>
        ) : null}
        {cancelling && (state === "running" || state === "queued") ? "Cancelling…" : stateLabel(state)}
      </span>
    </Badge>
  );
}
