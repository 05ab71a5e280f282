import { execFile } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll } from "vitest";
import type { CorpusGraph } from "@/lib/ml/codegen/corpus";
import { planCodegen } from "@/lib/ml/codegen/plan";
import type { CodegenTarget, GeneratedProject } from "@/lib/ml/codegen/types";
import { analyzeGraph } from "@/lib/ml/infer-graph";

export const run = promisify(execFile);

/** Layer types whose module / TF.js layer output is the node's output (same shape). */
const SAME_OUTPUT = new Set([
  "Dense",
  "Conv1D",
  "Conv2D",
  "Dropout",
  "Embedding",
  "MaxPool1D",
  "MaxPool2D",
  "AvgPool1D",
  "AvgPool2D",
  "BatchNorm",
  "LayerNorm",
]);
const MODULE_TYPES = new Set([...SAME_OUTPUT, "LSTM", "GRU", "MultiHeadAttention"]);

export interface Expected {
  id: string;
  input_shape: number[];
  input_dtype: "float32" | "int64";
  output_shape: number[];
  loss: string;
  params: number;
  /** BatchNorm moving mean and variance: weights in TF.js, buffers (not parameters) in PyTorch. */
  non_trainable: number;
  modules: Record<string, { params: number; shape: number[] | null }>;
}

/** What Layerline's own analysis says the generated model must look like. */
export function expectedFor(entry: CorpusGraph, target: CodegenTarget): Expected {
  const analysis = analyzeGraph(entry.graph);
  const plan = planCodegen(entry.graph, entry.training, target, { projectName: entry.id });
  const modules: Expected["modules"] = {};
  let nonTrainable = 0;
  for (const node of plan.layers) {
    if (node.type === "BatchNorm") nonTrainable += 2 * node.inputShapes[0][0];
    if (target === "pytorch" ? MODULE_TYPES.has(node.type) : analysis.params[node.id] > 0) {
      modules[node.name] = {
        params: analysis.params[node.id],
        shape: SAME_OUTPUT.has(node.type) ? analysis.shapes[node.id] : null,
      };
    }
  }
  const shape = (id: string) => {
    const s = analysis.shapes[id];
    if (!s) throw new Error(`${entry.id}: no inferred shape for ${id}`);
    return s;
  };
  return {
    id: entry.id,
    input_shape: shape(plan.input.id),
    input_dtype: plan.input.params.dtype,
    output_shape: shape(plan.output.id),
    loss: plan.loss,
    params: analysis.totalParams,
    non_trainable: nonTrainable,
    modules,
  };
}

/** A temporary directory removed after the test file; `node_modules` links to the repository's. */
export function tempRoot(prefix: string, linkNodeModules = false): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  if (linkNodeModules) fs.symlinkSync(path.resolve("node_modules"), path.join(root, "node_modules"), "dir");
  afterAll(() => fs.rmSync(root, { recursive: true, force: true }));
  return root;
}

export function writeProject(root: string, id: string, project: GeneratedProject): string {
  const dir = path.join(root, id);
  for (const file of project.files) {
    const target = path.join(dir, file.path);
    fs.mkdirSync(path.dirname(target), { recursive: true });
    fs.writeFileSync(target, file.content);
  }
  return dir;
}

export interface HarnessResult {
  id: string;
  ok: boolean;
  errors: string[];
  output_shape?: number[];
  params?: number;
  exit_code?: number;
  loss?: number | null;
}

/** Runs a verification harness and parses its one-JSON-line-per-project report. */
export async function runHarness(
  command: string,
  args: string[],
  options: { cwd?: string; timeout: number },
): Promise<HarnessResult[]> {
  let stdout: string;
  try {
    ({ stdout } = await run(command, args, { ...options, maxBuffer: 64 * 1024 * 1024 }));
  } catch (error) {
    // Exit code 1 means "some project failed": the report is still on stdout.
    const failed = error as { stdout?: string; stderr?: string; code?: number };
    if (failed.code !== 1 || !failed.stdout) {
      throw new Error(`${command} ${path.basename(args[0])} failed (${failed.code}): ${failed.stderr ?? ""}`);
    }
    stdout = failed.stdout;
  }
  return stdout
    .split("\n")
    .filter((line) => line.startsWith("{"))
    .map((line) => JSON.parse(line) as HarnessResult);
}

export const IRIS_SPECIES = ["setosa", "versicolor", "virginica"];

/**
 * A 40-row, 12-feature CSV with a "species" label column, written as data.csv into a project. The
 * dialect varies (quoted labels, CRLF) so each generated loader is shown another common form.
 */
export function writeIrisLikeCsv(dir: string, dialect: { quoteLabels?: boolean; crlf?: boolean } = {}) {
  const header = [...Array.from({ length: 12 }, (_, i) => `f${i}`), "species"];
  const rows = Array.from({ length: 40 }, (_, r) => {
    const label = IRIS_SPECIES[r % 3];
    const features = Array.from({ length: 12 }, (_, i) => ((r * 7 + i * 3) % 11) / 10);
    return [...features, dialect.quoteLabels ? `"${label}"` : label].join(",");
  });
  const eol = dialect.crlf ? "\r\n" : "\n";
  fs.writeFileSync(path.join(dir, "data.csv"), `${[header.join(","), ...rows].join(eol)}${eol}`);
}

export interface MetricsUpload {
  auth?: string;
  method?: string;
  url?: string;
  /** The JSON body of an event upload; `{ events: [] }` for file uploads (checkpoints, artifact). */
  body: { events: Record<string, unknown>[] };
  /** Size of the raw body. */
  bytes: number;
}

/**
 * A stand-in for the training upload API on a free loopback port: records what a generated
 * training script uploads (events, checkpoint and model files) and answers like the real routes.
 */
export async function startMetricsReceiver(): Promise<{
  url: string;
  received: MetricsUpload[];
  close: () => void;
}> {
  const received: MetricsUpload[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const raw = Buffer.concat(chunks);
      const events = req.url?.endsWith("/metrics/events") ?? false;
      received.push({
        auth: req.headers.authorization,
        method: req.method,
        url: req.url,
        body: events ? JSON.parse(raw.toString("utf8")) : { events: [] },
        bytes: raw.length,
      });
      res.writeHead(events ? 202 : 201, { "Content-Type": "application/json" }).end("{}");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    received,
    close: () => server.close(),
  };
}

/** The JSON-lines progress records a training script prints. */
export function jsonLines(stdout: string): Record<string, unknown>[] {
  return stdout
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line));
}
