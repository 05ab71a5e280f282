import { describe, expect, it } from "vitest";
import { canCancel, canRestart, isJobState, listRefetchInterval, stateLabel, stateTone } from "./states";

describe("job states", () => {
  it("labels and tones every state", () => {
    expect(stateLabel("timed_out")).toBe("Timed out");
    expect(stateTone("running")).toBe("accent");
    expect(stateTone("succeeded")).toBe("ok");
    expect(stateTone("failed")).toBe("danger");
    expect(stateTone("timed_out")).toBe("warn");
    expect(stateTone("cancelled")).toBe("neutral");
  });
  it("allows cancel while active and restart once failed, cancelled or timed out", () => {
    expect(canCancel("queued")).toBe(true);
    expect(canCancel("succeeded")).toBe(false);
    expect(canRestart("cancelled")).toBe(true);
    expect(canRestart("timed_out")).toBe(true);
    expect(canRestart("succeeded")).toBe(false);
    expect(canRestart("running")).toBe(false);
  });
  it("refreshes a list only while one of its jobs is active", () => {
    expect(listRefetchInterval(["succeeded", "running"])).toBe(3000);
    expect(listRefetchInterval(["succeeded", "failed"])).toBe(false);
    expect(listRefetchInterval(undefined)).toBe(false);
  });
  it("recognises states", () => {
    expect(isJobState("queued")).toBe(true);
    expect(isJobState("paused")).toBe(false);
  });
});
