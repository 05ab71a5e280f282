/**
 * Hub models: create (a draft, or published at once from a training job), read (with the fork
 * tree), update and delete by the owner, finalize (draft → published) and fork.
 */
import { and, asc, avg, count, eq, inArray } from "drizzle-orm";
import { trainingConfigSchema } from "../../../ml/graph-types";
import type { Db } from "../../db/client";
import {
  type HubModelRow,
  type HubVisibility,
  hubModelFiles,
  hubModels,
  hubModelVersions,
  hubReviews,
  hubStars,
} from "../../db/schema";
import { ConflictError, NotFoundError, PaymentRequiredError } from "../../errors";
import { newId } from "../../ids";
import { planOf } from "../../plans";
import { blobStore } from "../../storage/blob-stores";
import { commitWithinQuota } from "../account/storage-quota";
import { findOwnedModel, findVisibleModel, freeSlug, isVisible, toSummaryView, usernamesOf } from "./access";
import { listFiles, removeUnreferencedBlobs } from "./files";
import type { CreateHubModelBody, ForkBody, HubModelView, UpdateHubModelBody } from "./hub.schemas";
import { renderModelCard } from "./model-card";
import { publicationFromJob, publicationFromModelVersion } from "./publish-from-job";

export interface HubUser {
  id: string;
  plan: string;
}

function checkVisibilityAllowed(user: HubUser, visibility: HubVisibility | undefined): void {
  if (visibility === "private" && !planOf(user.plan).features.private_hub_models)
    throw new PaymentRequiredError("Private hub models need a paid plan; publish it as public or upgrade.");
}

const MAX_TREE_DEPTH = 50;

/** A model the caller may see, with its card rendered, its rating and its fork tree. */
export async function getModel(db: Db, viewerId: string | null, id: string): Promise<HubModelView> {
  const row = await findVisibleModel(db, viewerId, id);
  return detailView(db, row, viewerId);
}

async function detailView(db: Db, row: HubModelRow, viewerId: string | null): Promise<HubModelView> {
  // Ancestors: parent first, up to the original (each one only if the caller may see it).
  const ancestors: HubModelRow[] = [];
  const seen = new Set([row.id]);
  let parentId = row.parentId;
  while (parentId && !seen.has(parentId) && ancestors.length < MAX_TREE_DEPTH) {
    seen.add(parentId);
    const [parent] = await db.select().from(hubModels).where(eq(hubModels.id, parentId)).limit(1);
    if (!parent) break;
    if (isVisible(parent, viewerId)) ancestors.push(parent);
    parentId = parent.parentId;
  }
  const children = (
    await db.select().from(hubModels).where(eq(hubModels.parentId, row.id)).orderBy(asc(hubModels.createdAt))
  ).filter((c) => isVisible(c, viewerId));
  const [[rating], starred] = await Promise.all([
    db
      .select({ average: avg(hubReviews.rating), count: count() })
      .from(hubReviews)
      .where(eq(hubReviews.modelId, row.id)),
    viewerId
      ? db
          .select({ m: hubStars.modelId })
          .from(hubStars)
          .where(and(eq(hubStars.modelId, row.id), eq(hubStars.userId, viewerId)))
          .limit(1)
      : Promise.resolve([]),
  ]);
  const names = await usernamesOf(db, [
    row.ownerId,
    ...ancestors.map((a) => a.ownerId),
    ...children.map((c) => c.ownerId),
  ]);
  const ref = (m: HubModelRow) => ({
    id: m.id,
    name: m.name,
    owner: { id: m.ownerId, username: names.get(m.ownerId) ?? "" },
    base_model: m.baseModel,
  });
  return {
    ...toSummaryView(row, names.get(row.ownerId) ?? ""),
    card: row.card,
    card_html: renderModelCard(row.card),
    architecture: row.architecture,
    training_config: row.trainingConfig as Record<string, unknown> | null,
    rating: { average: rating.average === null ? null : Number(rating.average), count: rating.count },
    starred: starred.length > 0,
    fork_tree: { ancestors: ancestors.map(ref), children: children.map(ref) },
  };
}

function editableValues(body: UpdateHubModelBody) {
  return {
    ...(body.name !== undefined ? { name: body.name } : {}),
    ...(body.description !== undefined ? { description: body.description } : {}),
    ...(body.task !== undefined ? { task: body.task } : {}),
    ...(body.framework !== undefined ? { framework: body.framework } : {}),
    ...(body.license !== undefined ? { license: body.license } : {}),
    ...(body.tags !== undefined ? { tags: [...new Set(body.tags)] } : {}),
    ...(body.category !== undefined ? { category: body.category } : {}),
    ...(body.card !== undefined ? { card: body.card } : {}),
    ...(body.visibility !== undefined ? { visibility: body.visibility } : {}),
    ...(body.architecture !== undefined ? { architecture: body.architecture } : {}),
    ...(body.training_config !== undefined
      ? {
          trainingConfig:
            body.training_config === null ? null : trainingConfigSchema.parse(body.training_config),
        }
      : {}),
    ...(body.base_model !== undefined ? { baseModel: body.base_model } : {}),
  };
}

/**
 * A draft to upload files to and finalize; or, with `source_job_id`, a published model carrying
 * the job's artifact, architecture, figures and a generated card.
 */
export async function createModel(db: Db, user: HubUser, body: CreateHubModelBody): Promise<HubModelView> {
  checkVisibilityAllowed(user, body.visibility);
  const { source_job_id: jobId, source_model_version_id: versionId, ...fields } = body;
  const id = newId("hub");
  if (jobId || versionId) {
    const pub = versionId
      ? await publicationFromModelVersion(db, user.id, versionId, id)
      : {
          ...(await publicationFromJob(db, user.id, jobId as string, id)),
          notes: `Published from training job ${jobId}.`,
        };
    const values = { ...pub.values, ...editableValues(fields) };
    const name = values.name;
    const slug = await freeSlug(db, user.id, name);
    const now = new Date();
    // The copies were checked against the quota before they were made; recorded under the owner's
    // lock and measured again there, so two copies at once cannot both take the last free bytes.
    const copied = pub.files.reduce((sum, f) => sum + f.sizeBytes, 0);
    const row = await commitWithinQuota(db, user.id, copied, async (tx) => {
      const [m] = await tx
        .insert(hubModels)
        .values({
          id,
          ownerId: user.id,
          slug,
          ...values,
          name,
          category: values.category ?? values.task ?? null,
          state: "published",
          publishedAt: now,
        })
        .returning();
      if (pub.files.length > 0) await tx.insert(hubModelFiles).values(pub.files);
      await tx.insert(hubModelVersions).values({
        id: newId("hv"),
        modelId: id,
        version: "1",
        notes: pub.notes,
        files: pub.files.map((f) => ({
          path: f.path,
          size_bytes: f.sizeBytes,
          sha256: f.sha256,
          blob_key: f.blobKey,
          content_type: f.contentType,
        })),
      });
      return m;
    }).catch(async (err: unknown) => {
      // Nothing recorded: the copies go too (the orphan sweep would find them later).
      await Promise.allSettled(pub.files.map((f) => blobStore().delete(f.blobKey)));
      throw err;
    });
    return detailView(db, row, user.id);
  }
  const values = editableValues(fields);
  const name = values.name ?? "Untitled model";
  const [row] = await db
    .insert(hubModels)
    .values({
      id,
      ownerId: user.id,
      slug: await freeSlug(db, user.id, name),
      ...values,
      name,
      category: values.category ?? values.task ?? null,
      state: "draft",
    })
    .returning();
  return detailView(db, row, user.id);
}

export async function updateModel(
  db: Db,
  user: HubUser,
  id: string,
  body: UpdateHubModelBody,
): Promise<HubModelView> {
  const row = await findOwnedModel(db, user.id, id);
  if (body.visibility !== row.visibility) checkVisibilityAllowed(user, body.visibility);
  const values = editableValues(body);
  if (Object.keys(values).length === 0) return detailView(db, row, user.id);
  const [updated] = await db
    .update(hubModels)
    .set({ ...values, updatedAt: new Date() })
    .where(eq(hubModels.id, id))
    .returning();
  return detailView(db, updated, user.id);
}

export async function deleteModel(db: Db, ownerId: string, id: string): Promise<void> {
  await findOwnedModel(db, ownerId, id);
  const files = await listFiles(db, id);
  const versions = await db
    .select({ files: hubModelVersions.files })
    .from(hubModelVersions)
    .where(eq(hubModelVersions.modelId, id));
  await db.delete(hubModels).where(eq(hubModels.id, id));
  await removeUnreferencedBlobs(db, [
    ...files.map((f) => f.blobKey),
    ...versions.flatMap((v) => v.files.map((f) => f.blob_key)),
  ]);
}

/** draft → published, once it has at least one file; records version "1" when it has none. */
export async function finalizeModel(db: Db, ownerId: string, id: string): Promise<HubModelView> {
  const row = await findOwnedModel(db, ownerId, id);
  if (row.state === "published") throw new ConflictError("The model is already published.");
  const files = await listFiles(db, id);
  if (files.length === 0) throw new ConflictError("Upload at least one file before finalizing the model.");
  const updated = await db.transaction(async (tx) => {
    const [m] = await tx
      .update(hubModels)
      .set({ state: "published", publishedAt: new Date(), updatedAt: new Date() })
      .where(and(eq(hubModels.id, id), eq(hubModels.state, "draft")))
      .returning();
    if (!m) throw new ConflictError("The model is already published.");
    const [existing] = await tx
      .select({ id: hubModelVersions.id })
      .from(hubModelVersions)
      .where(eq(hubModelVersions.modelId, id))
      .limit(1);
    if (!existing)
      await tx.insert(hubModelVersions).values({
        id: newId("hv"),
        modelId: id,
        version: "1",
        notes: "First published version.",
        files: files.map((f) => ({
          path: f.path,
          size_bytes: f.sizeBytes,
          sha256: f.sha256,
          blob_key: f.blobKey,
          content_type: f.contentType,
        })),
      });
    return m;
  });
  return detailView(db, updated, ownerId);
}

/**
 * Copies a visible published model (metadata and file references) into the caller's account, held
 * to the caller's storage quota like any other copy.
 */
export async function forkModel(db: Db, user: HubUser, id: string, body: ForkBody): Promise<HubModelView> {
  const parent = await findVisibleModel(db, user.id, id);
  if (parent.state !== "published") throw new ConflictError("Only a published model can be forked.");
  const visibility = body.visibility ?? (parent.visibility === "private" ? "private" : "public");
  checkVisibilityAllowed(user, visibility);
  const name = body.name ?? parent.name;
  const forkId = newId("hub");
  const files = await listFiles(db, parent.id);
  const slug = await freeSlug(db, user.id, name);
  const now = new Date();
  // The fork's files count in the forker's storage quota (each blob once per owner): recorded only
  // if they fit, under the owner's lock; otherwise 402 storage-quota and nothing is recorded.
  const bytes = files.reduce((sum, f) => sum + f.sizeBytes, 0);
  const row = await commitWithinQuota(db, user.id, bytes, async (tx) => {
    const [m] = await tx
      .insert(hubModels)
      .values({
        id: forkId,
        ownerId: user.id,
        slug,
        name,
        description: parent.description,
        task: parent.task,
        framework: parent.framework,
        license: parent.license,
        tags: parent.tags,
        category: parent.category,
        card: parent.card,
        visibility,
        state: "published",
        architecture: parent.architecture,
        trainingConfig: parent.trainingConfig,
        evaluation: parent.evaluation,
        parentId: parent.id,
        baseModel: parent.baseModel,
        sourceJobId: null,
        publishedAt: now,
      })
      .returning();
    if (files.length > 0)
      await tx.insert(hubModelFiles).values(
        files.map((f) => ({
          id: newId("hf"),
          modelId: forkId,
          path: f.path,
          sizeBytes: f.sizeBytes,
          sha256: f.sha256,
          blobKey: f.blobKey,
          contentType: f.contentType,
        })),
      );
    return m;
  });
  return detailView(db, row, user.id);
}

/** Rows by id, in the order given (for search results). */
export async function modelsByIds(db: Db, ids: string[]): Promise<HubModelRow[]> {
  if (ids.length === 0) return [];
  const rows = await db.select().from(hubModels).where(inArray(hubModels.id, ids));
  const byId = new Map(rows.map((r) => [r.id, r]));
  return ids.flatMap((i) => byId.get(i) ?? []);
}

/** Operators' featured flag (`npm run admin -- feature <id>`): featured models head the hub's home. */
export async function setFeatured(db: Db, id: string, featured: boolean): Promise<HubModelRow> {
  const [row] = await db.update(hubModels).set({ featured }).where(eq(hubModels.id, id)).returning();
  if (!row) throw new NotFoundError("Hub model");
  return row;
}
