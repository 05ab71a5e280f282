import { Badge } from "@/components/ui/badge";
import type { ModelVersion } from "./types";

/** `ready` (finalized, immutable) or `pending` (artifacts still being uploaded, or not finalized yet). */
export function VersionStateBadge({ state }: { state: ModelVersion["state"] }) {
  return (
    <Badge tone={state === "ready" ? "ok" : "warn"}>
      <span data-testid="version-state" data-state={state}>
        {state === "ready" ? "Ready" : "Pending"}
      </span>
    </Badge>
  );
}
