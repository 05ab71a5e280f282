import { describe, expect, it } from "vitest";
import { type JobFields, patchJob } from "./job-events";
import type { StreamEvent } from "./stream-events";

const job: JobFields = {
  state: "running",
  reason: null,
  status_history: [
    { status: "queued", at: "2025-01-01T00:00:00.000Z", reason: null },
    { status: "running", at: "2025-01-01T00:00:05.000Z", reason: null },
  ],
  progress: { epoch: 3, epochs: 10, step: 30, steps: 100 },
};

const status = (
  id: number,
  s: "queued" | "running" | "succeeded" | "cancelled",
  at: string,
): StreamEvent => ({
  kind: "status",
  id,
  data: { status: s, at, reason: s === "cancelled" ? "Cancelled by the user." : null },
});
const progress = (id: number, epoch: number, step: number): StreamEvent => ({
  kind: "progress",
  id,
  data: { epoch, epochs: 10, step, steps: 100 },
});

describe("patchJob", () => {
  it("ignores a replay of the changes the job already records", () => {
    const r = patchJob(job, [
      status(1, "queued", "2025-01-01T00:00:00.000Z"),
      status(2, "running", "2025-01-01T00:00:05.000Z"),
    ]);
    expect(r.job).toBe(job);
    expect(r.statusChanged).toBe(false);
  });
  it("records a new change with its reason", () => {
    const r = patchJob(job, [status(9, "cancelled", "2025-01-01T00:01:00.000Z")]);
    expect(r.statusChanged).toBe(true);
    expect(r.job.state).toBe("cancelled");
    expect(r.job.reason).toBe("Cancelled by the user.");
    expect(r.job.status_history).toHaveLength(3);
  });
  it("never goes back to an older change", () => {
    const r = patchJob(job, [status(3, "succeeded", "2024-12-31T00:00:00.000Z")]);
    expect(r.job.state).toBe("running");
  });
  it("moves progress forward only", () => {
    expect(patchJob(job, [progress(4, 2, 20)]).job.progress?.epoch).toBe(3);
    expect(patchJob(job, [progress(5, 3, 20)]).job.progress?.step).toBe(30);
    expect(patchJob(job, [progress(6, 4, 40)]).job.progress).toEqual({
      epoch: 4,
      epochs: 10,
      step: 40,
      steps: 100,
    });
  });
  it("applies a batch in order: a restart after a cancel leaves the job queued", () => {
    const r = patchJob(job, [
      status(7, "cancelled", "2025-01-01T00:01:00.000Z"),
      status(8, "queued", "2025-01-01T00:02:00.000Z"),
    ]);
    expect(r.job.state).toBe("queued");
    expect(r.job.reason).toBeNull();
  });
});
