/**
 * Direct artifact uploads (`direct_upload: true` on `artifacts:initiate`, files in an S3 bucket,
 * S3_PRESIGNED_UPLOADS on): the client PUTs the bytes to a presigned URL of a staging object
 * (`staging/registry/<artifact id>`), bound by signed headers to the declared length and SHA-256,
 * so the bytes never pass through the API. `complete` then adopts the staging object: it is copied
 * to a key of the service's own choosing (nobody else can write there, so what is verified is what
 * stays), the staging object is deleted, and the copy's size and SHA-256 are checked by reading it
 * back (S3 verifies the signed checksum, but an S3-compatible server may not, and the client chose
 * the bytes), within the owner's storage quota. Anything refused is deleted: nothing is left behind.
 * A staging object never completed is collected by the orphan sweep (training/recovery.ts).
 */
import { createHash } from "node:crypto";
import { eq } from "drizzle-orm";
import type { Db } from "../../db/client";
import { type ModelArtifactRow, modelArtifacts, modelVersions } from "../../db/schema";
import { ConflictError, NotFoundError, ValidationError } from "../../errors";
import { deleteBlobAndLocalFile } from "../../storage/blob-cache";
import { blobStore } from "../../storage/blob-stores";
import { directUploadsEnabled, stagingKey } from "../../storage/presigned";
import { commitWithinQuota, StorageBudget } from "../account/storage-quota";

const AREA = "registry";

export interface PresignedArtifactUpload {
  url: string;
  headers: Record<string, string>;
}

/** The staging object of an artifact's direct upload. */
export function artifactStagingKey(artifactId: string): string {
  return stagingKey(AREA, artifactId);
}

/**
 * A presigned PUT for the artifact's staging object, or null when direct uploads are not possible
 * here (local disk, S3_PRESIGNED_UPLOADS=false). The client must send exactly `size_bytes` bytes
 * (`Content-Length` is signed) with the returned headers (the SHA-256 as `x-amz-checksum-sha256`,
 * which S3 verifies, and as `x-amz-meta-sha256`).
 */
export async function presignArtifactUpload(
  artifact: Pick<ModelArtifactRow, "id" | "sizeBytes" | "sha256" | "contentType">,
  expiresAt: Date,
): Promise<PresignedArtifactUpload | null> {
  if (!directUploadsEnabled()) return null;
  const expiresInSeconds = Math.max(1, Math.floor((expiresAt.getTime() - Date.now()) / 1000));
  const url = await blobStore().presignPut(artifactStagingKey(artifact.id), {
    expiresInSeconds,
    contentType: artifact.contentType,
    sha256: artifact.sha256,
    contentLength: artifact.sizeBytes,
  });
  if (!url) return null;
  return {
    url,
    headers: {
      "Content-Type": artifact.contentType,
      "x-amz-checksum-sha256": Buffer.from(artifact.sha256, "hex").toString("base64"),
      "x-amz-meta-sha256": artifact.sha256,
    },
  };
}

async function sha256Of(key: string): Promise<string | null> {
  const blob = await blobStore().get(key);
  if (!blob) return null;
  const hash = createHash("sha256");
  const reader = blob.stream.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    hash.update(value);
  }
  return hash.digest("hex");
}

function mismatch(path: "size_bytes" | "sha256", message: string): ValidationError {
  return new ValidationError(
    "The uploaded bytes do not match the declared size and SHA-256: nothing was kept; upload them again.",
    [{ path, message }],
  );
}

/**
 * When the artifact has a staging object (a direct upload), checks it and records it as the
 * artifact's received bytes (replacing an earlier upload's); false when there is none. Refused
 * bytes (size or SHA-256 not the declared ones, over the quota) are deleted and the artifact stays
 * pending: 422 or 402.
 */
export async function adoptStagedUpload(
  db: Db,
  ownerId: string,
  artifact: ModelArtifactRow,
  newBlobKey: string,
): Promise<boolean> {
  const store = blobStore();
  const staging = artifactStagingKey(artifact.id);
  const head = await store.head(staging);
  if (!head) return false;
  if (head.size !== artifact.sizeBytes) {
    await store.delete(staging).catch(() => {});
    throw mismatch("size_bytes", `Declared ${artifact.sizeBytes} bytes; received ${head.size}.`);
  }
  const copied = await store.copy(staging, newBlobKey);
  await store.delete(staging).catch(() => {});
  if (!copied) return false; // removed meanwhile (a concurrent complete, or the sweep)
  let previous: string | null = null;
  try {
    const size = (await store.head(newBlobKey))?.size;
    if (size !== artifact.sizeBytes)
      throw mismatch("size_bytes", `Declared ${artifact.sizeBytes} bytes; received ${size ?? 0}.`);
    (await StorageBudget.of(db, ownerId, artifact.receivedSize ?? 0)).check(size);
    const sha256 = await sha256Of(newBlobKey);
    if (sha256 !== artifact.sha256)
      throw mismatch("sha256", `Declared ${artifact.sha256}; the received bytes hash to ${sha256}.`);
    await commitWithinQuota(db, ownerId, size, async (tx) => {
      const [current] = await tx
        .select({ a: modelArtifacts, state: modelVersions.state })
        .from(modelArtifacts)
        .innerJoin(modelVersions, eq(modelVersions.id, modelArtifacts.versionId))
        .where(eq(modelArtifacts.id, artifact.id))
        .for("update");
      if (!current) throw new NotFoundError("Artifact");
      if (current.state !== "pending")
        throw new ConflictError("The version is finalized: its artifacts can no longer change.");
      if (current.a.state === "complete") throw new ConflictError("The artifact is already complete.");
      previous = current.a.blobKey;
      await tx
        .update(modelArtifacts)
        .set({ blobKey: newBlobKey, receivedSize: size, receivedSha256: sha256, updatedAt: new Date() })
        .where(eq(modelArtifacts.id, artifact.id));
    });
  } catch (err) {
    await deleteBlobAndLocalFile(newBlobKey).catch(() => {});
    throw err;
  }
  if (previous) await deleteBlobAndLocalFile(previous).catch(() => {});
  return true;
}
