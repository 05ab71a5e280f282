/**
 * Deployments (issue 14): management (owner-scoped; another account's deployment is a 404), keys
 * (`ldk_…`, stored hashed like personal keys, compared in constant time, shown once) and revisions
 * (every change of model or settings). Inference lives in ../serving/inference.ts.
 *
 * One piece (past ~400 lines): a deployment and its revisions change together in transactions.
 */
import { and, count, desc, eq } from "drizzle-orm";
import type { Db } from "../../db/client";
import {
  type DeploymentRevisionRow,
  type DeploymentRow,
  type DeploymentSettings,
  deploymentRevisions,
  deployments,
  type ServingTarget,
} from "../../db/schema";
import { ConflictError, NotFoundError, ValidationError } from "../../errors";
import { appendDeploymentEvents } from "../../events/deployment-events";
import { offsetOf, type PageQuery, paged } from "../../http/paging";
import { newId } from "../../ids";
import { constantTimeEqual, hashSecret, newSecret } from "../../secrets";
import { artifactOfModelVersion, getVersion } from "../registry/model-versions";
import { getModel, resolveAlias } from "../registry/models";
import { evictRevisions, preloadRevision } from "../serving/model-cache";
import type { ModelManifest } from "../training/artifact-reader";
import { findOwnedJob } from "../training/job-rows";
import type {
  CreateDeploymentBody,
  DeployModelVersionBody,
  DeploymentRevisionView,
  DeploymentView,
  UpdateDeploymentBody,
} from "./deployments.schemas";
import { cachedKey, forgetKeys } from "./key-cache";

export const DEPLOYMENT_KEY_PREFIX = "ldk_";

/** The manifest's task; a character-token input makes it a language model. */
function servedTask(rev: DeploymentRevisionRow): string | null {
  const m = rev.artifactManifest as Partial<ModelManifest>;
  if (m.input?.preprocessing?.some((step) => step.kind === "char_tokens")) return "language_model";
  return m.task ?? null;
}

function toView(d: DeploymentRow, rev: DeploymentRevisionRow | null): DeploymentView {
  return {
    id: d.id,
    name: d.name,
    state: d.state,
    key_prefix: d.keyPrefix,
    revision: rev?.number ?? null,
    job_id: rev?.jobId ?? null,
    model_version_id: rev?.modelVersionId ?? null,
    follows:
      d.followsModelId && d.followsAlias ? { model_id: d.followsModelId, alias: d.followsAlias } : null,
    task: rev ? servedTask(rev) : null,
    settings: rev?.settings ?? {},
    inference_url: `/api/v1/inference/${d.id}`,
    created_at: d.createdAt.toISOString(),
    updated_at: d.updatedAt.toISOString(),
  };
}

function revisionView(r: DeploymentRevisionRow): DeploymentRevisionView {
  return {
    id: r.id,
    deployment_id: r.deploymentId,
    number: r.number,
    source: r.source,
    job_id: r.jobId,
    model_version_id: r.modelVersionId,
    artifact_format: r.artifactFormat,
    settings: r.settings,
    created_at: r.createdAt.toISOString(),
  };
}

function newKey(): { key: string; keyHash: string; keyPrefix: string } {
  const key = newSecret(DEPLOYMENT_KEY_PREFIX, 40);
  return { key, keyHash: hashSecret(key), keyPrefix: key.slice(0, 10) };
}

/** The artifact a revision copies from a job; 409 unless the job succeeded with one. */
async function artifactOfJob(db: Db, ownerId: string, jobId: string) {
  const job = await findOwnedJob(db, ownerId, jobId);
  if (job.state !== "succeeded")
    throw new ConflictError(`The training job is ${job.state}; only a succeeded job can be deployed.`);
  if (!job.artifactManifest || !job.artifactFormat || job.artifactFiles.length === 0)
    throw new ConflictError("The training job has no model artifact to deploy.");
  return {
    jobId: job.id,
    artifactFormat: job.artifactFormat,
    artifactFiles: job.artifactFiles,
    artifactManifest: job.artifactManifest,
  };
}

async function revisionById(db: Db, id: string | null): Promise<DeploymentRevisionRow | null> {
  if (!id) return null;
  const [row] = await db.select().from(deploymentRevisions).where(eq(deploymentRevisions.id, id)).limit(1);
  return row ?? null;
}

async function findOwned(db: Db, ownerId: string, id: string): Promise<DeploymentRow> {
  const [row] = await db
    .select()
    .from(deployments)
    .where(and(eq(deployments.id, id), eq(deployments.ownerId, ownerId)))
    .limit(1);
  if (!row) throw new NotFoundError("Deployment");
  return row;
}

export async function createDeployment(
  db: Db,
  ownerId: string,
  body: CreateDeploymentBody,
  follows?: { modelId: string; alias: string },
): Promise<DeploymentView & { api_key: string }> {
  const model = body.model_version_id
    ? await modelOfVersion(db, ownerId, body.model_version_id)
    : await modelOfJob(db, ownerId, body.job_id as string);
  const { key, keyHash, keyPrefix } = newKey();
  const id = newId("dep");
  const revisionId = newId("rev");
  await preloadRevision({ id: revisionId, ...model, settings: body.settings ?? {} });
  const { deployment, revision } = await db.transaction(async (tx) => {
    const [d] = await tx
      .insert(deployments)
      .values({
        id,
        ownerId,
        name: body.name,
        state: "deploying",
        keyHash,
        keyPrefix,
        followsModelId: follows?.modelId ?? null,
        followsAlias: follows?.alias ?? null,
      })
      .returning();
    const [r] = await tx
      .insert(deploymentRevisions)
      .values({ id: revisionId, deploymentId: id, number: 1, ...model, settings: body.settings ?? {} })
      .returning();
    const [ready] = await tx
      .update(deployments)
      .set({ state: "ready", currentRevisionId: r.id, updatedAt: new Date() })
      .where(eq(deployments.id, d.id))
      .returning();
    await appendDeploymentEvents(
      db,
      id,
      [
        { kind: "revision", data: { ...revisionView(r), rolled_back_from: null } },
        { kind: "status", data: { state: "ready", previous: "deploying" } },
      ],
      tx,
    );
    return { deployment: ready, revision: r };
  });
  return { ...toView(deployment, revision), api_key: key };
}

/**
 * `POST /deployments/from-model-version`: one call, by version or by alias (then following it), named
 * after the model and version (or alias) by default.
 */
export async function deployModelVersion(
  db: Db,
  ownerId: string,
  body: DeployModelVersionBody,
): Promise<DeploymentView & { api_key: string }> {
  const byAlias = body.model_id !== undefined && body.alias !== undefined;
  const version = byAlias
    ? await resolveAlias(db, ownerId, body.model_id as string, body.alias as string)
    : await getVersion(db, ownerId, body.model_version_id as string);
  let name = body.name;
  if (!name) {
    const model = await getModel(db, ownerId, version.model_id);
    name = (byAlias ? `${model.name}-${body.alias}` : `${model.name}-v${version.version}`).slice(0, 100);
  }
  return createDeployment(
    db,
    ownerId,
    { name, model_version_id: version.id, settings: body.settings },
    byAlias ? { modelId: version.model_id, alias: body.alias as string } : undefined,
  );
}

/**
 * An alias moved: every deployment of the owner that follows it gets a new revision serving the
 * alias's new version (with its current settings). Returns the ids of the deployments updated.
 */
export async function followAliasMove(
  db: Db,
  ownerId: string,
  modelId: string,
  alias: string,
  versionId: string,
): Promise<string[]> {
  const following = await db
    .select({ d: deployments, r: deploymentRevisions })
    .from(deployments)
    .leftJoin(deploymentRevisions, eq(deploymentRevisions.id, deployments.currentRevisionId))
    .where(
      and(
        eq(deployments.ownerId, ownerId),
        eq(deployments.followsModelId, modelId),
        eq(deployments.followsAlias, alias),
      ),
    );
  const updated: string[] = [];
  for (const { d, r } of following) {
    if (r?.modelVersionId === versionId) continue;
    await updateDeployment(db, ownerId, d.id, { model_version_id: versionId }, { keepFollowing: true });
    updated.push(d.id);
  }
  return updated;
}

export async function listDeployments(db: Db, ownerId: string, q: PageQuery) {
  const [rows, [{ total }]] = await Promise.all([
    db
      .select({ d: deployments, r: deploymentRevisions })
      .from(deployments)
      .leftJoin(deploymentRevisions, eq(deploymentRevisions.id, deployments.currentRevisionId))
      .where(eq(deployments.ownerId, ownerId))
      .orderBy(desc(deployments.createdAt), desc(deployments.id))
      .limit(q.limit)
      .offset(offsetOf(q)),
    db.select({ total: count() }).from(deployments).where(eq(deployments.ownerId, ownerId)),
  ]);
  return paged(
    rows.map(({ d, r }) => toView(d, r)),
    total,
    q,
  );
}

export async function getDeployment(db: Db, ownerId: string, id: string): Promise<DeploymentView> {
  const d = await findOwned(db, ownerId, id);
  return toView(d, await revisionById(db, d.currentRevisionId));
}

/** What a new revision serves: its source and the artifact reference it copies. */
type RevisionModel = Pick<
  DeploymentRevisionRow,
  "source" | "jobId" | "modelVersionId" | "artifactFormat" | "artifactFiles" | "artifactManifest"
>;

async function modelOfJob(db: Db, ownerId: string, jobId: string): Promise<RevisionModel> {
  return { source: "job", modelVersionId: null, ...(await artifactOfJob(db, ownerId, jobId)) };
}

/** A finalized registry model version's artifact (409 unless it carries a servable one). */
async function modelOfVersion(db: Db, ownerId: string, versionId: string): Promise<RevisionModel> {
  const v = await artifactOfModelVersion(db, ownerId, versionId);
  return {
    source: "model_version",
    jobId: v.jobId,
    modelVersionId: v.modelVersionId,
    artifactFormat: v.artifactFormat,
    artifactFiles: v.artifactFiles,
    artifactManifest: v.artifactManifest,
  };
}

async function revisionByNumber(db: Db, deploymentId: string, number: number) {
  const [row] = await db
    .select()
    .from(deploymentRevisions)
    .where(and(eq(deploymentRevisions.deploymentId, deploymentId), eq(deploymentRevisions.number, number)))
    .limit(1);
  if (!row) throw new NotFoundError(`Revision ${number}`);
  return row;
}

/**
 * A new name alone changes no revision; a new job, new settings or a roll back (`from_revision`:
 * that revision's model and settings) make one.
 */
export async function updateDeployment(
  db: Db,
  ownerId: string,
  id: string,
  body: UpdateDeploymentBody,
  opts: { keepFollowing?: boolean } = {},
): Promise<DeploymentView> {
  const d = await findOwned(db, ownerId, id);
  const current = await revisionById(db, d.currentRevisionId);
  const changesModel =
    body.job_id !== undefined ||
    body.model_version_id !== undefined ||
    body.settings !== undefined ||
    body.from_revision !== undefined;
  if (!changesModel) {
    if (body.name === undefined) return toView(d, current);
    const [renamed] = await db
      .update(deployments)
      .set({ name: body.name, updatedAt: new Date() })
      .where(eq(deployments.id, id))
      .returning();
    return toView(renamed, current);
  }
  let model: RevisionModel;
  let settings: DeploymentSettings;
  let rolledBackFrom: number | null = null;
  if (body.from_revision !== undefined) {
    if (body.job_id !== undefined || body.model_version_id !== undefined)
      throw new ValidationError("Give from_revision alone, without job_id or model_version_id.", [
        { path: "body.from_revision", message: "Give from_revision alone, without a new model" },
      ]);
    const old = await revisionByNumber(db, id, body.from_revision);
    model = old;
    settings = body.settings ?? old.settings;
    rolledBackFrom = old.number;
  } else {
    if (body.job_id !== undefined && body.model_version_id !== undefined)
      throw new ValidationError("Give either job_id or model_version_id, not both.", [
        { path: "body.job_id", message: "Give either job_id or model_version_id" },
      ]);
    if (body.job_id !== undefined) model = await modelOfJob(db, ownerId, body.job_id);
    else if (body.model_version_id !== undefined)
      model = await modelOfVersion(db, ownerId, body.model_version_id);
    else if (current) model = current;
    else throw new ConflictError("The deployment has no model to serve.");
    settings = body.settings ?? current?.settings ?? {};
  }
  const { source, jobId, modelVersionId, artifactFormat, artifactFiles, artifactManifest } = model;
  const revisionId = newId("rev");
  await preloadRevision({ id: revisionId, artifactFiles, artifactManifest, settings });
  const view = await db.transaction(async (tx) => {
    const [last] = await tx
      .select({ number: deploymentRevisions.number })
      .from(deploymentRevisions)
      .where(eq(deploymentRevisions.deploymentId, id))
      .orderBy(desc(deploymentRevisions.number))
      .limit(1);
    const [r] = await tx
      .insert(deploymentRevisions)
      .values({
        id: revisionId,
        deploymentId: id,
        number: (last?.number ?? 0) + 1,
        source,
        jobId,
        modelVersionId,
        artifactFormat,
        artifactFiles,
        artifactManifest,
        settings,
      })
      .returning();
    const [updated] = await tx
      .update(deployments)
      .set({
        currentRevisionId: r.id,
        ...(body.name !== undefined ? { name: body.name } : {}),
        ...(d.state === "failed" || d.state === "deploying" ? { state: "ready" as const } : {}),
        // Another model given by hand stops following an alias; new settings alone do not.
        ...(!opts.keepFollowing &&
        (body.job_id !== undefined || body.model_version_id !== undefined || body.from_revision !== undefined)
          ? { followsModelId: null, followsAlias: null }
          : {}),
        updatedAt: new Date(),
      })
      .where(eq(deployments.id, id))
      .returning();
    await appendDeploymentEvents(
      db,
      id,
      [{ kind: "revision", data: { ...revisionView(r), rolled_back_from: rolledBackFrom } }],
      tx,
    );
    return toView(updated, r);
  });
  forgetKeys();
  return view;
}

export async function deleteDeployment(db: Db, ownerId: string, id: string): Promise<void> {
  await findOwned(db, ownerId, id);
  const revs = await db
    .select({ id: deploymentRevisions.id })
    .from(deploymentRevisions)
    .where(eq(deploymentRevisions.deploymentId, id));
  await db.delete(deployments).where(eq(deployments.id, id));
  forgetKeys();
  evictRevisions(revs.map((r) => r.id));
}

/** A new key, shown once; the old key stops working at once (no grace period). */
export async function rotateKey(
  db: Db,
  ownerId: string,
  id: string,
): Promise<DeploymentView & { api_key: string }> {
  await findOwned(db, ownerId, id);
  const { key, keyHash, keyPrefix } = newKey();
  const [d] = await db
    .update(deployments)
    .set({ keyHash, keyPrefix, updatedAt: new Date() })
    .where(eq(deployments.id, id))
    .returning();
  forgetKeys();
  await appendDeploymentEvents(db, id, [
    { kind: "log", data: { level: "info", message: `Key rotated; the new key starts ${keyPrefix}…` } },
  ]);
  return { ...toView(d, await revisionById(db, d.currentRevisionId)), api_key: key };
}

export async function setPaused(
  db: Db,
  ownerId: string,
  id: string,
  paused: boolean,
): Promise<DeploymentView> {
  const d = await findOwned(db, ownerId, id);
  if (paused && d.state !== "ready" && d.state !== "paused")
    throw new ConflictError(`A ${d.state} deployment cannot be paused.`);
  if (!paused && d.state !== "paused" && d.state !== "ready")
    throw new ConflictError(`A ${d.state} deployment cannot be resumed.`);
  const [updated] = await db
    .update(deployments)
    .set({ state: paused ? "paused" : "ready", updatedAt: new Date() })
    .where(eq(deployments.id, id))
    .returning();
  forgetKeys();
  if (updated.state !== d.state)
    await appendDeploymentEvents(db, id, [
      { kind: "status", data: { state: updated.state, previous: d.state } },
    ]);
  return toView(updated, await revisionById(db, updated.currentRevisionId));
}

export async function listRevisions(db: Db, ownerId: string, id: string): Promise<DeploymentRevisionView[]> {
  await findOwned(db, ownerId, id);
  const rows = await db
    .select()
    .from(deploymentRevisions)
    .where(eq(deploymentRevisions.deploymentId, id))
    .orderBy(desc(deploymentRevisions.number));
  return rows.map(revisionView);
}

export async function deploymentHealth(db: Db, ownerId: string, id: string) {
  const d = await findOwned(db, ownerId, id);
  const rev = await revisionById(db, d.currentRevisionId);
  const status = d.state === "ready" ? ("ok" as const) : d.state;
  return { status, state: d.state, revision: rev?.number ?? null };
}

/**
 * A presented deployment key → its deployment (hash lookup, then a constant-time check), read with
 * its current revision in the same query: the inference route that follows uses that row instead
 * of reading it again. A key checked within the last quarter second reuses that read (key-cache.ts).
 */
export async function resolveDeploymentKey(
  db: Db,
  presented: string,
): Promise<{ deploymentId: string; ownerId: string; serving: ServingTarget } | null> {
  const digest = hashSecret(presented);
  return cachedKey(digest, async () => {
    const [row] = await db
      .select({ d: deployments, r: deploymentRevisions })
      .from(deployments)
      .leftJoin(deploymentRevisions, eq(deploymentRevisions.id, deployments.currentRevisionId))
      .where(eq(deployments.keyHash, digest))
      .limit(1);
    if (!row || !constantTimeEqual(row.d.keyHash, digest)) return null;
    return { deploymentId: row.d.id, ownerId: row.d.ownerId, serving: row };
  });
}

/** The deployment and its current revision for inference (one indexed query per request). */
export async function servingTarget(db: Db, id: string): Promise<ServingTarget | null> {
  const [row] = await db
    .select({ d: deployments, r: deploymentRevisions })
    .from(deployments)
    .leftJoin(deploymentRevisions, eq(deploymentRevisions.id, deployments.currentRevisionId))
    .where(eq(deployments.id, id))
    .limit(1);
  return row ?? null;
}
