/**
 * Public projects: private by default; made public, a project is listed on its owner's profile,
 * read by anyone without a credential, and copied into another user's studio. Private projects and
 * unknown users are 404s.
 */
import "@/lib/server/app";
import { beforeAll, describe, expect, it } from "vitest";
import { call, signUpWithKey, startTestApp, type TestApp } from "../helpers";
import { tempBlobDir } from "./projects.fixtures";

tempBlobDir();
let app: TestApp;

beforeAll(async () => {
  app = await startTestApp();
});

describe("public projects", () => {
  it("lists, reads and imports only the projects their owner made public", async () => {
    const owner = await signUpWithKey(app);
    const other = await signUpWithKey(app);
    const shown = await call(app, "POST", "/api/v1/projects", {
      key: owner.key,
      body: { name: "Shown MLP", template: "mlp-classifier" },
    });
    const hidden = await call(app, "POST", "/api/v1/projects", {
      key: owner.key,
      body: { name: "Hidden", template: "mlp-classifier" },
    });
    expect(shown.json.visibility).toBe("private");

    const base = `/api/v1/users/${owner.username}/projects`;
    expect((await call(app, "GET", base)).json).toMatchObject({ items: [], total: 0 });
    expect((await call(app, "GET", `${base}/${shown.json.id}`)).status).toBe(404);

    const made = await call(app, "PUT", `/api/v1/projects/${shown.json.id}`, {
      key: owner.key,
      body: { visibility: "public" },
    });
    expect(made.status, made.text).toBe(200);
    expect(made.json.visibility).toBe("public");
    const listed = await call(app, "GET", `/api/v1/projects?limit=100`, { key: owner.key });
    expect(listed.json.items.find((p: { id: string }) => p.id === shown.json.id).visibility).toBe("public");

    // Signed out: listed on the profile, readable; the private one is not.
    const list = await call(app, "GET", base);
    expect(list.status, list.text).toBe(200);
    expect(list.json.items.map((p: { id: string }) => p.id)).toEqual([shown.json.id]);
    expect(list.json.items[0]).toMatchObject({ name: "Shown MLP", node_count: shown.json.node_count });
    const read = await call(app, "GET", `${base}/${shown.json.id}`);
    expect(read.status).toBe(200);
    expect(read.json).toMatchObject({ name: "Shown MLP", owner: { username: owner.username } });
    expect(read.json.graph.nodes.length).toBe(shown.json.node_count);
    expect((await call(app, "GET", `${base}/${hidden.json.id}`)).status).toBe(404);
    expect((await call(app, "GET", `/api/v1/users/${other.username}/projects/${shown.json.id}`)).status).toBe(
      404,
    );
    expect((await call(app, "GET", "/api/v1/users/nobody-here/projects")).status).toBe(404);

    // Another user copies it into a new private project of theirs; signed out, import needs a credential.
    expect((await call(app, "POST", `${base}/${shown.json.id}/import`, { body: {} })).status).toBe(401);
    const copy = await call(app, "POST", `${base}/${shown.json.id}/import`, {
      key: other.key,
      body: { name: "My copy" },
    });
    expect(copy.status, copy.text).toBe(201);
    expect(copy.json).toMatchObject({
      name: "My copy",
      visibility: "private",
      node_count: shown.json.node_count,
    });
    expect(
      (await call(app, "POST", `${base}/${hidden.json.id}/import`, { key: other.key, body: {} })).status,
    ).toBe(404);

    // Made private again, it disappears.
    await call(app, "PUT", `/api/v1/projects/${shown.json.id}`, {
      key: owner.key,
      body: { visibility: "private" },
    });
    expect((await call(app, "GET", base)).json.total).toBe(0);
    expect(
      (
        await call(app, "PUT", `/api/v1/projects/${shown.json.id}`, {
          key: owner.key,
          body: { visibility: "everyone" },
        })
      ).status,
    ).toBe(422);
  });
});
