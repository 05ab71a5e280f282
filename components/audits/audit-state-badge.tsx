import { Badge } from "@/components/ui/badge";
import type { Audit } from "./types";

const TONE = { running: "accent", completed: "ok", failed: "danger", cancelled: "warn" } as const;

export function AuditStateBadge({ state }: { state: Audit["state"] }) {
  return <Badge tone={TONE[state]}>{state}</Badge>;
}

const CANDIDATE_TONE = {
  training: "accent",
  trained: "neutral",
  evaluated: "ok",
  failed: "danger",
  cancelled: "warn",
} as const;

export function CandidateStateBadge({ state }: { state: keyof typeof CANDIDATE_TONE }) {
  return <Badge tone={CANDIDATE_TONE[state]}>{state}</Badge>;
}
