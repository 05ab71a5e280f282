import { afterEach, describe, expect, it } from "vitest";
import yauzl from "yauzl";
import { getDb } from "@/lib/server/db/client";
import { type JobRunner, startJobRunner } from "@/lib/server/jobs/runner";
import { call, signUpWithKey, startTestApp } from "../helpers";

const app = await startTestApp();
const db = await getDb();

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

const runners: JobRunner[] = [];
afterEach(async () => {
  await Promise.all(runners.splice(0).map((r) => r.stop({ graceMs: 2000 })));
});

function startRunner(): void {
  runners.push(
    startJobRunner({
      db,
      types: ["codegen.generate"],
      pollIntervalMs: 20,
      heartbeatIntervalMs: 100,
      progressIntervalMs: 10,
      log: () => {},
    }),
  );
}

async function newProject(key: string, body: Record<string, unknown> = { template: "cnn-image" }) {
  const r = await call(app, "POST", "/api/v1/projects", {
    key,
    body: { name: "MNIST classifier!", ...body },
  });
  if (r.status !== 201) throw new Error(`project creation failed: ${r.status} ${r.text}`);
  return r.json.id as string;
}

/** Input [4] -> Dense with an invalid unit count -> Output, plus a Dense with no input. */
const invalidGraph = {
  nodes: [
    { id: "in", type: "Input", params: { shape: [4] }, position: { x: 0, y: 0 } },
    { id: "hidden", type: "Dense", params: { units: 0 }, position: { x: 0, y: 100 } },
    { id: "loose", type: "Dense", params: { units: 3 }, position: { x: 200, y: 100 } },
    { id: "out", type: "Output", params: {}, position: { x: 0, y: 200 } },
  ],
  edges: [
    { id: "e1", source: "in", target: "hidden" },
    { id: "e2", source: "hidden", target: "out" },
  ],
};

function unzip(buffer: Buffer): Promise<Map<string, string>> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(buffer, { lazyEntries: true }, (err, zip) => {
      if (err || !zip) return reject(err);
      const entries = new Map<string, string>();
      zip.on("entry", (entry: yauzl.Entry) => {
        zip.openReadStream(entry, (streamErr, stream) => {
          if (streamErr || !stream) return reject(streamErr);
          const chunks: Buffer[] = [];
          stream.on("data", (c: Buffer) => chunks.push(c));
          stream.on("end", () => {
            entries.set(entry.fileName, Buffer.concat(chunks).toString("utf8"));
            zip.readEntry();
          });
        });
      });
      zip.on("end", () => resolve(entries));
      zip.on("error", reject);
      zip.readEntry();
    });
  });
}

async function waitForTask(key: string, url: string, states: string[]) {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const r = await call(app, "GET", url, { key });
    if (states.includes(r.json.state)) return r;
    if (Date.now() > deadline) throw new Error(`task stuck in ${r.json.state}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe("generate and preview", () => {
  it("generates PyTorch files synchronously (the default target)", async () => {
    const { key } = await signUpWithKey(app);
    const id = await newProject(key);
    const r = await call(app, "POST", `/api/v1/projects/${id}/generate-code`, { key });
    expect(r.status).toBe(200);
    expect(r.json.target).toBe("pytorch");
    expect(r.json.generated_at).toMatch(ISO);
    expect(r.json.files.map((f: { path: string; language: string }) => [f.path, f.language])).toEqual([
      ["model.py", "python"],
      ["train.py", "python"],
      ["requirements.txt", "plaintext"],
      ["README.md", "markdown"],
    ]);
    const model = r.json.files[0];
    expect(model.content).toContain("class MnistClassifierModel(nn.Module):");
    expect(model.content).toContain("self.conv1 = nn.Conv2d(1, 6, kernel_size=5, padding=2)");
    expect(model.size).toBe(Buffer.byteLength(model.content));

    const tfjs = await call(
      app,
      "POST",
      `/api/v1/projects/${id}/generate-code?target=tfjs&async_mode=false`,
      { key },
    );
    expect(tfjs.status).toBe(200);
    expect(tfjs.json.target).toBe("tfjs");
    expect(tfjs.json.files.map((f: { path: string }) => f.path)).toEqual([
      "model.mjs",
      "train.mjs",
      "package.json",
      "README.md",
    ]);
  });

  it("previews the same files without side effects, with a session too", async () => {
    const { key, cookie } = await signUpWithKey(app);
    const id = await newProject(key);
    const before = await call(app, "GET", `/api/v1/projects/${id}`, { key });
    const generated = await call(app, "POST", `/api/v1/projects/${id}/generate-code`, { key });
    const preview = await call(app, "GET", `/api/v1/projects/${id}/code-preview?target=pytorch`, { cookie });
    expect(preview.status).toBe(200);
    expect(preview.json.files).toEqual(generated.json.files);
    const after = await call(app, "GET", `/api/v1/projects/${id}`, { key });
    expect(after.json.updated_at).toBe(before.json.updated_at);
    expect(after.json).toEqual(before.json);
  });

  it("answers 422 with per-node errors for a graph that cannot be generated", async () => {
    const { key } = await signUpWithKey(app);
    const id = await newProject(key, { graph: invalidGraph });
    for (const [method, path] of [
      ["POST", `/api/v1/projects/${id}/generate-code`],
      ["POST", `/api/v1/projects/${id}/generate-code?async_mode=true`],
      ["GET", `/api/v1/projects/${id}/code-preview`],
      ["GET", `/api/v1/projects/${id}/download-code`],
    ]) {
      const r = await call(app, method, path, { key });
      expect(r.status, path).toBe(422);
      expect(r.res.headers.get("content-type")).toContain("application/problem+json");
      expect(r.json.errors).toEqual(
        expect.arrayContaining([
          expect.objectContaining({
            path: "graph.nodes[1].params.units",
            node_id: "hidden",
            code: "invalid_params",
            severity: "error",
            param: "units",
          }),
          expect.objectContaining({
            path: "graph.nodes[2]",
            node_id: "loose",
            code: "dangling_input",
            port: 0,
          }),
        ]),
      );
    }
  });

  it("refuses unknown targets and async_mode values with 422, and anonymous callers with 401", async () => {
    const { key } = await signUpWithKey(app);
    const id = await newProject(key);
    const bad = await call(app, "GET", `/api/v1/projects/${id}/code-preview?target=keras`, { key });
    expect(bad.status).toBe(422);
    expect(bad.json.errors[0].path).toBe("query.target");
    const mode = await call(app, "POST", `/api/v1/projects/${id}/generate-code?async_mode=maybe`, { key });
    expect(mode.status).toBe(422);
    const anonymous = await call(app, "POST", `/api/v1/projects/${id}/generate-code`);
    expect(anonymous.status).toBe(401);
  });
});

describe("validate", () => {
  it("reports a valid project, with warnings only", async () => {
    const { key } = await signUpWithKey(app);
    const id = await newProject(key);
    const r = await call(app, "POST", `/api/v1/projects/${id}/validate`, { key });
    expect(r.status).toBe(200);
    expect(r.json).toEqual({ target: "pytorch", valid: true, issues: [] });
  });

  it("lists the issues of an invalid project per node, and the target's own limits", async () => {
    const { key } = await signUpWithKey(app);
    const id = await newProject(key, { graph: invalidGraph });
    const r = await call(app, "POST", `/api/v1/projects/${id}/validate`, { key });
    expect(r.status).toBe(200);
    expect(r.json.valid).toBe(false);
    expect(r.json.issues).toEqual(
      expect.arrayContaining([
        {
          node_id: "hidden",
          port: null,
          edge_id: null,
          param: "units",
          code: "invalid_params",
          severity: "error",
          message: expect.stringContaining("units"),
        },
        expect.objectContaining({ node_id: "loose", port: 0, code: "dangling_input", severity: "error" }),
      ]),
    );

    const dilated = await newProject(key, {
      graph: {
        nodes: [
          { id: "in", type: "Input", params: { shape: [2, 20] }, position: { x: 0, y: 0 } },
          { id: "conv", type: "Conv1D", params: { out_channels: 4, dilation: 2 }, position: { x: 0, y: 1 } },
          { id: "flat", type: "Flatten", params: {}, position: { x: 0, y: 2 } },
          { id: "head", type: "Dense", params: { units: 2 }, position: { x: 0, y: 3 } },
          { id: "out", type: "Output", params: {}, position: { x: 0, y: 4 } },
        ],
        edges: [
          { id: "e1", source: "in", target: "conv" },
          { id: "e2", source: "conv", target: "flat" },
          { id: "e3", source: "flat", target: "head" },
          { id: "e4", source: "head", target: "out" },
        ],
      },
    });
    const torch = await call(app, "POST", `/api/v1/projects/${dilated}/validate?target=pytorch`, { key });
    expect(torch.json.valid).toBe(true);
    const tfjs = await call(app, "POST", `/api/v1/projects/${dilated}/validate?target=tfjs`, { key });
    expect(tfjs.json).toMatchObject({
      target: "tfjs",
      valid: false,
      issues: [{ node_id: "conv", code: "unsupported_for_target", param: "dilation", severity: "error" }],
    });
    const refused = await call(app, "POST", `/api/v1/projects/${dilated}/generate-code?target=tfjs`, { key });
    expect(refused.status).toBe(422);
    expect(refused.json.errors[0]).toMatchObject({ path: "graph.nodes[1].params.dilation", node_id: "conv" });
  });
});

describe("asynchronous generation", () => {
  it("queues a task, runs it in the job runner and returns the files", async () => {
    const { key } = await signUpWithKey(app);
    const id = await newProject(key);
    const accepted = await call(
      app,
      "POST",
      `/api/v1/projects/${id}/generate-code?async_mode=true&target=tfjs`,
      {
        key,
      },
    );
    expect(accepted.status).toBe(202);
    expect(accepted.json.task_id).toMatch(/^tsk_/);
    expect(accepted.json.status_url).toBe(`/api/v1/projects/${id}/code-status/${accepted.json.task_id}`);
    expect(accepted.res.headers.get("location")).toBe(accepted.json.status_url);

    const queued = await call(app, "GET", accepted.json.status_url, { key });
    expect(queued.status).toBe(200);
    expect(queued.json).toMatchObject({
      task_id: accepted.json.task_id,
      project_id: id,
      target: "tfjs",
      state: "queued",
    });
    expect(queued.json.files).toBeUndefined();

    startRunner();
    const done = await waitForTask(key, accepted.json.status_url, ["succeeded", "failed"]);
    expect(done.json).toMatchObject({ state: "succeeded", progress: 1, error: null });
    expect(done.json.finished_at).toMatch(ISO);
    const sync = await call(app, "POST", `/api/v1/projects/${id}/generate-code?target=tfjs`, { key });
    expect(done.json.files).toEqual(sync.json.files);

    const late = await call(app, "POST", `${accepted.json.status_url}/cancel`, { key });
    expect(late.status).toBe(409);
    expect(late.res.headers.get("content-type")).toContain("application/problem+json");
  });

  it("cancels a queued task once; a second cancel is a conflict", async () => {
    const { key } = await signUpWithKey(app);
    const id = await newProject(key);
    const accepted = await call(app, "POST", `/api/v1/projects/${id}/generate-code?async_mode=true`, { key });
    const cancel = await call(app, "POST", `${accepted.json.status_url}/cancel`, { key });
    expect(cancel.status).toBe(200);
    expect(cancel.json).toMatchObject({ state: "cancelled", error: null });
    expect(cancel.json.files).toBeUndefined();
    const again = await call(app, "POST", `${accepted.json.status_url}/cancel`, { key });
    expect(again.status).toBe(409);
    // A runner started afterwards never runs it.
    startRunner();
    await new Promise((resolve) => setTimeout(resolve, 100));
    const status = await call(app, "GET", accepted.json.status_url, { key });
    expect(status.json.state).toBe("cancelled");
  });
});

describe("download", () => {
  it("streams a ZIP of the project folder", async () => {
    const { key } = await signUpWithKey(app);
    const id = await newProject(key);
    const r = await app.request(`/api/v1/projects/${id}/download-code?target=pytorch`, {
      headers: { Host: "localhost", Authorization: `Bearer ${key}` },
    });
    expect(r.status).toBe(200);
    expect(r.headers.get("content-type")).toBe("application/zip");
    expect(r.headers.get("content-disposition")).toBe('attachment; filename="mnist-classifier-pytorch.zip"');
    const entries = await unzip(Buffer.from(await r.arrayBuffer()));
    expect([...entries.keys()].sort()).toEqual([
      "mnist-classifier-pytorch/README.md",
      "mnist-classifier-pytorch/model.py",
      "mnist-classifier-pytorch/requirements.txt",
      "mnist-classifier-pytorch/train.py",
    ]);
    const generated = await call(app, "POST", `/api/v1/projects/${id}/generate-code`, { key });
    expect(entries.get("mnist-classifier-pytorch/model.py")).toBe(generated.json.files[0].content);

    const tfjs = await app.request(`/api/v1/projects/${id}/download-code?target=tfjs`, {
      headers: { Host: "localhost", Authorization: `Bearer ${key}` },
    });
    expect(tfjs.headers.get("content-disposition")).toBe('attachment; filename="mnist-classifier-tfjs.zip"');
    expect([...(await unzip(Buffer.from(await tfjs.arrayBuffer()))).keys()]).toContain(
      "mnist-classifier-tfjs/model.mjs",
    );
  });
});

describe("ownership", () => {
  it("answers 404 for another account's project and tasks, and for tasks of another project", async () => {
    const owner = await signUpWithKey(app);
    const other = await signUpWithKey(app);
    const id = await newProject(owner.key);
    const task = await call(app, "POST", `/api/v1/projects/${id}/generate-code?async_mode=true`, {
      key: owner.key,
    });
    expect(task.status).toBe(202);
    const statusUrl = task.json.status_url as string;
    for (const [method, path] of [
      ["POST", `/api/v1/projects/${id}/generate-code`],
      ["POST", `/api/v1/projects/${id}/generate-code?async_mode=true`],
      ["GET", `/api/v1/projects/${id}/code-preview`],
      ["POST", `/api/v1/projects/${id}/validate`],
      ["GET", `/api/v1/projects/${id}/download-code`],
      ["GET", statusUrl],
      ["POST", `${statusUrl}/cancel`],
    ]) {
      const r = await call(app, method, path, { key: other.key });
      expect(r.status, `${method} ${path}`).toBe(404);
      expect(r.json.detail).not.toContain(id);
    }
    const unknown = await call(app, "GET", `/api/v1/projects/${id}/code-status/tsk_doesnotexist`, {
      key: owner.key,
    });
    expect(unknown.status).toBe(404);
    const elsewhere = await newProject(owner.key);
    const wrongProject = await call(
      app,
      "GET",
      `/api/v1/projects/${elsewhere}/code-status/${task.json.task_id}`,
      {
        key: owner.key,
      },
    );
    expect(wrongProject.status).toBe(404);
    // The task is untouched by all of this.
    expect((await call(app, "GET", statusUrl, { key: owner.key })).json.state).toBe("queued");
  });
});
