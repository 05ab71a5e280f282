/**
 * Image serving benchmark (run by hand: `npx tsx bench/image-serving-bench.ts`). Trains the LeNet
 * template on digit pictures with PyTorch (exported to ONNX), deploys it, then times one-picture
 * predict calls through the whole Hono app (app.request: credentials → deployment state → base64
 * → decodeImage → normalizeImage → warm model → micro-batcher), as JSON and as a multipart file,
 * against the same ONNX model's session.run in-process on the same decoded tensor (the baseline),
 * and the decode + normalise step alone, all in the same run. Figures are printed, not asserted.
 */
import fs from "node:fs";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { serve } from "@hono/node-server";
import { createApp } from "../lib/server/app";
import { getDb, openDb, setDb } from "../lib/server/db/client";
import { startJobRunner } from "../lib/server/jobs/runner";
import { decodeImage, normalizeImage } from "../lib/server/modules/datasets/image-decode";
import { imageSpecOf } from "../lib/server/modules/serving/image-instances";
import { loadArtifact, type ModelManifest } from "../lib/server/modules/training/artifact-reader";
import { copyBlobToFile } from "../lib/server/modules/training/blob-files";
import { getJobRow } from "../lib/server/modules/training/job-rows";
import { buildImageZip, drawDigit, rowsOf } from "../tests/fixtures/image-zip";

const CALLS = Number(process.env.BENCH_CALLS ?? 1000);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 200);
process.env.RATE_LIMIT_PER_MINUTE ??= "100000000";
process.env.BLOB_DIR = fs.mkdtempSync(path.join(os.tmpdir(), "layerline-bench-blobs-"));
setDb(await openDb({ kind: "pglite-memory" }));
const app = createApp();
const server = serve({ fetch: app.fetch, port: 0, hostname: "127.0.0.1" }, (info: AddressInfo) => {
  process.env.LAYERLINE_INTERNAL_URL = `http://127.0.0.1:${info.port}`;
});
const runner = startJobRunner({ db: await getDb(), concurrency: 1, pollIntervalMs: 100 });

async function call(method: string, url: string, key: string | null, body?: unknown, cookie?: string) {
  const headers: Record<string, string> = { Host: "localhost" };
  let payload: BodyInit | undefined;
  if (body instanceof FormData) payload = body;
  else if (body !== undefined) {
    headers["Content-Type"] = "application/json";
    payload = JSON.stringify(body);
  }
  if (key) headers.Authorization = `Bearer ${key}`;
  if (cookie) Object.assign(headers, { Cookie: cookie, Origin: "http://localhost" });
  const res = await app.request(url, { method, headers, body: payload });
  return { res, json: (await res.json()) as Record<string, unknown> & { id: string } };
}

function percentiles(ms: number[]) {
  const s = [...ms].sort((a, b) => a - b);
  const at = (q: number) => s[Math.min(s.length - 1, Math.floor(q * s.length))];
  return { p50: at(0.5), p99: at(0.99) };
}

async function time(fn: () => Promise<unknown>): Promise<{ p50: number; p99: number }> {
  for (let i = 0; i < WARMUP; i++) await fn();
  const out: number[] = [];
  for (let i = 0; i < CALLS; i++) {
    const t0 = performance.now();
    await fn();
    out.push(performance.now() - t0);
  }
  return percentiles(out);
}

const signup = await call("POST", "/api/auth/signup", null, {
  email: "bench@example.com",
  username: "bench",
  password: "correct horse battery",
});
const cookie = (signup.res.headers.get("set-cookie") ?? "").split(";")[0];
const key = String(
  (await call("POST", "/api/v1/users/me/api-keys", null, { name: "bench" }, cookie)).json.key,
);

const { zip } = await buildImageZip({ perClass: 30 });
const form = new FormData();
form.set("file", new Blob([new Uint8Array(zip)]), "digits.zip");
const ds = await call("POST", "/api/v1/datasets/", key, form);
const datasetId = String((ds.json.dataset as { id: string }).id);
const project = await call("POST", "/api/v1/projects", key, { name: "LeNet", template: "cnn-image" });
const job = await call("POST", "/api/v1/training/jobs", key, {
  project_id: project.json.id,
  dataset_id: datasetId,
  runtime: "pytorch",
  config: { epochs: 3, batch_size: 32, learning_rate: 0.002 },
});
for (;;) {
  const j = await call("GET", `/api/v1/training/jobs/${job.json.id}`, key);
  if (j.json.state === "succeeded") break;
  if (["failed", "cancelled", "timed_out"].includes(String(j.json.state)))
    throw new Error(`training ${j.json.state}: ${j.json.reason}`);
  await new Promise((r) => setTimeout(r, 200));
}
await runner.stop({ graceMs: 1000 });
const dep = await call("POST", "/api/v1/deployments", key, { name: "bench", job_id: job.json.id });
const dk = String(dep.json.api_key);
const predictUrl = `/api/v1/inference/${dep.json.id}/predict`;

// One 28×28 grayscale PNG of a digit, as a client sends it.
const png = await drawDigit(rowsOf(7)[0]);
const body = { inputs: [{ image: png.toString("base64") }] };

// Baseline: the same ONNX model in-process on the decoded, normalised tensor.
const row = await getJobRow(await getDb(), job.json.id);
if (!row?.artifactManifest) throw new Error("no artifact");
const manifest = row.artifactManifest as unknown as ModelManifest;
const spec = imageSpecOf(manifest);
if (!spec) throw new Error("the model has no image step");
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "layerline-bench-model-"));
const files: Record<string, string> = {};
for (const f of row.artifactFiles) {
  if (f.name === "manifest.json" || f.name === "weights.pt") continue;
  files[f.name] = path.join(dir, f.name);
  await copyBlobToFile(f.blob_key, files[f.name]);
}
const model = await loadArtifact({ manifest, files });
const tensor = normalizeImage(await decodeImage(png, spec), spec.mean, spec.std);
const encoded = { count: 1, values: tensor };

const base = await time(() => model.run(encoded));
const decode = await time(async () => normalizeImage(await decodeImage(png, spec), spec.mean, spec.std));
const json = await time(async () => {
  const r = await call("POST", predictUrl, dk, body);
  if (r.res.status !== 200) throw new Error(`predict ${r.res.status}`);
});
const multipart = await time(async () => {
  const fd = new FormData();
  fd.set("image", new Blob([new Uint8Array(png)], { type: "image/png" }), "digit.png");
  const r = await call("POST", predictUrl, dk, fd);
  if (r.res.status !== 200) throw new Error(`predict ${r.res.status}`);
});
const f = (x: number) => `${x.toFixed(3)} ms`;
const ratio = (x: number, y: number) => `${(x / y).toFixed(2)}×`;
console.log(
  `one 28×28 PNG picture (${png.length} bytes), LeNet (${manifest.format}), ${CALLS} sequential calls each`,
);
console.log(`  session.run on the decoded tensor : p50 ${f(base.p50)}  p99 ${f(base.p99)}`);
console.log(`  decodeImage + normalizeImage      : p50 ${f(decode.p50)}  p99 ${f(decode.p99)}`);
console.log(
  `  POST …/predict JSON (base64)      : p50 ${f(json.p50)}  p99 ${f(json.p99)}  ` +
    `(${ratio(json.p50, base.p50)} / ${ratio(json.p99, base.p99)} session.run)`,
);
console.log(
  `  POST …/predict multipart file     : p50 ${f(multipart.p50)}  p99 ${f(multipart.p99)}  ` +
    `(${ratio(multipart.p50, base.p50)} / ${ratio(multipart.p99, base.p99)} session.run)`,
);
await model.dispose();
server.close();
process.exit(0);
