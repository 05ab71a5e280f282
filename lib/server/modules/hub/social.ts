/**
 * Stars (idempotent; trending counts those of the last 7 days), reviews (one per user per model,
 * never by the owner, optionally citing an evaluation whose figures are shown beside it), versions
 * (snapshots of the files) and use-in-studio.
 */
import { and, count, desc, eq, sql } from "drizzle-orm";
import { DEFAULT_TRAINING_CONFIG } from "../../../ml/graph-types";
import type { Db } from "../../db/client";
import {
  type HubModelVersionRow,
  type HubReviewRow,
  hubModels,
  hubModelVersions,
  hubReviews,
  hubStars,
  trainingEvaluations,
} from "../../db/schema";
import { ConflictError, ForbiddenError, NotFoundError, ValidationError } from "../../errors";
import { offsetOf, type PageQuery, paged } from "../../http/paging";
import { newId } from "../../ids";
import { createProject, type ProjectView } from "../projects/projects";
import { findOwnedModel, findVisibleModel, usernamesOf } from "./access";
import { listFiles } from "./files";
import type { CreateReviewBody, CreateVersionBody, HubReviewView, HubVersionView } from "./hub.schemas";

async function starCount(db: Db, modelId: string): Promise<number> {
  const [row] = await db.select({ stars: hubModels.stars }).from(hubModels).where(eq(hubModels.id, modelId));
  return row?.stars ?? 0;
}

/** Stars a model; starring again changes nothing. The count moves in the same transaction. */
export async function star(db: Db, userId: string, modelId: string) {
  const model = await findVisibleModel(db, userId, modelId);
  if (model.state !== "published") throw new ConflictError("Only a published model can be starred.");
  await db.transaction(async (tx) => {
    const inserted = await tx
      .insert(hubStars)
      .values({ userId, modelId })
      .onConflictDoNothing()
      .returning({ m: hubStars.modelId });
    if (inserted.length > 0)
      await tx
        .update(hubModels)
        .set({ stars: sql`${hubModels.stars} + 1` })
        .where(eq(hubModels.id, modelId));
  });
  return { starred: true, stars: await starCount(db, modelId) };
}

/** Removes the caller's star; unstarring a model not starred changes nothing. */
export async function unstar(db: Db, userId: string, modelId: string) {
  await findVisibleModel(db, userId, modelId);
  await db.transaction(async (tx) => {
    const removed = await tx
      .delete(hubStars)
      .where(and(eq(hubStars.userId, userId), eq(hubStars.modelId, modelId)))
      .returning({ m: hubStars.modelId });
    if (removed.length > 0)
      await tx
        .update(hubModels)
        .set({ stars: sql`greatest(${hubModels.stars} - 1, 0)` })
        .where(eq(hubModels.id, modelId));
  });
  return { starred: false, stars: await starCount(db, modelId) };
}

function reviewView(r: HubReviewRow, username: string): HubReviewView {
  return {
    id: r.id,
    model_id: r.modelId,
    user: { username },
    rating: r.rating,
    text: r.text,
    evaluation:
      r.evaluationId && r.evaluationMetrics ? { id: r.evaluationId, metrics: r.evaluationMetrics } : null,
    created_at: r.createdAt.toISOString(),
    updated_at: r.updatedAt.toISOString(),
  };
}

export async function listReviews(db: Db, viewerId: string | null, modelId: string, q: PageQuery) {
  await findVisibleModel(db, viewerId, modelId);
  const [rows, [{ total }]] = await Promise.all([
    db
      .select()
      .from(hubReviews)
      .where(eq(hubReviews.modelId, modelId))
      .orderBy(desc(hubReviews.createdAt), desc(hubReviews.id))
      .limit(q.limit)
      .offset(offsetOf(q)),
    db.select({ total: count() }).from(hubReviews).where(eq(hubReviews.modelId, modelId)),
  ]);
  const names = await usernamesOf(
    db,
    rows.map((r) => r.userId),
  );
  return paged(
    rows.map((r) => reviewView(r, names.get(r.userId) ?? "")),
    total,
    q,
  );
}

export async function addReview(
  db: Db,
  user: { id: string; username: string },
  modelId: string,
  body: CreateReviewBody,
): Promise<HubReviewView> {
  const model = await findVisibleModel(db, user.id, modelId);
  if (model.ownerId === user.id) throw new ForbiddenError("You cannot review your own model.");
  if (model.state !== "published") throw new ConflictError("Only a published model can be reviewed.");
  let metrics: Record<string, number> | null = null;
  if (body.evaluation_id) {
    const [evaluation] = await db
      .select()
      .from(trainingEvaluations)
      .where(and(eq(trainingEvaluations.id, body.evaluation_id), eq(trainingEvaluations.ownerId, user.id)))
      .limit(1);
    if (!evaluation) throw new NotFoundError("Evaluation");
    if (evaluation.state !== "succeeded")
      throw new ValidationError("The evaluation has not succeeded; cite a finished one.", [
        { path: "body.evaluation_id", message: `The evaluation is ${evaluation.state}` },
      ]);
    metrics = evaluation.metrics;
  }
  const [row] = await db
    .insert(hubReviews)
    .values({
      id: newId("hrv"),
      modelId,
      userId: user.id,
      rating: body.rating,
      text: body.text,
      evaluationId: body.evaluation_id ?? null,
      evaluationMetrics: metrics,
    })
    .onConflictDoNothing()
    .returning();
  if (!row) throw new ConflictError("You have already reviewed this model; one review per user.");
  return reviewView(row, user.username);
}

function versionView(v: HubModelVersionRow): HubVersionView {
  return {
    id: v.id,
    model_id: v.modelId,
    version: v.version,
    notes: v.notes,
    files: v.files.map((f) => ({
      path: f.path,
      size_bytes: f.size_bytes,
      sha256: f.sha256,
      content_type: f.content_type,
    })),
    created_at: v.createdAt.toISOString(),
  };
}

export async function listVersions(db: Db, viewerId: string | null, modelId: string, q: PageQuery) {
  await findVisibleModel(db, viewerId, modelId);
  const [rows, [{ total }]] = await Promise.all([
    db
      .select()
      .from(hubModelVersions)
      .where(eq(hubModelVersions.modelId, modelId))
      .orderBy(desc(hubModelVersions.createdAt), desc(hubModelVersions.id))
      .limit(q.limit)
      .offset(offsetOf(q)),
    db.select({ total: count() }).from(hubModelVersions).where(eq(hubModelVersions.modelId, modelId)),
  ]);
  return paged(rows.map(versionView), total, q);
}

/** Records the model's current files as a named version (409 when the name is taken). */
export async function addVersion(
  db: Db,
  ownerId: string,
  modelId: string,
  body: CreateVersionBody,
): Promise<HubVersionView> {
  await findOwnedModel(db, ownerId, modelId);
  const files = await listFiles(db, modelId);
  if (files.length === 0) throw new ConflictError("The model has no files to version yet.");
  const [row] = await db
    .insert(hubModelVersions)
    .values({
      id: newId("hv"),
      modelId,
      version: body.version,
      notes: body.notes,
      files: files.map((f) => ({
        path: f.path,
        size_bytes: f.sizeBytes,
        sha256: f.sha256,
        blob_key: f.blobKey,
        content_type: f.contentType,
      })),
    })
    .onConflictDoNothing()
    .returning();
  if (!row) throw new ConflictError(`Version ${body.version} already exists.`);
  return versionView(row);
}

/** A model's architecture as a new project of the caller; 422 when the model has none. */
export async function useInStudio(db: Db, userId: string, modelId: string): Promise<ProjectView> {
  const model = await findVisibleModel(db, userId, modelId);
  if (!model.architecture || model.architecture.nodes.length === 0)
    throw new ValidationError(
      "This model carries no architecture (DAG), so there is nothing to open in the studio: only its files " +
        "were published. Download them instead, or ask the owner to attach the architecture.",
      [{ path: "architecture", message: "The model has no architecture" }],
    );
  return createProject(db, userId, {
    name: model.name.slice(0, 120),
    description: `From the hub: ${model.name}${model.description ? ` — ${model.description}` : ""}`.slice(
      0,
      2000,
    ),
    graph: model.architecture,
    training_config: model.trainingConfig ?? DEFAULT_TRAINING_CONFIG,
  });
}
