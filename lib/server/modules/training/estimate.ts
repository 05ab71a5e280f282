/**
 * POST /training/estimate-resources: what a job will cost before it starts.
 *
 * - Parameters and forward FLOPs per sample: analyzeGraph.
 * - Memory (float32): weights + gradients + optimizer state (Adam/AdamW 2× the weights, RMSprop 1×,
 *   SGD 0) + activations of one batch (every layer's output size × batch × 4 bytes, × 2 for what the
 *   backward pass keeps).
 * - Work: samples per epoch from the dataset's rows (its explicit split, else × (1 − validation
 *   split)); training FLOPs ≈ epochs × FLOPs/sample × (3 × training samples + validation samples).
 * - Time on this service's runner, from a model whose coefficients are measured, never assumed:
 *   seconds = start + end + epochs × (steps × step + validation steps × step ÷ 2 + epoch + report)
 *             + training FLOPs ÷ FLOP/s.
 *   A micro-benchmark (once per process, cached) measures, with the runner's own Python and torch in
 *   its sandbox: the start (sandbox, interpreter and train.py's imports), one step of a tiny MLP
 *   (per-step cost), the FLOP/s of a wide MLP's forward/backward, a checkpoint save (per epoch) and
 *   the export after training (ONNX and weights, `end`). `report` is what each epoch's uploads (its
 *   metrics and its checkpoint, through the API) cost this service: the median, over its recent
 *   succeeded jobs (the database), of each job's charged seconds less the rest of the model, per
 *   epoch; DEFAULT_REPORT_STEPS × the step's seconds until it has MIN_CALIBRATION_JOBS of them.
 * - The account's own succeeded jobs of the same shape (the same graph, dataset version, batch size
 *   and validation split) are better still: each job's charged seconds, adjusted by the epochs it
 *   had fewer or more at its seconds per epoch (its seconds less the fixed costs, per epoch); the
 *   median over the last SAME_SHAPE_WINDOW of them.
 * - Credits = seconds ÷ COMPUTE_SECONDS_PER_CREDIT.
 */
import fsp from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { z } from "@hono/zod-openapi";
import { and, desc, eq, gt, isNull } from "drizzle-orm";
import type { ArchitectureGraph, TrainingConfig } from "../../../ml/graph-types";
import { analyzeGraph } from "../../../ml/infer-graph";
import type { Db } from "../../db/client";
import type { UserRow } from "../../db/schema";
import { trainingJobs } from "../../db/schema";
import { ValidationError } from "../../errors";
import { COMPUTE_SECONDS_PER_CREDIT } from "../../plans";
import { resolveBaseModel } from "../catalog/base-model-sources";
import { readableDataset, versionOf } from "../datasets/access";
import { builtinVersionData, builtinVersionId } from "../datasets/builtin";
import { architectureOf } from "./architecture";
import { resolveRuntime } from "./executors";
import { childEnv, runProcess } from "./executors/process";
import { pythonHasTorch, pythonPath } from "./executors/pytorch";
import { prepareJobDir, sandboxEnabled, sandboxLimits } from "./executors/sandbox";
import { MAX_TEXT_WINDOWS } from "./prepared-dataset";
import type { estimateBodySchema, estimateSchema } from "./training.schemas";

export type EstimateBody = z.infer<typeof estimateBodySchema>;
export type Estimate = z.infer<typeof estimateSchema>;

/** Succeeded jobs of a runtime needed before they calibrate the per-epoch upload cost. */
export const MIN_CALIBRATION_JOBS = 3;
/** How many recent jobs are looked at. */
const CALIBRATION_WINDOW = 50;
/** How many of the account's jobs of the same shape are looked at. */
const SAME_SHAPE_WINDOW = 5;
/**
 * Each epoch's uploads (metrics, then the checkpoint, through the job's channel and the API) in
 * optimizer steps of the micro-benchmark's tiny MLP, until the service's own jobs measure them: both
 * are Python, Node.js and database overheads, slower alike on a busy machine. Measured on a two-core
 * machine with the embedded database (bench/training-estimate-bench.ts): 0.05–0.09 s per epoch
 * with 0.16 ms steps when idle, 0.10–0.23 s with 0.40 ms steps when busy.
 */
export const DEFAULT_REPORT_STEPS = 400;

/** The runner's measured coefficients. */
export interface Throughput {
  /** Process start (interpreter and torch import), seconds. */
  start_seconds: number;
  /** Fixed cost of one optimizer step (data loading, Python, kernel launches), seconds. */
  step_seconds: number;
  /** Per-epoch fixed cost (evaluation set-up, checkpoint save), seconds. */
  epoch_seconds: number;
  /** Training FLOP/s of matrix products (dense, recurrent and attention layers…). */
  flops_per_second: number;
  /** Training FLOP/s of convolutions (their own kernels: often many times the matrix products'). */
  conv_flops_per_second: number;
  /** After the last epoch: the ONNX export and the weights file, seconds. */
  end_seconds: number;
  /** Each epoch's uploads (metrics and checkpoint) through the API, seconds. */
  report_seconds: number;
}

export interface Work {
  params: number;
  flops_per_sample: number;
  train_samples: number;
  validation_samples: number;
  epochs: number;
  steps_per_epoch: number;
  /** Batches of the validation split per epoch (forward passes only). */
  validation_steps_per_epoch: number;
  training_flops: number;
  /** The part of training_flops in convolutions. */
  training_conv_flops: number;
  memory: {
    weights_bytes: number;
    gradients_bytes: number;
    optimizer_bytes: number;
    activations_bytes: number;
    total_bytes: number;
  };
}

/** Layers whose FLOPs run at the convolution rate. */
const CONVOLUTIONS = new Set(["Conv1D", "Conv2D"]);

const OPTIMIZER_STATE: Record<TrainingConfig["optimizer"], number> = {
  adam: 2,
  adamw: 2,
  rmsprop: 1,
  sgd: 0,
};

/** Parameters, FLOPs, memory and steps of training `graph` with `config` on so many samples (pure). */
export function workOf(
  graph: ArchitectureGraph,
  config: Pick<TrainingConfig, "epochs" | "batch_size" | "optimizer">,
  samples: { train: number; validation: number },
): Work {
  const analysis = analyzeGraph(graph);
  const params = analysis.totalParams;
  const flops = analysis.totalFlops;
  let convFlops = 0;
  for (const node of graph.nodes) if (CONVOLUTIONS.has(node.type)) convFlops += analysis.flops[node.id] ?? 0;
  let activationValues = 0;
  for (const shape of Object.values(analysis.shapes))
    if (shape) activationValues += shape.reduce((a, d) => a * (d > 0 ? d : 1), 1);
  const batch = Math.min(config.batch_size, Math.max(1, samples.train));
  const weights = params * 4;
  const memory = {
    weights_bytes: weights,
    gradients_bytes: weights,
    optimizer_bytes: weights * OPTIMIZER_STATE[config.optimizer],
    activations_bytes: activationValues * batch * 4 * 2,
    total_bytes: 0,
  };
  memory.total_bytes =
    memory.weights_bytes + memory.gradients_bytes + memory.optimizer_bytes + memory.activations_bytes;
  return {
    params,
    flops_per_sample: flops,
    train_samples: samples.train,
    validation_samples: samples.validation,
    epochs: config.epochs,
    steps_per_epoch: Math.ceil(samples.train / config.batch_size),
    validation_steps_per_epoch: Math.ceil(samples.validation / config.batch_size),
    training_flops: config.epochs * flops * (3 * samples.train + samples.validation),
    training_conv_flops: config.epochs * convFlops * (3 * samples.train + samples.validation),
    memory,
  };
}

/** Seconds of one epoch on a runner with `t`, its uploads included (pure). */
export function epochSeconds(work: Work, t: Throughput): number {
  const steps = work.steps_per_epoch + work.validation_steps_per_epoch / 2;
  return (
    steps * t.step_seconds +
    t.epoch_seconds +
    t.report_seconds +
    ((work.training_flops - work.training_conv_flops) / t.flops_per_second +
      work.training_conv_flops / t.conv_flops_per_second) /
      work.epochs
  );
}

/** Seconds of what does not repeat per epoch: the start, the export and the last uploads (pure). */
export function fixedSeconds(t: Throughput): number {
  return t.start_seconds + t.end_seconds;
}

/** Modelled seconds of `work` on a runner with `t` (pure). */
export function modelSeconds(work: Work, t: Throughput): number {
  return fixedSeconds(t) + work.epochs * epochSeconds(work, t);
}

/**
 * The per-epoch upload cost that past jobs measured: for each, its charged seconds less everything
 * else the model gives it, per epoch (never below 0); the median (pure).
 */
export function measuredReportSeconds(
  jobs: { work: Work; seconds: number }[],
  t: Omit<Throughput, "report_seconds">,
): number {
  const zero = { ...t, report_seconds: 0 };
  return median(jobs.map((j) => Math.max(0, (j.seconds - modelSeconds(j.work, zero)) / j.work.epochs)));
}

/**
 * Seconds from the account's jobs of the same shape: each job's measured seconds, plus or minus the
 * epochs it had fewer or more at its measured seconds per epoch (its seconds less the fixed costs,
 * per epoch); the median over the jobs (pure). The same epochs give a job's own seconds.
 */
export function sameShapeSeconds(
  work: Work,
  jobs: { epochs: number; seconds: number }[],
  t: Throughput,
): number {
  return median(
    jobs.map(
      (j) => j.seconds + (work.epochs - j.epochs) * (Math.max(0, j.seconds - fixedSeconds(t)) / j.epochs),
    ),
  );
}

/** Training and validation samples: an explicit split as it is, else rows × (1 − validation split). */
export function splitSamples(
  rows: number,
  validationSplit: number,
  explicit: { train: number; validation: number } | null,
): { train: number; validation: number } {
  if (explicit) return explicit;
  const validation = Math.floor(rows * validationSplit);
  return { train: rows - validation, validation };
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** The micro-benchmark, run by the runner's Python: one JSON line of coefficients. */
const MICROBENCH_PY = `
import json, os, tempfile, time, torch
from torch import nn
t_import = time.perf_counter()
torch.manual_seed(0)
def steps(model, batch, n, features, classes, warm=3):
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    x = torch.randn(batch, features); y = torch.randint(0, classes, (batch,))
    loss_fn = nn.CrossEntropyLoss()
    for _ in range(warm):
        opt.zero_grad(); loss_fn(model(x), y).backward(); opt.step()
    started = time.perf_counter()
    for _ in range(n):
        opt.zero_grad(); loss = loss_fn(model(x), y); loss.backward(); opt.step(); loss.item()
    return (time.perf_counter() - started) / n
tiny = nn.Sequential(nn.Linear(4, 16), nn.ReLU(), nn.Linear(16, 3))
step = steps(tiny, 16, 300, 4, 3)
wide = nn.Sequential(nn.Linear(512, 1024), nn.ReLU(), nn.Linear(1024, 1024), nn.ReLU(), nn.Linear(1024, 10))
batch = 256
fwd = 2 * (512 * 1024 + 1024 * 1024 + 1024 * 10)
# Each step of the wide MLP takes a fraction of a second to a second: a few are enough.
wide_step = steps(wide, batch, 4, 512, 10, warm=1)
flops_per_second = 3 * fwd * batch / max(wide_step - step, 1e-6)
conv = nn.Sequential(nn.Conv2d(3, 32, 3, padding=1), nn.ReLU(), nn.Conv2d(32, 32, 3, padding=1), nn.ReLU(),
                     nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(32, 10))
conv_fwd = 2 * 24 * 24 * (3 * 32 * 9 + 32 * 32 * 9)
x_img = torch.randn(32, 3, 24, 24); y_img = torch.randint(0, 10, (32,))
opt = torch.optim.Adam(conv.parameters(), lr=1e-3); loss_fn = nn.CrossEntropyLoss()
for _ in range(2):
    opt.zero_grad(); loss_fn(conv(x_img), y_img).backward(); opt.step()
started = time.perf_counter()
for _ in range(4):
    opt.zero_grad(); loss = loss_fn(conv(x_img), y_img); loss.backward(); opt.step(); loss.item()
conv_step = (time.perf_counter() - started) / 4
conv_flops_per_second = 3 * conv_fwd * 32 / max(conv_step - step, 1e-6)
with tempfile.TemporaryDirectory() as d:
    started = time.perf_counter()
    for i in range(10):
        torch.save({"model": tiny.state_dict()}, os.path.join(d, f"{i}.pt"))
    epoch = (time.perf_counter() - started) / 10
    # What train.py does after the last epoch: the ONNX export (its first, as in a job) and the weights.
    started = time.perf_counter()
    try:
        import contextlib, sys
        with contextlib.redirect_stdout(sys.stderr):
            torch.onnx.export(tiny.eval(), torch.zeros(2, 4), os.path.join(d, "m.onnx"),
                              input_names=["input"], output_names=["output"],
                              dynamic_axes={"input": {0: "batch"}, "output": {0: "batch"}}, opset_version=14)
    except Exception:
        pass
    torch.save(tiny.state_dict(), os.path.join(d, "weights.pt"))
    end = time.perf_counter() - started
print(json.dumps({"step_seconds": step, "flops_per_second": flops_per_second,
                  "conv_flops_per_second": conv_flops_per_second, "epoch_seconds": epoch, "end_seconds": end}))
`;

/** train.py's imports: what its start costs besides the interpreter. */
const TRAIN_IMPORTS =
  "import argparse, csv, http.client, json, socket, threading, urllib.request; import numpy, torch, torch.distributed, torch.nn.parallel, torch.utils.data";

/** What the runner measures once per process; `report_seconds` comes from the database. */
export type RunnerThroughput = Omit<Throughput, "report_seconds">;

let microbench: Promise<RunnerThroughput | null> | null = null;

/** The runner's coefficients for PyTorch, measured once per process (a few seconds). */
export function pytorchMicrobenchmark(): Promise<RunnerThroughput | null> {
  microbench ??= (async () => {
    if (!(await pythonHasTorch())) return null;
    // Measured where jobs run: in the sandbox (its start included), from a directory of its own.
    const dir = await fsp.mkdtemp(path.join(os.tmpdir(), "layerline-microbench-"));
    try {
      if (sandboxEnabled()) await prepareJobDir(dir);
      const sandbox = { jobDir: dir, writable: [], limits: sandboxLimits("free", 120_000) };
      // Twice: the first start may read torch's libraries from disk, which jobs find in memory.
      const starts: number[] = [];
      for (let i = 0; i < 2; i++) {
        const startup = await runProcess({
          command: pythonPath(),
          args: ["-c", TRAIN_IMPORTS],
          cwd: dir,
          env: childEnv({ PYTHONDONTWRITEBYTECODE: "1" }, dir),
          timeLimitMs: 60_000,
          sandbox,
        });
        starts.push(startup.wallSeconds);
      }
      let line = "";
      const run = await runProcess({
        command: pythonPath(),
        args: ["-c", MICROBENCH_PY],
        cwd: dir,
        env: childEnv({ PYTHONDONTWRITEBYTECODE: "1" }, dir),
        timeLimitMs: 120_000,
        onLine: (l) => {
          if (l.startsWith("{")) line = l;
        },
        sandbox,
      });
      if (run.exitCode !== 0 || !line) return null;
      const measured = JSON.parse(line) as Omit<RunnerThroughput, "start_seconds">;
      return { start_seconds: Math.min(...starts), ...measured };
    } finally {
      await fsp.rm(dir, { recursive: true, force: true }).catch(() => {});
    }
  })();
  return microbench;
}

/** The graph as training sees it: nodes (id, type, params) and edges, without editor positions. */
export function graphShapeKey(graph: ArchitectureGraph): string {
  const nodes = [...graph.nodes]
    .map((n) => [n.id, n.type, n.params] as const)
    .sort((a, b) => (a[0] < b[0] ? -1 : 1));
  const edges = graph.edges
    .map((e) => [e.source, e.target, e.targetPort ?? 0] as const)
    .sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));
  return JSON.stringify({ nodes, edges });
}

interface Shape {
  ownerId: string;
  graph: ArchitectureGraph;
  config: TrainingConfig;
  datasetVersionId: string | null;
}

/**
 * Calibration of one runtime: the micro-benchmark's coefficients, the per-epoch upload cost this
 * service's recent jobs measured, and the account's own jobs of the same shape (all from the database).
 */
async function calibration(db: Db, runtime: "pytorch" | "tfjs", shape: Shape) {
  const base = runtime === "pytorch" ? await pytorchMicrobenchmark() : null;
  if (!base) return null;
  const rows = await db
    .select({
      ownerId: trainingJobs.ownerId,
      graph: trainingJobs.graph,
      config: trainingJobs.config,
      datasetVersionId: trainingJobs.datasetVersionId,
      preprocessing: trainingJobs.preprocessing,
      seconds: trainingJobs.computeSeconds,
    })
    .from(trainingJobs)
    .where(
      and(
        eq(trainingJobs.state, "succeeded"),
        eq(trainingJobs.resolvedRuntime, runtime),
        eq(trainingJobs.strategy, "single"),
        eq(trainingJobs.restartCount, 0),
        isNull(trainingJobs.baseModelId),
        gt(trainingJobs.computeSeconds, 0),
      ),
    )
    .orderBy(desc(trainingJobs.finishedAt))
    .limit(CALIBRATION_WINDOW);
  const measured = rows.flatMap((r) =>
    r.preprocessing ? [{ work: workOf(r.graph, r.config, r.preprocessing.rows), seconds: r.seconds }] : [],
  );
  const fromJobs = measured.length >= MIN_CALIBRATION_JOBS;
  const throughput: Throughput = {
    ...base,
    report_seconds: fromJobs
      ? measuredReportSeconds(measured, base)
      : DEFAULT_REPORT_STEPS * base.step_seconds,
  };
  const key = graphShapeKey(shape.graph);
  const sameShape = rows
    .filter(
      (r) =>
        r.ownerId === shape.ownerId &&
        r.datasetVersionId === shape.datasetVersionId &&
        r.config.batch_size === shape.config.batch_size &&
        r.config.validation_split === shape.config.validation_split &&
        graphShapeKey(r.graph) === key,
    )
    .slice(0, SAME_SHAPE_WINDOW)
    .map((r) => ({ epochs: r.config.epochs, seconds: r.seconds }));
  if (sameShape.length > 0)
    return { throughput, source: "same_shape_jobs" as const, jobs: sameShape.length, sameShape };
  return {
    throughput,
    source: fromJobs ? ("measured_jobs" as const) : ("microbenchmark" as const),
    jobs: measured.length,
    sameShape: null,
  };
}

/**
 * Windows of `window` characters a character model trains on (materialize-text.ts): the text cut by
 * position, each part giving one window per character after the first `window` (pure).
 */
export function textSamples(
  characters: number,
  window: number,
  validationSplit: number,
): { train: number; validation: number } {
  const windows = (n: number) => {
    const count = Math.max(0, n - window);
    return Math.ceil(count / Math.max(1, Math.ceil(count / MAX_TEXT_WINDOWS)));
  };
  const cut = Math.round(characters * (1 - validationSplit));
  return { train: windows(cut), validation: windows(characters - cut) };
}

/** The samples of the dataset version a job would train on, and that version's id. */
async function datasetSamples(
  db: Db,
  user: UserRow,
  body: EstimateBody,
  validationSplit: number,
  tokenWindow: number | null,
) {
  if (!body.dataset_id) return null;
  const ref = await readableDataset(db, user, body.dataset_id);
  if (ref.kind === "builtin") {
    const data = await builtinVersionData(ref.builtin);
    const text = data.profile.text;
    return {
      versionId: builtinVersionId(ref.builtin),
      ...(text && tokenWindow !== null
        ? textSamples(text.characters, tokenWindow, validationSplit)
        : splitSamples(data.profile.row_count, validationSplit, null)),
    };
  }
  const versionId = body.dataset_version_id ?? ref.row.currentVersionId;
  if (!versionId) return null;
  const version = await versionOf(db, body.dataset_id, versionId);
  const text = version.profile.text;
  if (text && tokenWindow !== null && !version.splits)
    return { versionId, ...textSamples(text.characters, tokenWindow, validationSplit) };
  const explicit = version.splits
    ? { train: version.splits.train.length, validation: version.splits.validation.length }
    : null;
  return {
    versionId,
    ...splitSamples(version.rowCount ?? version.profile.row_count, validationSplit, explicit),
  };
}

/** The project's architecture, or a base model's as pretrained (a fine-tuning run before it exists). */
async function estimatedArchitecture(db: Db, user: UserRow, body: EstimateBody) {
  if (body.base_model_id !== undefined) {
    const { entry } = await resolveBaseModel(db, user.id, body.base_model_id);
    return { graph: entry.graph, config: entry.config };
  }
  if (body.project_id === undefined)
    throw new ValidationError("Give a project_id or a base_model_id.", [
      { path: "body.project_id", message: "Required" },
    ]);
  return architectureOf(db, user.id, body.project_id, body.version_id);
}

export async function estimateResources(db: Db, user: UserRow, body: EstimateBody): Promise<Estimate> {
  const arch = await estimatedArchitecture(db, user, body);
  const config: TrainingConfig = { ...arch.config, ...body.config };
  const input = arch.graph.nodes.find((n) => n.type === "Input");
  const tokenWindow =
    input?.params.dtype === "int64" && Array.isArray(input.params.shape)
      ? Number(input.params.shape[0])
      : null;
  const samples = await datasetSamples(db, user, body, config.validation_split, tokenWindow);
  const work = workOf(arch.graph, config, samples ?? { train: 0, validation: 0 });
  const runtime = body.runtime === "external" ? "external" : await resolveRuntime(body.runtime ?? "auto");
  const shape = {
    ownerId: user.id,
    graph: arch.graph,
    config,
    datasetVersionId: samples?.versionId ?? null,
  };
  const cal = runtime === "external" || !samples ? null : await calibration(db, runtime, shape);
  const seconds = !cal
    ? null
    : cal.sameShape
      ? sameShapeSeconds(work, cal.sameShape, cal.throughput)
      : modelSeconds(work, cal.throughput);
  return {
    params: work.params,
    flops_per_sample: work.flops_per_sample,
    training_flops: work.training_flops,
    train_samples: samples ? work.train_samples : null,
    validation_samples: samples ? work.validation_samples : null,
    steps_per_epoch: samples ? work.steps_per_epoch : null,
    memory: work.memory,
    runtime,
    seconds,
    credits: seconds === null ? null : seconds / COMPUTE_SECONDS_PER_CREDIT,
    calibration: cal
      ? {
          source: cal.source,
          jobs: cal.jobs,
          factor: seconds === null ? 1 : seconds / modelSeconds(work, cal.throughput),
          ...cal.throughput,
        }
      : null,
  };
}
