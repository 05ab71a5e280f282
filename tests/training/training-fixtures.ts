/**
 * Shared by the executor tests and the overhead bench: a stand-in for the training upload API (a
 * node:http server on a free loopback port that records what a job's program sends), the models
 * the done-criteria name, and `runJob`, which materialises a dataset and runs one executor on it
 * the way the worker does.
 */

import { createHash } from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { sequential } from "@/lib/ml/graph-builder";
import type { ArchitectureGraph, TrainingConfig } from "@/lib/ml/graph-types";
import { DEFAULT_TRAINING_CONFIG } from "@/lib/ml/graph-types";
import type { Db } from "@/lib/server/db/client";
import type { Preprocessing } from "@/lib/server/db/schema/training";
import { buildManifest, type ModelManifest } from "@/lib/server/modules/training/artifact-reader";
import {
  type ExecutionResult,
  executorFor,
  type FineTuneArgs,
  type ManagedRuntime,
} from "@/lib/server/modules/training/executors";
import { materializeDataset } from "@/lib/server/modules/training/materialize";
import { findRecipe } from "../../lib/ml/recipes";

export interface ReceivedCheckpoint {
  epoch: number;
  step: number;
  best: boolean;
  metrics: Record<string, number>;
  bytes: Buffer;
}

export interface JobUploads {
  events: Record<string, unknown>[];
  checkpoints: ReceivedCheckpoint[];
  artifacts: Map<string, Buffer>;
  authorization: Set<string>;
}

export interface Receiver {
  url: string;
  uploadsOf(jobId: string): JobUploads;
  close(): Promise<void>;
}

/** Records events, checkpoints and artifact files per job; answers like the real routes. */
export async function startReceiver(): Promise<Receiver> {
  const jobs = new Map<string, JobUploads>();
  const uploadsOf = (jobId: string) => {
    let job = jobs.get(jobId);
    if (!job) {
      job = { events: [], checkpoints: [], artifacts: new Map(), authorization: new Set() };
      jobs.set(jobId, job);
    }
    return job;
  };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const url = new URL(req.url ?? "/", "http://localhost");
      const match = /^\/api\/v1\/training\/jobs\/([^/]+)\/(.+)$/.exec(url.pathname);
      if (!match) return void res.writeHead(404).end();
      const job = uploadsOf(decodeURIComponent(match[1]));
      job.authorization.add(req.headers.authorization ?? "");
      const body = Buffer.concat(chunks);
      const rest = match[2];
      if (req.method === "POST" && rest === "metrics/events") {
        const { events } = JSON.parse(body.toString("utf8")) as { events: Record<string, unknown>[] };
        job.events.push(...events);
        return void res.writeHead(202, { "Content-Type": "application/json" }).end('{"accepted":1}');
      }
      if (req.method === "POST" && rest === "checkpoints") {
        job.checkpoints.push({
          epoch: Number(url.searchParams.get("epoch")),
          step: Number(url.searchParams.get("step")),
          best: url.searchParams.get("best") === "true",
          metrics: JSON.parse(url.searchParams.get("metrics") ?? "{}"),
          bytes: body,
        });
        return void res.writeHead(201, { "Content-Type": "application/json" }).end("{}");
      }
      if (req.method === "PUT" && rest.startsWith("artifact/")) {
        job.artifacts.set(decodeURIComponent(rest.slice("artifact/".length)), body);
        return void res.writeHead(201, { "Content-Type": "application/json" }).end("{}");
      }
      res.writeHead(404).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    uploadsOf,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The metric events of one series, in upload order. */
export function series(uploads: JobUploads, name: string): { epoch: number; value: number }[] {
  return uploads.events
    .filter((e) => e.kind === "metric" && e.name === name)
    .map((e) => ({ epoch: e.epoch as number, value: e.value as number }));
}

/** The done-criteria's models. */
export const models = {
  /** Input 64 → Reshape 1×8×8 → two conv blocks → Dense → 10 logits. */
  digitsCnn(): ArchitectureGraph {
    const recipe = findRecipe("digits-cnn");
    if (!recipe) throw new Error("the digits-cnn recipe is gone");
    return structuredClone(recipe.graph);
  },
  irisMlp(): ArchitectureGraph {
    return sequential({ shape: [4] }, [
      ["Dense", { units: 16, activation: "relu" }],
      ["Dense", { units: 3 }],
    ]).graph;
  },
  /** Characters: 16 token ids → Embedding → LSTM → logits over (at least) the text's characters. */
  charLstm(classes = 96): ArchitectureGraph {
    return sequential({ shape: [16], dtype: "int64" }, [
      ["Embedding", { num_embeddings: classes, embedding_dim: 16 }],
      ["LSTM", { hidden_size: 32, num_layers: 1, return_sequences: false }],
      ["Dense", { units: classes }],
    ]).graph;
  },
};

export function config(overrides: Partial<TrainingConfig>): TrainingConfig {
  return { ...DEFAULT_TRAINING_CONFIG, ...overrides };
}

export interface JobRun {
  jobId: string;
  result: ExecutionResult;
  preprocessing: Preprocessing;
  dataDir: string;
  workDir: string;
  uploads: JobUploads;
  lines: string[];
  /** Where the uploaded artifact files and their manifest were written (for artifact-reader). */
  artifactDir: string;
  manifest: ModelManifest;
}

let jobCounter = 0;

/**
 * Materialises the dataset and runs the executor the way the worker does, against the receiver;
 * then writes the uploaded artifact with its manifest (metrics: the best checkpoint's and test_*).
 */
export async function runJob(
  db: Db,
  receiver: Receiver,
  root: string,
  job: {
    runtime: ManagedRuntime;
    graph: ArchitectureGraph;
    config: TrainingConfig;
    datasetId: string;
    datasetVersionId: string;
    ownerId?: string;
    resumeFrom?: string | null;
    jobId?: string;
    /** Reuse the data directory of an earlier run (resume). */
    dataDir?: string;
    /** `data_parallel` runs the PyTorch project under torchrun. */
    strategy?: string;
    /** A fine-tuning run's options (PyTorch). */
    fineTune?: FineTuneArgs;
  },
): Promise<JobRun> {
  jobCounter += 1;
  const jobId = job.jobId ?? `job_${job.runtime}_${jobCounter}`;
  const workDir = fs.mkdtempSync(path.join(root, `${jobId}-`));
  const dataDir = job.dataDir ?? path.join(workDir, "data");
  const preprocessing = job.dataDir
    ? (JSON.parse(fs.readFileSync(path.join(job.dataDir, "preprocessing.json"), "utf8")) as Preprocessing)
    : await materializeDataset(db, {
        ownerId: job.ownerId ?? "nobody",
        datasetId: job.datasetId,
        datasetVersionId: job.datasetVersionId,
        graph: job.graph,
        config: job.config,
        dir: dataDir,
      });
  const lines: string[] = [];
  const result = await executorFor(job.runtime).run({
    jobId,
    projectName: `Test ${jobId}`,
    graph: job.graph,
    config: job.config,
    dataDir,
    workDir,
    uploadToken: `lut_${jobId}`,
    apiBaseUrl: receiver.url,
    resumeFrom: job.resumeFrom ?? null,
    signal: new AbortController().signal,
    timeLimitMs: 170_000,
    onLine: (line) => lines.push(line),
    strategy: job.strategy,
    ...(job.fineTune ? { fineTune: job.fineTune } : {}),
  });
  const uploads = receiver.uploadsOf(jobId);
  const artifactDir = path.join(workDir, "artifact");
  fs.mkdirSync(artifactDir, { recursive: true });
  const files = [...uploads.artifacts].map(([name, bytes]) => {
    fs.writeFileSync(path.join(artifactDir, name), bytes);
    return { name, size_bytes: bytes.length, sha256: createHash("sha256").update(bytes).digest("hex") };
  });
  const best = uploads.checkpoints.filter((c) => c.best).at(-1);
  const test = Object.fromEntries(
    uploads.events
      .filter((e) => e.kind === "metric" && String(e.name).startsWith("test_"))
      .map((e) => [e.name as string, e.value as number]),
  );
  const manifest = buildManifest({
    format: uploads.artifacts.has("model.onnx") ? "onnx" : "tfjs",
    producer: job.runtime,
    preprocessing,
    metrics: { ...(best?.metrics ?? {}), ...test },
    jobId,
    projectId: "project_test",
    architectureVersionId: null,
    datasetId: job.datasetId,
    datasetVersionId: job.datasetVersionId,
    files,
  });
  fs.writeFileSync(path.join(artifactDir, "manifest.json"), JSON.stringify(manifest, null, 2));
  return { jobId, result, preprocessing, dataDir, workDir, uploads, lines, artifactDir, manifest };
}

/** Rows of a CSV file as objects (numbers where the text is a number). */
export function readCsvObjects(file: string): Record<string, string | number | null>[] {
  const [header, ...rows] = fs
    .readFileSync(file, "utf8")
    .split(/\r?\n/)
    .filter(Boolean)
    .map((l) => l.split(","));
  return rows.map((cells) =>
    Object.fromEntries(
      header.map((h, i) => {
        const cell = cells[i] ?? "";
        return [h, cell === "" ? null : Number.isFinite(Number(cell)) ? Number(cell) : cell];
      }),
    ),
  );
}

/** The file-order row index of each sample of a prepared split (tables). */
export function splitRows(dataDir: string, split: "train" | "validation" | "test"): number[] {
  const info = JSON.parse(fs.readFileSync(path.join(dataDir, "dataset.json"), "utf8")) as {
    splits: Record<string, { index?: string }>;
  };
  const file = info.splits[split]?.index;
  if (!file) return [];
  const bytes = fs.readFileSync(path.join(dataDir, file));
  return Array.from(new Int32Array(bytes.buffer, bytes.byteOffset, bytes.byteLength / 4));
}
