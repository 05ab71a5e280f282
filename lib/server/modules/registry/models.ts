/**
 * Registry model entries and their aliases (contract §4.10). Owner-scoped: another account's entry
 * is a 404. An alias names one version of its model; moving it is one upsert of its row, so
 * concurrent moves leave it on exactly one version (the last to commit).
 */
import { and, asc, desc, eq, inArray, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import {
  deploymentRevisions,
  deployments,
  modelAliases,
  modelArtifacts,
  modelVersions,
  type RegisteredModelRow,
  registeredModels,
} from "../../db/schema";
import { ConflictError, NotFoundError } from "../../errors";
import { newId } from "../../ids";
import { deleteBlobAndLocalFile } from "../../storage/blob-cache";
import { isUniqueViolation } from "./db-errors";
import type {
  AliasView,
  CreateModelBody,
  ModelVersionView,
  RegisteredModelView,
  UpdateModelBody,
} from "./registry.schemas";
import { findOwnedVersion, versionView } from "./views";

async function aliasesOf(db: Db, modelIds: string[]): Promise<Map<string, AliasView[]>> {
  const out = new Map<string, AliasView[]>();
  if (modelIds.length === 0) return out;
  const rows = await db
    .select({ a: modelAliases, number: modelVersions.number })
    .from(modelAliases)
    .innerJoin(modelVersions, eq(modelVersions.id, modelAliases.versionId))
    .where(inArray(modelAliases.modelId, modelIds))
    .orderBy(asc(modelAliases.alias));
  for (const { a, number } of rows) {
    const list = out.get(a.modelId) ?? [];
    list.push({
      alias: a.alias,
      version_id: a.versionId,
      version: number,
      updated_at: a.updatedAt.toISOString(),
    });
    out.set(a.modelId, list);
  }
  return out;
}

function modelView(m: RegisteredModelRow, aliases: AliasView[]): RegisteredModelView {
  return {
    id: m.id,
    name: m.name,
    description: m.description,
    task: m.task,
    tags: m.tags,
    latest_version: m.lastVersionNumber > 0 ? m.lastVersionNumber : null,
    aliases,
    created_at: m.createdAt.toISOString(),
    updated_at: m.updatedAt.toISOString(),
  };
}

/** The caller's model entry, or 404. */
export async function findOwnedModel(db: Db, ownerId: string, modelId: string): Promise<RegisteredModelRow> {
  const [row] = await db
    .select()
    .from(registeredModels)
    .where(and(eq(registeredModels.id, modelId), eq(registeredModels.ownerId, ownerId)))
    .limit(1);
  if (!row) throw new NotFoundError("Model");
  return row;
}

const nameTaken = (name: string) => new ConflictError(`You already have a model named “${name}”.`);

export async function createModel(
  db: Db,
  ownerId: string,
  body: CreateModelBody,
): Promise<RegisteredModelView> {
  try {
    const [row] = await db
      .insert(registeredModels)
      .values({
        id: newId("mdl"),
        ownerId,
        name: body.name,
        description: body.description ?? "",
        task: body.task ?? null,
        tags: body.tags ?? [],
      })
      .returning();
    return modelView(row, []);
  } catch (err) {
    if (isUniqueViolation(err)) throw nameTaken(body.name);
    throw err;
  }
}

/** Every entry of the caller, most recently updated first (a plain array, contract §4.1). */
export async function listModels(db: Db, ownerId: string): Promise<RegisteredModelView[]> {
  const rows = await db
    .select()
    .from(registeredModels)
    .where(eq(registeredModels.ownerId, ownerId))
    .orderBy(desc(registeredModels.updatedAt), desc(registeredModels.id));
  const aliases = await aliasesOf(
    db,
    rows.map((r) => r.id),
  );
  return rows.map((r) => modelView(r, aliases.get(r.id) ?? []));
}

export async function getModel(db: Db, ownerId: string, modelId: string): Promise<RegisteredModelView> {
  const row = await findOwnedModel(db, ownerId, modelId);
  return modelView(row, (await aliasesOf(db, [row.id])).get(row.id) ?? []);
}

export async function updateModel(
  db: Db,
  ownerId: string,
  modelId: string,
  body: UpdateModelBody,
): Promise<RegisteredModelView> {
  await findOwnedModel(db, ownerId, modelId);
  try {
    const [row] = await db
      .update(registeredModels)
      .set({
        ...(body.name !== undefined ? { name: body.name } : {}),
        ...(body.description !== undefined ? { description: body.description } : {}),
        ...(body.task !== undefined ? { task: body.task } : {}),
        ...(body.tags !== undefined ? { tags: body.tags } : {}),
        updatedAt: new Date(),
      })
      .where(and(eq(registeredModels.id, modelId), eq(registeredModels.ownerId, ownerId)))
      .returning();
    if (!row) throw new NotFoundError("Model");
    return modelView(row, (await aliasesOf(db, [row.id])).get(row.id) ?? []);
  } catch (err) {
    if (isUniqueViolation(err) && body.name) throw nameTaken(body.name);
    throw err;
  }
}

/**
 * Deletes an entry with its versions, artifacts and aliases. Refused (409) while a deployment
 * currently serves one of its versions; files that older deployment revisions name are kept.
 */
export async function deleteModel(db: Db, ownerId: string, modelId: string): Promise<void> {
  await findOwnedModel(db, ownerId, modelId);
  const served = await db
    .select({ id: deployments.id, name: deployments.name })
    .from(deployments)
    .innerJoin(deploymentRevisions, eq(deploymentRevisions.id, deployments.currentRevisionId))
    .innerJoin(modelVersions, eq(modelVersions.id, deploymentRevisions.modelVersionId))
    .where(eq(modelVersions.modelId, modelId))
    .limit(1);
  if (served.length > 0)
    throw new ConflictError(
      `Deployment “${served[0].name}” serves a version of this model: point it elsewhere or delete it first.`,
    );
  const blobs = await db
    .select({ key: modelArtifacts.blobKey })
    .from(modelArtifacts)
    .innerJoin(modelVersions, eq(modelVersions.id, modelArtifacts.versionId))
    .where(eq(modelVersions.modelId, modelId));
  // Older deployment revisions keep their copy of the artifact references (a roll back serves
  // them again): the files they name stay.
  const kept = await db
    .select({ files: deploymentRevisions.artifactFiles })
    .from(deploymentRevisions)
    .innerJoin(modelVersions, eq(modelVersions.id, deploymentRevisions.modelVersionId))
    .where(eq(modelVersions.modelId, modelId));
  const keep = new Set(kept.flatMap((r) => r.files.map((f) => f.blob_key)));
  await db
    .delete(registeredModels)
    .where(and(eq(registeredModels.id, modelId), eq(registeredModels.ownerId, ownerId)));
  await Promise.all(
    blobs.flatMap((b) => (b.key && !keep.has(b.key) ? [deleteBlobAndLocalFile(b.key).catch(() => {})] : [])),
  );
}

// Aliases -----------------------------------------------------------------------------------------

/**
 * Points an alias at a version of the same model, creating or moving it in one statement. Only a
 * ready (finalized) version can carry an alias: deployments may follow it.
 */
export async function setAlias(
  db: Db,
  ownerId: string,
  modelId: string,
  alias: string,
  versionId: string,
): Promise<AliasView> {
  await findOwnedModel(db, ownerId, modelId);
  const [version] = await db
    .select()
    .from(modelVersions)
    .where(and(eq(modelVersions.id, versionId), eq(modelVersions.modelId, modelId)))
    .limit(1);
  if (!version) throw new NotFoundError("Model version");
  if (version.state !== "ready")
    throw new ConflictError("Only a finalized version can carry an alias: finalize it first.");
  const [row] = await db
    .insert(modelAliases)
    .values({ modelId, alias, versionId })
    .onConflictDoUpdate({
      target: [modelAliases.modelId, modelAliases.alias],
      set: { versionId, updatedAt: sql`now()` },
    })
    .returning();
  await db.update(registeredModels).set({ updatedAt: new Date() }).where(eq(registeredModels.id, modelId));
  return {
    alias: row.alias,
    version_id: row.versionId,
    version: version.number,
    updated_at: row.updatedAt.toISOString(),
  };
}

export async function deleteAlias(db: Db, ownerId: string, modelId: string, alias: string): Promise<void> {
  await findOwnedModel(db, ownerId, modelId);
  const gone = await db
    .delete(modelAliases)
    .where(and(eq(modelAliases.modelId, modelId), eq(modelAliases.alias, alias)))
    .returning({ alias: modelAliases.alias });
  if (gone.length === 0) throw new NotFoundError(`Alias “${alias}”`);
}

/** The version an alias points at (what a deployment following the alias serves). */
export async function resolveAlias(
  db: Db,
  ownerId: string,
  modelId: string,
  alias: string,
): Promise<ModelVersionView> {
  await findOwnedModel(db, ownerId, modelId);
  const [row] = await db
    .select({ versionId: modelAliases.versionId })
    .from(modelAliases)
    .where(and(eq(modelAliases.modelId, modelId), eq(modelAliases.alias, alias)))
    .limit(1);
  if (!row) throw new NotFoundError(`Alias “${alias}”`);
  const version = await findOwnedVersion(db, ownerId, row.versionId);
  return versionView(db, version);
}
