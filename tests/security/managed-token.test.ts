/**
 * A managed job's upload token belongs to the program the service runs (the worker mints it
 * itself): its owner cannot mint one and upload a checkpoint the worker would later load. External
 * jobs (the owner's own hardware) keep their stream-token route.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { tempBlobDir } from "../api/projects.fixtures";
import { call, signUpWithKey, startTestApp, type TestApp } from "../helpers";

tempBlobDir();
let app: TestApp;

beforeAll(async () => {
  app = await startTestApp();
});

async function job(key: string, runtime?: string) {
  const project = await call(app, "POST", "/api/v1/projects", {
    key,
    body: { name: "Token test", template: "mlp-classifier" },
  });
  expect(project.status, project.text).toBe(201);
  const r = await call(app, "POST", "/api/v1/training/jobs", {
    key,
    body: { project_id: project.json.id, dataset_id: "builtin-iris", ...(runtime ? { runtime } : {}) },
  });
  expect(r.status, r.text).toBe(201);
  return r.json as { id: string; runtime: string };
}

describe("upload tokens of managed jobs", () => {
  it("refuses to mint one for a managed job (pytorch, tfjs, auto) with a 409 problem", async () => {
    const { key } = await signUpWithKey(app);
    for (const runtime of ["pytorch", "tfjs", undefined]) {
      const j = await job(key, runtime);
      const r = await call(app, "POST", `/api/v1/training/jobs/${j.id}/stream-token`, { key });
      expect(r.status, `${runtime}: ${r.text}`).toBe(409);
      expect(r.res.headers.get("content-type")).toContain("application/problem+json");
      expect(r.json.type).toMatch(/conflict$/);
      expect(r.json.detail).toMatch(/managed/i);
      expect(r.json.token).toBeUndefined();
    }
  });

  it("still mints one for an external job", async () => {
    const { key } = await signUpWithKey(app);
    const j = await job(key, "external");
    const r = await call(app, "POST", `/api/v1/training/jobs/${j.id}/stream-token`, { key });
    expect(r.status, r.text).toBe(201);
    expect(r.json.token).toMatch(/^lut_/);
  });

  it("documents the refusal in the OpenAPI document", async () => {
    const doc = await call(app, "GET", "/api/v1/openapi.json");
    const op = doc.json.paths["/api/v1/training/jobs/{job_id}/stream-token"].post;
    expect(op.responses["409"]).toBeDefined();
    expect(`${op.summary} ${op.description ?? ""}`).toMatch(/external/i);
    expect(op.description).toMatch(/managed/i);
  });
});
