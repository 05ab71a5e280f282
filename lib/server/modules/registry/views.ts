/** Row → view mapping and the owner-scoped lookups every registry service shares. */
import { and, asc, eq } from "drizzle-orm";
import type { Db } from "../../db/client";
import {
  type ModelArtifactRow,
  type ModelVersionRow,
  modelAliases,
  modelArtifacts,
  modelVersions,
  registeredModels,
} from "../../db/schema";
import { NotFoundError } from "../../errors";
import type { ModelArtifactView, ModelVersionView } from "./registry.schemas";

/** The caller's model version (through its model's owner), or 404. */
export async function findOwnedVersion(db: Db, ownerId: string, versionId: string): Promise<ModelVersionRow> {
  const [row] = await db
    .select({ v: modelVersions })
    .from(modelVersions)
    .innerJoin(registeredModels, eq(registeredModels.id, modelVersions.modelId))
    .where(and(eq(modelVersions.id, versionId), eq(registeredModels.ownerId, ownerId)))
    .limit(1);
  if (!row) throw new NotFoundError("Model version");
  return row.v;
}

/** One artifact of the caller's version, or 404. */
export async function findOwnedArtifact(
  db: Db,
  ownerId: string,
  versionId: string,
  artifactId: string,
): Promise<{ version: ModelVersionRow; artifact: ModelArtifactRow }> {
  const version = await findOwnedVersion(db, ownerId, versionId);
  const [artifact] = await db
    .select()
    .from(modelArtifacts)
    .where(and(eq(modelArtifacts.id, artifactId), eq(modelArtifacts.versionId, version.id)))
    .limit(1);
  if (!artifact) throw new NotFoundError("Artifact");
  return { version, artifact };
}

export function versionViewWith(v: ModelVersionRow, aliases: string[]): ModelVersionView {
  return {
    id: v.id,
    model_id: v.modelId,
    version: v.number,
    state: v.state,
    source: v.source,
    job_id: v.jobId,
    task_contract:
      v.taskContractKey && v.taskContractVersion
        ? { key: v.taskContractKey, version: v.taskContractVersion }
        : null,
    description: v.description,
    metrics: v.metrics,
    artifact_format: v.artifactFormat,
    artifact_manifest: v.artifactManifest ?? null,
    aliases,
    created_at: v.createdAt.toISOString(),
    updated_at: v.updatedAt.toISOString(),
    finalized_at: v.finalizedAt?.toISOString() ?? null,
  };
}

export async function versionView(db: Db, v: ModelVersionRow): Promise<ModelVersionView> {
  const aliases = await db
    .select({ alias: modelAliases.alias })
    .from(modelAliases)
    .where(eq(modelAliases.versionId, v.id))
    .orderBy(asc(modelAliases.alias));
  return versionViewWith(
    v,
    aliases.map((a) => a.alias),
  );
}

export function artifactView(a: ModelArtifactRow): ModelArtifactView {
  return {
    id: a.id,
    version_id: a.versionId,
    name: a.name,
    size_bytes: a.sizeBytes,
    sha256: a.sha256,
    content_type: a.contentType,
    state: a.state,
    created_at: a.createdAt.toISOString(),
    completed_at: a.completedAt?.toISOString() ?? null,
  };
}
