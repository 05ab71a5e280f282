import { describe, expect, it } from "vitest";
import { call, signUp, signUpWithKey, startTestApp } from "../helpers";
import {
  createProject,
  fileForm,
  invalidDag,
  mlpGraph,
  tempBlobDir,
  tinyPng,
  validDag,
} from "./projects.fixtures";

tempBlobDir();
const app = await startTestApp();

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

describe("create and read projects", () => {
  it("creates an empty project with the default configuration", async () => {
    const { key } = await signUpWithKey(app);
    const r = await call(app, "POST", "/api/v1/projects", { key, body: { name: "  First model  " } });
    expect(r.status).toBe(201);
    expect(r.json).toMatchObject({
      name: "First model",
      description: "",
      node_count: 0,
      current_version_id: null,
      thumbnail_url: null,
      graph: { nodes: [], edges: [] },
      training_config: { epochs: 10, batch_size: 32, learning_rate: 0.001, optimizer: "adam" },
    });
    expect(r.json.id).toMatch(/^prj_/);
    expect(r.json.created_at).toMatch(ISO);
    expect(r.json.updated_at).toMatch(ISO);
    expect(r.json.analysis).toMatchObject({ total_params: 0 });
    expect(typeof r.json.analysis.issue_count).toBe("number");
  });

  it("creates from a graph and configuration, or from a template", async () => {
    const { key } = await signUpWithKey(app);
    const fromGraph = await call(app, "POST", "/api/v1/projects", {
      key,
      body: {
        name: "Iris",
        description: "MLP",
        graph: mlpGraph(8),
        training_config: { epochs: 1000, learning_rate: 1 },
      },
    });
    expect(fromGraph.status).toBe(201);
    expect(fromGraph.json.node_count).toBe(3);
    expect(fromGraph.json.training_config).toMatchObject({ epochs: 1000, learning_rate: 1, batch_size: 32 });
    // Dense(4→8): 4×8 weights + 8 biases; Input and Output have none.
    expect(fromGraph.json.analysis).toMatchObject({ ok: true, total_params: 40, error_count: 0 });

    const fromTemplate = await call(app, "POST", "/api/v1/projects", {
      key,
      body: { name: "LeNet", template: "cnn-image" },
    });
    expect(fromTemplate.status).toBe(201);
    expect(fromTemplate.json.graph.nodes.map((n: { id: string }) => n.id)).toContain("conv1");
    expect(fromTemplate.json.training_config.batch_size).toBe(64);
    expect(fromTemplate.json.analysis.total_params).toBeGreaterThan(1000);

    const list = await call(app, "GET", "/api/v1/projects?sort=name", { key });
    expect(list.json.items.map((p: { node_count: number }) => p.node_count)).toEqual([3, 10]);
  });

  it("refuses invalid names, configurations, graphs and templates with per-field 422s", async () => {
    const { key } = await signUpWithKey(app);
    const cases: [Record<string, unknown>, string][] = [
      [{}, "body.name"],
      [{ name: "   " }, "body.name"],
      [{ name: "x".repeat(121) }, "body.name"],
      [{ name: "a", training_config: { epochs: 0 } }, "body.training_config.epochs"],
      [{ name: "a", training_config: { epochs: 1001 } }, "body.training_config.epochs"],
      [{ name: "a", training_config: { epochs: 2.5 } }, "body.training_config.epochs"],
      [{ name: "a", training_config: { batch_size: 0 } }, "body.training_config.batch_size"],
      [{ name: "a", training_config: { batch_size: 1025 } }, "body.training_config.batch_size"],
      [{ name: "a", training_config: { learning_rate: 0 } }, "body.training_config.learning_rate"],
      [{ name: "a", training_config: { learning_rate: 1.0001 } }, "body.training_config.learning_rate"],
      [{ name: "a", training_config: { epoch: 3 } }, "body.training_config"],
      [{ name: "a", template: "no-such-template" }, "body.template"],
      [{ name: "a", template: "cnn-image", graph: mlpGraph() }, "body.template"],
      [
        { name: "a", graph: { nodes: [{ id: "n1", params: {}, position: { x: 0, y: 0 } }], edges: [] } },
        "body.graph.nodes.0.type",
      ],
      [{ name: "a", graph: { nodes: [] } }, "body.graph.edges"],
    ];
    for (const [body, path] of cases) {
      const r = await call(app, "POST", "/api/v1/projects", { key, body });
      expect(r.status, JSON.stringify(body)).toBe(422);
      expect(r.res.headers.get("content-type")).toBe("application/problem+json");
      expect(r.json.errors.map((e: { path: string }) => e.path)).toContain(path);
    }
    const several = await call(app, "POST", "/api/v1/projects", {
      key,
      body: { name: "a", training_config: { epochs: 0, batch_size: 2000, learning_rate: 2 } },
    });
    expect(several.json.errors.map((e: { path: string }) => e.path).sort()).toEqual([
      "body.training_config.batch_size",
      "body.training_config.epochs",
      "body.training_config.learning_rate",
    ]);
  });

  it("answers 400 for a malformed body and 401 without a credential", async () => {
    const { key } = await signUpWithKey(app);
    const malformed = await call(app, "POST", "/api/v1/projects", {
      key,
      rawBody: "{nope",
      headers: { "Content-Type": "application/json" },
    });
    expect(malformed.status).toBe(400);
    const anonymous = await call(app, "POST", "/api/v1/projects", { body: { name: "x" } });
    expect(anonymous.status).toBe(401);
    const anonymousList = await call(app, "GET", "/api/v1/projects");
    expect(anonymousList.status).toBe(401);
  });

  it("works with a web session as well as a personal key", async () => {
    const { cookie } = await signUp(app);
    const created = await call(app, "POST", "/api/v1/projects", {
      cookie,
      body: { name: "From the studio" },
    });
    expect(created.status).toBe(201);
    const got = await call(app, "GET", `/api/v1/projects/${created.json.id}`, { cookie });
    expect(got.status).toBe(200);
  });

  it("gets a project with its graph, configuration and analysis; 404 for unknown and other users' projects", async () => {
    const a = await signUpWithKey(app);
    const b = await signUpWithKey(app);
    const p = await createProject(app, a.key, { graph: mlpGraph(4) });
    const got = await call(app, "GET", `/api/v1/projects/${p.id}`, { key: a.key });
    expect(got.status).toBe(200);
    expect(got.json.graph).toEqual(mlpGraph(4));
    expect(got.json.analysis.total_params).toBe(20);
    const other = await call(app, "GET", `/api/v1/projects/${p.id}`, { key: b.key });
    expect(other.status).toBe(404);
    expect(other.json).toMatchObject({ status: 404, title: "Not found" });
    const unknown = await call(app, "GET", "/api/v1/projects/prj_doesnotexist", { key: a.key });
    expect(unknown.status).toBe(404);
  });
});

describe("list projects", () => {
  it("pages, searches and sorts the caller's projects only", async () => {
    const { key } = await signUpWithKey(app);
    const other = await signUpWithKey(app);
    await createProject(app, other.key, { name: "Alpha of someone else" });
    for (const name of ["Charlie", "alpha", "Bravo", "Alpha 2", "delta_x"])
      await createProject(app, key, { name });

    const all = await call(app, "GET", "/api/v1/projects", { key });
    expect(all.status).toBe(200);
    expect(all.json).toMatchObject({ total: 5, page: 1, limit: 20, pages: 1 });
    expect(all.json.items.map((p: { name: string }) => p.name)).toEqual([
      "delta_x",
      "Alpha 2",
      "Bravo",
      "alpha",
      "Charlie",
    ]);
    expect(all.json.items[0].graph).toBeUndefined();
    expect(all.json.items[0]).toMatchObject({ node_count: 0, thumbnail_url: null });

    const paged = await call(app, "GET", "/api/v1/projects?limit=2&page=3", { key });
    expect(paged.json).toMatchObject({ total: 5, page: 3, limit: 2, pages: 3 });
    expect(paged.json.items).toHaveLength(1);
    const beyond = await call(app, "GET", "/api/v1/projects?limit=2&page=9", { key });
    expect(beyond.json.items).toEqual([]);

    const search = await call(app, "GET", "/api/v1/projects?q=ALPHA&sort=name", { key });
    expect(search.json.items.map((p: { name: string }) => p.name).sort()).toEqual(["Alpha 2", "alpha"]);
    expect(search.json.total).toBe(2);
    // LIKE wildcards are taken literally.
    const literal = await call(app, "GET", "/api/v1/projects?q=_", { key });
    expect(literal.json.items.map((p: { name: string }) => p.name)).toEqual(["delta_x"]);

    const byName = await call(app, "GET", "/api/v1/projects?sort=name", { key });
    expect(byName.json.items).toHaveLength(5);
    const names = byName.json.items.map((p: { name: string }) => p.name);
    const desc = await call(app, "GET", "/api/v1/projects?sort=name&order=desc", { key });
    expect(desc.json.items.map((p: { name: string }) => p.name)).toEqual([...names].reverse());
    const oldest = await call(app, "GET", "/api/v1/projects?sort=created_at&order=asc&limit=1", { key });
    expect(oldest.json.items[0].name).toBe("Charlie");
  });

  it("refuses out-of-range paging and unknown sort keys with 422", async () => {
    const { key } = await signUpWithKey(app);
    for (const qs of ["page=0", "limit=0", "limit=101", "sort=size", "order=up", "page=abc"]) {
      const r = await call(app, "GET", `/api/v1/projects?${qs}`, { key });
      expect(r.status, qs).toBe(422);
    }
  });
});

describe("update and delete projects", () => {
  it("updates name, description, graph and configuration without recording a version", async () => {
    const { key } = await signUpWithKey(app);
    const p = await createProject(app, key);
    await new Promise((r) => setTimeout(r, 5));
    const r = await call(app, "PUT", `/api/v1/projects/${p.id}`, {
      key,
      body: {
        name: "Renamed",
        description: "Now with a graph",
        graph: mlpGraph(3),
        training_config: { epochs: 3 },
      },
    });
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({ name: "Renamed", description: "Now with a graph", node_count: 3 });
    expect(r.json.training_config).toMatchObject({ epochs: 3, batch_size: 32 });
    expect(r.json.updated_at > (p.updated_at as string)).toBe(true);
    expect(r.json.current_version_id).toBeNull();

    const partial = await call(app, "PUT", `/api/v1/projects/${p.id}`, { key, body: { description: "" } });
    expect(partial.json).toMatchObject({ name: "Renamed", description: "", node_count: 3 });

    const versions = await call(app, "GET", `/api/v1/projects/${p.id}/versions`, { key });
    expect(versions.json.total).toBe(0);

    const bad = await call(app, "PUT", `/api/v1/projects/${p.id}`, {
      key,
      body: { training_config: { batch_size: 4096 } },
    });
    expect(bad.status).toBe(422);
    expect(bad.json.errors[0].path).toBe("body.training_config.batch_size");
    const badName = await call(app, "PUT", `/api/v1/projects/${p.id}`, { key, body: { name: "" } });
    expect(badName.status).toBe(422);
  });

  it("never updates or deletes another user's project (404)", async () => {
    const a = await signUpWithKey(app);
    const b = await signUpWithKey(app);
    const p = await createProject(app, a.key, { name: "Mine" });
    const put = await call(app, "PUT", `/api/v1/projects/${p.id}`, { key: b.key, body: { name: "Stolen" } });
    expect(put.status).toBe(404);
    const del = await call(app, "DELETE", `/api/v1/projects/${p.id}`, { key: b.key });
    expect(del.status).toBe(404);
    const still = await call(app, "GET", `/api/v1/projects/${p.id}`, { key: a.key });
    expect(still.json.name).toBe("Mine");
  });

  it("deletes a project (204), then answers 404", async () => {
    const { key } = await signUpWithKey(app);
    const p = await createProject(app, key);
    await call(app, "POST", `/api/v1/projects/${p.id}/save`, { key, body: { message: "v1" } });
    await call(app, "POST", `/api/v1/projects/${p.id}/share`, { key });
    const del = await call(app, "DELETE", `/api/v1/projects/${p.id}`, { key });
    expect(del.status).toBe(204);
    expect(del.text).toBe("");
    expect((await call(app, "GET", `/api/v1/projects/${p.id}`, { key })).status).toBe(404);
    expect((await call(app, "DELETE", `/api/v1/projects/${p.id}`, { key })).status).toBe(404);
  });

  it("duplicates graph and configuration, but not versions or shares", async () => {
    const a = await signUpWithKey(app);
    const b = await signUpWithKey(app);
    const p = await createProject(app, a.key, {
      name: "Base",
      description: "d",
      graph: mlpGraph(5),
      training_config: { epochs: 9 },
    });
    await call(app, "POST", `/api/v1/projects/${p.id}/save`, { key: a.key });
    await call(app, "POST", `/api/v1/projects/${p.id}/share`, { key: a.key });

    const copy = await call(app, "POST", `/api/v1/projects/${p.id}/duplicate`, { key: a.key });
    expect(copy.status).toBe(201);
    expect(copy.json.id).not.toBe(p.id);
    expect(copy.json).toMatchObject({
      name: "Base (copy)",
      description: "d",
      graph: mlpGraph(5),
      current_version_id: null,
    });
    expect(copy.json.training_config.epochs).toBe(9);
    const versions = await call(app, "GET", `/api/v1/projects/${copy.json.id}/versions`, { key: a.key });
    expect(versions.json.total).toBe(0);
    const shares = await call(app, "GET", `/api/v1/projects/${copy.json.id}/shares`, { key: a.key });
    expect(shares.json.total).toBe(0);

    const named = await call(app, "POST", `/api/v1/projects/${p.id}/duplicate`, {
      key: a.key,
      body: { name: "Fork" },
    });
    expect(named.json.name).toBe("Fork");
    const long = await createProject(app, a.key, { name: "n".repeat(120) });
    const longCopy = await call(app, "POST", `/api/v1/projects/${long.id}/duplicate`, { key: a.key });
    expect(longCopy.json.name).toHaveLength(120);
    expect(longCopy.json.name.endsWith(" (copy)")).toBe(true);

    const cross = await call(app, "POST", `/api/v1/projects/${p.id}/duplicate`, { key: b.key });
    expect(cross.status).toBe(404);
  });

  it("bulk-deletes and reports each id that could not be deleted", async () => {
    const a = await signUpWithKey(app);
    const b = await signUpWithKey(app);
    const p1 = await createProject(app, a.key);
    const p2 = await createProject(app, a.key);
    const keep = await createProject(app, a.key);
    const theirs = await createProject(app, b.key);
    const r = await call(app, "POST", "/api/v1/projects/bulk-delete", {
      key: a.key,
      body: { ids: [p1.id, theirs.id, p2.id, "prj_missing", p1.id] },
    });
    expect(r.status).toBe(200);
    expect(r.json.deleted.sort()).toEqual([p1.id, p2.id].sort());
    expect(r.json.failed).toEqual([
      { id: theirs.id, status: 404, detail: expect.any(String) },
      { id: "prj_missing", status: 404, detail: expect.any(String) },
    ]);
    expect((await call(app, "GET", `/api/v1/projects/${theirs.id}`, { key: b.key })).status).toBe(200);
    const left = await call(app, "GET", "/api/v1/projects", { key: a.key });
    expect(left.json.items.map((p: { id: string }) => p.id)).toEqual([keep.id]);

    const none = await call(app, "POST", "/api/v1/projects/bulk-delete", { key: a.key, body: { ids: [] } });
    expect(none.status).toBe(422);
    const tooMany = Array.from({ length: 101 }, (_, i) => `prj_${i}`);
    const over = await call(app, "POST", "/api/v1/projects/bulk-delete", {
      key: a.key,
      body: { ids: tooMany },
    });
    expect(over.status).toBe(422);
    const hundred = await call(app, "POST", "/api/v1/projects/bulk-delete", {
      key: a.key,
      body: { ids: tooMany.slice(0, 100) },
    });
    expect(hundred.status).toBe(200);
    expect(hundred.json.failed).toHaveLength(100);
  });
});

describe("DAG import", () => {
  it("creates a project from a DAG sent as JSON", async () => {
    const { key } = await signUpWithKey(app);
    const r = await call(app, "POST", "/api/v1/projects/import-dag", { key, body: validDag("Imported MLP") });
    expect(r.status).toBe(201);
    expect(r.json).toMatchObject({ name: "Imported MLP", node_count: 3 });
    expect(r.json.training_config).toMatchObject({ epochs: 7, batch_size: 8, learning_rate: 0.05 });
    expect(r.json.graph.nodes[1]).toMatchObject({ id: "hidden", type: "Dense", params: { units: 16 } });
  });

  it("creates a project from a DAG file uploaded as multipart", async () => {
    const { key } = await signUpWithKey(app);
    const text = JSON.stringify(validDag());
    const r = await call(app, "POST", "/api/v1/projects/import-dag", {
      key,
      rawBody: fileForm(text, "my-network.dag.json", "application/json"),
    });
    expect(r.status).toBe(201);
    expect(r.json.name).toBe("my-network.dag");
    expect(r.json.node_count).toBe(3);
    const named = await call(app, "POST", "/api/v1/projects/import-dag", {
      key,
      rawBody: fileForm(text, "x.json", "application/octet-stream", { name: "Chosen name" }),
    });
    expect(named.json.name).toBe("Chosen name");
  });

  it("reports each problem of a bad DAG with its path (422), as JSON and as a file", async () => {
    const { key } = await signUpWithKey(app);
    const asJson = await call(app, "POST", "/api/v1/projects/import-dag", { key, body: invalidDag() });
    expect(asJson.status).toBe(422);
    const paths = asJson.json.errors.map((e: { path: string }) => e.path);
    expect(paths).toEqual(
      expect.arrayContaining(["graph.nodes[1].params.out_channels", "graph.nodes[2].type"]),
    );
    expect(
      asJson.json.errors.find((e: { path: string }) => e.path === "graph.nodes[2].type").message,
    ).toMatch(/Danse/);

    const asFile = await call(app, "POST", "/api/v1/projects/import-dag", {
      key,
      rawBody: fileForm(JSON.stringify(invalidDag()), "bad.json", "application/json"),
    });
    expect(asFile.status).toBe(422);
    expect(asFile.json.errors.map((e: { path: string }) => e.path)).toContain(
      "graph.nodes[1].params.out_channels",
    );

    const notJson = await call(app, "POST", "/api/v1/projects/import-dag", {
      key,
      rawBody: fileForm("this is not json", "bad.json", "application/json"),
    });
    expect(notJson.status).toBe(422);
    expect(notJson.json.errors[0].message).toMatch(/Invalid JSON/);

    const wrongFormat = await call(app, "POST", "/api/v1/projects/import-dag", {
      key,
      body: { ...validDag(), format: "keras.h5" },
    });
    expect(wrongFormat.status).toBe(422);
    expect(wrongFormat.json.errors[0].path).toBe("format");

    const badConfig = await call(app, "POST", "/api/v1/projects/import-dag", {
      key,
      body: { ...validDag(), training: { epochs: 5000 } },
    });
    expect(badConfig.status).toBe(422);
    expect(badConfig.json.errors.map((e: { path: string }) => e.path)).toContain("training.epochs");

    const list = await call(app, "GET", "/api/v1/projects", { key });
    expect(list.json.total).toBe(0);
  });

  it("refuses a missing file, a malformed body and other media types", async () => {
    const { key } = await signUpWithKey(app);
    const form = new FormData();
    form.append("other", "x");
    const noFile = await call(app, "POST", "/api/v1/projects/import-dag", { key, rawBody: form });
    expect(noFile.status).toBe(422);
    expect(noFile.json.errors[0].path).toBe("form.file");
    const malformed = await call(app, "POST", "/api/v1/projects/import-dag", {
      key,
      rawBody: "{",
      headers: { "Content-Type": "application/json" },
    });
    expect(malformed.status).toBe(400);
    const text = await call(app, "POST", "/api/v1/projects/import-dag", {
      key,
      rawBody: JSON.stringify(validDag()),
      headers: { "Content-Type": "text/plain" },
    });
    expect(text.status).toBe(415);
    const empty = await call(app, "POST", "/api/v1/projects/import-dag", { key });
    expect(empty.status).toBe(400);
  });

  it("imports into an existing project, replacing its graph and configuration only", async () => {
    const a = await signUpWithKey(app);
    const b = await signUpWithKey(app);
    const p = await createProject(app, a.key, { name: "Keep my name", graph: mlpGraph(2) });
    const r = await call(app, "POST", `/api/v1/projects/${p.id}/import-dag`, {
      key: a.key,
      body: validDag("Other"),
    });
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({ id: p.id, name: "Keep my name", graph: { nodes: expect.any(Array) } });
    expect(r.json.graph.nodes[1].params.units).toBe(16);
    expect(r.json.training_config.epochs).toBe(7);
    expect((await call(app, "GET", `/api/v1/projects/${p.id}/versions`, { key: a.key })).json.total).toBe(0);

    // Without a training section the configuration is kept.
    const { training: _omit, ...noTraining } = validDag();
    await call(app, "PUT", `/api/v1/projects/${p.id}`, {
      key: a.key,
      body: { training_config: { epochs: 42 } },
    });
    const kept = await call(app, "POST", `/api/v1/projects/${p.id}/import-dag`, {
      key: a.key,
      rawBody: fileForm(JSON.stringify(noTraining), "g.json", "application/json"),
    });
    expect(kept.status).toBe(200);
    expect(kept.json.training_config.epochs).toBe(42);

    const bad = await call(app, "POST", `/api/v1/projects/${p.id}/import-dag`, {
      key: a.key,
      body: invalidDag(),
    });
    expect(bad.status).toBe(422);
    const unchanged = await call(app, "GET", `/api/v1/projects/${p.id}`, { key: a.key });
    expect(unchanged.json.graph.nodes[1].params.units).toBe(16);

    const cross = await call(app, "POST", `/api/v1/projects/${p.id}/import-dag`, {
      key: b.key,
      body: validDag(),
    });
    expect(cross.status).toBe(404);
  });
});

describe("diagram preview", () => {
  it("draws the current diagram as an SVG for its owner, with an ETag that changes with the diagram", async () => {
    const a = await signUpWithKey(app);
    const b = await signUpWithKey(app);
    const p = await createProject(app, a.key, { template: "transformer-block" });
    const url = `/api/v1/projects/${p.id}/preview`;

    const first = await call(app, "GET", url, { key: a.key });
    expect(first.status).toBe(200);
    expect(first.res.headers.get("content-type")).toBe("image/svg+xml; charset=utf-8");
    expect(first.res.headers.get("content-security-policy")).toBe("default-src 'none'");
    expect(first.res.headers.get("x-content-type-options")).toBe("nosniff");
    expect(first.text).toMatch(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg"/);
    expect(first.text).not.toMatch(/<script|on\w+=|href=/i);
    const etag = first.res.headers.get("etag");
    expect(etag).toMatch(/^W\/".+"$/);

    // Unchanged: 304 with no body; changed: a new drawing and a new ETag.
    const same = await call(app, "GET", url, { key: a.key, headers: { "If-None-Match": etag as string } });
    expect(same.status).toBe(304);
    expect(same.text).toBe("");
    await call(app, "PUT", `/api/v1/projects/${p.id}`, { key: a.key, body: { graph: mlpGraph() } });
    const changed = await call(app, "GET", url, { key: a.key, headers: { "If-None-Match": etag as string } });
    expect(changed.status).toBe(200);
    expect(changed.res.headers.get("etag")).not.toBe(etag);
    expect(changed.text).not.toBe(first.text);

    // Another account's project does not exist for the caller; a missing credential is 401.
    expect((await call(app, "GET", url, { key: b.key })).status).toBe(404);
    expect((await call(app, "GET", url)).status).toBe(401);
  });

  it("is an empty image for an empty diagram", async () => {
    const { key } = await signUpWithKey(app);
    const p = await createProject(app, key);
    const r = await call(app, "GET", `/api/v1/projects/${p.id}/preview`, { key });
    expect(r.status).toBe(200);
    expect(r.text).not.toContain("<path");
  });
});

describe("thumbnails", () => {
  it("stores a PNG detected from its bytes and streams it back", async () => {
    const { key } = await signUpWithKey(app);
    const p = await createProject(app, key);
    const none = await call(app, "GET", `/api/v1/projects/${p.id}/thumbnail`, { key });
    expect(none.status).toBe(404);

    const png = tinyPng();
    // The declared type is wrong on purpose: the content decides.
    const up = await call(app, "POST", `/api/v1/projects/${p.id}/thumbnail`, {
      key,
      rawBody: fileForm(png, "thumb.bin", "application/octet-stream"),
    });
    expect(up.status).toBe(200);
    expect(up.json).toEqual({
      url: `/api/v1/projects/${p.id}/thumbnail`,
      content_type: "image/png",
      size: png.length,
    });

    const res = await app.request(`/api/v1/projects/${p.id}/thumbnail`, {
      headers: { Authorization: `Bearer ${key}` },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("image/png");
    expect(res.headers.get("content-length")).toBe(String(png.length));
    expect(Buffer.from(await res.arrayBuffer()).equals(png)).toBe(true);

    const got = await call(app, "GET", `/api/v1/projects/${p.id}/thumbnail`.replace("/thumbnail", ""), {
      key,
    });
    expect(got.json.thumbnail_url).toBe(`/api/v1/projects/${p.id}/thumbnail`);
    const list = await call(app, "GET", "/api/v1/projects", { key });
    expect(list.json.items[0].thumbnail_url).toBe(`/api/v1/projects/${p.id}/thumbnail`);
  });

  it("replaces the thumbnail, recognising JPEG and WebP", async () => {
    const { key } = await signUpWithKey(app);
    const p = await createProject(app, key);
    const jpeg = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0x10, 0x4a, 0x46, 0x49, 0x46, 0, 1, 0xff, 0xd9]);
    const j = await call(app, "POST", `/api/v1/projects/${p.id}/thumbnail`, {
      key,
      rawBody: fileForm(jpeg, "t.png", "image/png"),
    });
    expect(j.json.content_type).toBe("image/jpeg");
    const webp = Buffer.concat([
      Buffer.from("RIFF"),
      Buffer.from([26, 0, 0, 0]),
      Buffer.from("WEBPVP8L"),
      Buffer.alloc(18),
    ]);
    const w = await call(app, "POST", `/api/v1/projects/${p.id}/thumbnail`, {
      key,
      rawBody: fileForm(webp, "t.webp", "image/webp"),
    });
    expect(w.json).toMatchObject({ content_type: "image/webp", size: webp.length });
    const res = await app.request(`/api/v1/projects/${p.id}/thumbnail`, {
      headers: { Authorization: `Bearer ${key}` },
    });
    expect(res.headers.get("content-type")).toBe("image/webp");
    expect(Buffer.from(await res.arrayBuffer()).equals(webp)).toBe(true);
  });

  it("refuses other types (415), empty files (422), files over 2 MB (413) and missing files (422)", async () => {
    const { key } = await signUpWithKey(app);
    const p = await createProject(app, key);
    const url = `/api/v1/projects/${p.id}/thumbnail`;
    const svg = await call(app, "POST", url, {
      key,
      rawBody: fileForm('<svg xmlns="http://www.w3.org/2000/svg"/>', "t.png", "image/png"),
    });
    expect(svg.status).toBe(415);
    expect(svg.json.title).toBe("Unsupported media type");
    const gif = await call(app, "POST", url, {
      key,
      rawBody: fileForm("GIF89a......", "t.gif", "image/gif"),
    });
    expect(gif.status).toBe(415);
    const empty = await call(app, "POST", url, {
      key,
      rawBody: fileForm(new Uint8Array(0), "t.png", "image/png"),
    });
    expect(empty.status).toBe(422);

    const big = Buffer.concat([tinyPng(), Buffer.alloc(2 * 1024 * 1024)]);
    const tooBig = await call(app, "POST", url, { key, rawBody: fileForm(big, "big.png", "image/png") });
    expect(tooBig.status).toBe(413);
    const justUnder = Buffer.concat([tinyPng(), Buffer.alloc(2 * 1024 * 1024 - tinyPng().length)]);
    const ok = await call(app, "POST", url, { key, rawBody: fileForm(justUnder, "max.png", "image/png") });
    expect(ok.status).toBe(200);
    expect(ok.json.size).toBe(2 * 1024 * 1024);

    const form = new FormData();
    form.append("file", "not a file");
    const noFile = await call(app, "POST", url, { key, rawBody: form });
    expect(noFile.status).toBe(422);
    const json = await call(app, "POST", url, { key, body: { file: "x" } });
    expect(json.status).toBe(415);
  });

  it("hides other users' thumbnails (404) and drops the file with the project", async () => {
    const a = await signUpWithKey(app);
    const b = await signUpWithKey(app);
    const p = await createProject(app, a.key);
    const url = `/api/v1/projects/${p.id}/thumbnail`;
    await call(app, "POST", url, { key: a.key, rawBody: fileForm(tinyPng(), "t.png", "image/png") });
    expect((await call(app, "GET", url, { key: b.key })).status).toBe(404);
    const overwrite = await call(app, "POST", url, {
      key: b.key,
      rawBody: fileForm(tinyPng(), "t.png", "image/png"),
    });
    expect(overwrite.status).toBe(404);

    // The stored object, through whichever store is configured (the local disk or BLOB_STORE=s3).
    const { blobStore } = await import("@/lib/server/storage/blob-stores");
    const key = `thumbnails/${p.id}`;
    expect(await blobStore().head(key)).not.toBeNull();
    await call(app, "DELETE", `/api/v1/projects/${p.id}`, { key: a.key });
    expect(await blobStore().head(key)).toBeNull();
  });

  it("copies the thumbnail on duplicate and on import from a share link, as independent files", async () => {
    const a = await signUpWithKey(app);
    const b = await signUpWithKey(app);
    const p = await createProject(app, a.key);
    const png = tinyPng();
    await call(app, "POST", `/api/v1/projects/${p.id}/thumbnail`, {
      key: a.key,
      rawBody: fileForm(png, "t.png", "image/png"),
    });
    const bytesOf = async (id: string, key: string) => {
      const res = await app.request(`/api/v1/projects/${id}/thumbnail`, {
        headers: { Authorization: `Bearer ${key}` },
      });
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toBe("image/png");
      return Buffer.from(await res.arrayBuffer());
    };

    const copy = (await call(app, "POST", `/api/v1/projects/${p.id}/duplicate`, { key: a.key })).json;
    expect(copy.thumbnail_url).toBe(`/api/v1/projects/${copy.id}/thumbnail`);
    expect((await bytesOf(copy.id, a.key)).equals(png)).toBe(true);

    const { token } = (await call(app, "POST", `/api/v1/projects/${p.id}/share`, { key: a.key })).json;
    const imported = (await call(app, "POST", `/api/v1/shared/${token}/import`, { key: b.key })).json;
    expect(imported.thumbnail_url).toBe(`/api/v1/projects/${imported.id}/thumbnail`);
    expect((await bytesOf(imported.id, b.key)).equals(png)).toBe(true);

    // Deleting the original leaves both copies' files in place.
    await call(app, "DELETE", `/api/v1/projects/${p.id}`, { key: a.key });
    expect((await bytesOf(copy.id, a.key)).equals(png)).toBe(true);
    expect((await bytesOf(imported.id, b.key)).equals(png)).toBe(true);

    // A project without a thumbnail duplicates to one without a thumbnail.
    const bare = await createProject(app, a.key);
    const bareCopy = (await call(app, "POST", `/api/v1/projects/${bare.id}/duplicate`, { key: a.key })).json;
    expect(bareCopy.thumbnail_url).toBeNull();
    expect((await call(app, "GET", `/api/v1/projects/${bareCopy.id}/thumbnail`, { key: a.key })).status).toBe(
      404,
    );
  });
});

describe("OpenAPI document", () => {
  it("describes every project route with an operationId", async () => {
    const doc = (await call(app, "GET", "/api/v1/openapi.json")).json;
    const ops: Record<string, [string, string]> = {
      createProject: ["/api/v1/projects", "post"],
      listProjects: ["/api/v1/projects", "get"],
      getProject: ["/api/v1/projects/{project_id}", "get"],
      updateProject: ["/api/v1/projects/{project_id}", "put"],
      deleteProject: ["/api/v1/projects/{project_id}", "delete"],
      duplicateProject: ["/api/v1/projects/{project_id}/duplicate", "post"],
      bulkDeleteProjects: ["/api/v1/projects/bulk-delete", "post"],
      importProjectFromDag: ["/api/v1/projects/import-dag", "post"],
      importDagIntoProject: ["/api/v1/projects/{project_id}/import-dag", "post"],
      uploadProjectThumbnail: ["/api/v1/projects/{project_id}/thumbnail", "post"],
      getProjectThumbnail: ["/api/v1/projects/{project_id}/thumbnail", "get"],
    };
    for (const [id, [path, method]] of Object.entries(ops))
      expect(doc.paths[path][method].operationId).toBe(id);
    expect(doc.paths["/api/v1/projects/import-dag"].post.requestBody.content).toHaveProperty(
      "multipart/form-data",
    );
    expect(JSON.stringify(doc.components.schemas.Project)).toContain('"analysis"');
  });
});
