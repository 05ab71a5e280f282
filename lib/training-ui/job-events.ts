/**
 * Status and progress events of the stream applied to the cached job. A stream opened without a
 * resume point replays the job's whole history first: a status change the job already records (or
 * one older than its last) changes nothing, and a replayed progress never moves the bar back.
 */
import type { JobState } from "./states";
import type { StreamEvent } from "./stream-events";

export interface StatusChange {
  status: JobState;
  at: string;
  reason: string | null;
}

export interface Progress {
  epoch: number;
  epochs: number;
  step: number;
  steps: number;
}

/** What the patch needs of a job (the API's TrainingJob has these and more). */
export interface JobFields {
  state: JobState;
  reason: string | null;
  status_history: StatusChange[];
  progress: Progress | null;
}

/** The job after the events; `statusChanged` when a new status was recorded (re-read the job then). */
export function patchJob<J extends JobFields>(
  job: J,
  events: readonly StreamEvent[],
): { job: J; statusChanged: boolean } {
  let next = job;
  let statusChanged = false;
  for (const e of events) {
    if (e.kind === "status") {
      const history = next.status_history;
      const last = history[history.length - 1];
      const known = history.some((h) => h.status === e.data.status && h.at === e.data.at);
      if (known || (last && Date.parse(e.data.at) < Date.parse(last.at))) continue;
      const change: StatusChange = { status: e.data.status, at: e.data.at, reason: e.data.reason ?? null };
      next = { ...next, state: change.status, reason: change.reason, status_history: [...history, change] };
      statusChanged = true;
    } else if (e.kind === "progress") {
      const p = next.progress;
      if (p && e.data.epoch < p.epoch) continue;
      if (p && e.data.epoch === p.epoch && e.data.step < p.step) continue;
      next = { ...next, progress: e.data };
    }
  }
  return { job: next, statusChanged };
}
