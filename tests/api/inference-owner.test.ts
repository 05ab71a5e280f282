/**
 * The owner tries their own deployment without its key (issue 25): the owner's web session (or
 * personal key) reads the schema and predicts through `…/schema/session` and `…/predict/session`;
 * another account gets 404, no credential 401, a deployment key 403, a foreign Origin 403. The
 * owner's calls are logged and counted against the deployment like keyed calls. And required
 * fields: a missing or blank field is a 422 naming every one of them (null is filled in only where
 * the manifest records how). A real Iris job trains and is deployed.
 */
import "@/lib/server/app";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/lib/server/db/client";
import { rateLimitWindows } from "@/lib/server/db/schema/rate-limits";
import { resetRateLimits } from "@/lib/server/http/rate-limit";
import { type JobRunner, startJobRunner } from "@/lib/server/jobs/runner";
import { flushRequestLog } from "@/lib/server/modules/deployments/request-log";
import { call, serveForUploads, signUp, signUpWithKey, startTestApp, type TestApp } from "../helpers";
import { tempBlobDir } from "./projects.fixtures";
import { irisGraph, TERMINAL, waitFor } from "./training-fixtures";

tempBlobDir();
let app: TestApp;
let runner: JobRunner | null = null;
let close: () => void = () => {};
let owner: Awaited<ReturnType<typeof signUpWithKey>>;
let other: Awaited<ReturnType<typeof signUp>>;
let deploymentId = "";
let deploymentKey = "";

const setosa = { sepal_length_cm: 5.1, sepal_width_cm: 3.5, petal_length_cm: 1.4, petal_width_cm: 0.2 };
const P = (id: string) => `/api/v1/inference/${id}/predict/session`;
const S = (id: string) => `/api/v1/inference/${id}/schema/session`;

beforeAll(async () => {
  app = await startTestApp();
  close = await serveForUploads(app);
  runner = startJobRunner({ db: await getDb(), concurrency: 1, pollIntervalMs: 100 });
  owner = await signUpWithKey(app);
  other = await signUp(app);
  const key = owner.key;
  const project = await call(app, "POST", "/api/v1/projects", {
    key,
    body: { name: "Iris", graph: irisGraph },
  });
  expect(project.status, project.text).toBe(201);
  const job = await call(app, "POST", "/api/v1/training/jobs", {
    key,
    body: {
      project_id: project.json.id,
      dataset_id: "builtin-iris",
      runtime: "tfjs",
      config: { epochs: 10, batch_size: 16, learning_rate: 0.02 },
    },
  });
  expect(job.status, job.text).toBe(201);
  const done = await waitFor(`job ${job.json.id}`, 170_000, async () => {
    const got = await call(app, "GET", `/api/v1/training/jobs/${job.json.id}`, { key });
    return TERMINAL.includes(got.json.state) ? got.json : null;
  });
  expect(done.state, done.reason).toBe("succeeded");
  const d = await call(app, "POST", "/api/v1/deployments", {
    key,
    body: { name: "iris-owner", job_id: job.json.id },
  });
  expect(d.status, d.text).toBe(201);
  deploymentId = d.json.id;
  deploymentKey = d.json.api_key;
}, 200_000);

afterAll(async () => {
  await runner?.stop({ graceMs: 2000 });
  close();
});

describe("the owner's try-it without the deployment key", () => {
  it("serves the owner's session and personal key the schema and predictions", async () => {
    const schema = await call(app, "GET", S(deploymentId), { cookie: owner.cookie });
    expect(schema.status, schema.text).toBe(200);
    expect(schema.json.input_schema.required).toEqual(Object.keys(setosa));
    const keyed = await call(app, "GET", `/api/v1/inference/${deploymentId}/schema`, { key: deploymentKey });
    expect(schema.json).toEqual(keyed.json);

    const bySession = await call(app, "POST", P(deploymentId), {
      cookie: owner.cookie,
      body: { inputs: [setosa] },
    });
    expect(bySession.status, bySession.text).toBe(200);
    expect(bySession.json.outputs[0].label).toBe("setosa");
    expect(bySession.json.revision).toBe(1);
    const byKey = await call(app, "POST", `/api/v1/inference/${deploymentId}/predict`, {
      key: deploymentKey,
      body: { inputs: [setosa] },
    });
    expect(bySession.json.outputs).toEqual(byKey.json.outputs);
    const byPersonalKey = await call(app, "POST", P(deploymentId), {
      key: owner.key,
      body: { inputs: [setosa] },
    });
    expect(byPersonalKey.status, byPersonalKey.text).toBe(200);
  });

  it("refuses everyone else: another account 404, no credential 401, a deployment key or a foreign page 403", async () => {
    const body = { inputs: [setosa] };
    const theirs = await call(app, "POST", P(deploymentId), { cookie: other.cookie, body });
    expect(theirs.status).toBe(404);
    expect((await call(app, "GET", S(deploymentId), { cookie: other.cookie })).status).toBe(404);
    expect((await call(app, "POST", P(deploymentId), { body })).status).toBe(401);
    expect((await call(app, "GET", S(deploymentId))).status).toBe(401);
    expect((await call(app, "POST", P(deploymentId), { key: deploymentKey, body })).status).toBe(403);
    expect((await call(app, "GET", S(deploymentId), { key: deploymentKey })).status).toBe(403);
    const forged = await call(app, "POST", P(deploymentId), {
      cookie: owner.cookie,
      headers: { Origin: "https://evil.example" },
      body,
    });
    expect(forged.status).toBe(403);
    expect(forged.json.detail).toMatch(/Cross-site/);
    // The owner's session is still no credential for the keyed routes.
    const keyedRoute = await call(app, "POST", `/api/v1/inference/${deploymentId}/predict`, {
      cookie: owner.cookie,
      body,
    });
    expect(keyedRoute.status).toBe(403);
    expect((await call(app, "POST", P("dep_missing"), { cookie: owner.cookie, body })).status).toBe(404);
  });

  it("answers a paused deployment with the same 503 as the keyed route", async () => {
    const path = `/api/v1/deployments/${deploymentId}`;
    expect((await call(app, "POST", `${path}/pause`, { key: owner.key })).status).toBe(200);
    try {
      const paused = await call(app, "POST", P(deploymentId), {
        cookie: owner.cookie,
        body: { inputs: [setosa] },
      });
      expect(paused.status).toBe(503);
      expect(paused.res.headers.get("Retry-After")).toBeTruthy();
    } finally {
      expect((await call(app, "POST", `${path}/resume`, { key: owner.key })).status).toBe(200);
    }
  });

  it("logs the owner's calls in the deployment's request log and counts them against its limit", async () => {
    const db = await getDb();
    const bucket = eq(rateLimitWindows.bucket, `dep:${deploymentId}`);
    // Nothing of the deployment's bucket is held: no row, no lease in this process.
    await db.delete(rateLimitWindows).where(bucket);
    resetRateLimits();
    const ok = await call(app, "POST", P(deploymentId), {
      cookie: owner.cookie,
      body: { inputs: [setosa, setosa] },
    });
    expect(ok.status).toBe(200);
    const bad = await call(app, "POST", P(deploymentId), { cookie: owner.cookie, body: { inputs: [{}] } });
    expect(bad.status).toBe(422);
    await call(app, "POST", P(deploymentId), { cookie: other.cookie, body: { inputs: [setosa] } });
    await flushRequestLog();
    const logs = await call(app, "GET", `/api/v1/deployments/${deploymentId}/logs?limit=1000`, {
      key: owner.key,
    });
    expect(logs.status, logs.text).toBe(200);
    const mine = logs.json.items.filter((e: { route: string }) => e.route === "predict/session");
    expect(
      mine.some((e: { status: number; instances: number }) => e.status === 200 && e.instances === 2),
    ).toBe(true);
    expect(mine.some((e: { status: number }) => e.status === 422)).toBe(true);
    // Another account's refused call is not logged against this deployment.
    expect(mine.some((e: { status: number }) => e.status === 404)).toBe(false);
    // The deployment's own rate bucket (the one its key spends) was spent by the owner's calls.
    expect(await db.select().from(rateLimitWindows).where(bucket)).not.toHaveLength(0);
  });
});

describe("required fields", () => {
  const keyed = (inputs: unknown[]) =>
    call(app, "POST", `/api/v1/inference/${deploymentId}/predict`, { key: deploymentKey, body: { inputs } });

  it("refuses missing and blank fields with one 422 naming every one of them", async () => {
    const { sepal_length_cm: _a, petal_width_cm: _b, ...partial } = setosa;
    const r = await keyed([setosa, partial, { ...setosa, sepal_width_cm: "" }]);
    expect(r.status).toBe(422);
    expect(r.res.headers.get("content-type")).toMatch(/application\/problem\+json/);
    expect(r.json.errors.map((e: { path: string }) => e.path)).toEqual([
      "inputs.1.sepal_length_cm",
      "inputs.1.petal_width_cm",
      "inputs.2.sepal_width_cm",
    ]);
    expect(r.json.detail).toContain("“sepal_length_cm”");
    expect(r.json.detail).toContain("“petal_width_cm”");
    expect(r.json.detail).toContain("instance 2: missing or blank “sepal_width_cm”");
    expect(r.json.errors[0].message).toMatch(/^missing feature “sepal_length_cm”: send a number, or null/);
    // The same through the owner's route and the streaming session (refused before the stream).
    const owned = await call(app, "POST", P(deploymentId), {
      cookie: owner.cookie,
      body: { inputs: [partial] },
    });
    expect(owned.status).toBe(422);
    expect(owned.json.errors).toHaveLength(2);
    const stream = await call(app, "POST", `/api/v1/inference/${deploymentId}/predict/stream/session`, {
      cookie: owner.cookie,
      body: { inputs: [partial] },
    });
    expect(stream.status).toBe(422);
    expect(stream.json.errors).toHaveLength(2);
    // A batch names them too.
    const batch = await call(app, "POST", `/api/v1/inference/${deploymentId}/batch`, {
      key: deploymentKey,
      body: { inputs: [partial, partial] },
    });
    expect(batch.status).toBe(422);
    expect(batch.json.errors).toHaveLength(4);
  });

  it("fills in null where the manifest records how (the training mean), and says so in the schema", async () => {
    const schema = await call(app, "GET", `/api/v1/inference/${deploymentId}/schema`, { key: deploymentKey });
    const prop = schema.json.input_schema.properties.petal_width_cm;
    expect(prop.type).toEqual(["number", "null"]);
    expect(prop.description).toMatch(/null when unknown, filled in with the training value \d/);
    const r = await keyed([{ ...setosa, petal_width_cm: null }]);
    expect(r.status, r.text).toBe(200);
    expect(r.json.outputs[0].label).toBeTruthy();
  });
});
