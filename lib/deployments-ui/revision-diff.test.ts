import { describe, expect, it } from "vitest";
import { revisionChanges, withChanges } from "./revision-diff";

const r = (number: number, job_id: string, settings: Record<string, unknown> = {}) => ({
  number,
  job_id,
  artifact_format: "onnx",
  settings,
});

describe("revisionChanges", () => {
  it("names the first revision, a new model and changed settings", () => {
    const list = withChanges([r(3, "job_b", { max_batch_size: 64 }), r(2, "job_b"), r(1, "job_a")]);
    expect(list.map((x) => x.changes)).toEqual([
      [{ kind: "setting", name: "max_batch_size", from: undefined, to: 64 }],
      [{ kind: "model", from: "job_a", to: "job_b" }],
      [{ kind: "first" }],
    ]);
  });
  it("finds nothing when a revision repeats the previous one", () => {
    expect(revisionChanges(r(2, "job_a"), r(1, "job_a"))).toEqual([]);
  });
});
