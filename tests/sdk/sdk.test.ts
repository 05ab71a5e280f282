/**
 * The TypeScript SDK against the real app served on loopback, behind a wrapper that misbehaves on
 * purpose: a create answered 503 once (retried with the same Idempotency-Key, exactly one job), a
 * 429 with Retry-After (waited for), 250 projects read through the page iterator, an event stream
 * cut mid-way and a stream token refused (resumed with Last-Event-ID and a fresh token: nothing
 * lost, nothing repeated), and a dataset streamed from disk with progress.
 */
// The app first: it extends zod with .openapi() before the schema modules build their schemas.
import "@/lib/server/app";
import { mkdtemp, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { serve } from "@hono/node-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/lib/server/db/client";
import { setPlan } from "@/lib/server/modules/account/accounts";
import { Layerline, LayerlineError, parseRetryAfter } from "@/sdk/src";
import { fileSource } from "@/sdk/src/node";
import { backoffDelay, DEFAULT_RETRY } from "@/sdk/src/retry";
import { call, signUpWithKey, startTestApp, type TestApp } from "../helpers";

let app: TestApp;
let baseUrl = "";
let stop: () => void = () => {};
let user: Awaited<ReturnType<typeof signUpWithKey>>;

/** Per-test misbehaviour: return a Response to answer instead of the app, or null to forward. */
type Interceptor = (req: Request) => Promise<Response | null> | Response | null;
let intercept: Interceptor = () => null;
const seen: Request[] = [];

const problem = (status: number, title: string, headers: Record<string, string> = {}) =>
  new Response(
    JSON.stringify({
      type: "about:blank",
      title,
      status,
      detail: `${title} (on purpose)`,
      request_id: "req_test",
    }),
    {
      status,
      headers: { "Content-Type": "application/problem+json", ...headers },
    },
  );

const client = (extra: Partial<ConstructorParameters<typeof Layerline>[0]> = {}) =>
  new Layerline({ baseUrl, apiKey: user.key, retry: { baseDelayMs: 20, maxDelayMs: 100 }, ...extra });

async function project(name = "Iris MLP") {
  const r = await call(app, "POST", "/api/v1/projects", {
    key: user.key,
    body: { name, template: "mlp-classifier" },
  });
  expect(r.status, r.text).toBe(201);
  return r.json.id as string;
}

beforeAll(async () => {
  app = await startTestApp();
  user = await signUpWithKey(app);
  await new Promise<void>((resolve) => {
    const server = serve(
      {
        fetch: async (req: Request) => {
          seen.push(req.clone());
          return (await intercept(req)) ?? app.fetch(req);
        },
        port: 0,
        hostname: "127.0.0.1",
      },
      (info) => {
        baseUrl = `http://127.0.0.1:${info.port}`;
        stop = () => server.close();
        resolve();
      },
    );
  });
});

afterAll(() => stop());

function reset(next: Interceptor = () => null) {
  seen.length = 0;
  intercept = next;
}

describe("retries and idempotency", () => {
  it("retries a create answered 503 with the same Idempotency-Key: exactly one job", async () => {
    const projectId = await project();
    let failed = 0;
    reset((req) => {
      const url = new URL(req.url);
      if (req.method === "POST" && url.pathname === "/api/v1/training/jobs" && failed === 0) {
        failed++;
        return problem(503, "Service unavailable");
      }
      return null;
    });
    const retries: string[] = [];
    const job = await client({
      retry: { baseDelayMs: 20, onRetry: (r) => retries.push(r.reason) },
    }).createTrainingJob({
      project_id: projectId,
      dataset_id: "builtin-iris",
      runtime: "external",
      name: "retried once",
    });
    const posts = seen.filter(
      (r) => r.method === "POST" && new URL(r.url).pathname === "/api/v1/training/jobs",
    );
    expect(posts).toHaveLength(2);
    const keys = posts.map((r) => r.headers.get("Idempotency-Key"));
    expect(keys[0]).toMatch(/^ik_[0-9a-f-]{36}$/);
    expect(keys[1]).toBe(keys[0]);
    expect(retries).toEqual(["HTTP 503"]);
    const listed = await call(app, "GET", `/api/v1/training/jobs?project_id=${projectId}`, { key: user.key });
    expect(listed.json.total).toBe(1);
    expect(listed.json.items[0].id).toBe(job.id);

    // A second logical create gets a new key (and a second job).
    reset();
    await client().createTrainingJob({
      project_id: projectId,
      dataset_id: "builtin-iris",
      runtime: "external",
    });
    const second = seen.find((r) => r.method === "POST")?.headers.get("Idempotency-Key");
    expect(second).toBeTruthy();
    expect(second).not.toBe(keys[0]);
  });

  it("also retries after a dropped connection, and replays (no second job) when the first attempt had succeeded", async () => {
    const projectId = await project();
    let calls = 0;
    reset(async (req) => {
      if (req.method === "POST" && new URL(req.url).pathname === "/api/v1/training/jobs" && calls++ === 0) {
        // The server did the work, but the answer was lost on the way back.
        const done = await app.fetch(req);
        await done.text();
        return problem(502, "Bad gateway");
      }
      return null;
    });
    const job = await client().createTrainingJob({
      project_id: projectId,
      dataset_id: "builtin-iris",
      runtime: "external",
    });
    const listed = await call(app, "GET", `/api/v1/training/jobs?project_id=${projectId}`, { key: user.key });
    expect(listed.json.total).toBe(1);
    expect(listed.json.items[0].id).toBe(job.id);
  });

  it("waits for Retry-After on 429 (seconds and HTTP date)", async () => {
    let limited = 0;
    reset((req) => {
      if (new URL(req.url).pathname === "/api/v1/projects" && req.method === "GET" && limited++ === 0)
        return problem(429, "Too many requests", { "Retry-After": "1" });
      return null;
    });
    const started = Date.now();
    const { data } = await client().api.GET("/api/v1/projects", { params: { query: { limit: 1 } } });
    const waited = Date.now() - started;
    expect(data?.items).toBeDefined();
    expect(waited).toBeGreaterThanOrEqual(950);
    expect(seen.filter((r) => new URL(r.url).pathname === "/api/v1/projects")).toHaveLength(2);

    expect(parseRetryAfter("2")).toBe(2000);
    expect(parseRetryAfter(new Date(Date.now() + 3000).toUTCString())).toBeGreaterThan(1500);
    expect(parseRetryAfter("soon")).toBeNull();
  });

  it("gives up after maxAttempts with a typed problem error", async () => {
    reset((req) =>
      new URL(req.url).pathname === "/api/v1/projects" ? problem(503, "Service unavailable") : null,
    );
    const err = await client({ retry: { maxAttempts: 3, baseDelayMs: 5 } })
      .api.GET("/api/v1/projects")
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(LayerlineError);
    expect(err).toMatchObject({ status: 503, title: "Service unavailable", requestId: "req_test" });
    expect(seen).toHaveLength(3);
  });

  it("carries the problem's field errors and request id; a 404 is not retried", async () => {
    reset();
    const bad = await client()
      .createTrainingJob({ project_id: "", dataset_id: "builtin-iris" })
      .catch((e: unknown) => e);
    expect(bad).toBeInstanceOf(LayerlineError);
    const e = bad as LayerlineError;
    expect([400, 422]).toContain(e.status);
    expect(e.errors.length).toBeGreaterThan(0);
    expect(e.requestId).toBeTruthy();
    reset();
    const missing = await client()
      .getJob("job_does_not_exist")
      .catch((x: unknown) => x);
    expect(missing).toMatchObject({ status: 404, isNotFound: true });
    expect(seen).toHaveLength(1);
  });

  it("full jitter stays under the doubling ceiling", () => {
    const opts = { ...DEFAULT_RETRY, baseDelayMs: 100, maxDelayMs: 1000 };
    expect(backoffDelay(1, { ...opts, random: () => 0.999 })).toBeLessThan(100);
    expect(backoffDelay(3, { ...opts, random: () => 0.999 })).toBeLessThan(400);
    expect(backoffDelay(3, { ...opts, random: () => 0.999 })).toBeGreaterThan(390);
    expect(backoffDelay(10, { ...opts, random: () => 0.999 })).toBeLessThan(1000);
    expect(backoffDelay(10, { ...opts, random: () => 0 })).toBe(0);
  });
});

describe("pagination", () => {
  it("iterates over 250 projects, 100 per page", async () => {
    const other = await signUpWithKey(app);
    await setPlan(await getDb(), other.username, "pro");
    for (let i = 0; i < 250; i += 25)
      await Promise.all(
        Array.from({ length: 25 }, (_, j) =>
          call(app, "POST", "/api/v1/projects", {
            key: other.key,
            body: { name: `p${i + j}`, template: "mlp-classifier" },
          }),
        ),
      );
    reset();
    const ids = new Set<string>();
    const names = new Set<string>();
    for await (const p of new Layerline({ baseUrl, apiKey: other.key }).paginate("/api/v1/projects", {
      sort: "name",
    })) {
      ids.add(p.id);
      names.add(p.name);
    }
    expect(ids.size).toBe(250);
    expect(names).toEqual(new Set(Array.from({ length: 250 }, (_, i) => `p${i}`)));
    const pages = seen.map((r) => new URL(r.url).searchParams.get("page"));
    expect(pages).toEqual(["1", "2", "3"]);

    // Stopping early reads no further pages.
    reset();
    let n = 0;
    for await (const _ of new Layerline({ baseUrl, apiKey: other.key }).paginate("/api/v1/projects", {
      limit: 10,
    })) {
      if (++n === 15) break;
    }
    expect(seen).toHaveLength(2);
  }, 120_000);
});

describe("event streams", () => {
  it("resumes after a dropped connection and a refused token: no loss, no duplicates", async () => {
    const projectId = await project();
    const job = await client().createTrainingJob({
      project_id: projectId,
      dataset_id: "builtin-iris",
      runtime: "external",
    });
    const upload = await call(app, "POST", `/api/v1/training/jobs/${job.id}/stream-token`, { key: user.key });
    const events = [
      ...Array.from({ length: 6 }, (_, i) => ({
        kind: "metric",
        name: "loss",
        value: 1 / (i + 1),
        step: i + 1,
      })),
      { kind: "status", status: "succeeded" },
    ];
    const posted = await call(app, "POST", `/api/v1/training/jobs/${job.id}/metrics/events`, {
      key: upload.json.token,
      body: { events },
    });
    expect(posted.status, posted.text).toBeLessThan(300);

    // Connection 1 is cut after three events; connection 2 is refused as if its token had expired.
    let streams = 0;
    reset(async (req) => {
      if (!new URL(req.url).pathname.endsWith("/stream")) return null;
      streams++;
      if (streams === 2) return problem(403, "Forbidden");
      const res = await app.fetch(req);
      if (streams !== 1 || !res.body) return res;
      // Pass the first three events through whole, then reset the connection.
      const reader = res.body.getReader();
      const decoder = new TextDecoder();
      const encoder = new TextEncoder();
      let text = "";
      let sent = false;
      const cut = new ReadableStream<Uint8Array>({
        async pull(controller) {
          if (sent) {
            // Let the three events reach the client before the reset.
            await new Promise((r) => setTimeout(r, 150));
            await reader.cancel();
            return controller.error(new Error("connection reset"));
          }
          const { done, value } = await reader.read();
          if (done) return controller.close();
          text += decoder.decode(value, { stream: true });
          const blocks = text.split("\n\n");
          if (blocks.length > 3) {
            sent = true;
            controller.enqueue(encoder.encode(`${blocks.slice(0, 3).join("\n\n")}\n\n`));
          }
        },
      });
      return new Response(cut, { status: res.status, headers: res.headers });
    });

    const got: { id: number; event: string }[] = [];
    for await (const e of client().stream("training", job.id)) got.push({ id: e.id, event: e.event });

    const mints = seen.filter((r) => r.url.endsWith("/stream-access-token"));
    const connects = seen.filter((r) => new URL(r.url).pathname.endsWith("/stream"));
    expect(mints).toHaveLength(2); // a fresh token after the refusal
    const third = String(got[2]?.id);
    expect(connects.map((r) => r.headers.get("Last-Event-ID"))).toEqual([
      null,
      third,
      third,
      String(got.at(-1)?.id),
    ]);
    const ids = got.map((e) => e.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toEqual([...ids].sort((a, b) => a - b));

    // The same as an uninterrupted read.
    reset();
    const whole: number[] = [];
    for await (const e of client().stream("training", job.id)) whole.push(e.id);
    expect(ids).toEqual(whole);
    expect(got.filter((e) => e.event === "metric")).toHaveLength(6);
    expect(got.at(-1)?.event).toBe("status");

    // followJob ends at the terminal status and returns the job.
    const finished = await client().followJob(job.id);
    expect(finished.state).toBe("succeeded");
  });
});

describe("dataset upload", () => {
  it("streams a file from disk with progress, multipart, retried as a whole after a 503", async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), "sdk-upload-"));
    const file = path.join(dir, "points.csv");
    const rows = [
      "x,y,label",
      ...Array.from({ length: 2000 }, (_, i) => `${i},${(i * 7) % 13},${i % 2 ? "odd" : "even"}`),
    ];
    await writeFile(file, `${rows.join("\n")}\n`);
    let failed = false;
    reset((req) => {
      if (req.method === "POST" && new URL(req.url).pathname === "/api/v1/datasets/" && !failed) {
        failed = true;
        return problem(503, "Service unavailable");
      }
      return null;
    });
    const progress: number[] = [];
    const source = await fileSource(file);
    const result = await client().uploadDataset(source, {
      name: "points",
      onProgress: (sent) => progress.push(sent),
    });
    expect(result.created).toBe(true);
    expect(result.dataset.name).toBe("points");
    expect(result.dataset.row_count).toBe(2000);
    expect(progress.at(-1)).toBe(source.size);
    expect(seen.filter((r) => r.method === "POST")).toHaveLength(2);
  });
});
