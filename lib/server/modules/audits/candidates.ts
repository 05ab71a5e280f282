/**
 * Candidates: a workload's calls become a dataset, a fine-tuning run (a recipe and a base model of
 * the catalog) trains on it, and the trained model is measured on the held-out calls it never saw.
 *
 * - Classification workloads: each call's input text is hashed into the base model's feature
 *   count (lib/audits/features.ts) with the logged output as the `label` column (a CSV); the base
 *   model's head is resized to the workload's labels by the fine-tuning run.
 * - Generation workloads: a text dataset of `<input>\n<output>\n\n` records for a character
 *   language model; evaluated by greedy generation from `<input>\n` up to the first blank line.
 *
 * Evaluation loads the run's model artifact exactly as a deployment does and predicts the held-out
 * calls one at a time in this process, measuring wall-clock latency and CPU time per call; the cost
 * estimate follows lib/audits/metrics.ts (CPU time × a configurable price).
 */
import fsp from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { z } from "@hono/zod-openapi";
import { and, asc, eq, isNull } from "drizzle-orm";
import { featureNames, textFeatures } from "../../../audits/features";
import {
  agreement,
  costModelFromEnv,
  estimatedCostPer1k,
  mean,
  percentile,
  sampleSorted,
} from "../../../audits/metrics";
import type { Db } from "../../db/client";
import type { UserRow } from "../../db/schema";
import {
  type AuditCandidateRow,
  type AuditEvaluation,
  type AuditWorkloadRow,
  auditCalls,
  auditCandidates,
  audits,
  auditWorkloads,
  type TrainingJobRow,
} from "../../db/schema";
import { ConflictError, NotFoundError, ValidationError } from "../../errors";
import { newId } from "../../ids";
import { findBaseModel } from "../catalog/base-models";
import { deleteDataset, setRoles } from "../datasets/datasets";
import { commitStoredFile, storeIncomingFile } from "../datasets/ingest";
import { FileBudget } from "../datasets/limits";
import { createDeployment } from "../deployments/deployments";
import { checkUntrustedModel } from "../serving/model-probe";
import { generateText, generationParams, languageModelOf } from "../serving/text-generation";
import {
  type LoadedArtifact,
  loadArtifact,
  type ModelManifest,
  type Prediction,
} from "../training/artifact-reader";
import { copyBlobToFile } from "../training/blob-files";
import { createFoundationRun } from "../training/foundation-runs";
import { getJobRow } from "../training/job-rows";
import { candidatesOf, findOwnedAudit, workloadsOf } from "./audits";
import type { createCandidateBodySchema } from "./audits.schemas";
import { csvCell } from "./csv-cell";
import { type CandidateView, candidateView } from "./views";

export type CreateCandidateInput = z.infer<typeof createCandidateBodySchema>;

/** Held-out calls measured per evaluation at most. */
const MAX_EVAL_CALLS = 300;
/** Examples kept on the evaluation. */
const EXAMPLES = 5;

async function findWorkload(db: Db, auditId: string, workloadId: string): Promise<AuditWorkloadRow> {
  const [w] = await db
    .select()
    .from(auditWorkloads)
    .where(and(eq(auditWorkloads.id, workloadId), eq(auditWorkloads.auditId, auditId)))
    .limit(1);
  if (!w) throw new NotFoundError("Workload");
  return w;
}

async function callsOf(db: Db, workloadId: string, holdout: boolean) {
  return db
    .select()
    .from(auditCalls)
    .where(and(eq(auditCalls.workloadId, workloadId), eq(auditCalls.holdout, holdout)))
    .orderBy(asc(auditCalls.idx));
}

/** Feature count of a table base model (its Input's width). */
function featureWidth(baseModelId: string): number {
  const base = findBaseModel(baseModelId);
  const input = base?.graph.nodes.find((n) => n.type === "Input");
  const shape = input?.params.shape;
  if (!base || !Array.isArray(shape)) throw new NotFoundError("Base model");
  return shape.reduce((a: number, b) => a * Number(b), 1);
}

async function* encoded(lines: Iterable<string>): AsyncIterable<Uint8Array> {
  const enc = new TextEncoder();
  let buf = "";
  for (const line of lines) {
    buf += line;
    if (buf.length >= 64 * 1024) {
      yield enc.encode(buf);
      buf = "";
    }
  }
  if (buf) yield enc.encode(buf);
}

function* datasetLines(
  w: AuditWorkloadRow,
  calls: { inputText: string; output: string }[],
  width: number,
): Iterable<string> {
  if (w.task === "classification") {
    yield `${[...featureNames(width), "label"].join(",")}\n`;
    for (const c of calls)
      yield `${[...textFeatures(c.inputText, width).map(String), csvCell(c.output.trim())].join(",")}\n`;
  } else {
    for (const c of calls) yield `${c.inputText}\n${c.output}\n\n`;
  }
}

/**
 * The workload's training calls as a dataset of the caller's (made once; later calls return it).
 * `baseModelId` decides the feature width of a classification workload.
 */
export async function ensureWorkloadDataset(
  db: Db,
  user: UserRow,
  auditId: string,
  workloadId: string,
  baseModelId?: string,
): Promise<{ dataset_id: string; rows: number; created: boolean }> {
  await findOwnedAudit(db, user.id, auditId);
  const w = await findWorkload(db, auditId, workloadId);
  const calls = await callsOf(db, w.id, false);
  if (w.datasetId) return { dataset_id: w.datasetId, rows: calls.length, created: false };
  const width = w.task === "classification" ? featureWidth(baseModelId ?? "breast-cancer-mlp") : 0;
  const budget = await FileBudget.forUser(db, user);
  const fileName = `${w.name}.${w.task === "classification" ? "csv" : "txt"}`;
  const stored = await storeIncomingFile(encoded(datasetLines(w, calls, width)), fileName, budget);
  const { dataset } = await commitStoredFile(
    db,
    stored,
    {
      owner: user,
      name: `Audit ${w.name}`.slice(0, 200),
      description: `The training calls of the workload “${w.name}” (${w.model}) of an audit.`,
    },
    budget,
  );
  if (w.task === "classification") await setRoles(db, user, dataset.id, { label: "target" });
  const [claimed] = await db
    .update(auditWorkloads)
    .set({ datasetId: dataset.id })
    .where(and(eq(auditWorkloads.id, w.id), isNull(auditWorkloads.datasetId)))
    .returning();
  if (!claimed) {
    // Another request made the workload's dataset meanwhile: keep that one.
    await deleteDataset(db, user, dataset.id).catch(() => {});
    const again = await findWorkload(db, auditId, workloadId);
    return { dataset_id: again.datasetId ?? dataset.id, rows: calls.length, created: false };
  }
  return { dataset_id: dataset.id, rows: calls.length, created: true };
}

export async function createCandidate(
  db: Db,
  user: UserRow,
  auditId: string,
  workloadId: string,
  input: CreateCandidateInput,
): Promise<CandidateView> {
  const a = await findOwnedAudit(db, user.id, auditId);
  if (a.state === "cancelled") throw new ConflictError("The audit was cancelled.");
  const w = await findWorkload(db, auditId, workloadId);
  const base = findBaseModel(input.base_model_id);
  if (!base) throw new NotFoundError("Base model");
  const wanted = w.task === "classification" ? ["classification"] : ["language_modeling"];
  if (!wanted.includes(base.task))
    throw new ValidationError(`“${base.name}” is a ${base.task} model; this workload is ${w.task}.`, [
      { path: "body.base_model_id", message: `Choose a ${wanted[0]} base model` },
    ]);
  if (w.task === "classification") {
    const input0 = base.graph.nodes.find((n) => n.type === "Input");
    const shape = input0?.params.shape;
    if (!Array.isArray(shape) || shape.length !== 1)
      throw new ValidationError(`“${base.name}” does not take a flat table of features.`, [
        { path: "body.base_model_id", message: "Choose a table classifier" },
      ]);
  }
  const ds = await ensureWorkloadDataset(db, user, auditId, workloadId, input.base_model_id);
  const run = await createFoundationRun(db, user, {
    base_model_id: input.base_model_id,
    dataset_id: ds.dataset_id,
    recipe_id: input.recipe_id,
    config: input.config,
    freeze: "none",
    lr_schedule: "cosine",
    warmup_epochs: 0,
    name: `Audit ${a.name}: ${w.name} (${input.recipe_id})`.slice(0, 200),
    runtime: "auto",
    strategy: "single",
  });
  const job = await getJobRow(db, run.id);
  const [row] = await db
    .insert(auditCandidates)
    .values({
      id: newId("acd"),
      auditId,
      workloadId,
      recipeId: input.recipe_id,
      baseModelId: input.base_model_id,
      runId: run.id,
      projectId: job?.projectId ?? null,
    })
    .returning();
  await db.update(audits).set({ updatedAt: new Date() }).where(eq(audits.id, auditId));
  return candidateView(row, job, w);
}

async function runRows(db: Db, candidates: AuditCandidateRow[]) {
  const map = new Map<string, TrainingJobRow>();
  for (const c of candidates) {
    if (!c.runId) continue;
    const r = await getJobRow(db, c.runId);
    if (r) map.set(c.runId, r);
  }
  return map;
}

export async function listCandidates(
  db: Db,
  ownerId: string,
  auditId: string,
  workloadId?: string,
): Promise<{ items: CandidateView[] }> {
  await findOwnedAudit(db, ownerId, auditId);
  if (workloadId) await findWorkload(db, auditId, workloadId);
  const all = await candidatesOf(db, [auditId]);
  const list = workloadId ? all.filter((c) => c.workloadId === workloadId) : all;
  const workloads = await workloadsOf(db, [auditId]);
  const runs = await runRows(db, list);
  return {
    items: list.map((c) =>
      candidateView(
        c,
        c.runId ? (runs.get(c.runId) ?? null) : null,
        workloads.find((w) => w.id === c.workloadId),
      ),
    ),
  };
}

async function findCandidate(db: Db, ownerId: string, auditId: string, candidateId: string) {
  await findOwnedAudit(db, ownerId, auditId);
  const [c] = await db
    .select()
    .from(auditCandidates)
    .where(and(eq(auditCandidates.id, candidateId), eq(auditCandidates.auditId, auditId)))
    .limit(1);
  if (!c) throw new NotFoundError("Candidate");
  const w = await findWorkload(db, auditId, c.workloadId);
  const run = c.runId ? await getJobRow(db, c.runId) : null;
  return { c, w, run };
}

export async function getCandidate(db: Db, ownerId: string, auditId: string, candidateId: string) {
  const { c, w, run } = await findCandidate(db, ownerId, auditId, candidateId);
  return candidateView(c, run, w);
}

async function loadRunArtifact(db: Db, job: TrainingJobRow, dir: string): Promise<LoadedArtifact> {
  if (!job.artifactManifest) throw new ConflictError("The run has no model artifact.");
  const files: Record<string, string> = {};
  for (const f of job.artifactFiles) {
    if (f.name === "manifest.json") continue;
    const file = path.join(dir, path.basename(f.name));
    if (!(await copyBlobToFile(f.blob_key, file)))
      throw new ConflictError(`The artifact file ${f.name} is missing from storage.`);
    files[f.name] = file;
  }
  // An artifact may come from an external job's own upload: probed in a limited process first.
  const source = { manifest: job.artifactManifest as unknown as ModelManifest, files };
  await checkUntrustedModel(source, db);
  return loadArtifact(source);
}

const labelOf = (p: Prediction | undefined) => (p && "label" in p ? p.label : "");
const elapsedMs = (start: bigint) => Number(process.hrtime.bigint() - start) / 1e6;
const cpuMs = (u: NodeJS.CpuUsage) => (u.user + u.system) / 1000;

/** Measures the candidate's trained model on the workload's held-out calls (the run must have succeeded). */
export async function evaluateCandidate(
  db: Db,
  ownerId: string,
  auditId: string,
  candidateId: string,
): Promise<CandidateView> {
  const { c, w, run } = await findCandidate(db, ownerId, auditId, candidateId);
  if (!run) throw new ConflictError("The candidate's run is gone.");
  if (run.state !== "succeeded")
    throw new ConflictError(
      `The candidate's run is ${run.state}; it can be evaluated once it has succeeded.`,
    );
  const held = (await callsOf(db, w.id, true)).slice(0, MAX_EVAL_CALLS);
  if (held.length === 0) throw new ConflictError("The workload has no held-out calls.");
  const dir = await fsp.mkdtemp(path.join(os.tmpdir(), "layerline-audit-eval-"));
  let model: LoadedArtifact | null = null;
  const predicted: string[] = [];
  const latencies: number[] = [];
  const cpu: number[] = [];
  try {
    model = await loadRunArtifact(db, run, dir);
    const loaded = model;
    const width = loaded.manifest.input.shape.reduce((a, b) => a * b, 1);
    const names = featureNames(width);
    const lm = w.task === "generation" ? languageModelOf(loaded.manifest, (x) => loaded.predict(x)) : null;
    // One warm-up call so the first measurement does not include lazy initialisation.
    if (w.task === "classification")
      await loaded.predict([Object.fromEntries(names.map((n, i) => [n, textFeatures("", width)[i]]))]);
    for (const call of held) {
      const t0 = process.hrtime.bigint();
      const u0 = process.cpuUsage();
      if (lm) {
        const expectedLen = [...call.output].length;
        const r = await generateText(
          lm,
          `${call.inputText}\n`,
          generationParams({
            maxTokens: Math.min(256, expectedLen + 16),
            temperature: 0,
            seed: 0,
            stop: ["\n\n"],
          }),
        );
        predicted.push(r.text.trim());
      } else {
        const v = textFeatures(call.inputText, width);
        const [p] = await loaded.predict([Object.fromEntries(names.map((n, i) => [n, v[i]]))]);
        predicted.push(labelOf(p));
      }
      cpu.push(cpuMs(process.cpuUsage(u0)));
      latencies.push(elapsedMs(t0));
    }
  } finally {
    await model?.dispose();
    await fsp.rm(dir, { recursive: true, force: true });
  }
  const expected = held.map((h) => h.output.trim());
  const score = agreement(w.task, predicted, expected);
  const costModel = costModelFromEnv(process.env);
  const meanCpu = mean(cpu) ?? 0;
  const evaluation: AuditEvaluation = {
    metric: score.metric,
    quality: score.value,
    calls: held.length,
    latency_p50_ms: percentile(latencies, 50) ?? 0,
    latency_p95_ms: percentile(latencies, 95) ?? 0,
    latency_samples: sampleSorted(latencies),
    mean_cpu_ms: meanCpu,
    cost_per_1k: estimatedCostPer1k(meanCpu, costModel),
    cost_model: costModel,
    examples: held.slice(0, EXAMPLES).map((h, i) => ({
      input: h.inputText.slice(0, 500),
      expected: expected[i].slice(0, 500),
      predicted: predicted[i].slice(0, 500),
    })),
    evaluated_at: new Date().toISOString(),
  };
  const [updated] = await db
    .update(auditCandidates)
    .set({ evaluation, updatedAt: new Date() })
    .where(eq(auditCandidates.id, c.id))
    .returning();
  return candidateView(updated, run, w);
}

/** Deploys the candidate's run (a deployment the audit owns: paused on cancel, deleted with it). */
export async function deployCandidate(db: Db, ownerId: string, auditId: string, candidateId: string) {
  const { c, w, run } = await findCandidate(db, ownerId, auditId, candidateId);
  if (run?.state !== "succeeded")
    throw new ConflictError("The candidate's run has not succeeded; there is nothing to deploy.");
  if (c.deploymentId) throw new ConflictError("The candidate is already deployed.");
  const d = await createDeployment(db, ownerId, {
    name: `audit-${w.name}`.slice(0, 100),
    job_id: run.id,
  });
  const [updated] = await db
    .update(auditCandidates)
    .set({ deploymentId: d.id, updatedAt: new Date() })
    .where(eq(auditCandidates.id, c.id))
    .returning();
  return { candidate: candidateView(updated, run, w), deployment_id: d.id, api_key: d.api_key };
}
