/**
 * The model registry through the real app and database: a real Iris job trains (TF.js, the app
 * served on loopback so its program can upload, the durable job runner in this process) and is
 * pushed as a version whose artifacts are byte-for-byte the job's; bare versions go through the
 * whole artifact protocol (initiate → PUT bytes to the signed URL → complete → finalize) with its
 * refusals; aliases move atomically under concurrency; task contracts are checked at finalize;
 * lineage follows the job to its dataset and on to deployments; other accounts get 404s.
 */
// The app first: it extends zod with .openapi() before the schema modules build their schemas.
import "@/lib/server/app";
import { createHash, randomBytes } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/lib/server/db/client";
import { deploymentRevisions, deployments } from "@/lib/server/db/schema";
import { type JobRunner, startJobRunner } from "@/lib/server/jobs/runner";
import { artifactOfModelVersion } from "@/lib/server/modules/registry/model-versions";
import { signUploadLink, uploadPath } from "@/lib/server/modules/registry/upload-links";
import { evictRevisions } from "@/lib/server/modules/serving/model-cache";
import { call, serveForUploads, signUpWithKey, startTestApp, type TestApp } from "../helpers";
import { tempBlobDir } from "./projects.fixtures";
import { irisGraph, TERMINAL, waitFor } from "./training-fixtures";

tempBlobDir();
let app: TestApp;
let runner: JobRunner | null = null;
let close: () => void = () => {};
let key = "";
let userId = "";
let cookie = "";
let otherKey = "";
let jobId = "";

async function firstRevision(db: Awaited<ReturnType<typeof getDb>>, deploymentId: string) {
  const [r] = await db
    .select({ id: deploymentRevisions.id })
    .from(deploymentRevisions)
    .where(and(eq(deploymentRevisions.deploymentId, deploymentId), eq(deploymentRevisions.number, 1)));
  return r?.id;
}

const sha256 = (b: Uint8Array) => createHash("sha256").update(b).digest("hex");

async function train(): Promise<string> {
  const project = await call(app, "POST", "/api/v1/projects", {
    key,
    body: { name: "Iris", graph: irisGraph },
  });
  expect(project.status, project.text).toBe(201);
  const r = await call(app, "POST", "/api/v1/training/jobs", {
    key,
    body: {
      project_id: project.json.id,
      dataset_id: "builtin-iris",
      runtime: "tfjs",
      config: { epochs: 8, batch_size: 16, learning_rate: 0.02 },
    },
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

async function createModel(name: string, k = key) {
  const r = await call(app, "POST", "/api/v1/models", { key: k, body: { name } });
  expect(r.status, r.text).toBe(201);
  return r.json.id as string;
}

async function push(modelId: string, body: Record<string, unknown> = {}) {
  const r = await call(app, "POST", `/api/v1/models/${modelId}/versions`, { key, body });
  expect(r.status, r.text).toBe(201);
  return r.json;
}

const initiate = (versionId: string, body: Record<string, unknown>, k = key) =>
  call(app, "POST", `/api/v1/model-versions/${versionId}/artifacts:initiate`, { key: k, body });

/** Sends bytes to an upload URL as the initiate response says, streamed in chunks. */
async function put(
  upload: { url: string; method: string; headers: Record<string, string> },
  bytes: Uint8Array,
) {
  const chunk = 64 * 1024;
  let offset = 0;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (offset >= bytes.byteLength) return controller.close();
      controller.enqueue(bytes.subarray(offset, offset + chunk));
      offset += chunk;
    },
  });
  const res = await app.request(upload.url, {
    method: upload.method,
    headers: upload.headers,
    body,
    duplex: "half",
  } as RequestInit);
  const text = await res.text();
  return { status: res.status, text, json: text ? JSON.parse(text) : null };
}

/** initiate → PUT → complete for one file; returns the artifact id. */
async function upload(versionId: string, name: string, bytes: Uint8Array, contentType?: string) {
  const init = await initiate(versionId, {
    name,
    size_bytes: bytes.byteLength,
    sha256: sha256(bytes),
    ...(contentType ? { content_type: contentType } : {}),
  });
  expect(init.status, init.text).toBe(201);
  const sent = await put(init.json.upload, bytes);
  expect(sent.status, sent.text).toBe(200);
  const done = await call(
    app,
    "POST",
    `/api/v1/model-versions/${versionId}/artifacts/${init.json.artifact_id}/complete`,
    { key },
  );
  expect(done.status, done.text).toBe(200);
  return init.json.artifact_id as string;
}

async function download(versionId: string, artifactId: string, k = key) {
  const res = await app.request(`/api/v1/model-versions/${versionId}/artifacts/${artifactId}/download`, {
    headers: { Authorization: `Bearer ${k}` },
  });
  return { res, bytes: new Uint8Array(await res.arrayBuffer()) };
}

beforeAll(async () => {
  app = await startTestApp();
  close = await serveForUploads(app);
  runner = startJobRunner({ db: await getDb(), concurrency: 2, pollIntervalMs: 100 });
  const a = await signUpWithKey(app);
  key = a.key;
  userId = a.user.id;
  cookie = a.cookie;
  ({ key: otherKey } = await signUpWithKey(app));
  jobId = await train();
}, 200_000);

afterAll(async () => {
  await runner?.stop({ graceMs: 2000 });
  close();
});

describe("model entries", () => {
  it("creates, lists as a plain array, reads, updates and deletes; names are unique per account", async () => {
    const created = await call(app, "POST", "/api/v1/models", {
      key,
      body: { name: "entries", description: "d", task: "tabular-classification", tags: ["iris"] },
    });
    expect(created.status, created.text).toBe(201);
    expect(created.res.headers.get("Location")).toBe(`/api/v1/models/${created.json.id}`);
    expect(created.json).toMatchObject({
      name: "entries",
      tags: ["iris"],
      latest_version: null,
      aliases: [],
    });
    const id = created.json.id as string;
    expect((await call(app, "POST", "/api/v1/models", { key, body: { name: "entries" } })).status).toBe(409);
    // Another account may use the same name.
    expect(
      (await call(app, "POST", "/api/v1/models", { key: otherKey, body: { name: "entries" } })).status,
    ).toBe(201);
    const list = await call(app, "GET", "/api/v1/models", { key });
    expect(Array.isArray(list.json)).toBe(true);
    expect(list.json.map((m: { id: string }) => m.id)).toContain(id);
    const patched = await call(app, "PATCH", `/api/v1/models/${id}`, {
      key,
      body: { description: "new", tags: ["a", "b"] },
    });
    expect(patched.status, patched.text).toBe(200);
    expect(patched.json).toMatchObject({ description: "new", tags: ["a", "b"], name: "entries" });
    expect((await call(app, "PATCH", `/api/v1/models/${id}`, { key, body: { bogus: 1 } })).status).toBe(422);
    // The studio's web session works too (its unsafe calls pass the same-origin check).
    const viaSession = await call(app, "POST", `/api/v1/models/${id}/versions`, { cookie, body: {} });
    expect(viaSession.status, viaSession.text).toBe(201);
    expect((await call(app, "GET", `/api/v1/models/${id}/versions`, { cookie })).json).toHaveLength(1);
    const crossSite = await call(app, "POST", `/api/v1/models/${id}/versions`, {
      cookie,
      body: {},
      headers: { Origin: "https://evil.example" },
    });
    expect(crossSite.status).toBe(403);
    expect((await call(app, "DELETE", `/api/v1/models/${id}`, { key })).status).toBe(204);
    expect((await call(app, "GET", `/api/v1/models/${id}`, { key })).status).toBe(404);
  });
});

describe("artifact protocol (bare version)", () => {
  it("initiate → PUT → complete → finalize, with every refusal on the way", async () => {
    const modelId = await createModel("bare");
    const v = await push(modelId, { description: "uploaded by hand" });
    expect(v).toMatchObject({ version: 1, state: "pending", source: "bare", job_id: null });
    const vid = v.id as string;

    // Nothing to finalize yet.
    const empty = await call(app, "POST", `/api/v1/model-versions/${vid}/finalize`, { key });
    expect(empty.status).toBe(409);

    const weights = new Uint8Array(randomBytes(1024 * 1024 + 17));
    const init = await initiate(vid, {
      name: "weights.bin",
      size_bytes: weights.byteLength,
      sha256: sha256(weights).toUpperCase(),
      content_type: "application/octet-stream",
    });
    expect(init.status, init.text).toBe(201);
    expect(init.json.upload.method).toBe("PUT");
    expect(init.json.upload.headers).toEqual({ "Content-Type": "application/octet-stream" });
    const url = new URL(init.json.upload.url);
    expect(url.pathname).toBe(uploadPath(vid, init.json.artifact_id));
    expect(url.searchParams.get("sig")).toBeTruthy();
    expect(Date.parse(init.json.expires_at)).toBeGreaterThan(Date.now());
    const artifactId = init.json.artifact_id as string;
    const completePath = `/api/v1/model-versions/${vid}/artifacts/${artifactId}/complete`;

    // Complete before any bytes arrived: a state conflict.
    expect((await call(app, "POST", completePath, { key })).status).toBe(409);

    // Tampered links: another signature, a later expiry, another artifact's path.
    const badSig = new URL(url);
    badSig.searchParams.set("sig", `${url.searchParams.get("sig")?.slice(0, -2)}xx`);
    expect((await put({ ...init.json.upload, url: badSig.toString() }, weights)).status).toBe(403);
    const later = new URL(url);
    later.searchParams.set("expires", String(Number(url.searchParams.get("expires")) + 3600));
    expect((await put({ ...init.json.upload, url: later.toString() }, weights)).status).toBe(403);
    const unsigned = new URL(url);
    unsigned.search = "";
    expect((await put({ ...init.json.upload, url: unsigned.toString() }, weights)).status).toBe(403);
    // An expired link (validly signed two hours ago for one hour).
    const old = signUploadLink(vid, artifactId, new Date(Date.now() - 2 * 3600_000));
    const expired = new URL(uploadPath(vid, artifactId), url.origin);
    for (const [k, val] of Object.entries(old.query)) expired.searchParams.set(k, val);
    const gone = await put({ ...init.json.upload, url: expired.toString() }, weights);
    expect(gone.status).toBe(410);
    expect(gone.json.detail).toMatch(/expired/);

    // The wrong bytes (same size): received, but complete refuses them with 422 and it stays pending.
    const wrong = new Uint8Array(randomBytes(weights.byteLength));
    const sentWrong = await put(init.json.upload, wrong);
    expect(sentWrong.status, sentWrong.text).toBe(200);
    expect(sentWrong.json).toMatchObject({ received_bytes: wrong.byteLength, sha256: sha256(wrong) });
    const mismatch = await call(app, "POST", completePath, { key });
    expect(mismatch.status).toBe(422);
    expect(mismatch.json.errors.map((e: { path: string }) => e.path)).toEqual(["sha256"]);
    // Too few bytes: the size is named too.
    expect((await put(init.json.upload, weights.subarray(0, 100))).status).toBe(200);
    const short = await call(app, "POST", completePath, { key });
    expect(short.status).toBe(422);
    expect(short.json.errors.map((e: { path: string }) => e.path).sort()).toEqual(["sha256", "size_bytes"]);
    // More bytes than declared are refused while streaming.
    const big = new Uint8Array(weights.byteLength + 1);
    expect((await put(init.json.upload, big)).status).toBe(413);

    // A second, still-pending artifact keeps finalize refused.
    const card = new TextEncoder().encode("# A model\n");
    const cardInit = await initiate(vid, {
      name: "README.md",
      size_bytes: card.byteLength,
      sha256: sha256(card),
    });
    expect(cardInit.status).toBe(201);
    let list = await call(app, "GET", `/api/v1/model-versions/${vid}/artifacts`, { key });
    expect(list.json.map((a: { name: string; state: string }) => [a.name, a.state])).toEqual([
      ["README.md", "pending"],
      ["weights.bin", "pending"],
    ]);
    const incomplete = await call(app, "POST", `/api/v1/model-versions/${vid}/finalize`, { key });
    expect(incomplete.status).toBe(409);
    expect(incomplete.json.detail).toMatch(/README\.md, weights\.bin/);

    // The right bytes through the same link: complete, and completing again is harmless.
    const sent = await put(init.json.upload, weights);
    expect(sent.json.sha256).toBe(sha256(weights));
    const done = await call(app, "POST", completePath, { key });
    expect(done.status, done.text).toBe(200);
    expect(done.json).toMatchObject({
      state: "complete",
      sha256: sha256(weights),
      size_bytes: weights.byteLength,
    });
    expect((await call(app, "POST", completePath, { key })).status).toBe(200);
    // A complete artifact takes no more bytes, and its name cannot be initiated again.
    expect((await put(init.json.upload, weights)).status).toBe(409);
    expect(
      (await initiate(vid, { name: "weights.bin", size_bytes: 1, sha256: sha256(new Uint8Array([1])) }))
        .status,
    ).toBe(409);

    expect((await put(cardInit.json.upload, card)).status).toBe(200);
    expect(
      (
        await call(
          app,
          "POST",
          `/api/v1/model-versions/${vid}/artifacts/${cardInit.json.artifact_id}/complete`,
          { key },
        )
      ).status,
    ).toBe(200);

    const finalized = await call(app, "POST", `/api/v1/model-versions/${vid}/finalize`, { key });
    expect(finalized.status, finalized.text).toBe(200);
    expect(finalized.json.state).toBe("ready");
    expect(finalized.json.finalized_at).toBeTruthy();

    // Immutable: no new artifact, no second finalize.
    const late = await initiate(vid, {
      name: "extra.bin",
      size_bytes: 1,
      sha256: sha256(new Uint8Array([1])),
    });
    expect(late.status).toBe(409);
    expect((await call(app, "POST", `/api/v1/model-versions/${vid}/finalize`, { key })).status).toBe(409);

    // A bare version without manifest and model files is not servable.
    await expect(artifactOfModelVersion(await getDb(), userId, vid)).rejects.toMatchObject({ status: 409 });

    // The download streams the exact bytes with their digest.
    const got = await download(vid, artifactId);
    expect(got.res.status).toBe(200);
    expect(got.res.headers.get("Content-Length")).toBe(String(weights.byteLength));
    expect(got.res.headers.get("Repr-Digest")).toBe(
      `sha-256=:${Buffer.from(sha256(weights), "hex").toString("base64")}:`,
    );
    expect(sha256(got.bytes)).toBe(sha256(weights));
    list = await call(app, "GET", `/api/v1/model-versions/${vid}/artifacts`, { key });
    expect(list.json.every((a: { state: string }) => a.state === "complete")).toBe(true);
  });

  it("refuses malformed initiate bodies", async () => {
    const modelId = await createModel("bad-bodies");
    const v = await push(modelId);
    for (const body of [
      { name: "../x", size_bytes: 1, sha256: "a".repeat(64) },
      { name: "x.bin", size_bytes: -1, sha256: "a".repeat(64) },
      { name: "x.bin", size_bytes: 1, sha256: "nothex" },
      { name: "x.bin", size_bytes: 600 * 1024 * 1024, sha256: "a".repeat(64) },
    ]) {
      const r = await initiate(v.id, body);
      expect(r.status, JSON.stringify(body)).toBe(422);
    }
    // A zero-byte file: sent with no body at all.
    const empty = new Uint8Array(0);
    const init = await initiate(v.id, { name: "empty.txt", size_bytes: 0, sha256: sha256(empty) });
    expect(init.status, init.text).toBe(201);
    const sent = await app.request(init.json.upload.url, {
      method: "PUT",
      headers: init.json.upload.headers,
    });
    expect(sent.status).toBe(200);
    const done = await call(
      app,
      "POST",
      `/api/v1/model-versions/${v.id}/artifacts/${init.json.artifact_id}/complete`,
      {
        key,
      },
    );
    expect(done.status, done.text).toBe(200);
  });
});

describe("versions pushed from a training job", () => {
  it("registers the job's files as complete artifacts whose bytes equal the job's", async () => {
    const modelId = await createModel("iris");
    const manifest = await call(app, "GET", `/api/v1/training/jobs/${jobId}/artifact/manifest.json`, { key });
    const v = await push(modelId, { job_id: jobId });
    expect(v).toMatchObject({
      version: 1,
      state: "pending",
      source: "job",
      job_id: jobId,
      artifact_format: "tfjs",
    });
    expect(v.metrics).toEqual(manifest.json.metrics);
    expect(v.metrics.val_accuracy).toBeGreaterThan(0);

    const artifacts = await call(app, "GET", `/api/v1/model-versions/${v.id}/artifacts`, { key });
    const names = artifacts.json.map((a: { name: string }) => a.name);
    expect(names).toContain("manifest.json");
    expect(names).toContain("model.json");
    expect(artifacts.json.every((a: { state: string }) => a.state === "complete")).toBe(true);
    for (const a of artifacts.json as { id: string; name: string; sha256: string; size_bytes: number }[]) {
      const fromJob = await app.request(`/api/v1/training/jobs/${jobId}/artifact/${a.name}`, {
        headers: { Authorization: `Bearer ${key}` },
      });
      expect(fromJob.status).toBe(200);
      const jobBytes = new Uint8Array(await fromJob.arrayBuffer());
      const got = await download(v.id, a.id);
      expect(got.res.status).toBe(200);
      expect(Buffer.from(got.bytes).equals(Buffer.from(jobBytes)), a.name).toBe(true);
      expect(a.sha256).toBe(sha256(jobBytes));
      expect(a.size_bytes).toBe(jobBytes.byteLength);
    }

    // Finalized right away; then servable for deployments.
    const ready = await call(app, "POST", `/api/v1/model-versions/${v.id}/finalize`, { key });
    expect(ready.status, ready.text).toBe(200);
    const served = await artifactOfModelVersion(await getDb(), userId, v.id);
    expect(served).toMatchObject({ modelVersionId: v.id, jobId, artifactFormat: "tfjs" });
    expect(served.artifactFiles.map((f) => f.name).sort()).toEqual(
      names.filter((n: string) => n !== "manifest.json").sort(),
    );
    expect(served.artifactManifest).toEqual(manifest.json);

    // Versions list newest first.
    const second = await push(modelId, { job_id: jobId });
    expect(second.version).toBe(2);
    // Pending: not deployable yet.
    await expect(artifactOfModelVersion(await getDb(), userId, second.id)).rejects.toMatchObject({
      status: 409,
    });
    const versions = await call(app, "GET", `/api/v1/models/${modelId}/versions`, { key });
    expect(versions.json.map((x: { version: number }) => x.version)).toEqual([2, 1]);
    expect((await call(app, "GET", `/api/v1/models/${modelId}`, { key })).json.latest_version).toBe(2);

    // Another account's job is not found; a missing job too.
    const theirs = await call(app, "POST", `/api/v1/models/${modelId}/versions`, {
      key,
      body: { job_id: "job_doesnotexist" },
    });
    expect(theirs.status).toBe(404);
  });

  it("numbers concurrent pushes without gaps or duplicates", async () => {
    const modelId = await createModel("concurrent-pushes");
    const pushed = await Promise.all(Array.from({ length: 6 }, () => push(modelId)));
    expect(pushed.map((p) => p.version).sort()).toEqual([1, 2, 3, 4, 5, 6]);
  });
});

describe("task contracts", () => {
  it("serves the built-in contracts and 404s unknown ones", async () => {
    for (const k of [
      "tabular-classification",
      "tabular-regression",
      "image-classification",
      "text-generation",
    ]) {
      const r = await call(app, "GET", `/api/v1/task-contracts/${k}/versions/1`, { key });
      expect(r.status, k).toBe(200);
      expect(r.json).toMatchObject({ key: k, version: 1 });
      expect(typeof r.json.description).toBe("string");
      expect(r.json.input_schema.type ?? r.json.input_schema.anyOf).toBeTruthy();
      expect(r.json.output_schema).toBeTypeOf("object");
    }
    expect(
      (await call(app, "GET", "/api/v1/task-contracts/tabular-classification/versions/2", { key })).status,
    ).toBe(404);
    expect((await call(app, "GET", "/api/v1/task-contracts/nope/versions/1", { key })).status).toBe(404);
    expect((await call(app, "GET", "/api/v1/task-contracts/nope/versions/x", { key })).status).toBe(422);
    const all = await call(app, "GET", "/api/v1/task-contracts", { key });
    expect(all.json).toHaveLength(4);
  });

  it("checks the manifest against the declared contract at finalize", async () => {
    const modelId = await createModel("contracts");
    const unknown = await call(app, "POST", `/api/v1/models/${modelId}/versions`, {
      key,
      body: { job_id: jobId, task_contract: { key: "nope", version: 1 } },
    });
    expect(unknown.status).toBe(422);

    // Iris is a classifier: a regression contract is refused, and the version stays pending.
    const wrong = await push(modelId, {
      job_id: jobId,
      task_contract: { key: "tabular-regression", version: 1 },
    });
    const refused = await call(app, "POST", `/api/v1/model-versions/${wrong.id}/finalize`, { key });
    expect(refused.status).toBe(422);
    expect(refused.json.errors.map((e: { path: string }) => e.path)).toContain("manifest.output");
    expect((await call(app, "GET", `/api/v1/model-versions/${wrong.id}`, { key })).json.state).toBe(
      "pending",
    );

    const right = await push(modelId, {
      job_id: jobId,
      task_contract: { key: "tabular-classification", version: 1 },
    });
    expect(right.task_contract).toEqual({ key: "tabular-classification", version: 1 });
    const ok = await call(app, "POST", `/api/v1/model-versions/${right.id}/finalize`, { key });
    expect(ok.status, ok.text).toBe(200);

    // A bare version: a contract needs manifest.json, and a manifest that is not JSON is refused.
    const bare = await push(modelId, { task_contract: { key: "text-generation", version: 1 } });
    await upload(bare.id, "model.onnx", new Uint8Array([1, 2, 3]));
    const noManifest = await call(app, "POST", `/api/v1/model-versions/${bare.id}/finalize`, { key });
    expect(noManifest.status).toBe(422);
    expect(noManifest.json.errors[0].path).toBe("manifest.json");
    // A tabular manifest does not make a text-generation model.
    const manifest = await call(app, "GET", `/api/v1/training/jobs/${jobId}/artifact/manifest.json`, { key });
    await upload(
      bare.id,
      "manifest.json",
      new TextEncoder().encode(JSON.stringify(manifest.json)),
      "application/json",
    );
    const notText = await call(app, "POST", `/api/v1/model-versions/${bare.id}/finalize`, { key });
    expect(notText.status).toBe(422);
    expect(notText.json.errors.map((e: { path: string }) => e.path)).toContain("manifest.input_features");

    // The same manifest and an ONNX file under tabular-classification: finalized and servable.
    const bare2 = await push(modelId, { task_contract: { key: "tabular-classification", version: 1 } });
    await upload(bare2.id, "model.onnx", new Uint8Array([1, 2, 3]));
    await upload(bare2.id, "manifest.json", new TextEncoder().encode(JSON.stringify(manifest.json)));
    const fine = await call(app, "POST", `/api/v1/model-versions/${bare2.id}/finalize`, { key });
    expect(fine.status, fine.text).toBe(200);
    expect(fine.json).toMatchObject({ artifact_format: "onnx", metrics: manifest.json.metrics });
    const served = await artifactOfModelVersion(await getDb(), userId, bare2.id);
    expect(served.artifactFiles.map((f) => f.name)).toEqual(["model.onnx"]);
    // Its model.onnx is three bytes, not a model: deploying it is refused before anything is written.
    const before = await call(app, "GET", "/api/v1/deployments", { key });
    const undeployable = await call(app, "POST", "/api/v1/deployments/from-model-version", {
      key,
      body: { model_version_id: bare2.id },
    });
    expect(undeployable.status, undeployable.text).toBe(409);
    expect(undeployable.json.detail).toMatch(/^The model could not be loaded: /);
    expect(undeployable.text).not.toMatch(/\/tmp\/|\bat \S+ \(/); // no paths, no stack frames
    expect((await call(app, "GET", "/api/v1/deployments", { key })).json.total).toBe(before.json.total);
  });
});

describe("aliases", () => {
  it("moves an alias atomically: concurrent moves leave it on exactly one version", async () => {
    const modelId = await createModel("aliases");
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const v = await push(modelId, { job_id: jobId });
      expect((await call(app, "POST", `/api/v1/model-versions/${v.id}/finalize`, { key })).status).toBe(200);
      ids.push(v.id);
    }
    const pending = await push(modelId);
    const aliasPath = (a: string) => `/api/v1/models/${modelId}/aliases/${a}`;

    const set = await call(app, "PUT", aliasPath("champion"), { key, body: { version_id: ids[0] } });
    expect(set.status, set.text).toBe(200);
    expect(set.json).toMatchObject({ alias: "champion", version_id: ids[0], version: 1 });
    expect(
      (await call(app, "PUT", aliasPath("champion"), { key, body: { version_id: pending.id } })).status,
    ).toBe(409);
    expect((await call(app, "PUT", aliasPath("latest"), { key, body: { version_id: ids[0] } })).status).toBe(
      422,
    );
    expect(
      (await call(app, "PUT", aliasPath("Bad Name"), { key, body: { version_id: ids[0] } })).status,
    ).toBe(422);
    const otherModel = await createModel("aliases-other");
    const foreign = await push(otherModel, { job_id: jobId });
    expect(
      (await call(app, "PUT", aliasPath("champion"), { key, body: { version_id: foreign.id } })).status,
    ).toBe(404);

    const moves = await Promise.all(
      Array.from({ length: 24 }, (_, i) =>
        call(app, "PUT", aliasPath("champion"), { key, body: { version_id: ids[i % 3] } }),
      ),
    );
    expect(moves.every((m) => m.status === 200)).toBe(true);
    const resolved = await call(app, "GET", aliasPath("champion"), { key });
    expect(resolved.status).toBe(200);
    expect(ids).toContain(resolved.json.id);
    const versions = await call(app, "GET", `/api/v1/models/${modelId}/versions`, { key });
    const carrying = versions.json.filter((v: { aliases: string[] }) => v.aliases.includes("champion"));
    expect(carrying.map((v: { id: string }) => v.id)).toEqual([resolved.json.id]);
    const model = await call(app, "GET", `/api/v1/models/${modelId}`, { key });
    expect(model.json.aliases).toEqual([
      expect.objectContaining({ alias: "champion", version_id: resolved.json.id }),
    ]);
    expect(
      (await call(app, "GET", `/api/v1/model-versions/${resolved.json.id}`, { key })).json.aliases,
    ).toEqual(["champion"]);

    // Two aliases on one version; delete one.
    await call(app, "PUT", aliasPath("staging"), { key, body: { version_id: resolved.json.id } });
    expect(
      (await call(app, "GET", `/api/v1/model-versions/${resolved.json.id}`, { key })).json.aliases,
    ).toEqual(["champion", "staging"]);
    expect((await call(app, "DELETE", aliasPath("staging"), { key })).status).toBe(204);
    expect((await call(app, "DELETE", aliasPath("staging"), { key })).status).toBe(404);
    expect((await call(app, "GET", aliasPath("staging"), { key })).status).toBe(404);
  });
});

describe("lineage, evaluations and deployments", () => {
  it("follows a job-pushed version to its dataset, project, checkpoint and deployments", async () => {
    const modelId = await createModel("lineage");
    const v = await push(modelId, { job_id: jobId });
    expect((await call(app, "POST", `/api/v1/model-versions/${v.id}/finalize`, { key })).status).toBe(200);
    const job = (await call(app, "GET", `/api/v1/training/jobs/${jobId}`, { key })).json;

    const lineage = await call(app, "GET", `/api/v1/model-versions/${v.id}/lineage`, { key });
    expect(lineage.status, lineage.text).toBe(200);
    const byKind = (k: string) => lineage.json.nodes.filter((n: { kind: string }) => n.kind === k);
    const edge = (from: string, to: string) =>
      lineage.json.edges.find((e: { from: string; to: string }) => e.from === from && e.to === to);
    expect(byKind("dataset")).toEqual([
      {
        id: "dataset:builtin-iris",
        kind: "dataset",
        label: expect.stringMatching(/iris/i),
        href: "/datasets/builtin-iris",
      },
    ]);
    expect(byKind("dataset_version")).toHaveLength(1);
    expect(byKind("project")[0]).toMatchObject({
      id: `project:${job.project_id}`,
      href: `/projects/${job.project_id}`,
    });
    expect(byKind("job")[0]).toMatchObject({ id: `job:${jobId}`, href: `/training/${jobId}` });
    expect(byKind("checkpoint")).toHaveLength(1);
    expect(byKind("model_version")[0]).toMatchObject({ id: `model_version:${v.id}`, label: "lineage v1" });
    const dv = byKind("dataset_version")[0].id;
    const ckpt = byKind("checkpoint")[0].id;
    expect(edge("dataset:builtin-iris", dv)).toBeTruthy();
    expect(edge(dv, `job:${jobId}`)?.label).toMatch(/split/);
    expect(edge(`project:${job.project_id}`, `job:${jobId}`)).toBeTruthy();
    expect(edge(`job:${jobId}`, ckpt)).toBeTruthy();
    expect(edge(ckpt, `model_version:${v.id}`)).toBeTruthy();
    expect(byKind("deployment")).toEqual([]);

    // A deployment whose revision serves the version (as /deployments/from-model-version will make).
    const dep = await call(app, "POST", "/api/v1/deployments", {
      key,
      body: { name: "from-registry", job_id: jobId },
    });
    expect(dep.status, dep.text).toBe(201);
    const db = await getDb();
    const served = await artifactOfModelVersion(db, userId, v.id);
    const [rev] = await db
      .insert(deploymentRevisions)
      .values({
        id: `rev_registrytest${Date.now()}`,
        deploymentId: dep.json.id,
        number: 2,
        source: "model_version",
        jobId: served.jobId,
        modelVersionId: served.modelVersionId,
        artifactFormat: served.artifactFormat,
        artifactFiles: served.artifactFiles,
        artifactManifest: served.artifactManifest,
      })
      .returning();
    await db.update(deployments).set({ currentRevisionId: rev.id }).where(eq(deployments.id, dep.json.id));
    // The revision serves: the deployment predicts from the registry's copy of the files.
    const predicted = await call(app, "POST", `/api/v1/inference/${dep.json.id}/predict`, {
      key: dep.json.api_key,
      body: {
        inputs: [{ sepal_length_cm: 5.1, sepal_width_cm: 3.5, petal_length_cm: 1.4, petal_width_cm: 0.2 }],
      },
    });
    expect(predicted.status, predicted.text).toBe(200);
    expect(predicted.json.revision).toBe(2);

    const withDeployment = await call(app, "GET", `/api/v1/model-versions/${v.id}/lineage`, { key });
    const revNode = withDeployment.json.nodes.find((n: { kind: string }) => n.kind === "deployment_revision");
    expect(revNode).toMatchObject({ id: `deployment_revision:${rev.id}`, label: "from-registry revision 2" });
    expect(withDeployment.json.nodes.find((n: { kind: string }) => n.kind === "deployment")).toMatchObject({
      id: `deployment:${dep.json.id}`,
      href: `/deployments/${dep.json.id}`,
    });
    expect(
      withDeployment.json.edges.some(
        (e: { from: string; to: string }) => e.from === `model_version:${v.id}` && e.to === revNode.id,
      ),
    ).toBe(true);

    // The model cannot be deleted while a deployment serves one of its versions.
    expect((await call(app, "DELETE", `/api/v1/models/${modelId}`, { key })).status).toBe(409);
    // Once the deployment serves something else it can; the files of the older revision stay
    // (a roll back to it still serves, even from a cold cache).
    await db
      .update(deployments)
      .set({ currentRevisionId: (await firstRevision(db, dep.json.id)) ?? null })
      .where(eq(deployments.id, dep.json.id));
    expect((await call(app, "DELETE", `/api/v1/models/${modelId}`, { key })).status).toBe(204);
    expect((await call(app, "GET", `/api/v1/model-versions/${v.id}`, { key })).status).toBe(404);
    await db.update(deployments).set({ currentRevisionId: rev.id }).where(eq(deployments.id, dep.json.id));
    evictRevisions([rev.id]);
    const rolledBack = await call(app, "POST", `/api/v1/inference/${dep.json.id}/predict`, {
      key: dep.json.api_key,
      body: {
        inputs: [{ sepal_length_cm: 6.7, sepal_width_cm: 3.0, petal_length_cm: 5.2, petal_width_cm: 2.3 }],
      },
    });
    expect(rolledBack.status, rolledBack.text).toBe(200);

    // A deployment key is refused on registry routes; so is no credential.
    expect((await call(app, "GET", "/api/v1/models", { key: dep.json.api_key })).status).toBe(403);
    expect((await call(app, "GET", `/api/v1/model-versions/${v.id}`, { key: dep.json.api_key })).status).toBe(
      403,
    );
    expect((await call(app, "GET", "/api/v1/models")).status).toBe(401);
  });

  it("lists the evaluations of the version's job", async () => {
    const modelId = await createModel("evaluations");
    const v = await push(modelId, { job_id: jobId });
    const before = await call(app, "GET", `/api/v1/model-versions/${v.id}/evaluations`, { key });
    expect(before.status).toBe(200);
    const created = await call(app, "POST", "/api/v1/training/evaluations", {
      key,
      body: { job_id: jobId, split: "validation" },
    });
    expect(created.status, created.text).toBe(202);
    const after = await call(app, "GET", `/api/v1/model-versions/${v.id}/evaluations`, { key });
    expect(after.json.items.map((e: { id: string }) => e.id)).toContain(created.json.id);
    expect(after.json.items).toHaveLength(before.json.items.length + 1);
    // Its figures show on the version once computed.
    const done = await waitFor("the evaluation", 60_000, async () => {
      const r = await call(app, "GET", `/api/v1/model-versions/${v.id}/evaluations`, { key });
      const e = r.json.items.find((x: { id: string }) => x.id === created.json.id);
      return e.state === "succeeded" || e.state === "failed" ? e : null;
    });
    expect(done.state, done.reason).toBe("succeeded");
    expect(done.metrics.accuracy).toBeGreaterThan(0);
    const bare = await push(modelId);
    expect(
      (await call(app, "GET", `/api/v1/model-versions/${bare.id}/evaluations`, { key })).json.items,
    ).toEqual([]);
  });
});

describe("owner isolation", () => {
  it("answers 404 for another account's entries, versions, artifacts and aliases", async () => {
    const modelId = await createModel("private");
    const v = await push(modelId);
    const artifactId = await upload(v.id, "weights.bin", new Uint8Array([9, 9, 9]));
    const init = await initiate(v.id, {
      name: "other.bin",
      size_bytes: 1,
      sha256: sha256(new Uint8Array([1])),
    });
    const o = { key: otherKey };
    const m = `/api/v1/models/${modelId}`;
    const mv = `/api/v1/model-versions/${v.id}`;
    const checks: [string, string, unknown?][] = [
      ["GET", m],
      ["PATCH", m, { description: "mine now" }],
      ["DELETE", m],
      ["GET", `${m}/versions`],
      ["POST", `${m}/versions`, {}],
      ["PUT", `${m}/aliases/champion`, { version_id: v.id }],
      ["GET", mv],
      ["GET", `${mv}/lineage`],
      ["GET", `${mv}/evaluations`],
      ["GET", `${mv}/artifacts`],
      ["POST", `${mv}/artifacts:initiate`, { name: "x.bin", size_bytes: 1, sha256: "a".repeat(64) }],
      ["POST", `${mv}/artifacts/${init.json.artifact_id}/complete`],
      ["GET", `${mv}/artifacts/${artifactId}/download`],
      ["POST", `${mv}/finalize`],
    ];
    for (const [method, path, body] of checks) {
      const r = await call(app, method, path, { ...o, ...(body !== undefined ? { body } : {}) });
      expect(r.status, `${method} ${path}`).toBe(404);
    }
    expect((await call(app, "GET", "/api/v1/models", o)).json.map((x: { id: string }) => x.id)).not.toContain(
      modelId,
    );
    await expect(artifactOfModelVersion(await getDb(), "usr_someoneelse", v.id)).rejects.toMatchObject({
      status: 404,
    });
    // Still there for its owner.
    expect((await call(app, "GET", mv, { key })).json.state).toBe("pending");
  });
});
