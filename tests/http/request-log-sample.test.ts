/**
 * A busy deployment's request log is a sample: at most REQUEST_LOG_LINES_PER_SECOND lines per
 * deployment, outcome and second, each weighted by the calls it stands for. The metrics still count
 * every call exactly and give percentiles; the log pages through the kept lines. Real predict calls
 * through the app, on a model trained for the test.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/lib/server/db/client";
import { listDeploymentEvents } from "@/lib/server/events/deployment-events";
import { type JobRunner, startJobRunner } from "@/lib/server/jobs/runner";
import { flushRequestLog } from "@/lib/server/modules/deployments/request-log";
import { tempBlobDir } from "../api/projects.fixtures";
import { irisGraph, TERMINAL, waitFor } from "../api/training-fixtures";
import { call, serveForUploads, signUpWithKey, startTestApp, type TestApp } from "../helpers";

const LINES_PER_SECOND = 3;
tempBlobDir();
let app: TestApp;
let runner: JobRunner | null = null;
let close: () => void = () => {};
let key = "";
let jobId = "";
const previous = process.env.REQUEST_LOG_LINES_PER_SECOND;

beforeAll(async () => {
  process.env.REQUEST_LOG_LINES_PER_SECOND = String(LINES_PER_SECOND);
  app = await startTestApp();
  close = await serveForUploads(app);
  runner = startJobRunner({ db: await getDb(), concurrency: 1, pollIntervalMs: 100 });
  ({ key } = await signUpWithKey(app));
  const project = await call(app, "POST", "/api/v1/projects", {
    key,
    body: { name: "Iris", graph: irisGraph },
  });
  const job = await call(app, "POST", "/api/v1/training/jobs", {
    key,
    body: {
      project_id: project.json.id,
      dataset_id: "builtin-iris",
      runtime: "tfjs",
      config: { epochs: 3, batch_size: 16, learning_rate: 0.02 },
    },
  });
  expect(job.status, job.text).toBe(201);
  jobId = job.json.id;
  const done = await waitFor(`job ${jobId}`, 120_000, async () => {
    const got = await call(app, "GET", `/api/v1/training/jobs/${jobId}`, { key });
    return TERMINAL.includes(got.json.state) ? got.json : null;
  });
  expect(done.state, done.reason).toBe("succeeded");
}, 150_000);

afterAll(async () => {
  if (previous === undefined) delete process.env.REQUEST_LOG_LINES_PER_SECOND;
  else process.env.REQUEST_LOG_LINES_PER_SECOND = previous;
  await runner?.stop({ graceMs: 1000 });
  close();
});

const setosa = { sepal_length_cm: 5.1, sepal_width_cm: 3.5, petal_length_cm: 1.4, petal_width_cm: 0.2 };

describe("the request log of a busy deployment", () => {
  it("keeps a weighted sample of each second's calls; the metrics count every call", async () => {
    const d = await call(app, "POST", "/api/v1/deployments", { key, body: { name: "busy", job_id: jobId } });
    expect(d.status, d.text).toBe(201);
    const dk = d.json.api_key as string;
    const predict = (inputs: unknown[]) =>
      call(app, "POST", `/api/v1/inference/${d.json.id}/predict`, { key: dk, body: { inputs } });
    const started = Date.now();
    for (let i = 0; i < 40; i++) expect((await predict([setosa])).status).toBe(200);
    for (let i = 0; i < 6; i++) expect((await predict([{ sepal_length_cm: 1 }])).status).toBe(422);
    const seconds = Math.floor(Date.now() / 1000) - Math.floor(started / 1000) + 1;
    await flushRequestLog();

    const m = await call(app, "GET", `/api/v1/deployments/${d.json.id}/metrics?window=1h`, { key });
    expect(m.status, m.text).toBe(200);
    expect(m.json.totals).toMatchObject({ requests: 46, errors: 0, client_errors: 6 });
    expect(m.json.totals.p50_ms).toBeGreaterThan(0);
    expect(m.json.totals.p99_ms).toBeGreaterThanOrEqual(m.json.totals.p50_ms);
    expect(m.json.series.reduce((n: number, p: { requests: number }) => n + p.requests, 0)).toBe(46);

    const logs = await call(app, "GET", `/api/v1/deployments/${d.json.id}/logs?limit=1000`, { key });
    expect(logs.status, logs.text).toBe(200);
    const lines = logs.json.items as { kind: string; status: number; weight: number | null }[];
    const ok = lines.filter((e) => e.kind === "request" && e.status === 200);
    const refused = lines.filter((e) => e.kind === "request" && e.status === 422);
    // At most LINES_PER_SECOND of each outcome in each second the calls spanned: fewer than the calls.
    expect(ok.length).toBeGreaterThanOrEqual(LINES_PER_SECOND);
    expect(ok.length).toBeLessThanOrEqual(LINES_PER_SECOND * seconds);
    expect(ok.length).toBeLessThan(40);
    expect(refused.length).toBeGreaterThanOrEqual(1);
    expect(refused.length).toBeLessThanOrEqual(Math.min(6, LINES_PER_SECOND * seconds));
    // The log route says what each line stands for: its weights add up to the calls, too.
    expect(ok.reduce((n, e) => n + (e.weight ?? 0), 0)).toBe(40);
    expect(refused.reduce((n, e) => n + (e.weight ?? 0), 0)).toBe(6);
    expect(lines.filter((e) => e.kind === "log").every((e) => e.weight === null)).toBe(true);

    // Each kept line stands for its share of the second's calls: the weights add up to the calls.
    const events = await listDeploymentEvents(await getDb(), d.json.id, 0, 1000, ["request"]);
    const weight = (status: number) =>
      events
        .filter((e) => e.data.status === status)
        .reduce((n, e) => n + (typeof e.data.weight === "number" ? e.data.weight : 1), 0);
    expect(Math.round(weight(200))).toBe(40);
    expect(Math.round(weight(422))).toBe(6);
    expect(events.some((e) => typeof e.data.weight === "number" && e.data.weight > 1)).toBe(true);
  });
});
