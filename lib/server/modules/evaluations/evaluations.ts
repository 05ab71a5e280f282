/**
 * Evaluations (issue 13): a job's model artifact measured on a dataset version and split. Creating
 * one checks the job (the caller's, succeeded, with an artifact and recorded preprocessing) and the
 * split (a test split must exist), and queues a
 * `training.evaluate` task (evaluate-job.ts); reading is owner-scoped (another account's → 404).
 */
import { and, desc, eq } from "drizzle-orm";
import type { Db } from "../../db/client";
import { type TrainingEvaluationRow, trainingEvaluations } from "../../db/schema";
import { ConflictError, NotFoundError, ValidationError } from "../../errors";
import { newId } from "../../ids";
import { enqueueJob } from "../../jobs/queue";
import { readableDataset, versionOf } from "../datasets/access";
import { builtinVersionId } from "../datasets/builtin";
import { findOwnedJob } from "../training/job-rows";
import { evaluateJobType } from "./evaluate-job";
import type { CreateEvaluationInput, EvaluationView } from "./evaluations.schemas";

export function toEvaluationView(row: TrainingEvaluationRow): EvaluationView {
  return {
    id: row.id,
    job_id: row.jobId,
    dataset_id: row.datasetId,
    dataset_version_id: row.datasetVersionId,
    split: row.split,
    state: row.state,
    reason: row.reason,
    metrics: row.metrics,
    result: row.result ?? null,
    created_at: row.createdAt.toISOString(),
    started_at: row.startedAt?.toISOString() ?? null,
    finished_at: row.finishedAt?.toISOString() ?? null,
  };
}

/** The version to evaluate on, and whether it has an explicit test split (the default split then). */
async function resolveTarget(
  db: Db,
  ownerId: string,
  job: { datasetId: string; datasetVersionId: string },
  input: CreateEvaluationInput,
): Promise<{ datasetId: string; versionId: string; hasTest: boolean }> {
  const datasetId = input.dataset_id ?? job.datasetId;
  const ref = await readableDataset(db, { id: ownerId }, datasetId);
  if (ref.kind === "builtin") {
    const versionId = input.dataset_version_id ?? builtinVersionId(ref.builtin);
    if (versionId !== builtinVersionId(ref.builtin)) throw new NotFoundError("Dataset version");
    return { datasetId, versionId, hasTest: false };
  }
  const versionId =
    input.dataset_version_id ??
    (datasetId === job.datasetId ? job.datasetVersionId : (ref.row.currentVersionId ?? ""));
  const version = await versionOf(db, datasetId, versionId);
  return { datasetId, versionId, hasTest: (version.splits?.test?.length ?? 0) > 0 };
}

export async function createEvaluation(
  db: Db,
  ownerId: string,
  input: CreateEvaluationInput,
): Promise<EvaluationView> {
  const job = await findOwnedJob(db, ownerId, input.job_id);
  if (job.state !== "succeeded" || !job.artifactFormat || !job.artifactManifest)
    throw new ConflictError(
      `The job has no model to evaluate (${job.state}): evaluations need a succeeded job with a model artifact.`,
    );
  if (!job.preprocessing)
    throw new ValidationError(
      "The job recorded no preprocessing (an external job that prepared its own data), so its model cannot be evaluated on a dataset.",
    );
  const target = await resolveTarget(db, ownerId, job, input);
  const split = input.split ?? (target.hasTest ? "test" : "validation");
  if (split === "test" && !target.hasTest)
    throw new ValidationError(
      "This dataset version has no test split: evaluate on validation, train or all (or give the version an explicit test split).",
      [{ path: "body.split", message: "This dataset version has no test split." }],
    );
  const id = newId("eval");
  return db.transaction(async (tx) => {
    const t = tx as unknown as Db;
    const task = await enqueueJob(t, evaluateJobType, { evaluation_id: id }, { ownerId, maxAttempts: 2 });
    const [row] = await t
      .insert(trainingEvaluations)
      .values({
        id,
        ownerId,
        jobId: job.id,
        datasetId: target.datasetId,
        datasetVersionId: target.versionId,
        split,
        runnerTaskId: task.id,
      })
      .returning();
    return toEvaluationView(row);
  });
}

export async function ownedEvaluation(db: Db, ownerId: string, id: string): Promise<TrainingEvaluationRow> {
  const [row] = await db
    .select()
    .from(trainingEvaluations)
    .where(and(eq(trainingEvaluations.id, id), eq(trainingEvaluations.ownerId, ownerId)))
    .limit(1);
  if (!row) throw new NotFoundError("Evaluation");
  return row;
}

export async function getEvaluation(db: Db, ownerId: string, id: string): Promise<EvaluationView> {
  return toEvaluationView(await ownedEvaluation(db, ownerId, id));
}

/** A job's evaluations, newest first. */
export async function listJobEvaluations(
  db: Db,
  ownerId: string,
  jobId: string,
): Promise<{ items: EvaluationView[] }> {
  const job = await findOwnedJob(db, ownerId, jobId);
  const rows = await db
    .select()
    .from(trainingEvaluations)
    .where(eq(trainingEvaluations.jobId, job.id))
    .orderBy(desc(trainingEvaluations.createdAt), desc(trainingEvaluations.id))
    .limit(100);
  return { items: rows.map(toEvaluationView) };
}
