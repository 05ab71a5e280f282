/**
 * Audits through the real app and database: publish (POST /audits) → steps → complete → report;
 * share links read without a credential and without private data; candidates that start real
 * fine-tuning runs (the committed catalog's breast-cancer MLP, a few seeded epochs on PyTorch) and
 * are measured on held-out calls; deploy, cancel (runs cancelled, deployments paused), delete
 * (datasets, runs, projects, deployments all gone), and another account's audit → 404.
 */
// Zod's OpenAPI extension before any schema is built (the app's route schemas call .openapi()).
import "@hono/zod-openapi";
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runAuditCommand } from "@/cli/src/commands/audit";
import { createApiClient } from "@/lib/api/client";
import { parseCallsJsonl } from "@/lib/audits/parse-log";
import { groupWorkloads } from "@/lib/audits/workloads";
import { ensureInProcessRunner } from "@/lib/server/jobs/runner";
import { call, serveForUploads, signUpWithKey } from "../helpers";
import { startDatasetTestApp } from "./datasets-helpers";

process.env.RATE_LIMIT_PER_MINUTE = "100000";
const { app } = await startDatasetTestApp("layerline-audits-blobs");
let stopServer: () => void = () => {};
afterAll(() => stopServer());

const A = "/api/v1/audits";
let key = "";

/** The shipped sample log's workloads, as the CLI would publish them. */
function sampleWorkloads() {
  const text = fs.readFileSync(
    path.join(import.meta.dirname, "../../data/samples/support-calls.jsonl"),
    "utf8",
  );
  const { calls, errors } = parseCallsJsonl(text);
  expect(errors).toEqual([]);
  return groupWorkloads(calls).map((g) => ({
    name: g.name,
    task: g.task,
    model: g.model,
    calls: g.calls.map((c) => ({
      input: c.input,
      output: c.output,
      latency_ms: c.latency_ms,
      cost: c.cost,
      timestamp: c.timestamp,
    })),
  }));
}

async function publish(k: string, extra: Record<string, unknown> = {}) {
  const r = await call(app, "POST", A, {
    key: k,
    body: { name: "Support desk", source: "support-calls.jsonl", workloads: sampleWorkloads(), ...extra },
  });
  expect(r.status, r.text).toBe(201);
  return r.json;
}

async function waitForRun(runId: string, timeoutMs = 120_000) {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const r = await call(app, "GET", `/api/v1/training/jobs/${runId}`, { key });
    expect(r.status, r.text).toBe(200);
    if (["succeeded", "failed", "cancelled", "timed_out"].includes(r.json.state)) return r.json;
    if (Date.now() > until) throw new Error(`run ${runId} still ${r.json.state}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

beforeAll(async () => {
  stopServer = await serveForUploads(app);
  key = (await signUpWithKey(app)).key;
  await ensureInProcessRunner();
});

describe("publishing and reading audits", () => {
  it("creates a running audit with its workloads split into training and held-out calls", async () => {
    const a = await publish(key);
    expect(a.state).toBe("running");
    expect(a.workloads.map((w: { name: string; task: string }) => [w.name, w.task])).toEqual([
      ["gpt-4o-generation", "generation"],
      ["gpt-4o-mini-classification", "classification"],
    ]);
    const cls = a.workloads.find((w: { task: string }) => w.task === "classification");
    const gen = a.workloads.find((w: { task: string }) => w.task === "generation");
    expect(cls.model).toBe("gpt-4o-mini");
    expect(gen.model).toBe("gpt-4o");
    expect(cls.labels).toEqual(["account", "billing", "bug", "feature_request", "shipping"]);
    expect(cls.training_calls + cls.holdout_calls).toBe(300);
    expect(cls.holdout_calls).toBe(60);
    expect(cls.current.cost_per_1k).toBeGreaterThan(0);
    expect(cls.current.latency_p95_ms).toBeGreaterThanOrEqual(cls.current.latency_p50_ms);

    const step = await call(app, "POST", `${A}/${a.id}/steps`, {
      key,
      body: { name: "parse", status: "succeeded", message: "360 calls" },
    });
    expect(step.status, step.text).toBe(201);
    const list = await call(app, "GET", `${A}?limit=5`, { key });
    expect(list.status).toBe(200);
    expect(list.json).toMatchObject({ total: 1, page: 1, limit: 5, pages: 1 });
    expect(list.json.items[0].steps.map((s: { name: string }) => s.name)).toEqual(["parse"]);

    const done = await call(app, "POST", `${A}/${a.id}/complete`, {
      key,
      body: { summary: { text: "done" } },
    });
    expect(done.status, done.text).toBe(200);
    expect(done.json.state).toBe("completed");
    expect(done.json.completed_at).not.toBeNull();
    expect((await call(app, "POST", `${A}/${a.id}/complete`, { key, body: { summary: {} } })).status).toBe(
      409,
    );

    const report = await call(app, "GET", `${A}/${a.id}/report`, { key });
    expect(report.status, report.text).toBe(200);
    expect(report.json.workloads).toHaveLength(2);
    expect(report.json.totals.calls).toBe(360);
    expect(report.json.quality_metrics).toEqual({
      classification: "accuracy",
      generation: "levenshtein_similarity",
    });
  });

  it("validates the body and pages", async () => {
    const bad = await call(app, "POST", A, {
      key,
      body: { name: "x", workloads: [{ name: "w", task: "other", model: "m", calls: [] }] },
    });
    expect(bad.status).toBe(422);
    expect(bad.res.headers.get("content-type")).toContain("application/problem+json");
    expect((await call(app, "GET", `${A}?limit=101`, { key })).status).toBe(422);
    expect((await call(app, "GET", A)).status).toBe(401);
  });

  it("shares a report that anyone can read, without private data unless inputs were published", async () => {
    const a = await publish(key);
    const share = await call(app, "POST", `${A}/${a.id}/share`, { key });
    expect(share.status, share.text).toBe(201);
    expect(share.json.token).toMatch(/^las_[A-Za-z0-9]{40}$/);
    expect(share.json.url).toMatch(new RegExp(`/audits/shared/${share.json.token}$`));
    const pub = await call(app, "GET", `${A}/shared/${share.json.token}`);
    expect(pub.status, pub.text).toBe(200);
    expect(pub.json.audit.id).toBe(a.id);
    expect(pub.json.inputs_published).toBe(false);
    expect(pub.text).not.toContain("charged twice");
    expect(pub.text).not.toContain(share.json.token);
    expect((await call(app, "GET", `${A}/${a.id}`, { key })).json.shared).toBe(true);
    // A new link replaces the old one; revoking ends it.
    const again = await call(app, "POST", `${A}/${a.id}/share`, { key });
    expect((await call(app, "GET", `${A}/shared/${share.json.token}`)).status).toBe(404);
    expect((await call(app, "DELETE", `${A}/${a.id}/share`, { key })).status).toBe(204);
    expect((await call(app, "GET", `${A}/shared/${again.json.token}`)).status).toBe(404);
    expect((await call(app, "GET", `${A}/shared/las_nothing`)).status).toBe(404);
  });

  it("hides another account's audit (404) and its share stays readable only by token", async () => {
    const a = await publish(key);
    const other = await signUpWithKey(app);
    for (const [m, p] of [
      ["GET", `${A}/${a.id}`],
      ["GET", `${A}/${a.id}/report`],
      ["POST", `${A}/${a.id}/share`],
      ["POST", `${A}/${a.id}/cancel`],
      ["DELETE", `${A}/${a.id}`],
      ["GET", `${A}/${a.id}/candidates`],
    ] as const)
      expect((await call(app, m, p, { key: other.key })).status, `${m} ${p}`).toBe(404);
    const step = await call(app, "POST", `${A}/${a.id}/steps`, {
      key: other.key,
      body: { name: "x", status: "running" },
    });
    expect(step.status).toBe(404);
    expect((await call(app, "GET", A, { key: other.key })).json.total).toBe(0);
  });
});

describe("candidates", () => {
  let auditId = "";
  let workloadId = "";
  let candidateId = "";
  let runId = "";
  let datasetId = "";
  let projectId = "";
  let deploymentId = "";

  it("makes the workload's dataset and starts a real fine-tuning run that is evaluated on held-out calls", async () => {
    const a = await publish(key, { publish_inputs: true });
    auditId = a.id;
    workloadId = a.workloads.find((w: { task: string }) => w.task === "classification").id;
    const ds = await call(app, "POST", `${A}/${auditId}/workloads/${workloadId}/dataset`, { key, body: {} });
    expect(ds.status, ds.text).toBe(201);
    expect(ds.json.rows).toBe(240);
    datasetId = ds.json.dataset_id;
    const again = await call(app, "POST", `${A}/${auditId}/workloads/${workloadId}/dataset`, {
      key,
      body: {},
    });
    expect(again.status).toBe(200);
    expect(again.json.dataset_id).toBe(datasetId);
    const dataset = await call(app, "GET", `/api/v1/datasets/${datasetId}`, { key });
    expect(dataset.status, dataset.text).toBe(200);

    const early = await call(app, "POST", `${A}/${auditId}/workloads/${workloadId}/candidates`, {
      key,
      body: { recipe_id: "char-lstm-lm", base_model_id: "char-lstm-declaration" },
    });
    expect(early.status).toBe(422);

    const c = await call(app, "POST", `${A}/${auditId}/workloads/${workloadId}/candidates`, {
      key,
      body: {
        recipe_id: "tabular-mlp-classifier",
        base_model_id: "breast-cancer-mlp",
        config: { epochs: 40, seed: 7 },
      },
    });
    expect(c.status, c.text).toBe(201);
    expect(c.json.state).toBe("training");
    candidateId = c.json.id;
    runId = c.json.run.id;
    const run = await call(app, "GET", `/api/v1/training/foundation-runs/${runId}`, { key });
    expect(run.status).toBe(200);
    expect(run.json.base_model.id).toBe("breast-cancer-mlp");
    expect(run.json.dataset_id).toBe(datasetId);
    projectId = run.json.project_id;

    const notYet = await call(app, "POST", `${A}/${auditId}/candidates/${candidateId}/evaluate`, { key });
    expect([200, 409]).toContain(notYet.status);
    const finished = await waitForRun(runId);
    expect(finished.state, finished.reason ?? "").toBe("succeeded");

    const ev = await call(app, "POST", `${A}/${auditId}/candidates/${candidateId}/evaluate`, { key });
    expect(ev.status, ev.text).toBe(200);
    expect(ev.json.state).toBe("evaluated");
    const e = ev.json.evaluation;
    expect(e.metric).toBe("accuracy");
    expect(e.calls).toBe(60);
    console.info(
      `audit candidate: accuracy ${e.quality.toFixed(3)} on ${e.calls} held-out calls, p50 ${e.latency_p50_ms.toFixed(2)} ms, p95 ${e.latency_p95_ms.toFixed(2)} ms, $${e.cost_per_1k.toFixed(6)} per 1k calls`,
    );
    // Five labels: chance is 0.2; the hashed features carry the keywords.
    expect(e.quality).toBeGreaterThan(0.5);
    expect(e.latency_p95_ms).toBeGreaterThan(0);
    expect(e.cost_per_1k).toBeGreaterThan(0);
    expect(e.examples.length).toBeGreaterThan(0);
    expect(ev.json.savings.percent).toBeGreaterThan(0);

    const list = await call(app, "GET", `${A}/${auditId}/workloads/${workloadId}/candidates`, { key });
    expect(list.json.items.map((x: { id: string }) => x.id)).toEqual([candidateId]);

    const report = await call(app, "GET", `${A}/${auditId}/report`, { key });
    const w = report.json.workloads.find((x: { id: string }) => x.id === workloadId);
    expect(w.best_candidate_id).toBe(candidateId);
    expect(w.candidates[0]).toMatchObject({ run_id: runId, quality: e.quality });
    expect(report.json.totals.savings_percent).toBeGreaterThan(0);

    // Shared with inputs published: examples shown, but never run ids.
    const share = await call(app, "POST", `${A}/${auditId}/share`, { key });
    const pub = await call(app, "GET", `${A}/shared/${share.json.token}`);
    const pw = pub.json.workloads.find((x: { id: string }) => x.id === workloadId);
    expect(pw.candidates[0].run_id).toBeNull();
    expect(pw.candidates[0].examples.length).toBeGreaterThan(0);
    expect(pub.text).not.toContain(runId);
    expect(pub.text).not.toContain(datasetId);
  }, 180_000);

  it("deploys the candidate, then cancel pauses the deployment and cancels a running run", async () => {
    const dep = await call(app, "POST", `${A}/${auditId}/candidates/${candidateId}/deploy`, { key });
    expect(dep.status, dep.text).toBe(201);
    expect(dep.json.api_key).toMatch(/^ldk_/);
    deploymentId = dep.json.deployment_id;
    const second = await call(app, "POST", `${A}/${auditId}/workloads/${workloadId}/candidates`, {
      key,
      body: {
        recipe_id: "tabular-mlp-classifier",
        base_model_id: "breast-cancer-mlp",
        config: { epochs: 1000 },
      },
    });
    expect(second.status, second.text).toBe(201);
    const cancel = await call(app, "POST", `${A}/${auditId}/cancel`, { key });
    expect(cancel.status, cancel.text).toBe(200);
    expect(cancel.json.state).toBe("cancelled");
    expect(cancel.json.cancelled_jobs).toEqual([second.json.run.id]);
    expect(cancel.json.paused_deployments).toEqual([deploymentId]);
    expect((await call(app, "GET", `/api/v1/deployments/${deploymentId}`, { key })).json.state).toBe(
      "paused",
    );
    const run2 = await waitForRun(second.json.run.id, 30_000);
    expect(run2.state).toBe("cancelled");
    expect((await call(app, "GET", `${A}/${auditId}`, { key })).json.state).toBe("cancelled");
  }, 60_000);

  it("delete removes the audit and everything it created", async () => {
    // A model version pushed from the candidate's run belongs to the audit too.
    const model = await call(app, "POST", "/api/v1/models", { key, body: { name: "audit-candidate" } });
    expect(model.status, model.text).toBe(201);
    const version = await call(app, "POST", `/api/v1/models/${model.json.id}/versions`, {
      key,
      body: { job_id: runId },
    });
    expect(version.status, version.text).toBe(201);
    const del = await call(app, "DELETE", `${A}/${auditId}`, { key });
    expect(del.status, del.text).toBe(204);
    expect((await call(app, "GET", `${A}/${auditId}`, { key })).status).toBe(404);
    expect((await call(app, "GET", `/api/v1/datasets/${datasetId}`, { key })).status).toBe(404);
    expect((await call(app, "GET", `/api/v1/training/jobs/${runId}`, { key })).status).toBe(404);
    expect((await call(app, "GET", `/api/v1/projects/${projectId}`, { key })).status).toBe(404);
    expect((await call(app, "GET", `/api/v1/deployments/${deploymentId}`, { key })).status).toBe(404);
    expect((await call(app, "GET", `/api/v1/model-versions/${version.json.id}`, { key })).status).toBe(404);
  }, 60_000);
});

describe("layerline audit (runAuditCommand through the generated client)", () => {
  it("publishes the sample log, trains and evaluates a candidate per workload, deploys the best and completes", async () => {
    const client = createApiClient({
      baseUrl: "http://localhost",
      fetch: (req) => Promise.resolve(app.fetch(req)),
    });
    client.use({
      onRequest({ request }) {
        request.headers.set("Authorization", `Bearer ${key}`);
        return request;
      },
    });
    const lines: string[] = [];
    const started = Date.now();
    const result = await runAuditCommand(
      client,
      path.join(import.meta.dirname, "../../data/samples/support-calls.jsonl"),
      { epochs: 5, deploy: true, pollIntervalMs: 250, name: "Sample audit" },
      { readFile: (f) => fs.promises.readFile(f, "utf8"), log: (m) => lines.push(m) },
    );
    console.info(
      `layerline audit of the sample: ${((Date.now() - started) / 1000).toFixed(1)} s\n${lines.join("\n")}`,
    );
    expect(result.errors).toEqual([]);
    expect(result.exitCode).toBe(0);
    expect(result.summary.map((s) => s.workload)).toEqual([
      "gpt-4o-generation",
      "gpt-4o-mini-classification",
    ]);
    for (const s of result.summary) expect(s.best).not.toBeNull();
    expect(result.deployments).toHaveLength(2);
    const a = await call(app, "GET", `${A}/${result.audit_id}`, { key });
    expect(a.json.state).toBe("completed");
    expect(a.json.summary.text).toContain("gpt-4o-mini-classification: best candidate agrees");
    expect(a.json.steps.map((s: { name: string }) => s.name)).toEqual(
      expect.arrayContaining([
        "parse",
        "dataset:gpt-4o-mini-classification",
        "train",
        "evaluate",
        "deploy:gpt-4o-generation",
      ]),
    );
    const report = await call(app, "GET", `${A}/${result.audit_id}/report`, { key });
    const gen = report.json.workloads.find((w: { task: string }) => w.task === "generation");
    expect(gen.candidates[0].metric).toBe("levenshtein_similarity");
    expect(gen.candidates[0].quality).toBeGreaterThanOrEqual(0);
    expect(result.report_path).toBe(`/audits/${result.audit_id}`);
    const bad = await runAuditCommand(
      client,
      "empty.jsonl",
      {},
      { readFile: async () => "nope\n", log: () => {} },
    );
    expect(bad.exitCode).toBe(2);
  }, 240_000);
});
