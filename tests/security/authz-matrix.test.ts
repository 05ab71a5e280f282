/**
 * The authorization matrix, generated from the OpenAPI document: every operation × every kind of
 * credential, with the path filled from one owner's fixtures (all private). A new route is covered
 * the day it is added; a path parameter of a new kind fails with "add a fixture for {param}".
 *
 * Expected outcomes follow decisions.md (Credentials; Status codes) and are computed from what the
 * document says of the operation (its `security`, its path, its method), not listed per route:
 * - a route that needs a credential answers 401 without one; a well-formed credential of a kind the
 *   route does not accept gets 403;
 * - a personal key or session of the owner is let through (not 401/403/404, no 5xx);
 * - another account's key gets 404 on the owner's resources (never 403 or 409, which would reveal
 *   them; 400/415/422 when the body is refused before any lookup), never a 2xx;
 * - a deployment key works on its own deployment's inference and OpenAI-compatible routes only;
 *   a stream token on its own job's stream only; an upload token on its own job's upload routes only;
 * - a session cookie with a foreign `Origin` is refused (403) on every unsafe method;
 * - anonymous callers reach only the operations whose security allows none: the genuinely public
 *   ones (PUBLIC_OPERATIONS) answer them; on the owner's private resources they get no 2xx.
 * Destructive operations run last, owner's credentials after everyone else's.
 */
import "@hono/zod-openapi";
import fs from "node:fs";
import path from "node:path";
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { parseCallsJsonl } from "@/lib/audits/parse-log";
import { groupWorkloads } from "@/lib/audits/workloads";
import { getDb } from "@/lib/server/db/client";
import { trainingEvaluations, users } from "@/lib/server/db/schema";
import { newId } from "@/lib/server/ids";
import { csv, startDatasetTestApp, upload, withEnv } from "../api/datasets-helpers";
import { fileForm, mlpGraph, tinyPng } from "../api/projects.fixtures";
import { buildImageZip } from "../fixtures/image-zip";
import { call, ORIGIN, signUpWithKey, type TestApp } from "../helpers";
import {
  assertMatchesDocument,
  HTTP_METHODS,
  type OpenApiDoc,
  type OperationObject,
  openApiContract,
} from "../openapi-contract";
import { torchCheckpoint } from "./checkpoint-bytes";
import { goodOnnx } from "./onnx-bytes";

process.env.RATE_LIMIT_PER_MINUTE = "100000";
let app: TestApp;

/**
 * Operations that answer anyone, by design (decisions.md): health, signing in and up, the session
 * probe, public profiles and project lists, share links (the token is the capability) and the hub's
 * public listings. Every other operation that allows no credential must not answer anonymous
 * callers with the owner's private data.
 */
const PUBLIC_OPERATIONS = new Set([
  "GET /health",
  "POST /api/auth/signup",
  "POST /api/auth/login",
  "POST /api/auth/logout", // without a session there is nothing to end
  "GET /api/auth/session",
  "GET /api/v1/users/{username}/profile",
  "GET /api/v1/users/{username}/projects",
  "GET /api/v1/users/{username}/projects/{project_id}",
  "GET /api/v1/shared/{token}",
  "GET /api/v1/audits/shared/{token}",
  "GET /api/v1/hub/models",
  "GET /api/v1/hub/models/search",
  "GET /api/v1/hub/categories",
  "GET /api/v1/hub/featured",
  "GET /api/v1/hub/trending",
]);

/** Path parameters that name no private resource of the owner (public names, capabilities, catalogs). */
const UNOWNED_PARAMS = new Set(["username", "token", "key", "version", "base_model_id", "alias"]);

type Credential =
  | "none"
  | "owner_key"
  | "other_key"
  | "deployment_key"
  | "stream_token"
  | "upload_token"
  | "session"
  | "session_foreign_origin"
  | "other_deployment_key"
  | "other_stream_token"
  | "other_upload_token";
const CREDENTIALS: Credential[] = [
  "none",
  "other_key",
  "deployment_key",
  "stream_token",
  "upload_token",
  "session_foreign_origin",
  "other_deployment_key",
  "other_stream_token",
  "other_upload_token",
  "owner_key",
  "session",
];
const SCHEME: Partial<Record<Credential, string>> = {
  owner_key: "personalApiKey",
  other_key: "personalApiKey",
  deployment_key: "deploymentKey",
  stream_token: "streamToken",
  upload_token: "uploadToken",
  session: "webSession",
  session_foreign_origin: "webSession",
  other_deployment_key: "deploymentKey",
  other_stream_token: "streamToken",
  other_upload_token: "uploadToken",
};

interface Fixtures {
  username: string;
  password: string;
  ownerKey: string;
  spareKeyId: string;
  cookie: string;
  otherKey: string;
  projectId: string;
  /** Public: named by a user's public pages (`/users/{username}/projects/{project_id}`). */
  publicProjectId: string;
  projectVersionId: string;
  shareId: string;
  shareToken: string;
  codegenTaskId: string;
  datasetId: string;
  datasetVersionId: string;
  datasetTaskId: string;
  /** An external job still receiving uploads: the upload and stream tokens are bound to it. */
  liveJobId: string;
  /** An external job that succeeded with a model artifact and a checkpoint. */
  doneJobId: string;
  checkpointId: string;
  uploadToken: string;
  streamToken: string;
  evaluationId: string;
  runId: string;
  deploymentId: string;
  deploymentKey: string;
  registryModelId: string;
  registryVersionId: string;
  registryArtifactId: string;
  hubModelId: string;
  hubFileId: string;
  auditId: string;
  workloadId: string;
  candidateId: string;
  auditShareToken: string;
  /** Another account's deployment key, stream token and upload token (bound to its own resources). */
  other: { deploymentKey: string; streamToken: string; uploadToken: string };
}
let fx: Fixtures;

async function ok<T = Record<string, unknown>>(
  what: string,
  r: Promise<{ status: number; json: unknown; text: string }>,
): Promise<T> {
  const res = await r;
  if (res.status >= 300) throw new Error(`fixture ${what}: ${res.status} ${res.text.slice(0, 300)}`);
  return res.json as T;
}

function sampleWorkloads() {
  const text = fs.readFileSync(
    path.join(import.meta.dirname, "../../data/samples/support-calls.jsonl"),
    "utf8",
  );
  return groupWorkloads(parseCallsJsonl(text).calls).map((g) => ({
    name: g.name,
    task: g.task,
    model: g.model,
    calls: g.calls.map((c) => ({ input: c.input, output: c.output, latency_ms: c.latency_ms, cost: c.cost })),
  }));
}

async function externalJob(key: string, projectId: string): Promise<string> {
  const job = await ok<{ id: string }>(
    "external job",
    call(app, "POST", "/api/v1/training/jobs", {
      key,
      body: { project_id: projectId, dataset_id: "builtin-iris", runtime: "external" },
    }),
  );
  return job.id;
}

async function createFixtures(): Promise<Fixtures> {
  const owner = await signUpWithKey(app);
  const db = await getDb();
  await db.update(users).set({ plan: "team" }).where(eq(users.id, owner.user.id));
  const key = owner.key;
  const spare = await ok<{ id: string }>(
    "spare key",
    call(app, "POST", "/api/v1/users/me/api-keys", { cookie: owner.cookie, body: { name: "spare" } }),
  );
  const other = await signUpWithKey(app);
  const J = "/api/v1/training/jobs";

  const project = await ok<{ id: string }>(
    "project",
    // Sized to Iris (4 inputs, 3 classes): its jobs train on Iris, and a job whose dataset does not fit is refused.
    call(app, "POST", "/api/v1/projects", { key, body: { name: "Private", graph: mlpGraph(3) } }),
  );
  const P = `/api/v1/projects/${project.id}`;
  const version = await ok<{ id: string }>(
    "project version",
    call(app, "POST", `${P}/save`, { key, body: {} }),
  );
  await ok(
    "thumbnail",
    call(app, "POST", `${P}/thumbnail`, { key, rawBody: fileForm(tinyPng(), "t.png", "image/png") }),
  );
  const publicProject = await ok<{ id: string }>(
    "public project",
    call(app, "POST", "/api/v1/projects", { key, body: { name: "Public", graph: mlpGraph() } }),
  );
  await ok(
    "made public",
    call(app, "PUT", `/api/v1/projects/${publicProject.id}`, { key, body: { visibility: "public" } }),
  );
  const share = await ok<{ id: string; token: string }>("share", call(app, "POST", `${P}/share`, { key }));
  const task = await ok<{ task_id: string }>(
    "codegen task",
    call(app, "POST", `${P}/generate-code?async_mode=true`, { key }),
  );
  const uploaded = await ok<{ dataset: { id: string }; version: { id: string } }>(
    "dataset",
    upload(app, key, csv([["x", "y"], ...Array.from({ length: 20 }, (_, i) => [i, i % 2])])),
  );
  const fetchTask = await ok<{ task_id: string }>(
    "dataset fetch task",
    // A loopback port nobody listens on: the task exists (and fails) without any network.
    withEnv({ DATASET_FETCH_ALLOW_PRIVATE: "1" }, () =>
      call(app, "POST", "/api/v1/datasets/from-url", {
        key,
        body: { url: "http://127.0.0.1:9/data.csv", name: "remote" },
      }),
    ),
  );

  const liveJobId = await externalJob(key, project.id);
  const uploadToken = (
    await ok<{ token: string }>("upload token", call(app, "POST", `${J}/${liveJobId}/stream-token`, { key }))
  ).token;
  const streamToken = (
    await ok<{ token: string }>(
      "stream token",
      call(app, "POST", `${J}/${liveJobId}/stream-access-token`, { key }),
    )
  ).token;

  const doneJobId = await externalJob(key, project.id);
  const doneToken = (
    await ok<{ token: string }>("upload token", call(app, "POST", `${J}/${doneJobId}/stream-token`, { key }))
  ).token;
  const checkpoint = await ok<{ id: string }>(
    "checkpoint",
    call(app, "POST", `${J}/${doneJobId}/checkpoints?epoch=1&step=1`, {
      key: doneToken,
      rawBody: torchCheckpoint(),
      headers: { "Content-Type": "application/octet-stream" },
    }),
  );
  await ok(
    "artifact",
    call(app, "PUT", `${J}/${doneJobId}/artifact/model.onnx`, {
      key: doneToken,
      rawBody: new Uint8Array(goodOnnx()),
      headers: { "Content-Type": "application/octet-stream" },
    }),
  );
  await ok(
    "job success",
    call(app, "POST", `${J}/${doneJobId}/metrics/events`, {
      key: doneToken,
      body: { events: [{ kind: "status", status: "succeeded" }] },
    }),
  );
  // An external job's model cannot be evaluated through the API (it recorded no preprocessing): the
  // evaluation row is written directly, as the evaluation task would, as an image evaluation with
  // one misclassified picture (its thumbnail route needs one).
  const pictures = await buildImageZip({ classes: [0, 1], perClass: 2, size: 8 });
  const imageDataset = await ok<{ dataset: { id: string }; version: { id: string } }>(
    "image dataset",
    upload(app, key, pictures.zip, "pictures.zip"),
  );
  const evaluationId = newId("eval");
  await db.insert(trainingEvaluations).values({
    id: evaluationId,
    ownerId: owner.user.id,
    jobId: doneJobId,
    datasetId: imageDataset.dataset.id,
    datasetVersionId: imageDataset.version.id,
    split: "all",
    state: "succeeded",
    metrics: { accuracy: 0.75, rows: 4 },
    result: {
      kind: "classification",
      rows: 4,
      labels: ["0", "1"],
      confusion_matrix: [
        [2, 0],
        [1, 1],
      ],
      per_class: [],
      roc: [],
      samples: [{ path: pictures.entries[2].path, actual: "1", predicted: "0", confidence: 0.9 }],
    },
  });
  const run = await ok<{ id: string }>(
    "foundation run",
    call(app, "POST", "/api/v1/training/foundation-runs", {
      key,
      body: {
        base_model_id: "digits-cnn-0-4",
        dataset_id: "builtin-digits",
        freeze: "base",
        config: { epochs: 1 },
      },
    }),
  );
  const deployment = await ok<{ id: string; api_key: string }>(
    "deployment",
    call(app, "POST", "/api/v1/deployments", { key, body: { name: "private", job_id: doneJobId } }),
  );

  const model = await ok<{ id: string }>(
    "registry model",
    call(app, "POST", "/api/v1/models", { key, body: { name: "private-model" } }),
  );
  const mv = await ok<{ id: string }>(
    "registry version",
    call(app, "POST", `/api/v1/models/${model.id}/versions`, { key, body: { job_id: doneJobId } }),
  );
  const artifacts = await ok<{ items?: { id: string }[] } | { id: string }[]>(
    "registry artifacts",
    call(app, "GET", `/api/v1/model-versions/${mv.id}/artifacts`, { key }),
  );
  const artifactList = Array.isArray(artifacts) ? artifacts : (artifacts.items ?? []);
  await ok("finalize", call(app, "POST", `/api/v1/model-versions/${mv.id}/finalize`, { key }));
  await ok(
    "alias",
    call(app, "PUT", `/api/v1/models/${model.id}/aliases/champion`, { key, body: { version_id: mv.id } }),
  );

  const hub = await ok<{ id: string }>(
    "hub model",
    call(app, "POST", "/api/v1/hub/models", {
      key,
      body: { name: "Private hub model", visibility: "private" },
    }),
  );
  const hubFile = await ok<{ id: string }>(
    "hub file",
    call(app, "POST", `/api/v1/hub/models/${hub.id}/files?path=weights.bin`, {
      key,
      rawBody: new Uint8Array([1, 2, 3]),
      headers: { "Content-Type": "application/octet-stream" },
    }),
  );

  const audit = await ok<{ id: string; workloads: { id: string; task: string }[] }>(
    "audit",
    call(app, "POST", "/api/v1/audits", {
      key,
      body: { name: "Private audit", source: "calls.jsonl", workloads: sampleWorkloads() },
    }),
  );
  const workload = audit.workloads.find((w) => w.task === "classification") ?? audit.workloads[0];
  const A = `/api/v1/audits/${audit.id}`;
  await ok("workload dataset", call(app, "POST", `${A}/workloads/${workload.id}/dataset`, { key, body: {} }));
  const candidate = await ok<{ id: string }>(
    "candidate",
    call(app, "POST", `${A}/workloads/${workload.id}/candidates`, {
      key,
      body: {
        recipe_id: "tabular-mlp-classifier",
        base_model_id: "breast-cancer-mlp",
        config: { epochs: 1 },
      },
    }),
  );
  const auditShare = await ok<{ token: string }>("audit share", call(app, "POST", `${A}/share`, { key }));

  // Another account's own deployment and live job: its credentials must not reach the owner's.
  const otherProject = await ok<{ id: string }>(
    "other project",
    call(app, "POST", "/api/v1/projects", { key: other.key, body: { name: "Theirs", graph: mlpGraph(3) } }),
  );
  const otherDone = await externalJob(other.key, otherProject.id);
  const otherDoneToken = (
    await ok<{ token: string }>(
      "other upload token",
      call(app, "POST", `${J}/${otherDone}/stream-token`, { key: other.key }),
    )
  ).token;
  await ok(
    "other artifact",
    call(app, "PUT", `${J}/${otherDone}/artifact/model.onnx`, {
      key: otherDoneToken,
      rawBody: new Uint8Array(goodOnnx()),
      headers: { "Content-Type": "application/octet-stream" },
    }),
  );
  await ok(
    "other job success",
    call(app, "POST", `${J}/${otherDone}/metrics/events`, {
      key: otherDoneToken,
      body: { events: [{ kind: "status", status: "succeeded" }] },
    }),
  );
  const otherDeployment = await ok<{ api_key: string }>(
    "other deployment",
    call(app, "POST", "/api/v1/deployments", { key: other.key, body: { name: "theirs", job_id: otherDone } }),
  );
  const otherLive = await externalJob(other.key, otherProject.id);
  const otherUpload = await ok<{ token: string }>(
    "other upload token",
    call(app, "POST", `${J}/${otherLive}/stream-token`, { key: other.key }),
  );
  const otherStream = await ok<{ token: string }>(
    "other stream token",
    call(app, "POST", `${J}/${otherLive}/stream-access-token`, { key: other.key }),
  );

  return {
    other: {
      deploymentKey: otherDeployment.api_key,
      streamToken: otherStream.token,
      uploadToken: otherUpload.token,
    },
    username: owner.username,
    password: "correct horse battery",
    ownerKey: key,
    spareKeyId: spare.id,
    cookie: owner.cookie,
    otherKey: other.key,
    projectId: project.id,
    publicProjectId: publicProject.id,
    projectVersionId: version.id,
    shareId: share.id,
    shareToken: share.token,
    codegenTaskId: task.task_id,
    datasetId: uploaded.dataset.id,
    datasetVersionId: uploaded.version.id,
    datasetTaskId: fetchTask.task_id,
    liveJobId,
    doneJobId,
    checkpointId: checkpoint.id,
    uploadToken,
    streamToken,
    evaluationId,
    runId: run.id,
    deploymentId: deployment.id,
    deploymentKey: deployment.api_key,
    registryModelId: model.id,
    registryVersionId: mv.id,
    registryArtifactId: artifactList[0]?.id ?? "",
    hubModelId: hub.id,
    hubFileId: hubFile.id,
    auditId: audit.id,
    workloadId: workload.id,
    candidateId: candidate.id,
    auditShareToken: auditShare.token,
  };
}

interface Op {
  method: string;
  path: string;
  op: OperationObject;
  schemes: Set<string>;
  anonymous: boolean;
  owned: boolean;
  destructive: boolean;
}

/** The fixture for a path parameter, by its name and where it appears. */
function paramValue(template: string, name: string, o: Op): string {
  const under = (prefix: string) => template.startsWith(prefix);
  const byName: Record<string, () => string> = {
    username: () => fx.username,
    key_id: () => fx.spareKeyId,
    project_id: () => (under("/api/v1/users/{username}/") ? fx.publicProjectId : fx.projectId),
    share_id: () => fx.shareId,
    token: () => (under("/api/v1/audits/") ? fx.auditShareToken : fx.shareToken),
    version_id: () =>
      under("/api/v1/datasets/")
        ? fx.datasetVersionId
        : under("/api/v1/projects/")
          ? fx.projectVersionId
          : fx.registryVersionId,
    dataset_id: () => fx.datasetId,
    task_id: () => (under("/api/v1/datasets/") ? fx.datasetTaskId : fx.codegenTaskId),
    // Upload and stream routes act on the live job (its tokens are bound to it); the rest on the finished one.
    job_id: () =>
      o.schemes.has("uploadToken") || o.schemes.has("streamToken") ? fx.liveJobId : fx.doneJobId,
    checkpoint_id: () => fx.checkpointId,
    file_name: () => "model.onnx",
    run_id: () => fx.runId,
    evaluation_id: () => fx.evaluationId,
    deployment_id: () => fx.deploymentId,
    model: () => fx.deploymentId,
    base_model_id: () => "breast-cancer-mlp",
    model_id: () => (under("/api/v1/hub/") ? fx.hubModelId : fx.registryModelId),
    file_id: () => fx.hubFileId,
    alias: () => "champion",
    artifact_id: () => fx.registryArtifactId,
    key: () => "tabular-classification",
    version: () => "1",
    sample: () => "0",
    audit_id: () => fx.auditId,
    workload_id: () => fx.workloadId,
    candidate_id: () => fx.candidateId,
  };
  const value = byName[name];
  if (!value) throw new Error(`add a fixture for {${name}} (${o.method} ${o.path})`);
  return encodeURIComponent(value());
}

function operations(doc: OpenApiDoc): Op[] {
  const out: Op[] = [];
  for (const [p, item] of Object.entries(doc.paths)) {
    for (const [m, op] of Object.entries(item)) {
      if (!HTTP_METHODS.includes(m)) continue;
      const security = op.security ?? doc.security ?? [];
      const params = [...p.matchAll(/\{([^}]+)\}/g)].map((x) => x[1]);
      out.push({
        method: m.toUpperCase(),
        path: p,
        op,
        schemes: new Set(security.flatMap((s) => Object.keys(s))),
        anonymous: security.length === 0 || security.some((s) => Object.keys(s).length === 0),
        // A user's public pages name public resources only.
        owned: !p.startsWith("/api/v1/users/{username}/") && params.some((x) => !UNOWNED_PARAMS.has(x)),
        destructive: m === "delete" || /\/(rotate-key|logout|bulk-delete|cancel|restart|pause)$/.test(p),
      });
    }
  }
  return out;
}

interface Body {
  rawBody?: BodyInit;
  body?: unknown;
  headers: Record<string, string>;
  /** The body names one of the owner's resources (another account must not reach it either). */
  namesOwned: boolean;
}

/** Fields of documented examples that name a resource: filled with the owner's fixtures. */
function bodyIds(): Record<string, string> {
  return {
    project_id: fx.projectId,
    job_id: fx.doneJobId,
    model_version_id: fx.registryVersionId,
    version_id: fx.registryVersionId,
    deployment_id: fx.deploymentId,
  };
}

/** A request body the operation accepts in form: its documented example (ids filled), or `{}`. */
function bodyFor(o: Op): Body {
  const content = o.op.requestBody?.content;
  if (!content) return { headers: {}, namesOwned: false };
  if (o.path === "/api/auth/login")
    return { body: { username: fx.username, password: fx.password }, headers: {}, namesOwned: false };
  const json = content["application/json"] as { example?: unknown; schema?: { $ref?: string } } | undefined;
  if (json) {
    const ref = json.schema?.$ref?.split("/").pop();
    const schema = ref
      ? (openApiContract(app).doc.components.schemas[ref] as { example?: unknown })
      : undefined;
    const body = { ...((json.example ?? schema?.example ?? {}) as Record<string, unknown>) };
    let namesOwned = false;
    for (const [field, id] of Object.entries(bodyIds())) {
      if (typeof body[field] !== "string") continue;
      body[field] = id;
      namesOwned = true;
    }
    if (o.path.startsWith("/v1/")) {
      body.model = fx.deploymentId;
      namesOwned = true;
    }
    return { body, headers: {}, namesOwned };
  }
  return {
    rawBody: new Uint8Array([1, 2, 3]),
    headers: { "Content-Type": Object.keys(content)[0] },
    namesOwned: false,
  };
}

interface Outcome {
  /** What the rule expects, for the report. */
  expect: string;
  accepts: (status: number) => boolean;
}

const allowed = (gone = false): Outcome => ({
  expect: gone ? "let through (or already gone)" : "let through",
  accepts: (s) => s < 500 && s !== 401 && s !== 403 && (gone || s !== 404),
});
const status = (...codes: number[]): Outcome => ({
  expect: codes.join(" or "),
  accepts: (s) => codes.includes(s),
});
const refused: Outcome = { expect: "refused (4xx, no 2xx)", accepts: (s) => s >= 400 && s < 500 };

/** The rule of decisions.md for one cell. */
function expected(o: Op, cred: Credential, ownerGone: boolean, body: Body): Outcome {
  const owned = o.owned || body.namesOwned;
  const anonymousOutcome = (): Outcome => {
    if (!o.anonymous) return status(401);
    if (owned) return refused; // the owner's private resource, or a signed link without its signature
    return PUBLIC_OPERATIONS.has(`${o.method} ${o.path}`) ? allowed() : refused;
  };
  if (cred === "none") return anonymousOutcome();
  const scheme = SCHEME[cred] as string;
  // Routes without a credential middleware (no scheme at all) ignore credentials.
  if (o.schemes.size === 0) return anonymousOutcome();
  if (!o.schemes.has(scheme)) return status(403);
  switch (cred) {
    case "owner_key":
    case "session":
      return allowed(ownerGone);
    case "session_foreign_origin":
      return ["POST", "PUT", "PATCH", "DELETE"].includes(o.method) ? status(403) : allowed(ownerGone);
    case "other_key":
      // Another account: the owner's resources do not exist for it; body errors come before lookups.
      return owned ? status(404, 400, 415, 422) : allowed();
    case "deployment_key":
      // Bound to the owner's deployment, which the path names (or the /v1 routes, which take it in the body).
      return allowed();
    case "stream_token":
      return o.path.includes("{job_id}") ? allowed() : refused;
    case "upload_token":
      return o.path.includes("{job_id}") ? allowed() : refused;
    case "other_deployment_key":
    case "other_stream_token":
    case "other_upload_token":
      // Bound to another account's resources: the owner's do not exist for them.
      return owned ? status(401, 403, 404, 400, 422) : allowed();
  }
}

function headersFor(cred: Credential): Record<string, string> {
  switch (cred) {
    case "none":
      return {};
    case "owner_key":
      return { Authorization: `Bearer ${fx.ownerKey}` };
    case "other_key":
      return { Authorization: `Bearer ${fx.otherKey}` };
    case "deployment_key":
      return { Authorization: `Bearer ${fx.deploymentKey}` };
    case "stream_token":
      return { Authorization: `Bearer ${fx.streamToken}` };
    case "upload_token":
      return { Authorization: `Bearer ${fx.uploadToken}` };
    case "session":
      return { Cookie: fx.cookie, Origin: ORIGIN };
    case "session_foreign_origin":
      return { Cookie: fx.cookie, Origin: "https://evil.example" };
    case "other_deployment_key":
      return { Authorization: `Bearer ${fx.other.deploymentKey}` };
    case "other_stream_token":
      return { Authorization: `Bearer ${fx.other.streamToken}` };
    case "other_upload_token":
      return { Authorization: `Bearer ${fx.other.uploadToken}` };
  }
}

/** Sends one cell's request; streams (SSE) are not read past their status. */
async function send(
  o: Op,
  cred: Credential,
  b: Body,
): Promise<{ status: number; body: string; mismatch?: string }> {
  const url = o.path.replace(/\{([^}]+)\}/g, (_, name: string) => paramValue(o.path, name, o));
  const headers: Record<string, string> = { Host: "localhost", ...b.headers, ...headersFor(cred) };
  let body: BodyInit | undefined = b.rawBody;
  if (b.body !== undefined) {
    body = JSON.stringify(b.body);
    headers["Content-Type"] = "application/json";
  }
  const res = await app.request(url, { method: o.method, headers, body });
  if ((res.headers.get("content-type") ?? "").startsWith("text/event-stream")) {
    await res.body?.cancel();
    return { status: res.status, body: "(event stream)" };
  }
  const text = await res.text();
  let json: unknown = text;
  try {
    json = text ? JSON.parse(text) : null;
  } catch {}
  // Every answer, refusals included, is one the document declares.
  try {
    assertMatchesDocument(o.method, url, { status: res.status, headers: res.headers, text, json }, app);
  } catch (err) {
    return {
      status: res.status,
      body: text.slice(0, 200),
      mismatch: (err as Error).message.split("\nbody:")[0],
    };
  }
  return { status: res.status, body: text.slice(0, 200) };
}

beforeAll(async () => {
  ({ app } = await startDatasetTestApp("layerline-authz-matrix"));
  fx = await createFixtures();
}, 120_000);

describe("inference routes' credentials", () => {
  it("take a deployment key, or else the owner's own credentials, never both on one route", () => {
    // decisions.md: a personal key never works on the keyed inference routes; the owner's routes
    // (…/session: the console's try-it, the streaming session) take the session or personal key
    // and refuse deployment keys. The matrix below checks each; this keeps them apart.
    const inference = operations(openApiContract(app).doc).filter((o) =>
      o.path.startsWith("/api/v1/inference/"),
    );
    const kinds = inference.map((o) => `${o.method} ${o.path}: ${[...o.schemes].sort().join(" ")}`);
    for (const k of kinds) expect(k).toMatch(/: (deploymentKey|personalApiKey webSession)$/);
    const owners = kinds.filter((k) => k.endsWith("personalApiKey webSession"));
    expect([...owners].sort()).toEqual(
      [
        "GET /api/v1/inference/{deployment_id}/schema/session: personalApiKey webSession",
        "POST /api/v1/inference/{deployment_id}/predict/session: personalApiKey webSession",
        "POST /api/v1/inference/{deployment_id}/predict/stream/session: personalApiKey webSession",
      ].sort(),
    );
  });
});

describe("authorization matrix (every operation × every credential)", () => {
  it("answers each credential as decisions.md says", async () => {
    const ops = operations(openApiContract(app).doc);
    expect(ops.length).toBeGreaterThan(150);
    // Every path parameter has a fixture before any request is sent.
    for (const o of ops) for (const [, n] of o.path.matchAll(/\{([^}]+)\}/g)) paramValue(o.path, n, o);

    const failures: string[] = [];
    const tally = Object.fromEntries(CREDENTIALS.map((c) => [c, {} as Record<number, number>]));
    let cells = 0;
    const run = async (o: Op, cred: Credential, ownerGone = false) => {
      const b = bodyFor(o);
      const rule = expected(o, cred, ownerGone, b);
      const r = await send(o, cred, b);
      cells++;
      tally[cred][Math.floor(r.status / 100)] = (tally[cred][Math.floor(r.status / 100)] ?? 0) + 1;
      if (r.mismatch) failures.push(`${o.method} ${o.path} × ${cred}: ${r.mismatch}`);
      if (!rule.accepts(r.status))
        failures.push(`${o.method} ${o.path} × ${cred}: ${r.status}, expected ${rule.expect} — ${r.body}`);
    };
    const owners: Credential[] = ["owner_key", "session"];
    const nonOwners = CREDENTIALS.filter((c) => !owners.includes(c));
    // 1. Everyone but the owner, on every operation: nothing they do may change the fixtures.
    for (const o of ops) for (const cred of nonOwners) await run(o, cred);
    // 2. The owner on every operation that destroys nothing.
    for (const o of ops.filter((x) => !x.destructive)) for (const cred of owners) await run(o, cred);
    // 3. The owner's destructive operations, deepest paths first, signing out last; the second owner
    //    credential may find the resource already gone (404), never refused.
    const destructive = ops
      .filter((x) => x.destructive)
      .sort(
        (a, b) =>
          Number(a.path.endsWith("/logout")) - Number(b.path.endsWith("/logout")) ||
          b.path.split("/").length - a.path.split("/").length,
      );
    for (const o of destructive) {
      await run(o, "owner_key", true);
      await run(o, "session", true);
    }
    console.log(
      `authorization matrix: ${ops.length} operations × ${CREDENTIALS.length} credentials = ${cells} cells;`,
      `status classes per credential: ${JSON.stringify(tally)}`,
    );
    expect(failures).toEqual([]);
  }, 300_000);
});
