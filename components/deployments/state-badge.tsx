import { Badge } from "@/components/ui/badge";
import type { DeploymentState } from "./types";

const LABELS: Record<DeploymentState, string> = {
  deploying: "Deploying",
  ready: "Ready",
  failed: "Failed",
  paused: "Paused",
};
const TONES = { deploying: "accent", ready: "ok", failed: "danger", paused: "warn" } as const;

/** A deployment's state as a coloured badge. */
export function DeploymentStateBadge({ state }: { state: DeploymentState }) {
  return (
    <Badge tone={TONES[state]}>
      <span className="inline-flex items-center gap-1.5" data-testid="deployment-state" data-state={state}>
        <span aria-hidden className="inline-flex h-1.5 w-1.5 rounded-full bg-current" />
        {LABELS[state]}
      </span>
    </Badge>
  );
}
