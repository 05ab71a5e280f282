/**
 * One storage quota per plan over every byte a user stores: datasets, checkpoints, training
 * artifacts, hub model files and registry artifacts. Enforced while the bytes stream in (a declared
 * length over the remaining quota is refused before reading; an undeclared one is stopped when it
 * passes it, leaving nothing behind), 402 `storage-quota` with the figures; deleting frees it.
 */
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { csv, upload } from "../api/datasets-helpers";
import { tempBlobDir } from "../api/projects.fixtures";
import { call, signUpWithKey, startTestApp, type TestApp } from "../helpers";
import { torchCheckpoint } from "./checkpoint-bytes";

const blobDir = tempBlobDir();
let app: TestApp;
const LIMIT = 60_000;
const saved = process.env.STORAGE_QUOTA_BYTES;

beforeAll(async () => {
  process.env.STORAGE_QUOTA_BYTES = String(LIMIT);
  app = await startTestApp();
});
afterAll(() => {
  if (saved === undefined) delete process.env.STORAGE_QUOTA_BYTES;
  else process.env.STORAGE_QUOTA_BYTES = saved;
});

const filesIn = (area: string) => {
  const dir = path.join(blobDir, area);
  return fs.existsSync(dir) ? fs.readdirSync(dir) : [];
};
const bytes = (n: number, fill = 1) => new Uint8Array(n).fill(fill);
const sha256 = (b: Uint8Array) => createHash("sha256").update(b).digest("hex");
const raw = (token: string, body: BodyInit) => ({
  key: token,
  rawBody: body,
  headers: { "Content-Type": "application/octet-stream" },
});
/** Sends a body without a declared length: the server can only count it as it arrives. */
async function chunked(method: string, url: string, key: string, b: Uint8Array) {
  const res = await app.request(url, {
    method,
    headers: { Authorization: `Bearer ${key}`, "Content-Type": "application/octet-stream" },
    body: new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < b.byteLength; i += 4096) controller.enqueue(b.slice(i, i + 4096));
        controller.close();
      },
    }),
    duplex: "half",
  } as RequestInit);
  const text = await res.text();
  return { status: res.status, text, json: JSON.parse(text) };
}

function expectQuotaProblem(
  r: { status: number; json: Record<string, unknown>; text: string },
  requested: number,
) {
  expect(r.status, r.text).toBe(402);
  expect(r.json.type).toMatch(/storage-quota$/);
  expect(r.json.limit_bytes).toBe(LIMIT);
  expect(r.json.used_bytes).toEqual(expect.any(Number));
  expect(r.json.requested_bytes as number).toBeGreaterThanOrEqual(LIMIT - (r.json.used_bytes as number));
  expect(r.json.requested_bytes as number).toBeLessThanOrEqual(requested);
  expect(r.json.detail).toMatch(/storage quota/);
}

async function quota(key: string) {
  const r = await call(app, "GET", "/api/v1/datasets/storage/quota", { key });
  expect(r.status, r.text).toBe(200);
  return r.json;
}

/** A new account's external job that succeeded with a `model.onnx` of `modelBytes` bytes. */
async function succeededJobWithModel(name: string, modelBytes: number) {
  const { key } = await signUpWithKey(app);
  const project = await call(app, "POST", "/api/v1/projects", {
    key,
    body: { name, template: "mlp-classifier" },
  });
  const job = await call(app, "POST", "/api/v1/training/jobs", {
    key,
    body: { project_id: project.json.id, dataset_id: "builtin-iris", runtime: "external" },
  });
  const jobPath = `/api/v1/training/jobs/${job.json.id}`;
  const token = (await call(app, "POST", `${jobPath}/stream-token`, { key })).json.token as string;
  const model = await call(app, "PUT", `${jobPath}/artifact/model.onnx`, raw(token, bytes(modelBytes)));
  expect(model.status, model.text).toBe(201);
  const done = await call(app, "POST", `${jobPath}/metrics/events`, {
    key: token,
    body: { events: [{ kind: "status", status: "succeeded" }] },
  });
  expect(done.status, done.text).toBe(202);
  return { key, job };
}

describe("one storage quota over every kind of stored bytes", () => {
  it("counts each kind, refuses each kind beyond the quota with the figures, and frees on delete", async () => {
    const { key } = await signUpWithKey(app);
    // A checkpoint and a model file from an external job.
    const project = await call(app, "POST", "/api/v1/projects", {
      key,
      body: { name: "Quota", template: "mlp-classifier" },
    });
    const job = await call(app, "POST", "/api/v1/training/jobs", {
      key,
      body: { project_id: project.json.id, dataset_id: "builtin-iris", runtime: "external" },
    });
    const jobPath = `/api/v1/training/jobs/${job.json.id}`;
    const token = (await call(app, "POST", `${jobPath}/stream-token`, { key })).json.token as string;
    const ckpt = torchCheckpoint(15_000);
    const c1 = await call(app, "POST", `${jobPath}/checkpoints?epoch=1&best=true`, raw(token, ckpt));
    expect(c1.status, c1.text).toBe(201);
    const art = await call(app, "PUT", `${jobPath}/artifact/model.onnx`, raw(token, bytes(5_000)));
    expect(art.status, art.text).toBe(201);
    // A hub model file.
    const hub = await call(app, "POST", "/api/v1/hub/models", { key, body: { name: "Quota hub" } });
    expect(hub.status, hub.text).toBe(201);
    const hf = await call(
      app,
      "POST",
      `/api/v1/hub/models/${hub.json.id}/files?path=w.bin`,
      raw(key, bytes(10_000)),
    );
    expect(hf.status, hf.text).toBe(201);
    // A registry artifact.
    const model = await call(app, "POST", "/api/v1/models", { key, body: { name: "quota-model" } });
    const version = await call(app, "POST", `/api/v1/models/${model.json.id}/versions`, { key, body: {} });
    expect(version.status, version.text).toBe(201);
    const vPath = `/api/v1/model-versions/${version.json.id}`;
    const regBytes = bytes(10_000, 3);
    const init = await call(app, "POST", `${vPath}/artifacts:initiate`, {
      key,
      body: {
        name: "weights.bin",
        size_bytes: 10_000,
        sha256: sha256(regBytes),
        content_type: "application/octet-stream",
      },
    });
    expect(init.status, init.text).toBe(201);
    const put = await app.request(init.json.upload.url, {
      method: "PUT",
      headers: init.json.upload.headers,
      body: regBytes,
    });
    expect(put.status, await put.text()).toBe(200);
    // A dataset.
    const ds = await upload(
      app,
      key,
      csv([
        ["a", "b"],
        [1, 2],
        [3, 4],
      ]),
      "small.csv",
    );
    expect(ds.status, ds.text).toBe(201);
    const dsBytes = ds.json.version.size_bytes as number;

    const q = await quota(key);
    expect(q.breakdown).toEqual({
      datasets: dsBytes,
      checkpoints: ckpt.byteLength,
      artifacts: 5_000,
      hub: 10_000,
      registry: 10_000,
    });
    const used = dsBytes + ckpt.byteLength + 25_000;
    expect(q).toMatchObject({ used_bytes: used, limit_bytes: LIMIT, remaining_bytes: LIMIT - used });

    // Each kind, beyond the quota: 402 with the figures, nothing stored, no temporary file left.
    const over = LIMIT - used + 5_000;
    const before = {
      ck: filesIn("checkpoints"),
      art: filesIn("artifacts"),
      hub: filesIn("hub"),
      reg: filesIn("registry"),
    };
    const big = torchCheckpoint(over);
    expectQuotaProblem(await chunked("POST", `${jobPath}/checkpoints?epoch=2`, token, big), big.byteLength);
    expectQuotaProblem(await chunked("PUT", `${jobPath}/artifact/big.bin`, token, bytes(over)), over);
    expectQuotaProblem(
      await chunked("POST", `/api/v1/hub/models/${hub.json.id}/files?path=big.bin`, key, bytes(over)),
      over,
    );
    // Declared lengths are refused before reading.
    let pulled = 0;
    const endless = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled += 1;
        controller.enqueue(new Uint8Array(1024));
      },
    });
    const declared = await app.request(`/api/v1/hub/models/${hub.json.id}/files?path=big.bin`, {
      method: "POST",
      headers: {
        Authorization: `Bearer ${key}`,
        "Content-Type": "application/octet-stream",
        "Content-Length": String(over),
      },
      body: endless,
      duplex: "half",
    } as RequestInit);
    const declaredText = await declared.text();
    expectQuotaProblem({ status: declared.status, json: JSON.parse(declaredText), text: declaredText }, over);
    expect(pulled).toBeLessThan(5);
    const regOver = await call(app, "POST", `${vPath}/artifacts:initiate`, {
      key,
      body: {
        name: "big.bin",
        size_bytes: over,
        sha256: "a".repeat(64),
        content_type: "application/octet-stream",
      },
    });
    expectQuotaProblem(regOver, over);
    const dsOver = await upload(
      app,
      key,
      csv([["a"], ...Array.from({ length: over / 4 }, (_, i) => [i + 1000])]),
      "big.csv",
    );
    expect(dsOver.status).toBe(402);
    expect(dsOver.json.type).toMatch(/storage-quota$/);
    expect(filesIn("checkpoints")).toEqual(before.ck);
    expect(filesIn("artifacts")).toEqual(before.art);
    expect(filesIn("hub")).toEqual(before.hub);
    expect(filesIn("registry")).toEqual(before.reg);
    expect((await quota(key)).used_bytes).toBe(used);

    // Deleting frees quota: the hub model, then the finished job.
    expect((await call(app, "DELETE", `/api/v1/hub/models/${hub.json.id}`, { key })).status).toBe(204);
    expect((await quota(key)).breakdown.hub).toBe(0);
    const hub2 = await call(app, "POST", "/api/v1/hub/models", { key, body: { name: "Quota hub 2" } });
    const fits = await call(
      app,
      "POST",
      `/api/v1/hub/models/${hub2.json.id}/files?path=w.bin`,
      raw(key, bytes(12_000)),
    );
    expect(fits.status, fits.text).toBe(201);
    await call(app, "POST", `${jobPath}/cancel`, { key });
    const del = await call(app, "POST", "/api/v1/training/jobs/bulk-delete", {
      key,
      body: { ids: [job.json.id] },
    });
    expect(del.json.deleted).toEqual([job.json.id]);
    const after = await quota(key);
    expect(after.breakdown).toMatchObject({ checkpoints: 0, artifacts: 0, hub: 12_000 });
    expect(after.used_bytes).toBe(dsBytes + 12_000 + 10_000);
  });

  it("two uploads at once cannot both take the last free bytes", async () => {
    const { key } = await signUpWithKey(app);
    const hub = await call(app, "POST", "/api/v1/hub/models", { key, body: { name: "Race" } });
    // Each fits on its own (the quota is 60,000 bytes); together they do not.
    const results = await Promise.all(
      ["a.bin", "b.bin"].map((name) =>
        chunked("POST", `/api/v1/hub/models/${hub.json.id}/files?path=${name}`, key, bytes(35_000)),
      ),
    );
    expect(results.map((r) => r.status).sort()).toEqual([201, 402]);
    const refused = results.find((r) => r.status === 402);
    expect(refused?.json.type).toMatch(/storage-quota$/);
    expect((await quota(key)).used_bytes).toBe(35_000);
  });

  it("two copies of a job's model at once (registry push, hub publish) cannot both take the last free bytes", async () => {
    const { key, job } = await succeededJobWithModel("Copy race", 20_000);
    // 20,000 (the job's model) + 15,000 (a hub file) of 60,000: one more copy of the model (with its
    // manifest) fits, two do not.
    const hub = await call(app, "POST", "/api/v1/hub/models", { key, body: { name: "Filler" } });
    const filler = await call(
      app,
      "POST",
      `/api/v1/hub/models/${hub.json.id}/files?path=f.bin`,
      raw(key, bytes(15_000)),
    );
    expect(filler.status, filler.text).toBe(201);
    const registered = await call(app, "POST", "/api/v1/models", { key, body: { name: "copy-race" } });
    const [push, publish] = await Promise.all([
      call(app, "POST", `/api/v1/models/${registered.json.id}/versions`, {
        key,
        body: { job_id: job.json.id },
      }),
      call(app, "POST", "/api/v1/hub/models", { key, body: { source_job_id: job.json.id } }),
    ]);
    expect([push.status, publish.status].sort(), `${push.text}\n${publish.text}`).toEqual([201, 402]);
    const refused = push.status === 402 ? push : publish;
    expect(refused.json.type).toMatch(/storage-quota$/);
    expect((await quota(key)).used_bytes).toBeLessThanOrEqual(LIMIT);
  });

  it("copies of a job's model (registry push, hub publish) count too: refused when they would not fit", async () => {
    const { key, job } = await succeededJobWithModel("Copies", 20_000);
    // 20,000 (the job's model) + 25,000 (a hub file) of 60,000: one more copy of the model does not fit.
    const hub = await call(app, "POST", "/api/v1/hub/models", { key, body: { name: "Filler" } });
    const filler = await call(
      app,
      "POST",
      `/api/v1/hub/models/${hub.json.id}/files?path=f.bin`,
      raw(key, bytes(25_000)),
    );
    expect(filler.status, filler.text).toBe(201);
    const registered = await call(app, "POST", "/api/v1/models", { key, body: { name: "copies" } });
    const push = await call(app, "POST", `/api/v1/models/${registered.json.id}/versions`, {
      key,
      body: { job_id: job.json.id },
    });
    expect(push.status, push.text).toBe(402);
    expect(push.json).toMatchObject({ limit_bytes: LIMIT, requested_bytes: 20_000 });
    const publish = await call(app, "POST", "/api/v1/hub/models", {
      key,
      body: { source_job_id: job.json.id },
    });
    expect(publish.status, publish.text).toBe(402);
    expect(publish.json.type).toMatch(/storage-quota$/);
    expect(filesIn("registry").some((f) => f.startsWith(".tmp"))).toBe(false);
    // With the filler gone, both fit.
    expect((await call(app, "DELETE", `/api/v1/hub/models/${hub.json.id}`, { key })).status).toBe(204);
    const pushed = await call(app, "POST", `/api/v1/models/${registered.json.id}/versions`, {
      key,
      body: { job_id: job.json.id },
    });
    expect(pushed.status, pushed.text).toBe(201);
    const breakdown = (await quota(key)).breakdown;
    expect(breakdown.artifacts).toBe(20_000);
    expect(breakdown.registry).toBeGreaterThan(20_000); // the model and its manifest.json
  });
});
