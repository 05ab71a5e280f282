import { describe, expect, it } from "vitest";
import { call, signUpWithKey, startTestApp } from "../helpers";
import { createProject, mlpGraph } from "./projects.fixtures";

const app = await startTestApp();

const base = (id: string) => `/api/v1/projects/${id}`;

describe("saving versions", () => {
  it("saves the current state as numbered versions, newest first, without `pages`", async () => {
    const { key, user } = await signUpWithKey(app);
    const p = await createProject(app, key, { graph: mlpGraph(8) });

    const v1 = await call(app, "POST", `${base(p.id)}/save`, { key });
    expect(v1.status).toBe(201);
    expect(v1.json).toMatchObject({
      project_id: p.id,
      number: 1,
      message: null,
      node_count: 3,
      edge_count: 2,
      is_current: true,
      created_by: user.id,
      graph: mlpGraph(8),
    });
    expect(v1.json.id).toMatch(/^ver_/);
    expect(v1.json.training_config.epochs).toBe(10);

    const v2 = await call(app, "POST", `${base(p.id)}/save`, { key, body: { message: "Second" } });
    expect(v2.json).toMatchObject({ number: 2, message: "Second" });

    const project = await call(app, "GET", base(p.id), { key });
    expect(project.json.current_version_id).toBe(v2.json.id);

    const list = await call(app, "GET", `${base(p.id)}/versions`, { key });
    expect(list.status).toBe(200);
    expect(Object.keys(list.json).sort()).toEqual(["items", "limit", "page", "total"]);
    expect(list.json).toMatchObject({ total: 2, page: 1, limit: 20 });
    expect(list.json.items.map((v: { number: number }) => v.number)).toEqual([2, 1]);
    expect(list.json.items.map((v: { is_current: boolean }) => v.is_current)).toEqual([true, false]);
    expect(list.json.items[0].graph).toBeUndefined();

    const page2 = await call(app, "GET", `${base(p.id)}/versions?limit=1&page=2`, { key });
    expect(page2.json).toMatchObject({ total: 2, page: 2, limit: 1 });
    expect(page2.json.items[0].number).toBe(1);
    expect((await call(app, "GET", `${base(p.id)}/versions?limit=101`, { key })).status).toBe(422);

    const one = await call(app, "GET", `${base(p.id)}/versions/${v1.json.id}`, { key });
    expect(one.status).toBe(200);
    expect(one.json).toMatchObject({ id: v1.json.id, number: 1, is_current: false, graph: mlpGraph(8) });

    const latest = await call(app, "GET", `${base(p.id)}/latest`, { key });
    expect(latest.status).toBe(200);
    expect(latest.json).toMatchObject({ id: v2.json.id, number: 2 });
  });

  it("makes a graph and configuration in the body the current state before saving", async () => {
    const { key } = await signUpWithKey(app);
    const p = await createProject(app, key, { graph: mlpGraph(8) });
    const v = await call(app, "POST", `${base(p.id)}/save`, {
      key,
      body: { message: "Wider", graph: mlpGraph(32), training_config: { epochs: 20 } },
    });
    expect(v.status).toBe(201);
    expect(v.json.graph).toEqual(mlpGraph(32));
    expect(v.json.training_config.epochs).toBe(20);
    const project = await call(app, "GET", base(p.id), { key });
    expect(project.json.graph).toEqual(mlpGraph(32));
    expect(project.json.training_config.epochs).toBe(20);

    const bad = await call(app, "POST", `${base(p.id)}/save`, {
      key,
      body: { training_config: { learning_rate: 0 } },
    });
    expect(bad.status).toBe(422);
    expect(bad.json.errors[0].path).toBe("body.training_config.learning_rate");
    const tooLong = await call(app, "POST", `${base(p.id)}/save`, {
      key,
      body: { message: "m".repeat(501) },
    });
    expect(tooLong.status).toBe(422);
    expect((await call(app, "GET", `${base(p.id)}/versions`, { key })).json.total).toBe(1);
  });

  it("numbers concurrent saves consecutively", async () => {
    const { key } = await signUpWithKey(app);
    const p = await createProject(app, key);
    const saves = await Promise.all(
      Array.from({ length: 5 }, (_, i) =>
        call(app, "POST", `${base(p.id)}/save`, { key, body: { message: `s${i}` } }),
      ),
    );
    expect(saves.map((s) => s.status)).toEqual([201, 201, 201, 201, 201]);
    expect(saves.map((s) => s.json.number).sort()).toEqual([1, 2, 3, 4, 5]);
  });

  it("answers 404 for latest when nothing was saved, and for unknown versions", async () => {
    const { key } = await signUpWithKey(app);
    const p = await createProject(app, key);
    const other = await createProject(app, key);
    const latest = await call(app, "GET", `${base(p.id)}/latest`, { key });
    expect(latest.status).toBe(404);
    expect(latest.res.headers.get("content-type")).toBe("application/problem+json");
    expect((await call(app, "GET", `${base(p.id)}/versions/ver_nope`, { key })).status).toBe(404);
    // A version of another project of the same user is not found under this one.
    const v = await call(app, "POST", `${base(other.id)}/save`, { key });
    expect((await call(app, "GET", `${base(p.id)}/versions/${v.json.id}`, { key })).status).toBe(404);
    expect((await call(app, "POST", `${base(p.id)}/restore/${v.json.id}`, { key })).status).toBe(404);
    expect((await call(app, "DELETE", `${base(p.id)}/versions/${v.json.id}`, { key })).status).toBe(404);
    expect((await call(app, "POST", `${base("prj_nope")}/save`, { key })).status).toBe(404);
  });
});

describe("compare and restore", () => {
  it("saves two versions, compares them, and restores the first as a new version", async () => {
    const { key } = await signUpWithKey(app);
    const p = await createProject(app, key, { graph: mlpGraph(8) });
    const v1 = (await call(app, "POST", `${base(p.id)}/save`, { key, body: { message: "narrow" } })).json;

    const wider = mlpGraph(64);
    wider.nodes.push({
      id: "drop",
      type: "Dropout",
      params: { p: 0.5 },
      position: { x: 200, y: 110 },
    } as never);
    wider.nodes[0].position = { x: 50, y: 0 }; // moved only
    const v2 = (
      await call(app, "POST", `${base(p.id)}/save`, {
        key,
        body: { message: "wide", graph: wider, training_config: { epochs: 25, optimizer: "sgd" } },
      })
    ).json;

    const cmp = await call(app, "GET", `${base(p.id)}/versions/compare?from=${v1.id}&to=${v2.id}`, { key });
    expect(cmp.status).toBe(200);
    expect(cmp.json.from).toMatchObject({ id: v1.id, number: 1 });
    expect(cmp.json.to).toMatchObject({ id: v2.id, number: 2 });
    expect(cmp.json.has_changes).toBe(true);
    expect(cmp.json.nodes.added.map((n: { id: string }) => n.id)).toEqual(["drop"]);
    expect(cmp.json.nodes.removed).toEqual([]);
    const changedIds = cmp.json.nodes.changed.map((c: { id: string }) => c.id).sort();
    expect(changedIds).toEqual(["hidden", "out"]);
    const hidden = cmp.json.nodes.changed.find((c: { id: string }) => c.id === "hidden");
    expect(hidden).toMatchObject({ type_changed: false, label_changed: false });
    expect(hidden.params).toEqual([{ param: "units", before: 8, after: 64 }]);
    expect(cmp.json.nodes.moved).toEqual(["in"]);
    expect(cmp.json.edges).toEqual({ added: [], removed: [] });
    expect(cmp.json.config).toEqual(
      expect.arrayContaining([
        { field: "epochs", before: 10, after: 25 },
        { field: "optimizer", before: "adam", after: "sgd" },
      ]),
    );
    expect(cmp.json.config).toHaveLength(2);

    const same = await call(app, "GET", `${base(p.id)}/versions/compare?from=${v1.id}&to=${v1.id}`, { key });
    expect(same.json.has_changes).toBe(false);

    const restored = await call(app, "POST", `${base(p.id)}/restore/${v1.id}`, { key });
    expect(restored.status).toBe(201);
    expect(restored.json.version).toMatchObject({
      number: 3,
      message: "Restored version 1",
      is_current: true,
    });
    expect(restored.json.version.graph).toEqual(mlpGraph(8));
    expect(restored.json.project).toMatchObject({
      id: p.id,
      graph: mlpGraph(8),
      current_version_id: restored.json.version.id,
    });
    expect(restored.json.project.training_config.epochs).toBe(10);

    const project = await call(app, "GET", base(p.id), { key });
    expect(project.json.graph).toEqual(mlpGraph(8));
    const list = await call(app, "GET", `${base(p.id)}/versions`, { key });
    expect(list.json.items.map((v: { number: number; message: string }) => [v.number, v.message])).toEqual([
      [3, "Restored version 1"],
      [2, "wide"],
      [1, "narrow"],
    ]);
  });

  it("needs both `from` and `to` (422) and known versions (404)", async () => {
    const { key } = await signUpWithKey(app);
    const p = await createProject(app, key);
    const v = (await call(app, "POST", `${base(p.id)}/save`, { key })).json;
    const noTo = await call(app, "GET", `${base(p.id)}/versions/compare?from=${v.id}`, { key });
    expect(noTo.status).toBe(422);
    expect(noTo.json.errors.map((e: { path: string }) => e.path)).toEqual(["query.to"]);
    const neither = await call(app, "GET", `${base(p.id)}/versions/compare`, { key });
    expect(neither.status).toBe(422);
    expect(neither.json.errors).toHaveLength(2);
    const unknown = await call(app, "GET", `${base(p.id)}/versions/compare?from=${v.id}&to=ver_nope`, {
      key,
    });
    expect(unknown.status).toBe(404);
    expect((await call(app, "POST", `${base(p.id)}/restore/ver_nope`, { key })).status).toBe(404);
  });
});

describe("deleting versions", () => {
  it("deletes the latest version, keeps the current state, and never reuses its number", async () => {
    const { key } = await signUpWithKey(app);
    const p = await createProject(app, key, { graph: mlpGraph(8) });
    const v1 = (await call(app, "POST", `${base(p.id)}/save`, { key })).json;
    const v2 = (await call(app, "POST", `${base(p.id)}/save`, { key, body: { graph: mlpGraph(16) } })).json;

    const del = await call(app, "DELETE", `${base(p.id)}/versions/${v2.id}`, { key });
    expect(del.status).toBe(204);
    expect((await call(app, "DELETE", `${base(p.id)}/versions/${v2.id}`, { key })).status).toBe(404);
    expect((await call(app, "GET", `${base(p.id)}/versions/${v2.id}`, { key })).status).toBe(404);

    const project = await call(app, "GET", base(p.id), { key });
    expect(project.json.graph).toEqual(mlpGraph(16));
    expect(project.json.current_version_id).toBeNull();
    const latest = await call(app, "GET", `${base(p.id)}/latest`, { key });
    expect(latest.json).toMatchObject({ id: v1.id, number: 1 });

    const v3 = await call(app, "POST", `${base(p.id)}/save`, { key });
    expect(v3.json.number).toBe(3);

    await call(app, "DELETE", `${base(p.id)}/versions/${v1.id}`, { key });
    await call(app, "DELETE", `${base(p.id)}/versions/${v3.json.id}`, { key });
    expect((await call(app, "GET", `${base(p.id)}/latest`, { key })).status).toBe(404);
    expect((await call(app, "GET", base(p.id), { key })).json.graph).toEqual(mlpGraph(16));
  });
});

describe("other users' projects", () => {
  it("answers 404 on every version route", async () => {
    const a = await signUpWithKey(app);
    const b = await signUpWithKey(app);
    const p = await createProject(app, a.key, { graph: mlpGraph(8) });
    const v = (await call(app, "POST", `${base(p.id)}/save`, { key: a.key })).json;
    const attempts: [string, string][] = [
      ["POST", `${base(p.id)}/save`],
      ["GET", `${base(p.id)}/versions`],
      ["GET", `${base(p.id)}/versions/${v.id}`],
      ["GET", `${base(p.id)}/versions/compare?from=${v.id}&to=${v.id}`],
      ["POST", `${base(p.id)}/restore/${v.id}`],
      ["DELETE", `${base(p.id)}/versions/${v.id}`],
      ["GET", `${base(p.id)}/latest`],
    ];
    for (const [method, path] of attempts) {
      const r = await call(app, method, path, { key: b.key });
      expect(r.status, `${method} ${path}`).toBe(404);
    }
    const list = await call(app, "GET", `${base(p.id)}/versions`, { key: a.key });
    expect(list.json.total).toBe(1);
    const anonymous = await call(app, "GET", `${base(p.id)}/versions`);
    expect(anonymous.status).toBe(401);
  });
});

describe("OpenAPI document", () => {
  it("describes the version routes", async () => {
    const doc = (await call(app, "GET", "/api/v1/openapi.json")).json;
    const ops: Record<string, [string, string]> = {
      saveProjectVersion: ["/api/v1/projects/{project_id}/save", "post"],
      listProjectVersions: ["/api/v1/projects/{project_id}/versions", "get"],
      compareProjectVersions: ["/api/v1/projects/{project_id}/versions/compare", "get"],
      getProjectVersion: ["/api/v1/projects/{project_id}/versions/{version_id}", "get"],
      restoreProjectVersion: ["/api/v1/projects/{project_id}/restore/{version_id}", "post"],
      deleteProjectVersion: ["/api/v1/projects/{project_id}/versions/{version_id}", "delete"],
      getLatestProjectVersion: ["/api/v1/projects/{project_id}/latest", "get"],
    };
    for (const [id, [path, method]] of Object.entries(ops))
      expect(doc.paths[path][method].operationId).toBe(id);
    expect(doc.components.schemas.ProjectVersionPage.properties.pages).toBeUndefined();
  });
});
