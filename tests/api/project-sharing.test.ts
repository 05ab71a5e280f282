import { describe, expect, it } from "vitest";
import { getDb } from "@/lib/server/db/client";
import { call, signUpWithKey, startTestApp } from "../helpers";
import { createProject, mlpGraph } from "./projects.fixtures";

const app = await startTestApp();

describe("share links", () => {
  it("shares a project, lets anyone read it, counts accesses, and stops on revoke", async () => {
    const owner = await signUpWithKey(app);
    const p = await createProject(app, owner.key, {
      name: "Shared MLP",
      description: "Look at this",
      graph: mlpGraph(8),
      training_config: { epochs: 12 },
    });

    const created = await call(app, "POST", `/api/v1/projects/${p.id}/share`, { key: owner.key });
    expect(created.status).toBe(201);
    expect(created.json.id).toMatch(/^shr_/);
    expect(created.json.token).toMatch(/^[0-9A-Za-z]{32}$/);
    expect(created.json.url).toBe(`/shared/${created.json.token}`);
    expect(created.json.created_at).toMatch(/Z$/);
    const { token } = created.json;

    const read = await call(app, "GET", `/api/v1/shared/${token}`);
    expect(read.status).toBe(200);
    expect(read.json).toMatchObject({
      name: "Shared MLP",
      description: "Look at this",
      owner: { username: owner.username, display_name: null },
      graph: mlpGraph(8),
      analysis: { total_params: 40, ok: true },
    });
    expect(read.json.training_config.epochs).toBe(12);
    expect(read.json.id).toBeUndefined();
    expect(JSON.stringify(read.json)).not.toContain(owner.user.id);
    expect(JSON.stringify(read.json)).not.toContain(owner.user.email);
    await call(app, "GET", `/api/v1/shared/${token}`);

    const list = await call(app, "GET", `/api/v1/projects/${p.id}/shares`, { key: owner.key });
    expect(list.status).toBe(200);
    expect(list.json).toMatchObject({ total: 1, page: 1, limit: 20, pages: 1 });
    expect(list.json.items[0]).toMatchObject({
      id: created.json.id,
      active: true,
      revoked_at: null,
      access_count: 2,
    });
    expect(list.json.items[0].last_accessed_at).toMatch(/Z$/);
    expect(JSON.stringify(list.json)).not.toContain(token);

    const revoke = await call(app, "DELETE", `/api/v1/projects/${p.id}/shares/${created.json.id}`, {
      key: owner.key,
    });
    expect(revoke.status).toBe(204);
    const after = await call(app, "GET", `/api/v1/shared/${token}`);
    expect(after.status).toBe(404);
    expect(after.res.headers.get("content-type")).toBe("application/problem+json");
    const again = await call(app, "DELETE", `/api/v1/projects/${p.id}/shares/${created.json.id}`, {
      key: owner.key,
    });
    expect(again.status).toBe(404);

    const listed = await call(app, "GET", `/api/v1/projects/${p.id}/shares`, { key: owner.key });
    expect(listed.json.items[0]).toMatchObject({ active: false, access_count: 2 });
    expect(listed.json.items[0].revoked_at).toMatch(/Z$/);
  });

  it("stores only a hash of the token", async () => {
    const { key } = await signUpWithKey(app);
    const p = await createProject(app, key);
    const { token } = (await call(app, "POST", `/api/v1/projects/${p.id}/share`, { key })).json;
    const { projectShares } = await import("@/lib/server/db/schema");
    const rows = await (await getDb()).select().from(projectShares);
    expect(rows.some((r) => JSON.stringify(r).includes(token))).toBe(false);
  });

  it("keeps several links apart: revoking one leaves the others working", async () => {
    const { key } = await signUpWithKey(app);
    const p = await createProject(app, key);
    const one = (await call(app, "POST", `/api/v1/projects/${p.id}/share`, { key })).json;
    const two = (await call(app, "POST", `/api/v1/projects/${p.id}/share`, { key })).json;
    expect(one.token).not.toBe(two.token);
    await call(app, "DELETE", `/api/v1/projects/${p.id}/shares/${one.id}`, { key });
    expect((await call(app, "GET", `/api/v1/shared/${one.token}`)).status).toBe(404);
    expect((await call(app, "GET", `/api/v1/shared/${two.token}`)).status).toBe(200);
    const list = await call(app, "GET", `/api/v1/projects/${p.id}/shares?limit=1`, { key });
    expect(list.json).toMatchObject({ total: 2, pages: 2 });
  });

  it("shows the current state of the project, and nothing once it is deleted", async () => {
    const { key } = await signUpWithKey(app);
    const p = await createProject(app, key, { name: "Before" });
    const { token } = (await call(app, "POST", `/api/v1/projects/${p.id}/share`, { key })).json;
    await call(app, "PUT", `/api/v1/projects/${p.id}`, { key, body: { name: "After" } });
    expect((await call(app, "GET", `/api/v1/shared/${token}`)).json.name).toBe("After");
    await call(app, "DELETE", `/api/v1/projects/${p.id}`, { key });
    expect((await call(app, "GET", `/api/v1/shared/${token}`)).status).toBe(404);
  });

  it("answers 404 for unknown tokens, with or without a credential", async () => {
    const { key } = await signUpWithKey(app);
    expect((await call(app, "GET", "/api/v1/shared/doesnotexist")).status).toBe(404);
    expect((await call(app, "GET", `/api/v1/shared/${"A".repeat(32)}`, { key })).status).toBe(404);
    expect((await call(app, "POST", `/api/v1/shared/${"A".repeat(32)}/import`, { key })).status).toBe(404);
  });

  it("never lets another user create, list or revoke a project's links (404)", async () => {
    const a = await signUpWithKey(app);
    const b = await signUpWithKey(app);
    const p = await createProject(app, a.key);
    const share = (await call(app, "POST", `/api/v1/projects/${p.id}/share`, { key: a.key })).json;
    expect((await call(app, "POST", `/api/v1/projects/${p.id}/share`, { key: b.key })).status).toBe(404);
    expect((await call(app, "GET", `/api/v1/projects/${p.id}/shares`, { key: b.key })).status).toBe(404);
    // Even through a project of their own.
    const theirs = await createProject(app, b.key);
    const cross = await call(app, "DELETE", `/api/v1/projects/${theirs.id}/shares/${share.id}`, {
      key: b.key,
    });
    expect(cross.status).toBe(404);
    expect(
      (await call(app, "DELETE", `/api/v1/projects/${p.id}/shares/${share.id}`, { key: b.key })).status,
    ).toBe(404);
    expect((await call(app, "GET", `/api/v1/shared/${share.token}`)).status).toBe(200);
    expect((await call(app, "POST", `/api/v1/projects/${p.id}/share`)).status).toBe(401);
  });
});

describe("importing a shared project", () => {
  it("copies the graph and configuration into a new project of the caller", async () => {
    const owner = await signUpWithKey(app);
    const reader = await signUpWithKey(app);
    const p = await createProject(app, owner.key, {
      name: "Original",
      graph: mlpGraph(6),
      training_config: { batch_size: 128 },
    });
    await call(app, "POST", `/api/v1/projects/${p.id}/save`, { key: owner.key });
    const { token } = (await call(app, "POST", `/api/v1/projects/${p.id}/share`, { key: owner.key })).json;

    const anonymous = await call(app, "POST", `/api/v1/shared/${token}/import`);
    expect(anonymous.status).toBe(401);

    const imported = await call(app, "POST", `/api/v1/shared/${token}/import`, { key: reader.key });
    expect(imported.status).toBe(201);
    expect(imported.json.id).not.toBe(p.id);
    expect(imported.json).toMatchObject({ name: "Original", graph: mlpGraph(6), current_version_id: null });
    expect(imported.json.training_config.batch_size).toBe(128);

    const mine = await call(app, "GET", `/api/v1/projects/${imported.json.id}`, { key: reader.key });
    expect(mine.status).toBe(200);
    expect(
      (await call(app, "GET", `/api/v1/projects/${imported.json.id}/versions`, { key: reader.key })).json
        .total,
    ).toBe(0);
    expect((await call(app, "GET", `/api/v1/projects/${imported.json.id}`, { key: owner.key })).status).toBe(
      404,
    );
    expect((await call(app, "GET", "/api/v1/projects", { key: owner.key })).json.total).toBe(1);

    // The copy is independent of the original.
    await call(app, "PUT", `/api/v1/projects/${imported.json.id}`, {
      key: reader.key,
      body: { graph: mlpGraph(2) },
    });
    expect((await call(app, "GET", `/api/v1/projects/${p.id}`, { key: owner.key })).json.graph).toEqual(
      mlpGraph(6),
    );

    const named = await call(app, "POST", `/api/v1/shared/${token}/import`, {
      key: reader.key,
      body: { name: "My fork" },
    });
    expect(named.json.name).toBe("My fork");
    const badName = await call(app, "POST", `/api/v1/shared/${token}/import`, {
      key: reader.key,
      body: { name: "" },
    });
    expect(badName.status).toBe(422);
  });

  it("refuses a revoked link (404)", async () => {
    const owner = await signUpWithKey(app);
    const reader = await signUpWithKey(app);
    const p = await createProject(app, owner.key);
    const share = (await call(app, "POST", `/api/v1/projects/${p.id}/share`, { key: owner.key })).json;
    await call(app, "DELETE", `/api/v1/projects/${p.id}/shares/${share.id}`, { key: owner.key });
    const r = await call(app, "POST", `/api/v1/shared/${share.token}/import`, { key: reader.key });
    expect(r.status).toBe(404);
    expect((await call(app, "GET", "/api/v1/projects", { key: reader.key })).json.total).toBe(0);
  });
});

describe("OpenAPI document", () => {
  it("describes the share routes, the public read without a required credential", async () => {
    const doc = (await call(app, "GET", "/api/v1/openapi.json")).json;
    expect(doc.paths["/api/v1/projects/{project_id}/share"].post.operationId).toBe("createProjectShare");
    expect(doc.paths["/api/v1/projects/{project_id}/shares"].get.operationId).toBe("listProjectShares");
    expect(doc.paths["/api/v1/projects/{project_id}/shares/{share_id}"].delete.operationId).toBe(
      "revokeProjectShare",
    );
    expect(doc.paths["/api/v1/shared/{token}/import"].post.operationId).toBe("importSharedProject");
    const read = doc.paths["/api/v1/shared/{token}"].get;
    expect(read.operationId).toBe("getSharedProject");
    expect(read.security).toContainEqual({});
  });
});
