/**
 * Registry model versions and hub models as base models, for real: a PyTorch job exports its best
 * weights as weights.pt beside model.onnx; pushed to the registry or published on the hub, the model
 * is then a base model (`base_model_id` = "mv_…" or "hub_…") of a fine-tuning run that trains the
 * generated project from those weights. The Hono app is served on a loopback port with the
 * in-process runner and PyTorch, as in fine-tune.test.ts.
 *
 * Measured proof that the weights are the ones used: a run on the base job's own dataset starts at
 * the base job's best validation loss (same split, same encoding, same weights), for a CNN and for a
 * character language model (whose vocabulary is kept); with freeze=base every non-head tensor of the
 * run's weights equals the hub model's weights.pt.
 */
// Zod's OpenAPI extension before any schema is built (the app's route schemas call .openapi()).
import "@hono/zod-openapi";
import fs from "node:fs";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { serve } from "@hono/node-server";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/lib/server/db/client";
import { users } from "@/lib/server/db/schema";
import { ensureInProcessRunner } from "@/lib/server/jobs/runner";
import { moduleNames } from "@/lib/server/modules/training/fine-tune-args";
import { getJobRow } from "@/lib/server/modules/training/job-rows";
import { startDatasetTestApp } from "../api/datasets-helpers";
import { irisGraph } from "../api/training-fixtures";
import { call, signUpWithKey } from "../helpers";
import { fineTuneClient, type Json, python } from "./fine-tune-fixtures";
import { config, models } from "./training-fixtures";

process.env.RATE_LIMIT_PER_MINUTE = "100000";
const { app } = await startDatasetTestApp("layerline-fine-tune-models-blobs");
const root = fs.mkdtempSync(path.join(os.tmpdir(), "layerline-fine-tune-models-"));
const server = serve({ fetch: app.fetch, port: 0, hostname: "127.0.0.1" });
await new Promise<void>((resolve) => server.once("listening", () => resolve()));
process.env.LAYERLINE_INTERNAL_URL = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
  fs.rmSync(root, { recursive: true, force: true });
});

interface User {
  id: string;
  key: string;
  username: string;
}
let owner: User;
let other: User;
/** The owner's digits 0–4 CNN job (PyTorch) and its uploaded dataset. */
let baseJob: Json;
let digits04 = "";
let headId = "";

const ownerApi = fineTuneClient(app, () => owner.key);
const otherApi = fineTuneClient(app, () => other.key);
const trainConfig = config({ epochs: 8, batch_size: 32, learning_rate: 0.003 });

/** The figures of a job's model artifact: its best epoch's (the weights it exported). */
async function artifactMetrics(key: string, jobId: string): Promise<Record<string, number>> {
  const r = await call(app, "GET", `/api/v1/training/jobs/${jobId}/artifact/manifest.json`, { key });
  expect(r.status, r.text).toBe(200);
  return r.json.metrics as Record<string, number>;
}

/** The loss train.py measured on the validation split with the base weights, before any step. */
async function initialValLoss(key: string, runId: string): Promise<number> {
  const logs = await call(app, "GET", `/api/v1/training/jobs/${runId}/logs?limit=500`, { key });
  const initial = (logs.json.items as { message: string }[])
    .map((l) => /^base weights before fine-tuning: val_loss ([0-9.e+-]+)/.exec(l.message))
    .find((m) => m !== null);
  if (!initial) throw new Error("no initial loss logged");
  return Number(initial[1]);
}

beforeAll(async () => {
  const a = await signUpWithKey(app);
  const b = await signUpWithKey(app);
  owner = { id: a.user.id, key: a.key, username: a.user.username };
  other = { id: b.user.id, key: b.key, username: b.user.username };
  await ensureInProcessRunner();
  digits04 = await ownerApi.uploadDigits("digits-0-4.csv", (d) => Number(d) <= 4);
  const graph = models.digitsCnn();
  const head = graph.nodes.filter((n) => n.type === "Dense").at(-1);
  if (!head) throw new Error("no head");
  head.params = { ...head.params, units: 5 };
  headId = head.id;
  baseJob = await ownerApi.trainFromScratch("Digits 0–4 CNN", graph, trainConfig, digits04);
}, 300_000);

describe("registry versions and hub models as base models", () => {
  it("a registry version pushed from a PyTorch job starts a run from its own weights", async () => {
    const jobId = baseJob.id as string;
    const model = await call(app, "POST", "/api/v1/models", { key: owner.key, body: { name: "digits-0-4" } });
    expect(model.status, model.text).toBe(201);
    const pushed = await call(app, "POST", `/api/v1/models/${model.json.id}/versions`, {
      key: owner.key,
      body: { job_id: jobId },
    });
    expect(pushed.status, pushed.text).toBe(201);
    const versionId = pushed.json.id as string;
    expect(
      (await call(app, "POST", `/api/v1/model-versions/${versionId}/finalize`, { key: owner.key })).status,
    ).toBe(200);
    const artifacts = await call(app, "GET", `/api/v1/model-versions/${versionId}/artifacts`, {
      key: owner.key,
    });
    const weights = (artifacts.json as { name: string; sha256: string }[]).find(
      (f) => f.name === "weights.pt",
    );
    expect(weights, artifacts.text).toBeDefined();

    // Described as a base model: its architecture, head, labels and held-out figures.
    const base = await call(app, "GET", `/api/v1/foundation-catalog/${versionId}`, { key: owner.key });
    expect(base.status, base.text).toBe(200);
    expect(base.json).toMatchObject({
      id: versionId,
      name: "digits-0-4 v1",
      task: "image_classification",
      source: { kind: "model_version", registry_model_id: model.json.id, version: 1 },
      head: [headId],
      labels: ["0", "1", "2", "3", "4"],
      weights: { format: "pytorch_state_dict", sha256: weights?.sha256 },
    });
    // The base model's figures are its weights' (the best epoch's), as its manifest recorded them.
    const baseMetrics = await artifactMetrics(owner.key, baseJob.id as string);
    expect(base.json.evaluation.metrics.accuracy).toBeCloseTo(baseMetrics.val_accuracy, 6);
    expect(base.json.architecture.nodes).toHaveLength(models.digitsCnn().nodes.length);
    // Another account cannot see the version at all.
    expect(
      (await call(app, "GET", `/api/v1/foundation-catalog/${versionId}`, { key: other.key })).status,
    ).toBe(404);

    // The datasets that fit it, and an estimate, as for a catalog model.
    const fit = await call(app, "GET", `/api/v1/training/dataset-fit?base_model_id=${versionId}`, {
      key: owner.key,
    });
    expect(fit.status, fit.text).toBe(200);
    expect(fit.json.items.find((d: Json) => d.dataset_id === digits04)?.fits).toBe(true);
    const estimate = await call(app, "POST", "/api/v1/training/estimate-resources", {
      key: owner.key,
      body: { base_model_id: versionId, dataset_id: digits04 },
    });
    expect(estimate.status, estimate.text).toBe(200);
    expect(estimate.json.params).toBe(base.json.parameter_count);

    // Same dataset, same labels: the head is kept and the run starts exactly where the job ended.
    const run = await ownerApi.startRun({
      base_model_id: versionId,
      dataset_id: digits04,
      config: { epochs: 1, learning_rate: 0.0003 },
    });
    expect(run.base_model).toMatchObject({
      id: versionId,
      name: "digits-0-4 v1",
      task: "image_classification",
      source: { kind: "model_version", version: 1 },
    });
    expect(run.fine_tune).toMatchObject({ replaced_layers: [], base_weights_sha256: weights?.sha256 });
    const start = await initialValLoss(owner.key, run.id as string);
    console.info(
      `registry base: job's best val_loss ${baseMetrics.val_loss.toFixed(5)}, run's val_loss before its first step ${start.toFixed(5)}`,
    );
    expect(start).toBeCloseTo(baseMetrics.val_loss, 4);
  }, 300_000);

  it("a public hub model is a base model for anyone; freeze=base keeps its weights; private → 404", async () => {
    const published = await call(app, "POST", "/api/v1/hub/models", {
      key: owner.key,
      body: { source_job_id: baseJob.id, license: "mit" },
    });
    expect(published.status, published.text).toBe(201);
    const hubId = published.json.id as string;
    const files = await call(app, "GET", `/api/v1/hub/models/${hubId}/files`, { key: other.key });
    const weightsFile = (files.json.items as { id: string; path: string }[]).find(
      (f) => f.path === "weights.pt",
    );
    if (!weightsFile) throw new Error(`no weights.pt among ${files.text}`);

    const base = await call(app, "GET", `/api/v1/foundation-catalog/${hubId}`, { key: other.key });
    expect(base.status, base.text).toBe(200);
    expect(base.json).toMatchObject({
      source: { kind: "hub_model", hub_model_id: hubId, owner: owner.username },
      license: "mit",
      head: [headId],
    });

    // Another account's own digits 5–9: new labels, so the head is replaced; the rest stays frozen.
    const digits59 = await otherApi.uploadDigits("digits-5-9.csv", (d) => Number(d) >= 5);
    const run = await otherApi.startRun({
      base_model_id: hubId,
      dataset_id: digits59,
      config: { epochs: 8, learning_rate: 0.01 },
      freeze: "base",
    });
    expect(run.base_model).toMatchObject({ source: { kind: "hub_model", owner: owner.username } });
    expect(run.fine_tune).toMatchObject({ replaced_layers: [headId], labels: ["5", "6", "7", "8", "9"] });
    const accuracy = (run.metrics as Record<string, number>).val_accuracy;
    console.info(`hub base, digits 5–9 with the body frozen, 8 epochs: val_accuracy ${accuracy.toFixed(4)}`);
    expect(accuracy).toBeGreaterThan(0.6);

    const row = await getJobRow(await getDb(), run.id as string);
    if (!row) throw new Error("no row");
    const headName = moduleNames(row).get(headId) ?? headId;
    const link = await call(app, "POST", `/api/v1/hub/models/${hubId}/download`, {
      key: other.key,
      body: { file_id: weightsFile.id },
    });
    expect(link.status, link.text).toBe(200);
    const baseFile = await otherApi.download(link.json.url, path.join(root, "hub-weights.pt"));
    const tunedFile = await otherApi.download(
      `/api/v1/training/jobs/${run.id}/artifact/weights.pt`,
      path.join(root, "tuned-weights.pt"),
    );
    const report = JSON.parse(
      python(
        "import json, sys, torch\n" +
          "base = torch.load(sys.argv[1], map_location='cpu')\n" +
          "tuned = torch.load(sys.argv[2], map_location='cpu')\n" +
          "out = {'same': [], 'changed': [], 'head': []}\n" +
          "for name, value in tuned.items():\n" +
          "    if name.split('.')[0] == sys.argv[3]:\n" +
          "        out['head'].append(name)\n" +
          "    elif torch.equal(value, base[name]):\n" +
          "        out['same'].append(name)\n" +
          "    else:\n" +
          "        out['changed'].append(name)\n" +
          "print(json.dumps(out))\n",
        baseFile,
        tunedFile,
        headName,
      ),
    ) as { same: string[]; changed: string[]; head: string[] };
    expect(report.changed).toEqual([]);
    expect(report.same.length).toBeGreaterThanOrEqual(2);
    expect(report.head.length).toBe(2);

    // Made private (a paid plan's feature), it is gone for everyone else, as a base model too.
    await (await getDb()).update(users).set({ plan: "pro" }).where(eq(users.id, owner.id));
    const hidden = await call(app, "PUT", `/api/v1/hub/models/${hubId}`, {
      key: owner.key,
      body: { visibility: "private" },
    });
    expect(hidden.status, hidden.text).toBe(200);
    expect((await call(app, "GET", `/api/v1/foundation-catalog/${hubId}`, { key: other.key })).status).toBe(
      404,
    );
    const refused = await call(app, "POST", "/api/v1/training/foundation-runs", {
      key: other.key,
      body: { base_model_id: hubId, dataset_id: digits59 },
    });
    expect(refused.status).toBe(404);
  }, 300_000);

  it("a language model from the registry keeps its vocabulary and starts from its own weights", async () => {
    const lmJob = await ownerApi.trainFromScratch(
      "Char LSTM",
      models.charLstm(96),
      config({ epochs: 6, batch_size: 64, learning_rate: 0.01 }),
      "builtin-declaration",
    );
    const row = await getJobRow(await getDb(), lmJob.id as string);
    const tokens = row?.preprocessing?.steps.find((st) => st.kind === "char_tokens");
    if (!tokens || !("vocabulary" in tokens)) throw new Error("no vocabulary");
    const model = await call(app, "POST", "/api/v1/models", { key: owner.key, body: { name: "char-lstm" } });
    const pushed = await call(app, "POST", `/api/v1/models/${model.json.id}/versions`, {
      key: owner.key,
      body: { job_id: lmJob.id },
    });
    expect(pushed.status, pushed.text).toBe(201);
    const versionId = pushed.json.id as string;
    await call(app, "POST", `/api/v1/model-versions/${versionId}/finalize`, { key: owner.key });
    const base = await call(app, "GET", `/api/v1/foundation-catalog/${versionId}`, { key: owner.key });
    expect(base.status, base.text).toBe(200);
    expect(base.json).toMatchObject({ task: "language_modeling", head: [], labels: null });
    expect(base.json.vocab).toEqual(tokens.vocabulary);

    const run = await ownerApi.startRun({
      base_model_id: versionId,
      dataset_id: "builtin-declaration",
      config: { epochs: 1, learning_rate: 0.0001 },
    });
    expect(run.fine_tune).toMatchObject({ vocabulary_size: tokens.vocabulary.length });
    const start = await initialValLoss(owner.key, run.id as string);
    // The exported weights are the best epoch's; the log gives 4 significant digits.
    const best = (await artifactMetrics(owner.key, lmJob.id as string)).val_loss;
    console.info(
      `registry LM base: job's best val_loss ${best.toFixed(5)}, run's before its first step ${start.toFixed(5)}`,
    );
    expect(start).toBeCloseTo(best, 3);
  }, 300_000);

  it("a model without PyTorch weights is refused with the reason (409)", async () => {
    const job = await ownerApi.trainFromScratch(
      "Iris on TF.js",
      irisGraph,
      trainConfig,
      "builtin-iris",
      "tfjs",
    );
    const model = await call(app, "POST", "/api/v1/models", { key: owner.key, body: { name: "iris-tfjs" } });
    const pushed = await call(app, "POST", `/api/v1/models/${model.json.id}/versions`, {
      key: owner.key,
      body: { job_id: job.id },
    });
    expect(pushed.status, pushed.text).toBe(201);
    const versionId = pushed.json.id as string;
    // Not finalized yet: 409 with that reason.
    const pending = await call(app, "GET", `/api/v1/foundation-catalog/${versionId}`, { key: owner.key });
    expect(pending.status).toBe(409);
    expect(pending.json.detail).toContain("not finalized");
    await call(app, "POST", `/api/v1/model-versions/${versionId}/finalize`, { key: owner.key });
    const got = await call(app, "GET", `/api/v1/foundation-catalog/${versionId}`, { key: owner.key });
    expect(got.status).toBe(409);
    expect(got.json.detail).toContain("weights.pt");
    const run = await call(app, "POST", "/api/v1/training/foundation-runs", {
      key: owner.key,
      body: { base_model_id: versionId, dataset_id: "builtin-iris" },
    });
    expect(run.status).toBe(409);
    const estimate = await call(app, "POST", "/api/v1/training/estimate-resources", {
      key: owner.key,
      body: { base_model_id: versionId, dataset_id: "builtin-iris" },
    });
    expect(estimate.status).toBe(409);
    const fit = await call(app, "GET", `/api/v1/training/dataset-fit?base_model_id=${versionId}`, {
      key: owner.key,
    });
    expect(fit.status).toBe(409);
    expect(run.json.detail).toContain("TF.js");
    expect(
      (await call(app, "GET", "/api/v1/foundation-catalog/mv_doesnotexist", { key: owner.key })).status,
    ).toBe(404);
  }, 200_000);

  it("lists the caller's registry versions that can be base models (source=registry), newest first", async () => {
    type Listed = {
      items: { id: string; name: string; task: string; source: { kind: string } }[];
      total: number;
    };
    const mine = await call(app, "GET", "/api/v1/foundation-catalog?source=registry", { key: owner.key });
    expect(mine.status, mine.text).toBe(200);
    const listed = mine.json as Listed;
    // The CNN and the language model (pushed from PyTorch jobs); not the TF.js version, which has no weights.pt.
    expect(listed.items.map((m) => m.name)).toEqual(["char-lstm v1", "digits-0-4 v1"]);
    expect(listed.total).toBe(2);
    expect(listed.items.every((m) => m.source.kind === "model_version" && m.id.startsWith("mv_"))).toBe(true);
    // Each is described as GET /foundation-catalog/{id} describes it.
    const one = await call(app, "GET", `/api/v1/foundation-catalog/${listed.items[1].id}`, {
      key: owner.key,
    });
    expect(listed.items[1]).toEqual(one.json);
    // The task filter and paging apply.
    const images = await call(
      app,
      "GET",
      "/api/v1/foundation-catalog?source=registry&task=image_classification",
      {
        key: owner.key,
      },
    );
    expect((images.json as Listed).items.map((m) => m.name)).toEqual(["digits-0-4 v1"]);
    const page2 = await call(app, "GET", "/api/v1/foundation-catalog?source=registry&limit=1&page=2", {
      key: owner.key,
    });
    expect((page2.json as Listed).items.map((m) => m.name)).toEqual(["digits-0-4 v1"]);
    // Another account's registry is its own (empty here); the default is still the curated catalog.
    const theirs = await call(app, "GET", "/api/v1/foundation-catalog?source=registry", { key: other.key });
    expect((theirs.json as Listed).total).toBe(0);
    const curated = await call(app, "GET", "/api/v1/foundation-catalog", { key: owner.key });
    expect((curated.json as Listed).items.length).toBeGreaterThan(0);
    expect((curated.json as Listed).items.every((m) => m.source.kind === "catalog")).toBe(true);
    expect(
      (await call(app, "GET", "/api/v1/foundation-catalog?source=elsewhere", { key: owner.key })).status,
    ).toBe(422);
  });
});
