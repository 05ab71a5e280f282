/**
 * Training jobs through the real app and database: creation rules (ranges, 402s, idempotency,
 * isolation), the upload-token path (events, checkpoints, artifact files) that an external job uses,
 * states (cancel, restart, finish), bulk delete and the event stream with Last-Event-ID. No runner
 * runs in this file, so managed jobs stay queued; tests/training/ trains for real.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/lib/server/db/client";
import { grantCredits } from "@/lib/server/modules/account/credits";
import { call, signUpWithKey, startTestApp, type TestApp } from "../helpers";
import { torchCheckpoint } from "../security/checkpoint-bytes";
import { readSse } from "../sse";
import { csv, upload } from "./datasets-helpers";
import { tempBlobDir } from "./projects.fixtures";

tempBlobDir();
let app: TestApp;

beforeAll(async () => {
  app = await startTestApp();
});

async function irisProject(key: string) {
  const r = await call(app, "POST", "/api/v1/projects", {
    key,
    body: { name: "Iris MLP", template: "mlp-classifier" },
  });
  expect(r.status).toBe(201);
  return r.json.id as string;
}

async function createJob(key: string, body: Record<string, unknown>, headers?: Record<string, string>) {
  return call(app, "POST", "/api/v1/training/jobs", { key, body, headers });
}

async function externalJob(key: string) {
  const projectId = await irisProject(key);
  const r = await createJob(key, { project_id: projectId, dataset_id: "builtin-iris", runtime: "external" });
  expect(r.status, r.text).toBe(201);
  return r.json;
}

async function uploadToken(key: string, jobId: string) {
  const r = await call(app, "POST", `/api/v1/training/jobs/${jobId}/stream-token`, { key });
  expect(r.status, r.text).toBe(201);
  expect(r.json.token).toMatch(/^lut_[A-Za-z0-9]{32,}$/);
  return r.json.token as string;
}

describe("creating training jobs", () => {
  it("snapshots the project and queues the job; others cannot see it", async () => {
    const { key } = await signUpWithKey(app);
    const projectId = await irisProject(key);
    const r = await createJob(key, {
      project_id: projectId,
      dataset_id: "builtin-iris",
      config: { epochs: 7, learning_rate: 0.05 },
      runtime: "tfjs",
    });
    expect(r.status, r.text).toBe(201);
    expect(r.res.headers.get("location")).toBe(`/api/v1/training/jobs/${r.json.id}`);
    expect(r.json).toMatchObject({
      state: "queued",
      project_id: projectId,
      dataset_id: "builtin-iris",
      dataset_version_id: "builtin-iris-v1",
      runtime: "tfjs",
      strategy: "single",
      config: { epochs: 7, learning_rate: 0.05, batch_size: 16, optimizer: "adam" },
    });
    expect(r.json.status_history.map((s: { status: string }) => s.status)).toEqual(["queued"]);

    const got = await call(app, "GET", `/api/v1/training/jobs/${r.json.id}`, { key });
    expect(got.json.id).toBe(r.json.id);
    const other = await signUpWithKey(app);
    expect((await call(app, "GET", `/api/v1/training/jobs/${r.json.id}`, { key: other.key })).status).toBe(
      404,
    );
    expect(
      (await call(app, "POST", `/api/v1/training/jobs/${r.json.id}/cancel`, { key: other.key })).status,
    ).toBe(404);
    const otherList = await call(app, "GET", "/api/v1/training/jobs", { key: other.key });
    expect(otherList.json.total).toBe(0);
  });

  it("refuses out-of-range configuration, unknown fields and missing resources", async () => {
    const { key } = await signUpWithKey(app);
    const projectId = await irisProject(key);
    for (const config of [
      { epochs: 0 },
      { epochs: 1001 },
      { batch_size: 1025 },
      { learning_rate: 0 },
      { learning_rate: 1.5 },
    ]) {
      const r = await createJob(key, { project_id: projectId, dataset_id: "builtin-iris", config });
      expect(r.status, JSON.stringify(config)).toBe(422);
      expect(r.json.errors[0].path).toMatch(/^body\.config\./);
    }
    expect(
      (await createJob(key, { project_id: projectId, dataset_id: "builtin-iris", colour: "red" })).status,
    ).toBe(422);
    expect((await createJob(key, { project_id: "prj_nope", dataset_id: "builtin-iris" })).status).toBe(404);
    expect((await createJob(key, { project_id: projectId, dataset_id: "builtin-nope" })).status).toBe(404);
    expect(
      (await createJob(key, { project_id: projectId, dataset_id: "builtin-iris", runtime: "gpu" })).status,
    ).toBe(422);
  });

  it("answers 402 for a strategy the plan lacks and when credits are used up", async () => {
    const { key, user } = await signUpWithKey(app);
    const projectId = await irisProject(key);
    const strategy = await createJob(key, {
      project_id: projectId,
      dataset_id: "builtin-iris",
      strategy: "data_parallel",
    });
    expect(strategy.status).toBe(402);
    expect(strategy.json.type).toMatch(/plan-limit$/);
    const db = await getDb();
    await grantCredits(db, user.id, -100_000, "test: spend everything");
    const broke = await createJob(key, { project_id: projectId, dataset_id: "builtin-iris" });
    expect(broke.status).toBe(402);
    expect(broke.json.type).toMatch(/insufficient-credits$/);
    const strategies = await call(app, "GET", "/api/v1/training/allowed-strategies", { key });
    expect(strategies.json.items).toContainEqual(
      expect.objectContaining({ id: "data_parallel", allowed: false }),
    );
  });

  it("honours Idempotency-Key: same body replays, another body is refused", async () => {
    const { key } = await signUpWithKey(app);
    const projectId = await irisProject(key);
    const body = { project_id: projectId, dataset_id: "builtin-iris", runtime: "external" };
    const first = await createJob(key, body, { "Idempotency-Key": "train-once-1" });
    const again = await createJob(key, body, { "Idempotency-Key": "train-once-1" });
    expect(again.status).toBe(201);
    expect(again.json.id).toBe(first.json.id);
    expect(again.res.headers.get("idempotency-replayed")).toBe("true");
    const changed = await createJob(key, { ...body, name: "other" }, { "Idempotency-Key": "train-once-1" });
    expect(changed.status).toBe(422);
    expect((await call(app, "GET", "/api/v1/training/jobs", { key })).json.total).toBe(1);
  });

  it("queues jobs above the plan's concurrent limit instead of refusing them", async () => {
    const { key } = await signUpWithKey(app);
    const projectId = await irisProject(key);
    const made = [];
    for (let i = 0; i < 3; i++) {
      const r = await createJob(key, { project_id: projectId, dataset_id: "builtin-iris", runtime: "tfjs" });
      expect(r.status).toBe(201);
      made.push(r.json);
    }
    // The free plan runs 2 at a time: the third waits for a slot.
    expect(made.map((j) => j.waiting_for_slot)).toEqual([false, false, true]);
    await call(app, "POST", `/api/v1/training/jobs/${made[0].id}/cancel`, { key });
    const third = await call(app, "GET", `/api/v1/training/jobs/${made[2].id}`, { key });
    expect(third.json.waiting_for_slot).toBe(false);
  });

  it("lists with filters by state, project and name", async () => {
    const { key } = await signUpWithKey(app);
    const a = await externalJob(key);
    const b = await externalJob(key);
    await call(app, "POST", `/api/v1/training/jobs/${b.id}/cancel`, { key });
    const cancelled = await call(app, "GET", "/api/v1/training/jobs?state=cancelled", { key });
    expect(cancelled.json.items.map((j: { id: string }) => j.id)).toEqual([b.id]);
    const byProject = await call(app, "GET", `/api/v1/training/jobs?project_id=${a.project_id}`, { key });
    expect(byProject.json.items.map((j: { id: string }) => j.id)).toEqual([a.id]);
    const page = await call(app, "GET", "/api/v1/training/jobs?limit=1&page=2", { key });
    expect(page.json).toMatchObject({ total: 2, page: 2, limit: 1, pages: 2 });
    expect((await call(app, "GET", "/api/v1/training/jobs?limit=101", { key })).status).toBe(422);
  });
});

describe("an external job's uploads", () => {
  it("starts on the first upload, stores events once, serves metrics, logs, checkpoints and the artifact", async () => {
    const { key } = await signUpWithKey(app);
    const job = await externalJob(key);
    const token = await uploadToken(key, job.id);
    const path = `/api/v1/training/jobs/${job.id}`;
    const events = [
      { kind: "metric", name: "loss", value: 1.2, step: 10, epoch: 1, id: "m-1-loss" },
      { kind: "metric", name: "val_accuracy", value: 0.6, step: 10, epoch: 1, id: "m-1-val_accuracy" },
      { kind: "progress", epoch: 1, epochs: 2, step: 10, steps: 20 },
      { kind: "log", level: "info", message: "epoch 1/2 loss 1.2", id: "l-1" },
    ];
    const up = await call(app, "POST", `${path}/metrics/events`, { key: token, body: { events } });
    expect(up.status, up.text).toBe(202);
    expect(up.json).toEqual({ accepted: 4, duplicates: 0 });
    const again = await call(app, "POST", `${path}/metrics/events`, {
      key: token,
      body: { events: events.slice(0, 2) },
    });
    expect(again.json).toEqual({ accepted: 0, duplicates: 2 });

    const running = await call(app, "GET", path, { key });
    expect(running.json.state).toBe("running");
    expect(running.json.metrics).toEqual({ loss: 1.2, val_accuracy: 0.6 });
    expect(running.json.progress).toEqual({ epoch: 1, epochs: 2, step: 10, steps: 20 });

    const metrics = await call(app, "GET", `${path}/metrics?name=loss`, { key });
    expect(metrics.json.items).toEqual([
      expect.objectContaining({ name: "loss", step: 10, epoch: 1, value: 1.2 }),
    ]);
    const logs = await call(app, "GET", `${path}/logs?q=EPOCH`, { key });
    expect(logs.json.items.map((l: { message: string }) => l.message)).toEqual(["epoch 1/2 loss 1.2"]);

    // A checkpoint (torch.save's ZIP layout): streamed in, listed, downloaded byte for byte.
    const bytes = torchCheckpoint(3500);
    const ck = await call(
      app,
      "POST",
      `${path}/checkpoints?epoch=1&step=10&best=true&metrics=${encodeURIComponent('{"val_loss":0.5}')}`,
      {
        key: token,
        rawBody: bytes,
        headers: { "Content-Type": "application/octet-stream" },
      },
    );
    expect(ck.status, ck.text).toBe(201);
    expect(ck.json).toMatchObject({
      epoch: 1,
      is_best: true,
      size_bytes: bytes.byteLength,
      metrics: { val_loss: 0.5 },
    });
    const list = await call(app, "GET", `${path}/checkpoints`, { key });
    expect(list.json.items).toHaveLength(1);
    const dl = await app.request(`${path}/checkpoints/${ck.json.id}/download`, {
      headers: { Authorization: `Bearer ${key}` },
    });
    expect(dl.status).toBe(200);
    expect(new Uint8Array(await dl.arrayBuffer())).toEqual(bytes);

    const model = await call(app, "PUT", `${path}/artifact/model.onnx`, {
      key: token,
      rawBody: new Uint8Array([1, 2, 3]),
      headers: { "Content-Type": "application/octet-stream" },
    });
    expect(model.status, model.text).toBe(201);
    expect(
      (await call(app, "PUT", `${path}/artifact/manifest.json`, { key: token, rawBody: "{}" })).status,
    ).toBe(422);

    const done = await call(app, "POST", `${path}/metrics/events`, {
      key: token,
      body: { events: [{ kind: "status", status: "succeeded" }] },
    });
    expect(done.status).toBe(202);
    const finished = await call(app, "GET", path, { key });
    expect(finished.json.state).toBe("succeeded");
    expect(finished.json.artifact).toEqual({
      format: "onnx",
      files: [expect.objectContaining({ name: "model.onnx", size_bytes: 3 })],
    });
    const manifest = await call(app, "GET", `${path}/artifact/manifest.json`, { key });
    expect(manifest.json).toMatchObject({
      format: "onnx",
      job_id: job.id,
      dataset_version_id: "builtin-iris-v1",
    });

    // Finished: no more uploads; the token cannot be re-minted.
    const late = await call(app, "POST", `${path}/metrics/events`, {
      key: token,
      body: { events: [{ kind: "metric", name: "loss", value: 1, step: 99 }] },
    });
    expect(late.status).toBe(409);
    expect((await call(app, "POST", `${path}/stream-token`, { key })).status).toBe(409);
  });

  it("keeps each credential to its own routes and job", async () => {
    const { key } = await signUpWithKey(app);
    const a = await externalJob(key);
    const b = await externalJob(key);
    const tokenA = await uploadToken(key, a.id);
    const body = { events: [{ kind: "metric", name: "loss", value: 1, step: 1 }] };
    expect(
      (await call(app, "POST", `/api/v1/training/jobs/${b.id}/metrics/events`, { key: tokenA, body })).status,
    ).toBe(403);
    expect(
      (await call(app, "POST", `/api/v1/training/jobs/${a.id}/metrics/events`, { key, body })).status,
    ).toBe(403);
    expect((await call(app, "GET", `/api/v1/training/jobs/${a.id}`, { key: tokenA })).status).toBe(403);
    expect(
      (
        await call(app, "POST", `/api/v1/training/jobs/${a.id}/metrics/events`, {
          key: "lut_unknownunknownunknownunknown00",
          body,
        })
      ).status,
    ).toBe(401);
    const bad = await call(app, "POST", `/api/v1/training/jobs/${a.id}/metrics/events`, {
      key: tokenA,
      body: { events: [{ kind: "metric", name: "loss", value: "high", step: 1 }] },
    });
    expect(bad.status).toBe(422);
    expect(bad.json.errors[0].path).toMatch(/^body\.events\.0/);
  });

  it("fails with the uploaded reason", async () => {
    const { key } = await signUpWithKey(app);
    const job = await externalJob(key);
    const token = await uploadToken(key, job.id);
    await call(app, "POST", `/api/v1/training/jobs/${job.id}/metrics/events`, {
      key: token,
      body: { events: [{ kind: "status", status: "failed", message: "CUDA out of memory" }] },
    });
    const failed = await call(app, "GET", `/api/v1/training/jobs/${job.id}`, { key });
    expect(failed.json).toMatchObject({ state: "failed", reason: "CUDA out of memory" });
  });
});

describe("job states", () => {
  it("cancels, refuses a second cancel, restarts, and deletes only finished jobs", async () => {
    const { key } = await signUpWithKey(app);
    const job = await externalJob(key);
    const path = `/api/v1/training/jobs/${job.id}`;
    expect((await call(app, "POST", `${path}/restart`, { key })).status).toBe(409);
    const cancelled = await call(app, "POST", `${path}/cancel`, { key });
    expect(cancelled.json.state).toBe("cancelled");
    expect((await call(app, "POST", `${path}/cancel`, { key })).status).toBe(409);
    const restarted = await call(app, "POST", `${path}/restart`, { key });
    expect(restarted.json).toMatchObject({ state: "queued", restart_count: 1 });
    expect(restarted.json.status_history.map((s: { status: string }) => s.status)).toEqual([
      "queued",
      "cancelled",
      "queued",
    ]);

    const finished = await externalJob(key);
    await call(app, "POST", `/api/v1/training/jobs/${finished.id}/cancel`, { key });
    const del = await call(app, "POST", "/api/v1/training/jobs/bulk-delete", {
      key,
      body: { ids: [job.id, finished.id, "job_missing"] },
    });
    expect(del.json).toEqual({ deleted: [finished.id], not_found: ["job_missing"], active: [job.id] });
    expect((await call(app, "GET", `/api/v1/training/jobs/${finished.id}`, { key })).status).toBe(404);
    expect(
      (await call(app, "POST", "/api/v1/training/jobs/bulk-delete", { key, body: { ids: [] } })).status,
    ).toBe(422);
  });

  it("serves the job's code and DAG from its snapshot, not the project's later edits", async () => {
    const { key } = await signUpWithKey(app);
    const job = await externalJob(key);
    await call(app, "PUT", `/api/v1/projects/${job.project_id}`, { key, body: { name: "Renamed later" } });
    const zip = await app.request(`/api/v1/training/jobs/${job.id}/download-code`, {
      headers: { Authorization: `Bearer ${key}` },
    });
    expect(zip.status).toBe(200);
    expect(zip.headers.get("content-disposition")).toContain("iris-mlp-pytorch.zip");
    const dag = await call(app, "GET", `/api/v1/training/jobs/${job.id}/dag`, { key });
    expect(dag.status).toBe(200);
    expect(dag.json.graph.nodes.map((n: { type: string }) => n.type)).toEqual([
      "Input",
      "Dense",
      "Dense",
      "Output",
    ]);
  });
});

describe("the event stream", () => {
  it("replays from the start, resumes after Last-Event-ID with nothing lost or repeated, and closes after a terminal status", async () => {
    const { key } = await signUpWithKey(app);
    const job = await externalJob(key);
    const token = await uploadToken(key, job.id);
    const path = `/api/v1/training/jobs/${job.id}`;
    const metric = (step: number) => ({
      kind: "metric",
      name: "loss",
      value: 1 / step,
      step,
      id: `s${step}`,
    });
    await call(app, "POST", `${path}/metrics/events`, {
      key: token,
      body: { events: [1, 2, 3].map(metric) },
    });

    const mint = await call(app, "POST", `${path}/stream-access-token`, { key });
    expect(mint.status).toBe(201);
    expect(mint.json.token).toMatch(/^lst_/);
    const first = await app.request(mint.json.stream_url);
    expect(first.headers.get("content-type")).toContain("text/event-stream");
    // queued, running (first upload), 3 metrics
    const opening = await readSse(first, 5);
    expect(opening.map((e) => e.event)).toEqual(["status", "status", "metric", "metric", "metric"]);
    const ids = opening.map((e) => e.id);
    expect(ids).toEqual([...ids].sort((x, y) => x - y));
    const lastSeen = opening[3].id; // pretend the connection dropped after the second metric

    await call(app, "POST", `${path}/metrics/events`, { key: token, body: { events: [4, 5].map(metric) } });
    await call(app, "POST", `${path}/metrics/events`, {
      key: token,
      body: { events: [{ kind: "status", status: "succeeded" }] },
    });
    const resumed = await app.request(mint.json.stream_url, {
      headers: { "Last-Event-ID": String(lastSeen) },
    });
    const rest = await readSse(resumed);
    expect(rest.map((e) => (e.event === "metric" ? e.data.step : e.data.status))).toEqual([
      3,
      4,
      5,
      "succeeded",
    ]);
    expect(rest[0].id).toBe(lastSeen + 1);
    // Everything was seen: a browser reconnecting gets 204 and stops.
    const done = await app.request(mint.json.stream_url, {
      headers: { "Last-Event-ID": String(rest.at(-1)?.id) },
    });
    expect(done.status).toBe(204);

    const wrong = await call(app, "GET", `/api/v1/streaming/training-jobs/${job.id}/stream`, { key });
    expect(wrong.status).toBe(403);
    const otherJob = await externalJob(key);
    expect(
      (
        await call(
          app,
          "GET",
          `/api/v1/streaming/training-jobs/${otherJob.id}/stream?token=${mint.json.token}`,
        )
      ).status,
    ).toBe(404);
  });
});

describe("runtimes and dataset fit", () => {
  it("says which datasets fit the Iris model and why the others do not", async () => {
    const { key } = await signUpWithKey(app);
    const projectId = await irisProject(key);
    const fit = await call(app, "GET", `/api/v1/training/dataset-fit?project_id=${projectId}`, { key });
    expect(fit.status, fit.text).toBe(200);
    const byId = Object.fromEntries(fit.json.items.map((i: { dataset_id: string }) => [i.dataset_id, i]));
    expect(byId["builtin-iris"]).toMatchObject({ fits: true, reason: null });
    expect(byId["builtin-digits"].fits).toBe(false);
    expect(byId["builtin-digits"].reason).toMatch(/\d/);
    const runtimes = await call(app, "GET", "/api/v1/training/runtimes", { key });
    expect(runtimes.json.items.map((r: { runtime: string }) => r.runtime)).toEqual([
      "pytorch",
      "tfjs",
      "external",
    ]);
  });

  it("refuses to delete a dataset while a job trains on it", async () => {
    const { key } = await signUpWithKey(app);
    const rows = [
      ["a", "b", "c", "d", "label"],
      // Four features and three classes: it fits the Iris model (a dataset that does not is refused).
      ...Array.from({ length: 30 }, (_, i) => [i, i * 2, i % 3, 1, ["x", "y", "z"][i % 3]]),
    ];
    const up = await upload(app, key, csv(rows), "small.csv");
    expect(up.status, up.text).toBe(201);
    const datasetId = up.json.dataset.id as string;
    const projectId = await irisProject(key);
    const job = await createJob(key, { project_id: projectId, dataset_id: datasetId, runtime: "external" });
    expect(job.status, job.text).toBe(201);
    const busy = await call(app, "DELETE", `/api/v1/datasets/${datasetId}`, { key });
    expect(busy.status).toBe(409);
    expect(busy.json.detail).toContain(job.json.id);
    await call(app, "POST", `/api/v1/training/jobs/${job.json.id}/cancel`, { key });
    expect((await call(app, "DELETE", `/api/v1/datasets/${datasetId}`, { key })).status).toBe(204);
  });
});
