import { Badge } from "@/components/ui/badge";
import type { EvaluationState } from "@/lib/evaluations-ui/present";

const LABELS: Record<EvaluationState, string> = {
  queued: "Queued",
  running: "Evaluating",
  succeeded: "Done",
  failed: "Failed",
};
const TONES = { queued: "neutral", running: "accent", succeeded: "ok", failed: "danger" } as const;

/** An evaluation's state; a queued or running one shows a pulsing dot. */
export function EvaluationStateBadge({ state }: { state: EvaluationState }) {
  const active = state === "queued" || state === "running";
  return (
    <Badge tone={TONES[state]}>
      <span className="inline-flex items-center gap-1.5" data-testid="evaluation-state" data-state={state}>
        {active ? (
          <span aria-hidden className="relative flex h-1.5 w-1.5">
            <span className="absolute inline-flex h-full w-full animate-ping rounded-full bg-current opacity-60" />
            <span className="relative inline-flex h-1.5 w-1.5 rounded-full bg-current" />
          </span>
        ) : null}
        {LABELS[state]}
      </span>
    </Badge>
  );
}
