/** Training job states (decisions "Training"): labels, badge tones and which actions apply. */

export type JobState = "queued" | "running" | "succeeded" | "failed" | "cancelled" | "timed_out";
export type BadgeTone = "neutral" | "accent" | "ok" | "warn" | "danger";

export const JOB_STATES: readonly JobState[] = [
  "queued",
  "running",
  "succeeded",
  "failed",
  "cancelled",
  "timed_out",
];

const LABELS: Record<JobState, string> = {
  queued: "Queued",
  running: "Running",
  succeeded: "Succeeded",
  failed: "Failed",
  cancelled: "Cancelled",
  timed_out: "Timed out",
};

const TONES: Record<JobState, BadgeTone> = {
  queued: "neutral",
  running: "accent",
  succeeded: "ok",
  failed: "danger",
  cancelled: "neutral",
  timed_out: "warn",
};

export function stateLabel(state: JobState): string {
  return LABELS[state];
}

export function stateTone(state: JobState): BadgeTone {
  return TONES[state];
}

/** Queued or running: the job may still change (lists refresh, the page keeps its stream open). */
export function isActive(state: JobState): boolean {
  return state === "queued" || state === "running";
}

/** Decisions: cancel from queued or running. */
export function canCancel(state: JobState): boolean {
  return isActive(state);
}

/** Decisions: restart from failed, cancelled or timed out. */
export function canRestart(state: JobState): boolean {
  return state === "failed" || state === "cancelled" || state === "timed_out";
}

export function isJobState(value: string): value is JobState {
  return (JOB_STATES as readonly string[]).includes(value);
}

/** How often a list holding active jobs refreshes; false (no refresh) when none is active. */
export function listRefetchInterval(states: readonly JobState[] | undefined, ms = 3000): number | false {
  return states?.some(isActive) ? ms : false;
}
