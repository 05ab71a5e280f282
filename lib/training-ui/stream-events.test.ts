import { describe, expect, it } from "vitest";
import { isTerminal, parseStreamEvent, resumeUrl } from "./stream-events";

describe("parseStreamEvent", () => {
  it("types each kind's payload with its id", () => {
    expect(
      parseStreamEvent("metric", "7", '{"name":"loss","step":3,"epoch":1,"value":0.5,"timestamp":"t"}'),
    ).toEqual({
      kind: "metric",
      id: 7,
      data: { name: "loss", step: 3, epoch: 1, value: 0.5, timestamp: "t" },
    });
    expect(parseStreamEvent("status", "1", '{"status":"running","at":"t","reason":null}')?.kind).toBe(
      "status",
    );
    expect(parseStreamEvent("progress", "2", '{"epoch":1,"epochs":5,"step":4,"steps":20}')?.data).toEqual({
      epoch: 1,
      epochs: 5,
      step: 4,
      steps: 20,
    });
  });
  it("refuses unknown kinds, bad ids and payloads that do not fit", () => {
    expect(parseStreamEvent("ping", "1", "{}")).toBeNull();
    expect(parseStreamEvent("metric", "x", '{"name":"loss","step":3,"value":1}')).toBeNull();
    expect(parseStreamEvent("metric", "1", "not json")).toBeNull();
    expect(parseStreamEvent("metric", "1", '{"name":"loss"}')).toBeNull();
  });
});

describe("resumeUrl", () => {
  it("adds last_event_id to relative and absolute stream URLs", () => {
    expect(resumeUrl("/api/v1/streaming/training-jobs/j/stream?token=lst_1", 42)).toBe(
      "/api/v1/streaming/training-jobs/j/stream?token=lst_1&last_event_id=42",
    );
    expect(resumeUrl("http://h:3000/s?token=t", 5)).toBe("http://h:3000/s?token=t&last_event_id=5");
    expect(resumeUrl("/s?token=t", null)).toBe("/s?token=t");
  });
  it("knows terminal states", () => {
    expect(isTerminal("running")).toBe(false);
    expect(isTerminal("cancelled")).toBe(true);
  });
});
