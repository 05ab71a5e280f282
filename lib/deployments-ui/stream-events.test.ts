import { describe, expect, it } from "vitest";
import { parseDeploymentEvent } from "./stream-events";

describe("parseDeploymentEvent", () => {
  it("types the events it knows", () => {
    expect(
      parseDeploymentEvent(
        "request",
        "7",
        '{"at":"2026-01-01T00:00:00Z","route":"predict","status":200,"latency_ms":1.5}',
      ),
    ).toEqual({
      kind: "request",
      id: 7,
      data: { at: "2026-01-01T00:00:00Z", route: "predict", status: 200, latency_ms: 1.5 },
    });
    // A sampled line keeps the calls it stands for.
    expect(
      parseDeploymentEvent(
        "request",
        "7",
        '{"at":"2026-01-01T00:00:00Z","route":"predict","status":200,"latency_ms":1.5,"weight":12}',
      )?.data,
    ).toMatchObject({ weight: 12 });
    expect(parseDeploymentEvent("status", "8", '{"state":"paused","previous":"ready"}')?.kind).toBe("status");
    expect(parseDeploymentEvent("revision", "9", '{"number":2,"job_id":"job_1"}')?.data).toMatchObject({
      number: 2,
      job_id: "job_1",
    });
  });
  it("drops unknown kinds, bad ids, bad JSON and payloads of the wrong shape", () => {
    expect(parseDeploymentEvent("ping", "1", "{}")).toBeNull();
    expect(parseDeploymentEvent("status", "x", '{"state":"ready"}')).toBeNull();
    expect(parseDeploymentEvent("status", "1", "{")).toBeNull();
    expect(parseDeploymentEvent("request", "1", '{"status":"ok"}')).toBeNull();
  });
});
