/** The studio's client throws the SDK's error type for every problem the server answers. */
import { describe, expect, it } from "vitest";
import { LayerlineError } from "@/sdk/src/errors";
import { createApiClient } from "./client";

function answering(status: number, body: string, headers: Record<string, string> = {}) {
  return createApiClient({
    baseUrl: "http://layerline.test",
    fetch: async () =>
      new Response(body, { status, headers: { "content-type": "application/problem+json", ...headers } }),
  });
}

describe("createApiClient", () => {
  it("throws a LayerlineError carrying the problem, its field errors and the request id", async () => {
    const problem = {
      type: "https://layerline.dev/problems/validation",
      title: "Invalid request",
      status: 422,
      detail: "The name is too long.",
      errors: [{ path: "body.name", message: "At most 120 characters" }],
    };
    const api = answering(422, JSON.stringify(problem), { "X-Request-ID": "req_1" });
    const failure = await api
      .POST("/api/v1/projects", { body: { name: "x".repeat(500) } })
      .catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(LayerlineError);
    const error = failure as LayerlineError;
    expect(error.status).toBe(422);
    expect(error.message).toBe("The name is too long.");
    expect(error.title).toBe("Invalid request");
    expect(error.fieldError("name")).toBe("At most 120 characters");
    expect(error.problem?.errors).toEqual(problem.errors);
    expect(error.requestId).toBe("req_1");
  });

  it("still throws one when the body is not JSON, with the status in its message", async () => {
    const api = answering(502, "<html>Bad gateway</html>");
    const failure = await api.GET("/api/v1/projects").catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(LayerlineError);
    expect((failure as LayerlineError).status).toBe(502);
    expect((failure as LayerlineError).problem).toBeNull();
    expect((failure as LayerlineError).message).toBe("Request failed with status 502");
  });
});
