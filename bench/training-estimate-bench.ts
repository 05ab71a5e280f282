/**
 * The resource estimate against real jobs, the way a user meets both.
 *   npx tsx bench/training-estimate-bench.ts            (every case)
 *   npx tsx bench/training-estimate-bench.ts iris lenet (cases whose name contains a word)
 * Starts the app on a fresh in-memory database with its in-process job runner and serves it on a
 * loopback port (programs report through the real upload API, as in the studio), then for each
 * built-in recipe and each "from a dataset" family (tables, images, text): creates the project,
 * asks POST /training/estimate-resources, runs the job and reads the compute seconds it was charged.
 * It prints estimated and measured seconds and their ratio (estimated ÷ measured; the goal is
 * within 0.5–2), first for an account without history (the runner's micro-benchmark alone), then
 * the same jobs estimated again now that the account has run jobs of the same shape.
 * Heavy image and text recipes run fewer epochs than their defaults (the estimate gets the same).
 */
import "@hono/zod-openapi";
import fs from "node:fs";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { serve } from "@hono/node-server";
import type { TrainingConfig } from "../lib/ml/graph-types";
import { RECIPES } from "../lib/ml/recipes";
import { createApp } from "../lib/server/app";
import { closeDb, openDb, setDb } from "../lib/server/db/client";
import { ensureInProcessRunner, stopInProcessRunner } from "../lib/server/jobs/runner";
import { buildImageZip } from "../tests/fixtures/image-zip";

const blobDir = fs.mkdtempSync(path.join(os.tmpdir(), "layerline-estimate-bench-"));
process.env.BLOB_DIR = blobDir;
process.env.RATE_LIMIT_PER_MINUTE = "100000";
setDb(await openDb({ kind: "pglite-memory" }));
const app = createApp();
const server = serve({ fetch: app.fetch, port: 0, hostname: "127.0.0.1" });
await new Promise<void>((resolve) => server.once("listening", () => resolve()));
process.env.LAYERLINE_INTERNAL_URL = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

type Json = Record<string, unknown>;
let key = "";

async function api(method: string, url: string, body?: unknown, raw?: BodyInit): Promise<Json> {
  const headers: Record<string, string> = { Host: "localhost" };
  if (key) headers.Authorization = `Bearer ${key}`;
  if (body !== undefined) headers["Content-Type"] = "application/json";
  const res = await app.request(url, {
    method,
    headers,
    body: raw ?? (body === undefined ? undefined : JSON.stringify(body)),
  });
  const text = await res.text();
  if (res.status >= 300) throw new Error(`${method} ${url}: ${res.status} ${text.slice(0, 500)}`);
  return (text ? JSON.parse(text) : {}) as Json;
}

async function uploadFile(content: Uint8Array | string, name: string): Promise<string> {
  const form = new FormData();
  form.set("file", new Blob([typeof content === "string" ? content : Buffer.from(content)]), name);
  const r = await api("POST", "/api/v1/datasets/", undefined, form);
  return (r.dataset as Json).id as string;
}

async function waitForJob(id: string): Promise<Json> {
  for (;;) {
    const job = await api("GET", `/api/v1/training/jobs/${id}`);
    if (["succeeded", "failed", "cancelled", "timed_out"].includes(job.state as string)) {
      if (job.state !== "succeeded") throw new Error(`job ${id} ${job.state}: ${job.reason}`);
      return job;
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

interface Case {
  name: string;
  kind: "table" | "images" | "text";
  /** A project body for POST /projects (graph and config, or a dataset and family). */
  project: () => Promise<Json>;
  dataset: () => Promise<string>;
  config?: Partial<TrainingConfig>;
}

const datasets = new Map<string, Promise<string>>();
const once = (name: string, make: () => Promise<string>) => () => {
  if (!datasets.has(name)) datasets.set(name, make());
  return datasets.get(name) as Promise<string>;
};
const gray28 = once("gray28", async () =>
  uploadFile((await buildImageZip({ perClass: 30, size: 28 })).zip, "digits-28.zip"),
);
const rgb32 = once("rgb32", async () =>
  uploadFile((await buildImageZip({ perClass: 30, size: 32, channels: 3 })).zip, "digits-32.zip"),
);
const builtin = (id: string) => () => Promise.resolve(id);

function recipeCase(id: string, kind: Case["kind"], dataset: () => Promise<string>, config = {}): Case {
  const recipe = RECIPES.find((r) => r.id === id);
  if (!recipe) throw new Error(`no recipe ${id}`);
  return {
    name: `recipe ${id}`,
    kind,
    project: async () => ({ name: recipe.name, graph: recipe.graph, training_config: recipe.config }),
    dataset,
    config,
  };
}

function familyCase(
  name: string,
  kind: Case["kind"],
  dataset: () => Promise<string>,
  family: string,
  config = {},
): Case {
  return {
    name,
    kind,
    project: async () => ({ dataset_id: await dataset(), family }),
    dataset,
    config,
  };
}

const CASES: Case[] = [
  recipeCase("tabular-mlp-classifier", "table", builtin("builtin-iris")),
  recipeCase("tabular-mlp-regression", "table", builtin("builtin-diabetes")),
  recipeCase("digits-cnn", "table", builtin("builtin-digits")),
  familyCase("from dataset: wine, mlp", "table", builtin("builtin-wine"), "mlp"),
  familyCase("from dataset: breast cancer, mlp", "table", builtin("builtin-breast-cancer"), "mlp"),
  recipeCase("images-lenet", "images", gray28, { epochs: 4 }),
  recipeCase("images-vgg", "images", rgb32, { epochs: 2 }),
  recipeCase("images-resnet", "images", rgb32, { epochs: 2 }),
  familyCase("from dataset: 28×28 digits, cnn", "images", gray28, "cnn", { epochs: 4 }),
  familyCase("from dataset: 28×28 digits, resnet", "images", gray28, "resnet", { epochs: 2 }),
  recipeCase("char-lstm-lm", "text", builtin("builtin-declaration"), { epochs: 2 }),
  familyCase("from dataset: declaration, lstm", "text", builtin("builtin-declaration"), "lstm", {
    epochs: 2,
  }),
];

const filters = process.argv.slice(2);
const chosen = CASES.filter((c) => filters.length === 0 || filters.some((f) => c.name.includes(f)));

interface Row {
  name: string;
  kind: string;
  cold: number;
  warm: number | null;
  measured: number;
  source: string;
}

try {
  await ensureInProcessRunner();
  const signup = await app.request("/api/auth/signup", {
    method: "POST",
    headers: { Host: "localhost", "Content-Type": "application/json" },
    body: JSON.stringify({
      email: "bench@example.com",
      username: "bench",
      password: "correct horse battery",
    }),
  });
  const cookie = (signup.headers.get("set-cookie") ?? "").split(";")[0];
  const made = await app.request("/api/v1/users/me/api-keys", {
    method: "POST",
    headers: {
      Host: "localhost",
      Cookie: cookie,
      Origin: "http://localhost",
      "Content-Type": "application/json",
    },
    body: JSON.stringify({ name: "bench" }),
  });
  key = ((await made.json()) as Json).key as string;
  if (!key) throw new Error("could not create an API key");

  const t0 = performance.now();
  const rows: Row[] = [];
  const jobs: { c: Case; projectId: string; datasetId: string; config: Json }[] = [];
  for (const c of chosen) {
    const project = await api("POST", "/api/v1/projects", await c.project());
    const datasetId = await c.dataset();
    const config = { ...(c.config ?? {}) };
    const estimateBody = { project_id: project.id, dataset_id: datasetId, runtime: "pytorch", config };
    const startedEstimate = performance.now();
    const estimate = await api("POST", "/api/v1/training/estimate-resources", estimateBody);
    const estimateMs = performance.now() - startedEstimate;
    const job = await api("POST", "/api/v1/training/jobs", {
      project_id: project.id,
      dataset_id: datasetId,
      runtime: "pytorch",
      config,
    });
    const done = await waitForJob(job.id as string);
    const measured = done.compute_seconds as number;
    const cold = estimate.seconds as number;
    rows.push({
      name: c.name,
      kind: c.kind,
      cold,
      warm: null,
      measured,
      source: (estimate.calibration as Json | null)?.source as string,
    });
    jobs.push({ c, projectId: project.id as string, datasetId, config });
    console.log(
      `${c.name}: estimated ${cold.toFixed(2)} s (in ${estimateMs.toFixed(0)} ms), measured ${measured.toFixed(2)} s`,
    );
  }
  // The same jobs estimated again: the account now has a measured job of each shape.
  let calibration: Json = {};
  for (const [i, j] of jobs.entries()) {
    const estimate = await api("POST", "/api/v1/training/estimate-resources", {
      project_id: j.projectId,
      dataset_id: j.datasetId,
      runtime: "pytorch",
      config: j.config,
    });
    rows[i].warm = estimate.seconds as number;
    calibration = estimate.calibration as Json;
  }
  console.log(`\n${rows.length} jobs in ${((performance.now() - t0) / 1000).toFixed(0)} s\n`);
  console.log(
    `${"job".padEnd(42)} ${"kind".padEnd(7)} ${"measured".padStart(9)} ${"estimate".padStart(9)} ${"ratio".padStart(6)} ${"again".padStart(8)} ${"ratio".padStart(6)}`,
  );
  const ratios: number[] = [];
  for (const r of rows) {
    const ratio = r.cold / r.measured;
    const warm = r.warm ?? Number.NaN;
    ratios.push(ratio);
    console.log(
      `${r.name.padEnd(42)} ${r.kind.padEnd(7)} ${r.measured.toFixed(2).padStart(7)} s ${r.cold.toFixed(2).padStart(7)} s ${ratio.toFixed(2).padStart(6)} ${warm.toFixed(2).padStart(6)} s ${(warm / r.measured).toFixed(2).padStart(6)}`,
    );
  }
  const within = ratios.filter((x) => x >= 0.5 && x <= 2).length;
  const c = calibration as Record<string, number>;
  console.log(
    `\nrunner: start ${c.start_seconds.toFixed(2)} s, step ${(c.step_seconds * 1000).toFixed(3)} ms, ` +
      `${(c.flops_per_second / 1e9).toFixed(1)} GFLOP/s (matrices), ${(c.conv_flops_per_second / 1e9).toFixed(1)} GFLOP/s (convolutions), ` +
      `end ${c.end_seconds.toFixed(2)} s; each epoch's uploads, measured by these jobs: ${(c.report_seconds * 1000).toFixed(0)} ms ` +
      `(${(c.report_seconds / c.step_seconds).toFixed(0)} × a step)`,
  );
  console.log(
    `\nestimate ÷ measured without history: min ${Math.min(...ratios).toFixed(2)}, max ${Math.max(...ratios).toFixed(2)}; ${within}/${ratios.length} within 2×`,
  );
} finally {
  await stopInProcessRunner({ graceMs: 1000 });
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await closeDb();
  fs.rmSync(blobDir, { recursive: true, force: true });
}
