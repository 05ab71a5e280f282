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
 *   seconds = start + epochs × (steps × step_seconds + epoch_seconds) + training FLOPs ÷ FLOP/s.
 *   A micro-benchmark (once per process, cached) measures them with the runner's own Python and
 *   torch: the interpreter's start, the time of one step of a tiny MLP (per-step cost), the FLOP/s of
 *   a wide MLP's forward/backward, and the time to save a checkpoint (per-epoch cost). When this
 *   service has enough succeeded jobs of the runtime (MIN_CALIBRATION_JOBS), the model is scaled by
 *   the median of their measured ÷ modelled seconds (the jobs' compute_seconds).
 * - Credits = seconds ÷ COMPUTE_SECONDS_PER_CREDIT.
 */
import fsp from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { z } from "@hono/zod-openapi";
import { and, desc, eq, gt } from "drizzle-orm";
import type { ArchitectureGraph, TrainingConfig } from "../../../ml/graph-types";
import { analyzeGraph } from "../../../ml/infer-graph";
import type { Db } from "../../db/client";
import type { UserRow } from "../../db/schema";
import { trainingJobs } from "../../db/schema";
import { ValidationError } from "../../errors";
import { COMPUTE_SECONDS_PER_CREDIT } from "../../plans";
import { resolveBaseModel } from "../catalog/base-model-sources";
import { readableDataset, versionOf } from "../datasets/access";
import { builtinVersionData } from "../datasets/builtin";
import { architectureOf } from "./architecture";
import { resolveRuntime } from "./executors";
import { childEnv, runProcess } from "./executors/process";
import { pythonHasTorch, pythonPath } from "./executors/pytorch";
import { prepareJobDir, sandboxEnabled, sandboxLimits } from "./executors/sandbox";
import type { estimateBodySchema, estimateSchema } from "./training.schemas";

export type EstimateBody = z.infer<typeof estimateBodySchema>;
export type Estimate = z.infer<typeof estimateSchema>;

/** Succeeded jobs of a runtime needed before they calibrate the model instead of the micro-benchmark. */
export const MIN_CALIBRATION_JOBS = 5;
/** How many recent jobs are looked at. */
const CALIBRATION_WINDOW = 50;

/** The runner's measured coefficients. */
export interface Throughput {
  /** Process start (interpreter and torch import), seconds. */
  start_seconds: number;
  /** Fixed cost of one optimizer step (data loading, Python, kernel launches), seconds. */
  step_seconds: number;
  /** Per-epoch fixed cost (evaluation set-up, checkpoint save), seconds. */
  epoch_seconds: number;
  /** Training FLOP/s on large layers. */
  flops_per_second: number;
}

export interface Work {
  params: number;
  flops_per_sample: number;
  train_samples: number;
  validation_samples: number;
  epochs: number;
  steps_per_epoch: number;
  training_flops: number;
  memory: {
    weights_bytes: number;
    gradients_bytes: number;
    optimizer_bytes: number;
    activations_bytes: number;
    total_bytes: number;
  };
}

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
    training_flops: config.epochs * flops * (3 * samples.train + samples.validation),
    memory,
  };
}

/** Modelled seconds of `work` on a runner with `t` (pure). */
export function modelSeconds(work: Work, t: Throughput): number {
  return (
    t.start_seconds +
    work.epochs * (work.steps_per_epoch * t.step_seconds + t.epoch_seconds) +
    work.training_flops / t.flops_per_second
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
def steps(model, batch, n, features, classes):
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    x = torch.randn(batch, features); y = torch.randint(0, classes, (batch,))
    loss_fn = nn.CrossEntropyLoss()
    for _ in range(3):
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
wide_step = steps(wide, batch, 20, 512, 10)
flops_per_second = 3 * fwd * batch / max(wide_step - step, 1e-6)
with tempfile.TemporaryDirectory() as d:
    started = time.perf_counter()
    for i in range(10):
        torch.save({"model": tiny.state_dict()}, os.path.join(d, f"{i}.pt"))
    epoch = (time.perf_counter() - started) / 10
print(json.dumps({"step_seconds": step, "flops_per_second": flops_per_second, "epoch_seconds": epoch}))
`;

let microbench: Promise<Throughput | null> | null = null;

/** The runner's coefficients for PyTorch, measured once per process (a few seconds). */
export function pytorchMicrobenchmark(): Promise<Throughput | null> {
  microbench ??= (async () => {
    if (!(await pythonHasTorch())) return null;
    // Measured where jobs run: in the sandbox (its start included), from a directory of its own.
    const dir = await fsp.mkdtemp(path.join(os.tmpdir(), "layerline-microbench-"));
    try {
      if (sandboxEnabled()) await prepareJobDir(dir);
      const sandbox = { jobDir: dir, writable: [], limits: sandboxLimits("free", 120_000) };
      const startup = await runProcess({
        command: pythonPath(),
        args: ["-c", "import torch, numpy"],
        cwd: dir,
        env: childEnv({ PYTHONDONTWRITEBYTECODE: "1" }, dir),
        timeLimitMs: 60_000,
        sandbox,
      });
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
      const measured = JSON.parse(line) as Omit<Throughput, "start_seconds">;
      return { start_seconds: startup.wallSeconds, ...measured };
    } finally {
      await fsp.rm(dir, { recursive: true, force: true }).catch(() => {});
    }
  })();
  return microbench;
}

/** Calibration of one runtime: the micro-benchmark's model, scaled by this service's own jobs when there are enough. */
async function calibration(db: Db, runtime: "pytorch" | "tfjs") {
  const base = runtime === "pytorch" ? await pytorchMicrobenchmark() : null;
  if (!base) return null;
  const rows = await db
    .select({
      graph: trainingJobs.graph,
      config: trainingJobs.config,
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
        gt(trainingJobs.computeSeconds, 0),
      ),
    )
    .orderBy(desc(trainingJobs.finishedAt))
    .limit(CALIBRATION_WINDOW);
  const ratios: number[] = [];
  for (const r of rows) {
    if (!r.preprocessing) continue;
    const work = workOf(r.graph, r.config, r.preprocessing.rows);
    ratios.push(r.seconds / modelSeconds(work, base));
  }
  if (ratios.length >= MIN_CALIBRATION_JOBS)
    return {
      throughput: base,
      factor: median(ratios),
      source: "measured_jobs" as const,
      jobs: ratios.length,
    };
  return { throughput: base, factor: 1, source: "microbenchmark" as const, jobs: ratios.length };
}

async function datasetSamples(db: Db, user: UserRow, body: EstimateBody, validationSplit: number) {
  if (!body.dataset_id) return null;
  const ref = await readableDataset(db, user, body.dataset_id);
  if (ref.kind === "builtin") {
    const data = await builtinVersionData(ref.builtin);
    return splitSamples(data.profile.row_count, validationSplit, null);
  }
  const versionId = body.dataset_version_id ?? ref.row.currentVersionId;
  if (!versionId) return null;
  const version = await versionOf(db, body.dataset_id, versionId);
  const explicit = version.splits
    ? { train: version.splits.train.length, validation: version.splits.validation.length }
    : null;
  return splitSamples(version.rowCount ?? version.profile.row_count, validationSplit, explicit);
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
  const samples = await datasetSamples(db, user, body, config.validation_split);
  const work = workOf(arch.graph, config, samples ?? { train: 0, validation: 0 });
  const runtime = body.runtime === "external" ? "external" : await resolveRuntime(body.runtime ?? "auto");
  const cal = runtime === "external" || !samples ? null : await calibration(db, runtime);
  const seconds = cal ? modelSeconds(work, cal.throughput) * cal.factor : null;
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
    calibration: cal ? { source: cal.source, jobs: cal.jobs, factor: cal.factor, ...cal.throughput } : null,
  };
}
