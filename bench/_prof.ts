import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { serve } from "@hono/node-server";
import { sequential } from "../lib/ml/graph-builder";
import { createApp } from "../lib/server/app";
import { getDb, openDb, setDb } from "../lib/server/db/client";
import { startJobRunner } from "../lib/server/jobs/runner";
process.env.RATE_LIMIT_PER_MINUTE = "100000000";
process.env.BLOB_DIR = fs.mkdtempSync(path.join(os.tmpdir(), "prof-"));
setDb(await openDb({ kind: "pglite-memory" }));
const app = createApp();
serve({ fetch: app.fetch, port: 0, hostname: "127.0.0.1" }, (info) => {
  process.env.LAYERLINE_INTERNAL_URL = `http://127.0.0.1:${info.port}`;
});
const runner = startJobRunner({ db: await getDb(), concurrency: 1, pollIntervalMs: 100 });
async function call(method: string, url: string, key: string | null, body?: unknown, cookie?: string) {
  const headers: Record<string, string> = { Host: "localhost", "Content-Type": "application/json" };
  if (key) headers.Authorization = `Bearer ${key}`;
  if (cookie) Object.assign(headers, { Cookie: cookie, Origin: "http://localhost" });
  const res = await app.request(url, { method, headers, body: body ? JSON.stringify(body) : undefined });
  return { res, json: (await res.json()) as Record<string, unknown> & { id: string } };
}
const signup = await call("POST", "/api/auth/signup", null, { email: "b@example.com", username: "bench", password: "correct horse battery" });
const cookie = (signup.res.headers.get("set-cookie") ?? "").split(";")[0];
const key = String((await call("POST", "/api/v1/users/me/api-keys", null, { name: "b" }, cookie)).json.key);
const graph = sequential({ shape: [4] }, [["Dense", { units: 16, activation: "relu" }], ["Dense", { units: 3 }]]).graph;
const project = await call("POST", "/api/v1/projects", key, { name: "Iris", graph });
const job = await call("POST", "/api/v1/training/jobs", key, { project_id: project.json.id, dataset_id: "builtin-iris", runtime: "tfjs", config: { epochs: 3 } });
for (;;) { const j = await call("GET", `/api/v1/training/jobs/${job.json.id}`, key); if (j.json.state === "succeeded") break; await new Promise((r) => setTimeout(r, 200)); }
await runner.stop({ graceMs: 1000 });
const dep = await call("POST", "/api/v1/deployments", key, { name: "bench", job_id: job.json.id });
const dk = String(dep.json.api_key);
const instance = { sepal_length_cm: 5.9, sepal_width_cm: 3.0, petal_length_cm: 5.1, petal_width_cm: 1.8 };
const phases: Record<string, number[]> = {};
for (let i = 0; i < 200; i++) await call("POST", `/api/v1/inference/${dep.json.id}/predict`, dk, { inputs: [instance] });
const { Session } = await import("node:inspector/promises");
const session = new Session(); session.connect();
await session.post("Profiler.enable"); await session.post("Profiler.start");
const t = performance.now();
for (let i = 0; i < 2000; i++) await call("POST", `/api/v1/inference/${dep.json.id}/predict`, dk, { inputs: [instance] });
console.log("avg ms", (performance.now() - t) / 2000);
const { profile } = await session.post("Profiler.stop");
fs.writeFileSync("/tmp/predict.cpuprofile", JSON.stringify(profile));
void phases;
process.exit(0);
