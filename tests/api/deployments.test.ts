/**
 * Deployments through the real app and database: a real Iris job trains (TF.js, the app served on
 * loopback so its program can upload, the durable job runner in this process), is deployed, and its
 * deployment serves the job's own validation rows with the job's validation accuracy (no
 * training/serving skew). Keys, idempotent replay, pause/resume, revisions and limits are checked.
 */
// The app first: it extends zod with .openapi() before the schema modules build their schemas.
import "@/lib/server/app";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sequential } from "@/lib/ml/graph-builder";
import { getDb, openDb } from "@/lib/server/db/client";
import { deployments } from "@/lib/server/db/schema";
import {
  appendDeploymentEvents,
  lastDeploymentEventSeq,
  listDeploymentEvents,
} from "@/lib/server/events/deployment-events";
import { DEPLOYMENT_STREAM_POLL_MS, subscribeDeploymentEvents } from "@/lib/server/events/deployment-stream";
import { type JobRunner, startJobRunner } from "@/lib/server/jobs/runner";
import { KEY_CACHE_WINDOW_MS } from "@/lib/server/modules/deployments/key-cache";
import { flushRequestLog } from "@/lib/server/modules/deployments/request-log";
import { pruneRequestLog } from "@/lib/server/modules/deployments/retention";
import { isRevisionWarm } from "@/lib/server/modules/serving/model-cache";
import { getJobRow } from "@/lib/server/modules/training/job-rows";
import { readEvaluationRows } from "@/lib/server/modules/training/materialize";
import { call, serveForUploads, signUpWithKey, startTestApp, type TestApp } from "../helpers";
import { readSse } from "../sse";
import { tempBlobDir } from "./projects.fixtures";
import { irisGraph, TERMINAL, waitFor } from "./training-fixtures";

tempBlobDir();
let app: TestApp;
let runner: JobRunner | null = null;
let close: () => void = () => {};
let key = "";
let otherKey = "";
let jobId = "";
let valAccuracy = 0;

const charLstmGraph = sequential({ shape: [16], dtype: "int64" }, [
  ["Embedding", { num_embeddings: 64, embedding_dim: 16 }],
  ["LSTM", { hidden_size: 32, num_layers: 1, return_sequences: false }],
  ["Dense", { units: 64 }],
]).graph;
let lmJobId = "";

async function train(graph: object, body: Record<string, unknown>): Promise<string> {
  const project = await call(app, "POST", "/api/v1/projects", { key, body: { name: "Model", graph } });
  expect(project.status, project.text).toBe(201);
  const r = await call(app, "POST", "/api/v1/training/jobs", {
    key,
    body: { project_id: project.json.id, ...body },
  });
  expect(r.status, r.text).toBe(201);
  const id = r.json.id as string;
  const job = await waitFor(`job ${id}`, 170_000, async () => {
    const got = await call(app, "GET", `/api/v1/training/jobs/${id}`, { key });
    return TERMINAL.includes(got.json.state) ? got.json : null;
  });
  expect(job.state, job.reason).toBe("succeeded");
  return id;
}

async function deploy(name: string, headers: Record<string, string> = {}) {
  const r = await call(app, "POST", "/api/v1/deployments", { key, body: { name, job_id: jobId }, headers });
  expect(r.status, r.text).toBe(201);
  return r;
}

const predict = (id: string, dk: string, inputs: unknown[], route = "predict") =>
  call(app, "POST", `/api/v1/inference/${id}/${route}`, { key: dk, body: { inputs } });

const setosa = { sepal_length_cm: 5.1, sepal_width_cm: 3.5, petal_length_cm: 1.4, petal_width_cm: 0.2 };

beforeAll(async () => {
  app = await startTestApp();
  close = await serveForUploads(app);
  runner = startJobRunner({ db: await getDb(), concurrency: 2, pollIntervalMs: 100 });
  ({ key } = await signUpWithKey(app));
  ({ key: otherKey } = await signUpWithKey(app));
  [jobId, lmJobId] = await Promise.all([
    train(irisGraph, {
      dataset_id: "builtin-iris",
      runtime: "tfjs",
      config: { epochs: 25, batch_size: 16, learning_rate: 0.02 },
    }),
    train(charLstmGraph, {
      dataset_id: "builtin-declaration",
      runtime: "pytorch",
      config: { epochs: 1, batch_size: 64, learning_rate: 0.01 },
    }),
  ]);
  const manifest = await call(app, "GET", `/api/v1/training/jobs/${jobId}/artifact/manifest.json`, { key });
  valAccuracy = manifest.json.metrics.val_accuracy;
}, 200_000);

afterAll(async () => {
  await runner?.stop({ graceMs: 2000 });
  close();
});

describe("deployments", () => {
  it("serves the job's validation rows with the job's validation accuracy", async () => {
    const d = await deploy("iris");
    expect(d.json.api_key).toMatch(/^ldk_/);
    expect(d.json.state).toBe("ready");
    expect(d.json.revision).toBe(1);
    const job = await getJobRow(await getDb(), jobId);
    if (!job?.preprocessing) throw new Error("no preprocessing");
    const rows = await readEvaluationRows(await getDb(), {
      ownerId: job.ownerId,
      datasetId: job.datasetId,
      datasetVersionId: job.datasetVersionId,
      preprocessing: job.preprocessing,
      config: job.config,
      split: "validation",
    });
    expect(rows.instances.length).toBe(30);
    const r = await predict(d.json.id, d.json.api_key, rows.instances);
    expect(r.status, r.text).toBe(200);
    expect(r.json.revision).toBe(1);
    expect(r.json.outputs).toHaveLength(30);
    const correct = r.json.outputs.filter(
      (o: { label: string }, i: number) => o.label === rows.targets[i],
    ).length;
    expect(correct / 30).toBeCloseTo(valAccuracy, 5);
    // The key is never shown again.
    const got = await call(app, "GET", `/api/v1/deployments/${d.json.id}`, { key });
    expect(got.status).toBe(200);
    expect(got.json.api_key).toBeUndefined();
    expect(d.json.api_key.startsWith(got.json.key_prefix)).toBe(true);
    // Concurrent calls (micro-batched) answer each request in order.
    const many = await Promise.all(
      rows.instances.map((inst) => predict(d.json.id, d.json.api_key, [inst, setosa])),
    );
    many.forEach((m, i) => {
      expect(m.json.outputs[0]).toEqual(r.json.outputs[i]);
      expect(m.json.outputs[1].label).toBe("setosa");
    });
  });

  it("replays an idempotent creation without the key", async () => {
    const headers = { "Idempotency-Key": `dep-${Date.now()}` };
    const first = await deploy("idem", headers);
    const again = await call(app, "POST", "/api/v1/deployments", {
      key,
      body: { name: "idem", job_id: jobId },
      headers,
    });
    expect(again.status).toBe(201);
    expect(again.res.headers.get("idempotency-replayed")).toBe("true");
    expect(again.res.headers.get("idempotency-secret-redacted")).toBe("true");
    expect(again.json.api_key).toBeNull();
    expect(again.json.id).toBe(first.json.id);
  });

  it("keeps keys apart: deployment keys on management and other deployments, personal keys on inference", async () => {
    const a = await deploy("a");
    const b = await deploy("b");
    const mgmt = await call(app, "GET", `/api/v1/deployments/${a.json.id}`, { key: a.json.api_key });
    expect(mgmt.status).toBe(403);
    expect(mgmt.res.headers.get("content-type")).toContain("application/problem+json");
    expect((await predict(b.json.id, a.json.api_key, [setosa])).status).toBe(403);
    expect((await predict(a.json.id, key, [setosa])).status).toBe(403);
    expect((await predict(a.json.id, "ldk_notakey", [setosa])).status).toBe(401);
    // Another account's deployment is not found.
    expect((await call(app, "GET", `/api/v1/deployments/${a.json.id}`, { key: otherKey })).status).toBe(404);
    const list = await call(app, "GET", "/api/v1/deployments?limit=2", { key });
    expect(list.status).toBe(200);
    expect(list.json.items).toHaveLength(2);
    expect(list.json.total).toBeGreaterThanOrEqual(3);
    expect(list.json.items[0].id).toBe(b.json.id);
  });

  it("rotates the key with no grace period", async () => {
    const d = await deploy("rotate");
    const r = await call(app, "POST", `/api/v1/deployments/${d.json.id}/rotate-key`, { key });
    expect(r.status).toBe(200);
    expect(r.json.api_key).toMatch(/^ldk_/);
    expect(r.json.api_key).not.toBe(d.json.api_key);
    expect((await predict(d.json.id, d.json.api_key, [setosa])).status).toBe(401);
    expect((await predict(d.json.id, r.json.api_key, [setosa])).status).toBe(200);
  });

  it("pauses (503 with Retry-After) and resumes", async () => {
    const d = await deploy("pause");
    expect((await call(app, "POST", `/api/v1/deployments/${d.json.id}/pause`, { key })).json.state).toBe(
      "paused",
    );
    const paused = await predict(d.json.id, d.json.api_key, [setosa]);
    expect(paused.status).toBe(503);
    expect(Number(paused.res.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(paused.json.status).toBe(503);
    const health = await call(app, "GET", `/api/v1/deployments/${d.json.id}/health`, { key });
    expect(health.json.status).toBe("paused");
    expect((await call(app, "POST", `/api/v1/deployments/${d.json.id}/resume`, { key })).json.state).toBe(
      "ready",
    );
    expect((await predict(d.json.id, d.json.api_key, [setosa])).status).toBe(200);
    const ih = await call(app, "GET", `/api/v1/inference/${d.json.id}/health`, { key: d.json.api_key });
    expect(ih.json).toEqual({ status: "ok", revision: 1 });
  });

  it("makes a new revision on update, listed newest first", async () => {
    const d = await deploy("update");
    const renamed = await call(app, "PUT", `/api/v1/deployments/${d.json.id}`, {
      key,
      body: { name: "renamed" },
    });
    expect(renamed.json).toMatchObject({ name: "renamed", revision: 1 });
    const u = await call(app, "PUT", `/api/v1/deployments/${d.json.id}`, {
      key,
      body: { job_id: jobId, settings: { max_batch_size: 8 } },
    });
    expect(u.status, u.text).toBe(200);
    expect(u.json.revision).toBe(2);
    const revs = await call(app, "GET", `/api/v1/deployments/${d.json.id}/revisions`, { key });
    expect(revs.json.map((r: { number: number }) => r.number)).toEqual([2, 1]);
    // Loaded when it was made: warm before its first call.
    expect(isRevisionWarm(revs.json[0].id)).toBe(true);
    expect((await predict(d.json.id, d.json.api_key, [setosa])).json.revision).toBe(2);
    const missing = await call(app, "PUT", `/api/v1/deployments/${d.json.id}`, {
      key,
      body: { job_id: "job_nope" },
    });
    expect(missing.status).toBe(404);
  });

  it("publishes a schema whose example predicts, and names the instance and field of a bad input", async () => {
    const d = await deploy("schema");
    const s = await call(app, "GET", `/api/v1/inference/${d.json.id}/schema`, { key: d.json.api_key });
    expect(s.status).toBe(200);
    expect(Object.keys(s.json.input_schema.properties)).toEqual([
      "sepal_length_cm",
      "sepal_width_cm",
      "petal_length_cm",
      "petal_width_cm",
    ]);
    expect(s.json.output_schema.properties.label.enum).toEqual(["setosa", "versicolor", "virginica"]);
    const ex = await call(app, "POST", `/api/v1/inference/${d.json.id}/predict`, {
      key: d.json.api_key,
      body: s.json.example,
    });
    expect(ex.status, ex.text).toBe(200);
    expect(ex.json.outputs).toHaveLength(1);
    const bad = await predict(d.json.id, d.json.api_key, [setosa, { ...setosa, petal_width_cm: "wide" }]);
    expect(bad.status).toBe(422);
    expect(bad.json.errors[0].path).toBe("inputs.1.petal_width_cm");
    const { petal_length_cm: _, ...partial } = setosa;
    const missing = await predict(d.json.id, d.json.api_key, [partial]);
    expect(missing.status).toBe(422);
    expect(missing.json.errors[0].path).toBe("inputs.0.petal_length_cm");
  });

  it("serves a character language model: text in, the next character's distribution out", async () => {
    const r = await call(app, "POST", "/api/v1/deployments", { key, body: { name: "lm", job_id: lmJobId } });
    expect(r.status, r.text).toBe(201);
    const dk = r.json.api_key as string;
    const s = await call(app, "GET", `/api/v1/inference/${r.json.id}/schema`, { key: dk });
    expect(s.status).toBe(200);
    const ex = await call(app, "POST", `/api/v1/inference/${r.json.id}/predict`, {
      key: dk,
      body: s.json.example,
    });
    expect(ex.status, ex.text).toBe(200);
    const p = await predict(r.json.id, dk, ["We hold these truths", { text: "All men are created " }]);
    expect(p.status, p.text).toBe(200);
    for (const o of p.json.outputs) {
      expect(typeof o.label).toBe("string");
      const total = Object.values(o.probabilities as Record<string, number>).reduce((a, b) => a + b, 0);
      expect(total).toBeGreaterThan(0.99);
    }
  });

  it("enforces 1–100 per predict and up to 10,000 per batch", async () => {
    const d = await deploy("limits");
    const dk = d.json.api_key as string;
    expect((await predict(d.json.id, dk, [])).status).toBe(422);
    expect((await predict(d.json.id, dk, Array(100).fill(setosa))).status).toBe(200);
    expect((await predict(d.json.id, dk, Array(101).fill(setosa))).status).toBe(422);
    const big = await predict(d.json.id, dk, Array(10_000).fill(setosa), "batch");
    expect(big.status).toBe(200);
    expect(big.json.outputs).toHaveLength(10_000);
    expect((await predict(d.json.id, dk, Array(10_001).fill(0), "batch")).status).toBe(422);
  });

  it("refuses unknown model versions, unfinished jobs and deleted deployments", async () => {
    const mv = await call(app, "POST", "/api/v1/deployments", {
      key,
      body: { name: "mv", model_version_id: "mv_1" },
    });
    expect(mv.status).toBe(404);
    const both = await call(app, "POST", "/api/v1/deployments", {
      key,
      body: { name: "x", job_id: jobId, model_version_id: "mv_1" },
    });
    expect(both.status).toBe(422);
    const project = await call(app, "POST", "/api/v1/projects", {
      key,
      body: { name: "Q", graph: irisGraph },
    });
    const queued = await call(app, "POST", "/api/v1/training/jobs", {
      key,
      body: {
        project_id: project.json.id,
        dataset_id: "builtin-iris",
        runtime: "tfjs",
        config: { epochs: 1 },
      },
    });
    expect(queued.status, queued.text).toBe(201);
    const early = await call(app, "POST", "/api/v1/deployments", {
      key,
      body: { name: "q", job_id: queued.json.id },
    });
    expect(early.status).toBe(409);
    expect(early.res.headers.get("content-type")).toContain("application/problem+json");
    const d = await deploy("delete");
    expect((await call(app, "DELETE", `/api/v1/deployments/${d.json.id}`, { key })).status).toBe(204);
    expect((await call(app, "GET", `/api/v1/deployments/${d.json.id}`, { key })).status).toBe(404);
    expect((await predict(d.json.id, d.json.api_key, [setosa])).status).toBe(401);
  });
});

describe("deploying registry model versions", () => {
  it("deploys a finalized version in one call, serving what the job's deployment serves", async () => {
    const model = await call(app, "POST", "/api/v1/models", { key, body: { name: "iris-registry" } });
    expect(model.status, model.text).toBe(201);
    const pending = await call(app, "POST", `/api/v1/models/${model.json.id}/versions`, { key, body: {} });
    expect(pending.status, pending.text).toBe(201);
    const early = await call(app, "POST", "/api/v1/deployments/from-model-version", {
      key,
      body: { model_version_id: pending.json.id },
    });
    expect(early.status).toBe(409);

    const version = await call(app, "POST", `/api/v1/models/${model.json.id}/versions`, {
      key,
      body: { job_id: jobId },
    });
    expect(version.status, version.text).toBe(201);
    const fin = await call(app, "POST", `/api/v1/model-versions/${version.json.id}/finalize`, { key });
    expect(fin.status, fin.text).toBe(200);

    const headers = { "Idempotency-Key": `mv-${version.json.id}` };
    const d = await call(app, "POST", "/api/v1/deployments/from-model-version", {
      key,
      headers,
      body: { model_version_id: version.json.id },
    });
    expect(d.status, d.text).toBe(201);
    expect(d.json).toMatchObject({
      name: `iris-registry-v${version.json.version}`,
      model_version_id: version.json.id,
      job_id: jobId,
      revision: 1,
    });
    expect(d.json.api_key).toMatch(/^ldk_/);
    const replay = await call(app, "POST", "/api/v1/deployments/from-model-version", {
      key,
      headers,
      body: { model_version_id: version.json.id },
    });
    expect(replay.status).toBe(201);
    expect(replay.json.id).toBe(d.json.id);
    expect(replay.json.api_key).toBeNull();
    expect(replay.res.headers.get("idempotency-secret-redacted")).toBe("true");

    const fromJob = await deploy("iris-from-job");
    const rows = [
      setosa,
      { sepal_length_cm: 6.7, sepal_width_cm: 3.0, petal_length_cm: 5.2, petal_width_cm: 2.3 },
    ];
    const a = await predict(d.json.id, d.json.api_key, rows);
    const b = await predict(fromJob.json.id, fromJob.json.api_key, rows);
    expect(a.status, a.text).toBe(200);
    expect(a.json.outputs).toEqual(b.json.outputs);

    // Another account cannot deploy it; a job deployment can move to the version as a new revision.
    const foreign = await call(app, "POST", "/api/v1/deployments/from-model-version", {
      key: otherKey,
      body: { model_version_id: version.json.id },
    });
    expect(foreign.status).toBe(404);
    const moved = await call(app, "PUT", `/api/v1/deployments/${fromJob.json.id}`, {
      key,
      body: { model_version_id: version.json.id },
    });
    expect(moved.status, moved.text).toBe(200);
    expect(moved.json).toMatchObject({ revision: 2, model_version_id: version.json.id });
    const revs = await call(app, "GET", `/api/v1/deployments/${fromJob.json.id}/revisions`, { key });
    expect(revs.json[0]).toMatchObject({ source: "model_version", model_version_id: version.json.id });
  });
});

describe("deployments following a registry alias", () => {
  it("serve the alias's version and move with it; another model given by hand stops following", async () => {
    const model = await call(app, "POST", "/api/v1/models", { key, body: { name: "iris-alias" } });
    const push = async () => {
      const v = await call(app, "POST", `/api/v1/models/${model.json.id}/versions`, {
        key,
        body: { job_id: jobId },
      });
      expect(v.status, v.text).toBe(201);
      await call(app, "POST", `/api/v1/model-versions/${v.json.id}/finalize`, { key });
      return v.json.id as string;
    };
    const v1 = await push();
    const v2 = await push();
    const alias = `/api/v1/models/${model.json.id}/aliases/champion`;
    expect((await call(app, "PUT", alias, { key, body: { version_id: v1 } })).status).toBe(200);

    const d = await call(app, "POST", "/api/v1/deployments/from-model-version", {
      key,
      body: { model_id: model.json.id, alias: "champion" },
    });
    expect(d.status, d.text).toBe(201);
    expect(d.json).toMatchObject({
      name: "iris-alias-champion",
      model_version_id: v1,
      follows: { model_id: model.json.id, alias: "champion" },
      revision: 1,
    });
    const bad = await call(app, "POST", "/api/v1/deployments/from-model-version", {
      key,
      body: { model_id: model.json.id },
    });
    expect(bad.status).toBe(422);
    const unknown = await call(app, "POST", "/api/v1/deployments/from-model-version", {
      key,
      body: { model_id: model.json.id, alias: "nope" },
    });
    expect(unknown.status).toBe(404);

    // Moving the alias moves the deployment: a new revision serving v2, and it still serves.
    const moved = await call(app, "PUT", alias, { key, body: { version_id: v2 } });
    expect(moved.json.deployments_updated).toEqual([d.json.id]);
    const now = await call(app, "GET", `/api/v1/deployments/${d.json.id}`, { key });
    expect(now.json).toMatchObject({ revision: 2, model_version_id: v2, follows: { alias: "champion" } });
    expect((await predict(d.json.id, d.json.api_key, [setosa])).status).toBe(200);
    // Setting it on the version it already names changes nothing.
    expect(
      (await call(app, "PUT", alias, { key, body: { version_id: v2 } })).json.deployments_updated,
    ).toEqual([]);

    // Rolled back by hand, it stops following; the next move leaves it alone.
    const back = await call(app, "PUT", `/api/v1/deployments/${d.json.id}`, {
      key,
      body: { from_revision: 1 },
    });
    expect(back.json).toMatchObject({ revision: 3, model_version_id: v1, follows: null });
    const again = await call(app, "PUT", alias, { key, body: { version_id: v1 } });
    expect(again.json.deployments_updated).toEqual([]);
    expect(
      (await call(app, "PUT", alias, { key, body: { version_id: v2 } })).json.deployments_updated,
    ).toEqual([]);
    expect((await call(app, "GET", `/api/v1/deployments/${d.json.id}`, { key })).json.revision).toBe(3);
  });
});

describe("deployment monitoring", () => {
  it("logs every call, computes metrics from them, and pages the log", async () => {
    const d = await deploy("monitored");
    const dk = d.json.api_key as string;
    for (let i = 0; i < 5; i++) expect((await predict(d.json.id, dk, [setosa, setosa])).status).toBe(200);
    expect((await predict(d.json.id, dk, [{ sepal_length_cm: 1 }])).status).toBe(422);
    await call(app, "POST", `/api/v1/deployments/${d.json.id}/pause`, { key });
    expect((await predict(d.json.id, dk, [setosa])).status).toBe(503);
    await flushRequestLog();

    const m = await call(app, "GET", `/api/v1/deployments/${d.json.id}/metrics?window=1h`, { key });
    expect(m.status, m.text).toBe(200);
    expect(m.json.totals).toMatchObject({ requests: 7, errors: 1, client_errors: 1 });
    expect(m.json.totals.p50_ms).toBeGreaterThan(0);
    expect(m.json.totals.p99_ms).toBeGreaterThanOrEqual(m.json.totals.p50_ms);
    expect(m.json.bucket_seconds).toBe(60);
    expect(m.json.series.reduce((n: number, p: { requests: number }) => n + p.requests, 0)).toBe(7);

    const logs = await call(app, "GET", `/api/v1/deployments/${d.json.id}/logs?limit=3`, { key });
    expect(logs.status, logs.text).toBe(200);
    expect(logs.json.items).toHaveLength(3);
    const [paused, invalid] = logs.json.items;
    expect(paused).toMatchObject({ kind: "request", route: "predict", status: 503, instances: 1 });
    expect(paused.error).toContain("paused");
    expect(invalid).toMatchObject({ status: 422, instances: 1 });
    expect(invalid.error).toContain("Instance 0");
    const older = await call(
      app,
      "GET",
      `/api/v1/deployments/${d.json.id}/logs?limit=1000&before=${logs.json.next_before}&status=ok`,
      { key },
    );
    // The first page held the two failures and the last success: four successes are older.
    expect(older.json.items).toHaveLength(4);
    expect(older.json.items.every((e: { status: number; instances: number }) => e.status === 200)).toBe(true);
    expect(older.json.next_before).toBeNull();
    expect((await call(app, "GET", `/api/v1/deployments/${d.json.id}/logs?limit=1001`, { key })).status).toBe(
      422,
    );
    expect(
      (await call(app, "GET", `/api/v1/deployments/${d.json.id}/metrics?window=2y`, { key })).status,
    ).toBe(422);
    // Another account sees nothing; the deployment's own key is refused on management routes.
    expect((await call(app, "GET", `/api/v1/deployments/${d.json.id}/logs`, { key: otherKey })).status).toBe(
      404,
    );
    expect((await call(app, "GET", `/api/v1/deployments/${d.json.id}/metrics`, { key: dk })).status).toBe(
      403,
    );
  });

  it("keeps the request log for its retention: older request lines are pruned, history stays", async () => {
    const d = await deploy("retained");
    const db = await getDb();
    const day = 86_400_000;
    const line = (daysAgo: number) => ({
      kind: "request" as const,
      at: new Date(Date.now() - daysAgo * day),
      route: "predict",
      status: 200,
      latencyMs: 1,
      data: { route: "predict", status: 200, latency_ms: 1, days_ago: daysAgo },
    });
    await appendDeploymentEvents(db, d.json.id, [line(45), line(31), line(29), line(1)]);
    await appendDeploymentEvents(db, d.json.id, [
      { kind: "log", at: new Date(Date.now() - 60 * day), data: { message: "old history" } },
    ]);
    const deleted = await pruneRequestLog(db);
    expect(deleted).toBeGreaterThanOrEqual(2);
    const logs = await call(app, "GET", `/api/v1/deployments/${d.json.id}/logs?limit=1000`, { key });
    const kept = (logs.json.items as { kind: string; at: string }[]).filter((e) => e.kind === "request");
    expect(kept.map((e) => Math.round((Date.now() - Date.parse(e.at)) / day)).sort((a, b) => a - b)).toEqual([
      1, 29,
    ]);
    const history = await listDeploymentEvents(db, d.json.id, 0, 100, ["log", "revision", "status"]);
    expect(history.some((e) => e.data.message === "old history")).toBe(true);
  });

  it("streams status, request, log and revision events, resuming after Last-Event-ID", async () => {
    const d = await deploy("streamed");
    const dk = d.json.api_key as string;
    const minted = await call(app, "POST", `/api/v1/deployments/${d.json.id}/stream-access-token`, { key });
    expect(minted.status, minted.text).toBe(201);
    expect(minted.json.token).toMatch(/^lst_/);
    const open = (lastEventId?: number) =>
      app.request(minted.json.stream_url, {
        headers: { Host: "localhost", ...(lastEventId ? { "Last-Event-ID": String(lastEventId) } : {}) },
      });
    const first = await open();
    expect(first.headers.get("content-type")).toContain("text/event-stream");
    const opening = await readSse(first, 2);
    expect(opening.map((e) => e.event)).toEqual(["revision", "status"]);
    expect(opening[1].data).toMatchObject({ state: "ready" });

    const live = await open(opening[1].id);
    const reading = readSse(live, 4);
    expect((await predict(d.json.id, dk, [setosa])).status).toBe(200);
    await flushRequestLog();
    await call(app, "POST", `/api/v1/deployments/${d.json.id}/pause`, { key });
    await call(app, "POST", `/api/v1/deployments/${d.json.id}/rotate-key`, { key });
    await call(app, "PUT", `/api/v1/deployments/${d.json.id}`, { key, body: { from_revision: 1 } });
    const events = await reading;
    expect(events.map((e) => e.event)).toEqual(["request", "status", "log", "revision"]);
    expect(events[0].data).toMatchObject({ route: "predict", status: 200, instances: 1 });
    expect(events[1].data).toMatchObject({ state: "paused", previous: "ready" });
    expect(events[3].data).toMatchObject({ number: 2, rolled_back_from: 1 });
    expect(events.map((e) => e.id)).toEqual([3, 4, 5, 6]);

    // A token opens only its own deployment's stream; another deployment's id is a 404.
    const other = await deploy("other-stream");
    const wrong = await app.request(minted.json.stream_url.replace(d.json.id, other.json.id), {
      headers: { Host: "localhost" },
    });
    expect(wrong.status).toBe(404);
    // Deleting ends the stream with a `deleted` status.
    const tail = await open(6);
    const ending = readSse(tail);
    await call(app, "DELETE", `/api/v1/deployments/${d.json.id}`, { key });
    const last = await ending;
    expect(last.at(-1)).toMatchObject({ event: "status", data: { state: "deleted" } });
  });

  it.skipIf(!process.env.TEST_DATABASE_URL)(
    "wakes a stream at once on another process's append (PostgreSQL LISTEN/NOTIFY)",
    async () => {
      const d = await deploy("listened");
      const db = await getDb();
      // Another server process: its own connections, and appends this process never hears of.
      const other = await openDb({ kind: "postgres", url: process.env.TEST_DATABASE_URL ?? "" });
      try {
        const start = (await lastDeploymentEventSeq(db, d.json.id)) ?? 0;
        const received = new Map<number, number>();
        const unsubscribe = subscribeDeploymentEvents(db, d.json.id, start, (events) => {
          for (const e of events) received.set(e.id, Date.now());
        });
        await new Promise((r) => setTimeout(r, 300));
        const delays: number[] = [];
        for (let i = 1; i <= 5; i++) {
          const sent = Date.now();
          await appendDeploymentEvents(other.db, d.json.id, [
            { kind: "log", data: { message: `elsewhere ${i}` } },
          ]);
          await waitFor(`event ${start + i}`, 3000, async () => (received.has(start + i) ? true : null));
          delays.push((received.get(start + i) ?? 0) - sent);
          await new Promise((r) => setTimeout(r, 100));
        }
        unsubscribe();
        // The poll alone (every DEPLOYMENT_STREAM_POLL_MS) would leave some of these waiting far longer.
        expect(DEPLOYMENT_STREAM_POLL_MS).toBeGreaterThanOrEqual(1000);
        expect(Math.max(...delays)).toBeLessThan(300);
      } finally {
        await other.close();
      }
    },
  );

  it("rolls back to an earlier revision's model and settings", async () => {
    const d = await deploy("rollback");
    await call(app, "PUT", `/api/v1/deployments/${d.json.id}`, {
      key,
      body: { settings: { max_batch_size: 8 } },
    });
    const back = await call(app, "PUT", `/api/v1/deployments/${d.json.id}`, {
      key,
      body: { from_revision: 1 },
    });
    expect(back.status, back.text).toBe(200);
    expect(back.json).toMatchObject({
      revision: 3,
      job_id: jobId,
      settings: {},
      task: "classification",
    });
    const revs = await call(app, "GET", `/api/v1/deployments/${d.json.id}/revisions`, { key });
    expect(revs.json.map((r: { number: number }) => r.number)).toEqual([3, 2, 1]);
    const missing = await call(app, "PUT", `/api/v1/deployments/${d.json.id}`, {
      key,
      body: { from_revision: 9 },
    });
    expect(missing.status).toBe(404);
    const both = await call(app, "PUT", `/api/v1/deployments/${d.json.id}`, {
      key,
      body: { from_revision: 1, job_id: jobId },
    });
    expect(both.status).toBe(422);
  });
});

describe("deployment key checks across server processes", () => {
  it("sees a change made by another process within the key cache's quarter second", async () => {
    const d = await deploy("cross-process");
    const dk = d.json.api_key as string;
    expect((await predict(d.json.id, dk, [setosa])).status).toBe(200);
    // Another server pauses it: the database changes, this process is not told.
    await (await getDb()).update(deployments).set({ state: "paused" }).where(eq(deployments.id, d.json.id));
    await new Promise((r) => setTimeout(r, KEY_CACHE_WINDOW_MS + 50));
    const paused = await predict(d.json.id, dk, [setosa]);
    expect(paused.status).toBe(503);
    // A change made here is seen at once.
    await call(app, "POST", `/api/v1/deployments/${d.json.id}/resume`, { key });
    expect((await predict(d.json.id, dk, [setosa])).status).toBe(200);
    const rotated = await call(app, "POST", `/api/v1/deployments/${d.json.id}/rotate-key`, { key });
    expect((await predict(d.json.id, dk, [setosa])).status).toBe(401);
    expect((await predict(d.json.id, rotated.json.api_key, [setosa])).status).toBe(200);
  });
});
