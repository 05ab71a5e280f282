/**
 * The OpenAPI document tells the truth about request bodies: every documented request example is
 * sent to the real app (with a personal key, path parameters filled with real or unknown ids) and
 * must pass the server's validation: no 400 or 422, and no 500. A 404 for an example's made-up ids
 * is expected: the body was accepted and the resource looked up. Exclusive fields are stated with
 * `oneOf` (a project starts from a graph, a template, or neither).
 */
import "@/lib/server/app";
import { beforeAll, describe, expect, it } from "vitest";
import { call, signUpWithKey, startTestApp, type TestApp } from "../helpers";
import { tempBlobDir } from "./projects.fixtures";

tempBlobDir();
let app: TestApp;
let key = "";
let projectId = "";

interface Operation {
  requestBody?: { content?: Record<string, { schema?: { $ref?: string }; example?: unknown }> };
}
type Document = {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, Record<string, unknown>> };
};
let doc: Document;

beforeAll(async () => {
  app = await startTestApp();
  ({ key } = await signUpWithKey(app));
  const project = await call(app, "POST", "/api/v1/projects", { key, body: { name: "Example target" } });
  projectId = project.json.id;
  doc = (await call(app, "GET", "/api/v1/openapi.json")).json as Document;
});

function documentedExamples(): { method: string; path: string; example: unknown }[] {
  const out: { method: string; path: string; example: unknown }[] = [];
  for (const [path, ops] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(ops)) {
      const media = op.requestBody?.content?.["application/json"];
      if (!media) continue;
      const ref = media.schema?.$ref?.split("/").pop();
      const schema = ref
        ? doc.components.schemas[ref]
        : (media.schema as Record<string, unknown> | undefined);
      const example = media.example ?? schema?.example;
      if (example !== undefined) out.push({ method: method.toUpperCase(), path, example });
    }
  }
  return out;
}

describe("documented request examples", () => {
  it("are each accepted by the server", async () => {
    const examples = documentedExamples();
    expect(examples.length).toBeGreaterThanOrEqual(12);
    const refused: string[] = [];
    for (const { method, path, example } of examples) {
      const url = path
        .replace("{project_id}", projectId)
        .replace(/\{[a-z_]+\}/g, (p) => (p === "{alias}" ? "champion" : "unknown_id"));
      const r = await call(app, method, url, { key, body: example });
      if (r.status === 400 || r.status === 422 || r.status >= 500)
        refused.push(`${method} ${path} → ${r.status} ${r.text.slice(0, 300)}`);
    }
    expect(refused).toEqual([]);
  });
});

describe("exclusive fields", () => {
  it("says with oneOf that a project starts from a graph, a template, a dataset or nothing, and enforces it", async () => {
    const schema = doc.components.schemas.CreateProjectRequest as { oneOf?: { title: string }[] };
    expect(schema.oneOf?.map((s) => s.title)).toEqual([
      "From a graph",
      "From a template",
      "From a dataset",
      "Empty",
    ]);
    const both = await call(app, "POST", "/api/v1/projects", {
      key,
      body: { name: "Both", template: "mlp-classifier", graph: { nodes: [], edges: [] } },
    });
    expect(both.status).toBe(422);
    expect(both.json.errors[0].message).toContain("either a template or a graph");
  });
});
