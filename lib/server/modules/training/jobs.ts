/**
 * Training jobs (contract §4.6, decisions "Training"): create, list, get, cancel, restart, bulk delete,
 * and the job's snapshot as code or DAG. Execution lives in run-job.ts; uploads in ingest.ts.
 */
import type { z } from "@hono/zod-openapi";
import { and, count, desc, eq, ilike, inArray, or, type SQL, sql } from "drizzle-orm";
import { type CodegenTarget, validateForCodegen } from "../../../ml/codegen";
import { stringifyDag, toDag } from "../../../ml/dag-format";
import type { TrainingConfig } from "../../../ml/graph-types";
import { findRecipe, RECIPES } from "../../../ml/recipes";
import type { Db } from "../../db/client";
import type { UserRow } from "../../db/schema";
import { trainingCheckpoints, trainingJobs } from "../../db/schema";
import {
  ConflictError,
  InsufficientCreditsError,
  NotFoundError,
  PaymentRequiredError,
  ValidationError,
} from "../../errors";
import { appendTrainingEvents } from "../../events/training-events";
import { paged } from "../../http/paging";
import { newId } from "../../ids";
import { requestCancel } from "../../jobs/queue";
import { planOf } from "../../plans";
import { deleteBlobAndLocalFile } from "../../storage/blob-cache";
import { creditBalance } from "../account/credits";
import { readableDataset, versionOf } from "../datasets/access";
import { builtinVersionId } from "../datasets/builtin";
import { architectureOf } from "./architecture";
import { dispatchQueuedJobs } from "./dispatch";
import { jobBundleZip } from "./download-bundle";
import { assertDatasetFits } from "./job-fit";
import { findOwnedJob, getJobRow } from "./job-rows";
import { transitionJob } from "./state";
import type { bulkDeleteResultSchema, createJobBodySchema, listJobsQuerySchema } from "./training.schemas";
import { type TrainingJobView, toJobView } from "./views";

export type CreateJobInput = z.infer<typeof createJobBodySchema>;
export type ListJobsQuery = z.infer<typeof listJobsQuerySchema>;

/** Distribution strategies (issue: fine-tuning adds data_parallel runs). */
export const STRATEGIES = [
  { id: "single", description: "One process (GPU when the runner has one)", feature: null },
  {
    id: "data_parallel",
    description:
      "DistributedDataParallel over several processes of one machine (torchrun; gloo on CPU, nccl on GPUs)",
    feature: "distributed_training",
  },
] as const;

export async function datasetVersionFor(
  db: Db,
  user: UserRow,
  datasetId: string,
  versionId: string | undefined,
): Promise<{ id: string; name: string; versionId: string }> {
  const ref = await readableDataset(db, user, datasetId);
  if (ref.kind === "builtin") {
    const only = builtinVersionId(ref.builtin);
    if (versionId && versionId !== only) throw new NotFoundError("Dataset version");
    return { id: ref.builtin.id, name: ref.builtin.name, versionId: only };
  }
  const chosen = versionId ?? ref.row.currentVersionId;
  if (!chosen)
    throw new ValidationError("The dataset has no version yet.", [
      { path: "body.dataset_id", message: "No version" },
    ]);
  if (versionId) await versionOf(db, datasetId, versionId);
  return { id: ref.row.id, name: ref.row.name, versionId: chosen };
}

export function checkStrategy(user: UserRow, strategy: string, runtime: CreateJobInput["runtime"]): void {
  const known = STRATEGIES.find((s) => s.id === strategy);
  if (!known)
    throw new ValidationError(`Unknown strategy "${strategy}".`, [
      { path: "body.strategy", message: `One of: ${STRATEGIES.map((s) => s.id).join(", ")}` },
    ]);
  const plan = planOf(user.plan);
  if (known.feature && !plan.features[known.feature])
    throw new PaymentRequiredError(
      `The ${plan.name} plan does not include the "${strategy}" strategy; see GET /training/allowed-strategies.`,
    );
  if (strategy === "data_parallel" && runtime !== "pytorch" && runtime !== "auto")
    throw new ValidationError(`The "${strategy}" strategy runs the PyTorch project with torchrun.`, [
      { path: "body.runtime", message: "Use pytorch (or auto) with data_parallel" },
    ]);
}

export async function assertHasCredits(db: Db, userId: string): Promise<void> {
  const balance = await creditBalance(db, userId);
  if (balance <= 0)
    throw new InsufficientCreditsError(
      `You have no credits left (balance ${balance.toFixed(3)}); training needs credits for its compute time.`,
    );
}

export async function createTrainingJob(
  db: Db,
  user: UserRow,
  input: CreateJobInput,
): Promise<TrainingJobView> {
  checkStrategy(user, input.strategy, input.runtime);
  if (input.recipe_id !== undefined && !findRecipe(input.recipe_id))
    throw new ValidationError(`Unknown recipe "${input.recipe_id}".`, [
      { path: "body.recipe_id", message: `One of: ${RECIPES.map((r) => r.id).join(", ")}` },
    ]);
  const arch = await architectureOf(db, user.id, input.project_id, input.version_id);
  const config: TrainingConfig = { ...arch.config, ...input.config };
  const target: CodegenTarget = input.runtime === "tfjs" ? "tfjs" : "pytorch";
  const verdict = validateForCodegen(arch.graph, config, target);
  if (!verdict.valid) {
    const errors = verdict.issues.filter((i) => i.severity === "error");
    throw new ValidationError(
      `The project's model cannot be trained: ${errors.length} problem${errors.length === 1 ? "" : "s"} in its graph or configuration.`,
      errors.map((i) => ({
        path:
          i.code === "invalid_config"
            ? `body.config${i.param ? `.${i.param.replace(/^training\./, "")}` : ""}`
            : `graph${i.nodeId ? `.${i.nodeId}` : ""}`,
        message: i.message,
      })),
    );
  }
  const dataset = await datasetVersionFor(db, user, input.dataset_id, input.dataset_version_id);
  await assertDatasetFits(db, user, arch.graph, config.resize, dataset);
  if (input.runtime !== "external") await assertHasCredits(db, user.id);

  return queueJob(db, user.id, {
    projectId: input.project_id,
    projectName: arch.name,
    versionId: arch.versionId,
    name: input.name ?? `${arch.name} on ${dataset.name}`,
    graph: arch.graph,
    config,
    datasetId: dataset.id,
    datasetVersionId: dataset.versionId,
    runtime: input.runtime,
    strategy: input.strategy,
    recipeId: input.recipe_id ?? null,
  });
}

/** What a new job is made of (the rest: queued, no progress, no metrics). */
export type NewJob = Pick<
  typeof trainingJobs.$inferInsert,
  | "projectId"
  | "projectName"
  | "versionId"
  | "name"
  | "graph"
  | "config"
  | "datasetId"
  | "datasetVersionId"
  | "runtime"
  | "strategy"
  | "recipeId"
  | "baseModelId"
  | "fineTune"
>;

/** Inserts a queued job, records its first status event and hands it to the runner (managed runtimes). */
export async function queueJob(db: Db, ownerId: string, job: NewJob): Promise<TrainingJobView> {
  const id = newId("job");
  const now = new Date();
  const [row] = await db
    .insert(trainingJobs)
    .values({
      ...job,
      id,
      ownerId,
      resolvedRuntime: job.runtime === "external" ? "external" : null,
      state: "queued",
      statusHistory: [{ status: "queued", at: now.toISOString(), reason: null }],
      createdAt: now,
      updatedAt: now,
    })
    .returning();
  await appendTrainingEvents(db, id, [
    { kind: "status", data: { status: "queued", at: now.toISOString(), reason: null } },
  ]);
  if (job.runtime !== "external") await dispatchQueuedJobs(db, ownerId);
  return toJobView((await getJobRow(db, id)) ?? row);
}

export async function listTrainingJobs(db: Db, ownerId: string, q: ListJobsQuery) {
  const conditions: (SQL | undefined)[] = [eq(trainingJobs.ownerId, ownerId)];
  if (q.state) conditions.push(eq(trainingJobs.state, q.state));
  if (q.project_id) conditions.push(eq(trainingJobs.projectId, q.project_id));
  if (q.q) {
    const pattern = `%${q.q.replace(/[\\%_]/g, (m) => `\\${m}`)}%`;
    conditions.push(or(ilike(trainingJobs.name, pattern), ilike(trainingJobs.projectName, pattern)));
  }
  const where = and(...conditions);
  const [{ total }] = await db.select({ total: count() }).from(trainingJobs).where(where);
  const rows = await db
    .select()
    .from(trainingJobs)
    .where(where)
    .orderBy(desc(trainingJobs.createdAt), desc(trainingJobs.id))
    .limit(q.limit)
    .offset((q.page - 1) * q.limit);
  return paged(rows.map(toJobView), Number(total), q);
}

export async function getTrainingJob(db: Db, ownerId: string, jobId: string): Promise<TrainingJobView> {
  return toJobView(await findOwnedJob(db, ownerId, jobId));
}

/**
 * Cancel (decisions: from queued or running, else 409). A job waiting for a slot or an external job
 * is cancelled at once; a dispatched one through its runner task, whose handler stops the process and
 * records `cancelled` (within a heartbeat when another process runs it).
 */
export async function cancelTrainingJob(db: Db, ownerId: string, jobId: string): Promise<TrainingJobView> {
  const job = await findOwnedJob(db, ownerId, jobId);
  if (job.state !== "queued" && job.state !== "running")
    throw new ConflictError(`The job has already finished (${job.state}); it can no longer be cancelled.`);
  await db
    .update(trainingJobs)
    .set({ cancelRequested: true, updatedAt: new Date() })
    .where(eq(trainingJobs.id, jobId));
  let runnerStopped = true;
  if (job.runnerTaskId) {
    try {
      const task = await requestCancel(db, job.runnerTaskId);
      runnerStopped = task.state !== "running";
    } catch (err) {
      if (!(err instanceof ConflictError) && !(err instanceof NotFoundError)) throw err;
    }
  }
  if (runnerStopped) {
    await transitionJob(db, jobId, {
      from: ["queued", "running"],
      to: "cancelled",
      reason: "Cancelled by the user.",
    });
    await dispatchQueuedJobs(db, ownerId);
  }
  return toJobView(await findOwnedJob(db, ownerId, jobId));
}

/** Restart (decisions: from failed, cancelled or timed_out, else 409): back to queued, resuming from the last checkpoint. */
export async function restartTrainingJob(db: Db, user: UserRow, jobId: string): Promise<TrainingJobView> {
  const job = await findOwnedJob(db, user.id, jobId);
  if (!["failed", "cancelled", "timed_out"].includes(job.state))
    throw new ConflictError(
      `Only a failed, cancelled or timed-out job can be restarted; this one is ${job.state}.`,
    );
  if (job.runtime !== "external") await assertHasCredits(db, user.id);
  const [last] = await db
    .select({ epoch: trainingCheckpoints.epoch })
    .from(trainingCheckpoints)
    .where(eq(trainingCheckpoints.jobId, jobId))
    .orderBy(desc(trainingCheckpoints.epoch))
    .limit(1);
  const restarted = await transitionJob(db, jobId, {
    from: ["failed", "cancelled", "timed_out"],
    to: "queued",
    reason: last
      ? `Restarted; resumes after epoch ${last.epoch} (its checkpoint).`
      : "Restarted from the beginning.",
    set: {
      dispatched: false,
      runnerTaskId: null,
      cancelRequested: false,
      restartCount: sql`${trainingJobs.restartCount} + 1`,
    },
  });
  if (!restarted) throw new ConflictError("The job changed state meanwhile; reload it and try again.");
  if (job.runtime !== "external") await dispatchQueuedJobs(db, user.id);
  return toJobView(await findOwnedJob(db, user.id, jobId));
}

export type BulkDeleteResult = z.infer<typeof bulkDeleteResultSchema>;

/** Deletes finished jobs with their events, checkpoints and artifact; active ones are reported, not deleted. */
export async function bulkDeleteTrainingJobs(
  db: Db,
  ownerId: string,
  ids: string[],
): Promise<BulkDeleteResult> {
  const unique = [...new Set(ids)];
  const rows = await db
    .select()
    .from(trainingJobs)
    .where(and(eq(trainingJobs.ownerId, ownerId), inArray(trainingJobs.id, unique)));
  const found = new Map(rows.map((r) => [r.id, r]));
  const active = rows.filter((r) => r.state === "queued" || r.state === "running").map((r) => r.id);
  const deletable = rows.filter((r) => !active.includes(r.id));
  const blobKeys: string[] = [];
  if (deletable.length > 0) {
    const checkpoints = await db
      .select({ key: trainingCheckpoints.blobKey })
      .from(trainingCheckpoints)
      .where(
        inArray(
          trainingCheckpoints.jobId,
          deletable.map((r) => r.id),
        ),
      );
    blobKeys.push(...checkpoints.map((c) => c.key));
    for (const r of deletable) blobKeys.push(...r.artifactFiles.map((f) => f.blob_key));
    await db.delete(trainingJobs).where(
      and(
        eq(trainingJobs.ownerId, ownerId),
        inArray(
          trainingJobs.id,
          deletable.map((r) => r.id),
        ),
        inArray(trainingJobs.state, ["succeeded", "failed", "cancelled", "timed_out"]),
      ),
    );
  }
  // Rows first, then files: a crash in between leaves unreferenced files, which recovery sweeps.
  for (const key of blobKeys) await deleteBlobAndLocalFile(key).catch(() => {});
  return {
    deleted: deletable.map((r) => r.id),
    not_found: unique.filter((id) => !found.has(id)),
    active,
  };
}

/** The job's code with its prepared dataset and the command that trains it again (download-bundle.ts). */
export function jobCodeZip(db: Db, ownerId: string, jobId: string, target: CodegenTarget) {
  return jobBundleZip(db, ownerId, jobId, target);
}

export async function jobDag(db: Db, ownerId: string, jobId: string) {
  const job = await findOwnedJob(db, ownerId, jobId);
  const dag = toDag(job.graph, job.config, job.projectName);
  return { filename: `${job.id}.dag.json`, text: stringifyDag(dag) };
}
