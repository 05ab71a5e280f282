/**
 * Audits (contract §4.11, decisions "Audits"): publish, steps, complete, list, get, share, shared
 * read, cancel and delete. Candidates (fine-tuning runs on a workload's calls) are in candidates.ts,
 * the report in report.ts. Every query is scoped to the owner: another account's audit is 404.
 */

import type { z } from "@hono/zod-openapi";
import { and, asc, count, desc, eq, inArray } from "drizzle-orm";
import { currentStats, sampleSorted } from "../../../audits/metrics";
import { inputText } from "../../../audits/parse-log";
import type { CallInput } from "../../../audits/types";
import { holdoutMask } from "../../../audits/workloads";
import type { Db } from "../../db/client";
import type { UserRow } from "../../db/schema";
import {
  type AuditCandidateRow,
  type AuditRow,
  type AuditWorkloadRow,
  auditCalls,
  auditCandidates,
  auditSteps,
  audits,
  auditWorkloads,
  modelArtifacts,
  modelVersions,
  trainingJobs,
} from "../../db/schema";
import { ConflictError, NotFoundError } from "../../errors";
import { offsetOf, type PageQuery, paged } from "../../http/paging";
import { newId } from "../../ids";
import { hashSecret, newSecret } from "../../secrets";
import { deleteBlobAndLocalFile } from "../../storage/blob-cache";
import { deleteDataset } from "../datasets/datasets";
import { deleteDeployment, setPaused } from "../deployments/deployments";
import { deleteProject } from "../projects/projects";
import { bulkDeleteTrainingJobs, cancelTrainingJob } from "../training/jobs";
import type { completeBodySchema, createAuditBodySchema, stepBodySchema } from "./audits.schemas";
import { type AuditView, auditView, type StepView, stepView } from "./views";

export type CreateAuditInput = z.infer<typeof createAuditBodySchema>;
export const SHARE_TOKEN_PREFIX = "las_";

/** Rows inserted per statement when storing calls. */
const CALL_BATCH = 500;

export async function findOwnedAudit(db: Db, ownerId: string, id: string): Promise<AuditRow> {
  const [row] = await db
    .select()
    .from(audits)
    .where(and(eq(audits.id, id), eq(audits.ownerId, ownerId)))
    .limit(1);
  if (!row) throw new NotFoundError("Audit");
  return row;
}

export async function workloadsOf(db: Db, auditIds: string[]): Promise<AuditWorkloadRow[]> {
  if (auditIds.length === 0) return [];
  return db
    .select()
    .from(auditWorkloads)
    .where(inArray(auditWorkloads.auditId, auditIds))
    .orderBy(asc(auditWorkloads.position));
}

export async function candidatesOf(db: Db, auditIds: string[]): Promise<AuditCandidateRow[]> {
  if (auditIds.length === 0) return [];
  return db
    .select()
    .from(auditCandidates)
    .where(inArray(auditCandidates.auditId, auditIds))
    .orderBy(asc(auditCandidates.createdAt));
}

export async function stepsOf(db: Db, auditId: string) {
  return db.select().from(auditSteps).where(eq(auditSteps.auditId, auditId)).orderBy(asc(auditSteps.at));
}

async function viewOf(db: Db, a: AuditRow): Promise<AuditView> {
  const [w, s, c] = await Promise.all([workloadsOf(db, [a.id]), stepsOf(db, a.id), candidatesOf(db, [a.id])]);
  return auditView(a, w, s, c);
}

export async function createAudit(db: Db, user: UserRow, input: CreateAuditInput): Promise<AuditView> {
  const id = newId("aud");
  await db.transaction(async (tx) => {
    await tx.insert(audits).values({
      id,
      ownerId: user.id,
      name: input.name,
      source: input.source,
      publishInputs: input.publish_inputs,
      state: "running",
    });
    for (const [position, w] of input.workloads.entries()) {
      const mask = holdoutMask(w.calls.length);
      const holdout = w.calls.map((c, i) => c.holdout ?? mask[i]);
      if (!holdout.some(Boolean)) holdout[holdout.length - 1] = true;
      if (holdout.every(Boolean)) holdout[0] = false;
      const calls = w.calls.map((c) => ({ cost: c.cost ?? null, latency_ms: c.latency_ms ?? null }));
      const cur = currentStats(calls);
      const workloadId = newId("awl");
      const labels =
        w.task === "classification" ? [...new Set(w.calls.map((c) => c.output.trim()))].sort() : null;
      await tx.insert(auditWorkloads).values({
        id: workloadId,
        auditId: id,
        position,
        name: w.name,
        task: w.task,
        model: w.model,
        labels,
        stats: {
          calls: cur.calls,
          training_calls: holdout.filter((h) => !h).length,
          holdout_calls: holdout.filter(Boolean).length,
          cost_per_1k: cur.cost_per_1k,
          latency_p50_ms: cur.latency_p50_ms,
          latency_p95_ms: cur.latency_p95_ms,
          latency_samples: sampleSorted(
            calls.map((c) => c.latency_ms).filter((l): l is number => l !== null),
          ),
        },
      });
      for (let start = 0; start < w.calls.length; start += CALL_BATCH) {
        await tx.insert(auditCalls).values(
          w.calls.slice(start, start + CALL_BATCH).map((c, j) => ({
            workloadId,
            idx: start + j,
            input: c.input,
            inputText: inputText(c.input as CallInput),
            output: c.output,
            latencyMs: c.latency_ms ?? null,
            cost: c.cost ?? null,
            calledAt: c.timestamp ? new Date(c.timestamp) : null,
            holdout: holdout[start + j],
          })),
        );
      }
    }
  });
  return getAudit(db, user.id, id);
}

export async function getAudit(db: Db, ownerId: string, id: string): Promise<AuditView> {
  return viewOf(db, await findOwnedAudit(db, ownerId, id));
}

export async function listAudits(db: Db, ownerId: string, q: PageQuery) {
  const [rows, [{ total }]] = await Promise.all([
    db
      .select()
      .from(audits)
      .where(eq(audits.ownerId, ownerId))
      .orderBy(desc(audits.createdAt), desc(audits.id))
      .limit(q.limit)
      .offset(offsetOf(q)),
    db.select({ total: count() }).from(audits).where(eq(audits.ownerId, ownerId)),
  ]);
  const ids = rows.map((r) => r.id);
  const [w, c, s] = await Promise.all([
    workloadsOf(db, ids),
    candidatesOf(db, ids),
    ids.length === 0
      ? []
      : db.select().from(auditSteps).where(inArray(auditSteps.auditId, ids)).orderBy(asc(auditSteps.at)),
  ]);
  const items = rows.map((a) =>
    auditView(
      a,
      w.filter((x) => x.auditId === a.id),
      s.filter((x) => x.auditId === a.id),
      c.filter((x) => x.auditId === a.id),
    ),
  );
  return paged(items, total, q);
}

export async function addStep(
  db: Db,
  ownerId: string,
  id: string,
  input: z.infer<typeof stepBodySchema>,
): Promise<StepView> {
  await findOwnedAudit(db, ownerId, id);
  const [row] = await db
    .insert(auditSteps)
    .values({
      id: newId("ast"),
      auditId: id,
      name: input.name,
      status: input.status,
      message: input.message ?? null,
    })
    .returning();
  await db.update(audits).set({ updatedAt: new Date() }).where(eq(audits.id, id));
  return stepView(row);
}

/** running → completed | failed (409 from any other state). */
export async function completeAudit(
  db: Db,
  ownerId: string,
  id: string,
  input: z.infer<typeof completeBodySchema>,
): Promise<AuditView> {
  const a = await findOwnedAudit(db, ownerId, id);
  if (a.state !== "running") throw new ConflictError(`The audit is already ${a.state}.`);
  const now = new Date();
  const [updated] = await db
    .update(audits)
    .set({ state: input.outcome, summary: input.summary, completedAt: now, updatedAt: now })
    .where(and(eq(audits.id, id), eq(audits.state, "running")))
    .returning();
  if (!updated) throw new ConflictError("The audit changed state meanwhile.");
  return viewOf(db, updated);
}

/** A new share link (any previous one stops working): the token is shown once and stored hashed. */
export async function shareAudit(db: Db, ownerId: string, id: string, origin: string) {
  await findOwnedAudit(db, ownerId, id);
  const token = newSecret(SHARE_TOKEN_PREFIX, 40);
  await db
    .update(audits)
    .set({ shareTokenHash: hashSecret(token), sharedAt: new Date(), updatedAt: new Date() })
    .where(eq(audits.id, id));
  return {
    token,
    url: `${origin}/audits/shared/${token}`,
    api_url: `${origin}/api/v1/audits/shared/${token}`,
  };
}

export async function revokeShare(db: Db, ownerId: string, id: string): Promise<void> {
  await findOwnedAudit(db, ownerId, id);
  await db
    .update(audits)
    .set({ shareTokenHash: null, sharedAt: null, updatedAt: new Date() })
    .where(eq(audits.id, id));
}

/** The audit a share token opens (looked up by the token's SHA-256), or 404. */
export async function auditByShareToken(db: Db, token: string): Promise<AuditRow> {
  if (!token.startsWith(SHARE_TOKEN_PREFIX)) throw new NotFoundError("Shared audit");
  const [row] = await db
    .select()
    .from(audits)
    .where(eq(audits.shareTokenHash, hashSecret(token)))
    .limit(1);
  if (!row) throw new NotFoundError("Shared audit");
  return row;
}

async function runsOf(db: Db, ownerId: string, candidates: AuditCandidateRow[]) {
  const ids = candidates.map((c) => c.runId).filter((x): x is string => x !== null);
  if (ids.length === 0) return [];
  return db
    .select()
    .from(trainingJobs)
    .where(and(eq(trainingJobs.ownerId, ownerId), inArray(trainingJobs.id, ids)));
}

/** Cancels the audit's queued and running runs and pauses its ready deployments. */
async function stopEverything(db: Db, ownerId: string, candidates: AuditCandidateRow[]) {
  const cancelled: string[] = [];
  const paused: string[] = [];
  for (const run of await runsOf(db, ownerId, candidates)) {
    if (run.state !== "queued" && run.state !== "running") continue;
    try {
      await cancelTrainingJob(db, ownerId, run.id);
      cancelled.push(run.id);
    } catch (err) {
      if (!(err instanceof ConflictError) && !(err instanceof NotFoundError)) throw err;
    }
  }
  for (const c of candidates) {
    if (!c.deploymentId) continue;
    try {
      const d = await setPaused(db, ownerId, c.deploymentId, true);
      if (d.state === "paused") paused.push(c.deploymentId);
    } catch (err) {
      if (!(err instanceof ConflictError) && !(err instanceof NotFoundError)) throw err;
    }
  }
  return { cancelled, paused };
}

/** Cancel (contract §3): a running audit becomes cancelled; its runs are cancelled, deployments paused. */
export async function cancelAudit(db: Db, ownerId: string, id: string) {
  const a = await findOwnedAudit(db, ownerId, id);
  const { cancelled, paused } = await stopEverything(db, ownerId, await candidatesOf(db, [id]));
  let state = a.state;
  if (a.state === "running") {
    const now = new Date();
    await db
      .update(audits)
      .set({ state: "cancelled", completedAt: now, updatedAt: now })
      .where(and(eq(audits.id, id), eq(audits.state, "running")));
    await db.insert(auditSteps).values({
      id: newId("ast"),
      auditId: id,
      name: "cancel",
      status: "succeeded",
      message: `Cancelled ${cancelled.length} run(s) and paused ${paused.length} deployment(s).`,
    });
    state = "cancelled";
  }
  return { state, cancelled_jobs: cancelled, paused_deployments: paused };
}

const TERMINAL = ["succeeded", "failed", "cancelled", "timed_out"];

/** Waits (up to `ms`) for cancelled runs whose worker is still stopping them. */
async function waitForRunsToStop(db: Db, ownerId: string, candidates: AuditCandidateRow[], ms = 20_000) {
  const until = Date.now() + ms;
  for (;;) {
    const active = (await runsOf(db, ownerId, candidates)).filter((r) => !TERMINAL.includes(r.state));
    if (active.length === 0) return;
    if (Date.now() > until)
      throw new ConflictError(
        `The audit's run ${active[0].id} is still stopping; try deleting the audit again in a moment.`,
      );
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/**
 * Deletes the audit and everything it created: deployments, model versions pushed from its runs,
 * the runs (with their checkpoints and artifacts) and their projects, and the workloads' datasets.
 */
export async function deleteAudit(db: Db, ownerId: string, id: string): Promise<void> {
  await findOwnedAudit(db, ownerId, id);
  const candidates = await candidatesOf(db, [id]);
  const workloads = await workloadsOf(db, [id]);
  await stopEverything(db, ownerId, candidates);
  for (const c of candidates) {
    if (!c.deploymentId) continue;
    await deleteDeployment(db, ownerId, c.deploymentId).catch((err) => {
      if (!(err instanceof NotFoundError)) throw err;
    });
  }
  await waitForRunsToStop(db, ownerId, candidates);
  const runIds = candidates.map((c) => c.runId).filter((x): x is string => x !== null);
  if (runIds.length > 0) {
    const versions = await db
      .select({ id: modelVersions.id })
      .from(modelVersions)
      .where(inArray(modelVersions.jobId, runIds));
    if (versions.length > 0) {
      const versionIds = versions.map((v) => v.id);
      const files = await db
        .select({ key: modelArtifacts.blobKey })
        .from(modelArtifacts)
        .where(inArray(modelArtifacts.versionId, versionIds));
      await db.delete(modelVersions).where(inArray(modelVersions.id, versionIds));
      for (const f of files) if (f.key) await deleteBlobAndLocalFile(f.key).catch(() => {});
    }
    const result = await bulkDeleteTrainingJobs(db, ownerId, runIds);
    if (result.active.length > 0)
      throw new ConflictError("The audit's runs are still stopping; try again in a moment.");
  }
  for (const c of candidates) {
    if (!c.projectId) continue;
    await deleteProject(db, ownerId, c.projectId).catch((err) => {
      if (!(err instanceof NotFoundError)) throw err;
    });
  }
  for (const w of workloads) {
    if (!w.datasetId) continue;
    await deleteDataset(db, { id: ownerId }, w.datasetId).catch((err) => {
      if (!(err instanceof NotFoundError)) throw err;
    });
  }
  await db.delete(audits).where(and(eq(audits.id, id), eq(audits.ownerId, ownerId)));
}
