/**
 * The artifact upload protocol (decisions "Hub and registry"): `artifacts:initiate` records the
 * declared name, size and SHA-256 and hands out a signed PUT link; the PUT streams the bytes into
 * the blob store (hashed and counted on the way, never buffered) under a name of its own, then
 * points the artifact at them; `complete` checks the received size and digest against the declared
 * ones (422 and still pending on a mismatch). Nothing changes once the version is finalized.
 * With `direct_upload` on an S3 bucket the PUT goes to the bucket itself and `complete` adopts the
 * staging object first (direct-uploads.ts).
 */
import { randomBytes } from "node:crypto";
import { and, asc, count, eq } from "drizzle-orm";
import type { Db } from "../../db/client";
import { type ModelArtifactRow, modelArtifacts, modelVersions, registeredModels } from "../../db/schema";
import { ConflictError, NotFoundError, ValidationError } from "../../errors";
import { newId } from "../../ids";
import { deleteBlobAndLocalFile } from "../../storage/blob-cache";
import { blobStore } from "../../storage/blob-stores";
import { commitWithinQuota, StorageBudget } from "../account/storage-quota";
import { storeStreamedFile } from "../training/ingest";
import { isUniqueViolation } from "./db-errors";
import { adoptStagedUpload, artifactStagingKey, presignArtifactUpload } from "./direct-uploads";
import {
  type InitiateArtifactBody,
  type InitiateArtifactResponse,
  MAX_ARTIFACTS_PER_VERSION,
  type ModelArtifactView,
} from "./registry.schemas";
import { signUploadLink, type UploadLinkQuery, uploadPath, verifyUploadLink } from "./upload-links";
import { artifactView, findOwnedArtifact, findOwnedVersion } from "./views";

export const REGISTRY_BLOB_AREA = "registry";

/** A fresh blob name for one upload of an artifact: retries never overwrite bytes another upload recorded. */
export function newArtifactBlobId(artifactId: string): string {
  return `${artifactId}.${randomBytes(6).toString("hex")}`;
}

const finalizedError = () =>
  new ConflictError("The version is finalized: its artifacts can no longer change.");

export async function initiateArtifact(
  db: Db,
  ownerId: string,
  versionId: string,
  body: InitiateArtifactBody,
  origin: string,
): Promise<InitiateArtifactResponse> {
  const version = await findOwnedVersion(db, ownerId, versionId);
  if (version.state !== "pending") throw finalizedError();
  // A declared size that cannot fit is refused now, not after the bytes were sent.
  (await StorageBudget.of(db, ownerId)).check(body.size_bytes);
  const id = newId("art");
  const replaced = await db
    .transaction(async (tx) => {
      // Lock the version: finalize cannot slip between this check and the insert.
      const [locked] = await tx
        .select({ state: modelVersions.state })
        .from(modelVersions)
        .where(eq(modelVersions.id, version.id))
        .for("update");
      if (locked?.state !== "pending") throw finalizedError();
      const [existing] = await tx
        .select()
        .from(modelArtifacts)
        .where(and(eq(modelArtifacts.versionId, version.id), eq(modelArtifacts.name, body.name)))
        .for("update");
      if (existing?.state === "complete")
        throw new ConflictError(`The version already has a complete artifact named “${body.name}”.`);
      if (existing) await tx.delete(modelArtifacts).where(eq(modelArtifacts.id, existing.id));
      else {
        const [{ n }] = await tx
          .select({ n: count() })
          .from(modelArtifacts)
          .where(eq(modelArtifacts.versionId, version.id));
        if (n >= MAX_ARTIFACTS_PER_VERSION)
          throw new ConflictError(`A version holds at most ${MAX_ARTIFACTS_PER_VERSION} artifacts.`);
      }
      await tx.insert(modelArtifacts).values({
        id,
        versionId: version.id,
        name: body.name,
        sizeBytes: body.size_bytes,
        sha256: body.sha256,
        contentType: body.content_type,
      });
      return existing ?? null;
    })
    .catch((err: unknown) => {
      if (isUniqueViolation(err))
        throw new ConflictError(`Another upload of “${body.name}” was initiated at the same time; retry.`);
      throw err;
    });
  if (replaced?.blobKey) await deleteBlobAndLocalFile(replaced.blobKey).catch(() => {});
  if (replaced)
    await blobStore()
      .delete(artifactStagingKey(replaced.id))
      .catch(() => {});
  const link = signUploadLink(version.id, id);
  const direct = body.direct_upload
    ? await presignArtifactUpload(
        { id, sizeBytes: body.size_bytes, sha256: body.sha256, contentType: body.content_type },
        link.expiresAt,
      )
    : null;
  if (direct)
    return {
      artifact_id: id,
      upload: { url: direct.url, method: "PUT", headers: direct.headers, direct: true },
      expires_at: link.expiresAt.toISOString(),
    };
  const url = new URL(uploadPath(version.id, id), origin);
  for (const [k, v] of Object.entries(link.query)) url.searchParams.set(k, v);
  return {
    artifact_id: id,
    upload: {
      url: url.toString(),
      method: "PUT",
      headers: { "Content-Type": body.content_type },
      direct: false,
    },
    expires_at: link.expiresAt.toISOString(),
  };
}

/**
 * PUT with a signed link: streams the body into a new blob (at most the declared size: more is a
 * 413), then records it on the artifact under the artifact's row lock, replacing (and removing)
 * the bytes of an earlier attempt. 409 when the artifact is complete or the version finalized.
 */
export async function receiveUpload(
  db: Db,
  versionId: string,
  artifactId: string,
  q: Partial<UploadLinkQuery>,
  body: ReadableStream<Uint8Array> | null,
  declaredBytes?: number,
): Promise<{ artifact_id: string; received_bytes: number; sha256: string }> {
  verifyUploadLink(versionId, artifactId, q);
  const [row] = await db
    .select({ a: modelArtifacts, state: modelVersions.state, ownerId: registeredModels.ownerId })
    .from(modelArtifacts)
    .innerJoin(modelVersions, eq(modelVersions.id, modelArtifacts.versionId))
    .innerJoin(registeredModels, eq(registeredModels.id, modelVersions.modelId))
    .where(and(eq(modelArtifacts.id, artifactId), eq(modelArtifacts.versionId, versionId)))
    .limit(1);
  // A valid signature for a missing artifact: it was replaced by a new initiate, or deleted.
  if (!row) throw new NotFoundError("Artifact");
  if (row.state !== "pending") throw finalizedError();
  if (row.a.state === "complete") throw new ConflictError("The artifact is already complete.");
  const freed = row.a.receivedSize ?? 0; // a retry replaces the bytes of the previous attempt
  const stored = await storeStreamedFile(
    { area: REGISTRY_BLOB_AREA, id: newArtifactBlobId(artifactId) },
    body ?? new Blob([]).stream(), // an empty body (a zero-byte file) arrives as none
    {
      maxBytes: row.a.sizeBytes,
      what: "The artifact's declared size",
      budget: await StorageBudget.of(db, row.ownerId, freed),
      declaredBytes,
    },
  );
  let previous: string | null = null;
  try {
    await commitWithinQuota(db, row.ownerId, stored.size, async (tx) => {
      const [current] = await tx
        .select({ a: modelArtifacts, state: modelVersions.state })
        .from(modelArtifacts)
        .innerJoin(modelVersions, eq(modelVersions.id, modelArtifacts.versionId))
        .where(eq(modelArtifacts.id, artifactId))
        .for("update");
      if (!current) throw new NotFoundError("Artifact");
      if (current.state !== "pending") throw finalizedError();
      if (current.a.state === "complete") throw new ConflictError("The artifact is already complete.");
      previous = current.a.blobKey;
      await tx
        .update(modelArtifacts)
        .set({
          blobKey: stored.key,
          receivedSize: stored.size,
          receivedSha256: stored.sha256,
          updatedAt: new Date(),
        })
        .where(eq(modelArtifacts.id, artifactId));
    });
  } catch (err) {
    await deleteBlobAndLocalFile(stored.key).catch(() => {});
    throw err;
  }
  if (previous) await deleteBlobAndLocalFile(previous).catch(() => {});
  return { artifact_id: artifactId, received_bytes: stored.size, sha256: stored.sha256 };
}

/** Checks the received bytes against the declared size and SHA-256; the artifact is then complete. */
export async function completeArtifact(
  db: Db,
  ownerId: string,
  versionId: string,
  artifactId: string,
): Promise<ModelArtifactView> {
  const { version, artifact } = await findOwnedArtifact(db, ownerId, versionId, artifactId);
  if (artifact.state === "complete") return artifactView(artifact); // completing twice is harmless
  if (version.state !== "pending") throw finalizedError();
  // A direct upload's bytes are in a staging object: checked and moved into place first.
  await adoptStagedUpload(db, ownerId, artifact, `${REGISTRY_BLOB_AREA}/${newArtifactBlobId(artifactId)}`);
  return db.transaction(async (tx) => {
    const [current] = await tx
      .select({ a: modelArtifacts, state: modelVersions.state })
      .from(modelArtifacts)
      .innerJoin(modelVersions, eq(modelVersions.id, modelArtifacts.versionId))
      .where(eq(modelArtifacts.id, artifactId))
      .for("update");
    if (!current) throw new NotFoundError("Artifact");
    const a: ModelArtifactRow = current.a;
    if (a.state === "complete") return artifactView(a); // completing twice is harmless
    if (current.state !== "pending") throw finalizedError();
    if (!a.blobKey || a.receivedSize === null || a.receivedSha256 === null)
      throw new ConflictError(
        "No bytes have been uploaded for this artifact yet (or they were removed after its upload URL " +
          "expired): PUT them to its upload URL.",
      );
    const errors = [
      ...(a.receivedSize !== a.sizeBytes
        ? [{ path: "size_bytes", message: `Declared ${a.sizeBytes} bytes; received ${a.receivedSize}.` }]
        : []),
      ...(a.receivedSha256 !== a.sha256
        ? [
            {
              path: "sha256",
              message: `Declared ${a.sha256}; the received bytes hash to ${a.receivedSha256}.`,
            },
          ]
        : []),
    ];
    if (errors.length > 0)
      throw new ValidationError(
        "The uploaded bytes do not match the declared size and SHA-256; upload them again.",
        errors,
      );
    const [done] = await tx
      .update(modelArtifacts)
      .set({ state: "complete", completedAt: new Date(), updatedAt: new Date() })
      .where(eq(modelArtifacts.id, artifactId))
      .returning();
    return artifactView(done);
  });
}

export async function listArtifacts(
  db: Db,
  ownerId: string,
  versionId: string,
): Promise<ModelArtifactView[]> {
  const version = await findOwnedVersion(db, ownerId, versionId);
  const rows = await db
    .select()
    .from(modelArtifacts)
    .where(eq(modelArtifacts.versionId, version.id))
    .orderBy(asc(modelArtifacts.name));
  return rows.map(artifactView);
}

/** A complete artifact's bytes, streamed (409 while it is still being uploaded). */
export async function openArtifact(db: Db, ownerId: string, versionId: string, artifactId: string) {
  const { artifact } = await findOwnedArtifact(db, ownerId, versionId, artifactId);
  if (artifact.state !== "complete" || !artifact.blobKey)
    throw new ConflictError("The artifact's upload is not complete.");
  const blob = await blobStore().get(artifact.blobKey);
  if (!blob) throw new NotFoundError("Artifact file");
  return { ...blob, artifact };
}
