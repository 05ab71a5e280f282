import path from "node:path";
import { and, eq, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import { datasets, datasetVersions, users } from "../../db/schema";
import { NotFoundError } from "../../errors";
import { newId } from "../../ids";
import {
  deleteBlobAndLocalFile,
  leaseLocalBlobFile,
  localBlobFile,
  putKeepingLocalFile,
} from "../../storage/blob-cache";
import { type BlobRef, blobKey, blobRoot } from "../../storage/blob-store";
import { type DatasetRow, ownedDataset, type VersionRow } from "./access";
import { detectFormat } from "./detect-format";
import { type FileBudget, planStorageBytes, storageUsedBytes } from "./limits";
import { profileFile } from "./profile";
import { carryOverRoles, guessRoles, inferTask } from "./roles";

/**
 * The path every new dataset file takes, whether uploaded or fetched from a URL: streamed into the
 * blob store while hashed and counted against the caller's limits, then format detection, profiling,
 * and one transaction that re-checks the storage quota and records the dataset and its version.
 * Whatever fails along the way, the blob is removed: a refused file leaves no row and no file.
 */
export const DATASET_BLOB_AREA = "datasets";

export interface StoredFile {
  blob: BlobRef;
  /** A local file with the bytes (DuckDB and the ZIP reader need a path): see storage/blob-cache.ts. */
  path: string;
  fileName: string;
  size: number;
  sha256: string;
}

/**
 * The file system path of a dataset blob on the local disk driver only (blob-store keeps `area/id`
 * under its root). With any other store use `datasetFile`, which fetches a local copy.
 */
export function datasetBlobPath(ref: BlobRef): string {
  return path.join(blobRoot(), ref.area, ref.id);
}

/** A local file with a dataset version's bytes, whichever store holds them. */
export async function datasetFile(blobKeyOfVersion: string): Promise<string> {
  const file = await localBlobFile(blobKeyOfVersion);
  if (!file) throw new NotFoundError("Dataset file");
  return file;
}

/**
 * Runs `use` with a local file of a dataset version's bytes, released afterwards (with a remote
 * store the copy can then be evicted from the bounded cache); for readers that know when they are done.
 */
export async function withDatasetFile<T>(
  blobKeyOfVersion: string,
  use: (file: string) => Promise<T>,
): Promise<T> {
  const lease = await leaseLocalBlobFile(blobKeyOfVersion);
  if (!lease) throw new NotFoundError("Dataset file");
  try {
    return await use(lease.file);
  } finally {
    await lease.release();
  }
}

/** Removes a stored dataset file (and this process's local copy of it). */
export async function deleteDatasetFile(blobKeyOfVersion: string): Promise<void> {
  await deleteBlobAndLocalFile(blobKeyOfVersion);
}

export function refOfKey(key: string): BlobRef {
  const [area, id] = key.split("/");
  return { area, id };
}

async function* metered(
  source: AsyncIterable<Uint8Array>,
  budget: FileBudget,
  counter: { bytes: number },
  onProgress?: (bytes: number) => void,
): AsyncIterable<Uint8Array> {
  for await (const chunk of source) {
    counter.bytes += chunk.byteLength;
    budget.check(counter.bytes);
    onProgress?.(counter.bytes);
    yield chunk;
  }
}

/** Streams a file into the blob store as `datasets/<version id>`; on any error nothing is left. */
export async function storeIncomingFile(
  source: AsyncIterable<Uint8Array>,
  fileName: string,
  budget: FileBudget,
  onProgress?: (bytes: number) => void,
): Promise<StoredFile> {
  const blob: BlobRef = { area: DATASET_BLOB_AREA, id: newId("dsv") };
  const counter = { bytes: 0 };
  const stored = await putKeepingLocalFile(blobKey(blob), metered(source, budget, counter, onProgress));
  return {
    blob,
    path: stored.file,
    fileName: cleanFileName(fileName),
    size: stored.size,
    sha256: stored.sha256,
  };
}

export function cleanFileName(name: string): string {
  const base = name.split(/[\\/]/).pop() ?? "";
  // Control characters and quotes would break the Content-Disposition header of downloads.
  const cleaned = [...base]
    .filter((ch) => ch.charCodeAt(0) >= 0x20 && ch.charCodeAt(0) !== 0x7f && ch !== '"')
    .join("")
    .trim()
    .slice(0, 200);
  return cleaned || "dataset";
}

export interface CommitTarget {
  owner: { id: string; plan: string };
  /** Add a version to this dataset (owned by `owner`); otherwise create a dataset. */
  datasetId?: string;
  name?: string;
  description?: string;
}

export interface CommitResult {
  dataset: DatasetRow;
  version: VersionRow;
  /** False when identical content already was a version of the dataset (nothing new stored). */
  created: boolean;
}

async function existingVersionWithHash(
  db: Db,
  datasetId: string,
  sha256: string,
): Promise<VersionRow | null> {
  const [row] = await db
    .select()
    .from(datasetVersions)
    .where(and(eq(datasetVersions.datasetId, datasetId), eq(datasetVersions.contentHash, sha256)))
    .limit(1);
  return row ?? null;
}

function isUniqueViolation(err: unknown): boolean {
  const e = err as { code?: string; cause?: { code?: string } };
  return e?.code === "23505" || e?.cause?.code === "23505" || /unique|duplicate key/i.test(String(err));
}

/** Profiles a stored file and records it as a new dataset or a new version; removes the blob on failure or duplicate. */
export async function commitStoredFile(
  db: Db,
  stored: StoredFile,
  target: CommitTarget,
  budget: FileBudget,
): Promise<CommitResult> {
  let keepBlob = false;
  try {
    let existing: DatasetRow | null = null;
    if (target.datasetId) {
      existing = await ownedDataset(db, target.owner, target.datasetId);
      const same = await existingVersionWithHash(db, existing.id, stored.sha256);
      if (same) return { dataset: existing, version: same, created: false };
    }
    const detected = await detectFormat(stored.path, stored.fileName);
    const { schema, profile, splits } = await profileFile(stored.path, detected);
    const versionId = stored.blob.id;
    // A new dataset's roles are guessed (the target, ids, what a model cannot use); a new version keeps
    // the roles of its columns.
    const roles = existing ? carryOverRoles(schema, existing.roles, profile) : guessRoles(schema, profile);
    const task = inferTask(schema, profile, roles);
    const result = await db.transaction(async (tx) => {
      // Serialise commits of one user so that two uploads cannot both squeeze into the last free bytes.
      await tx.execute(
        sql`select ${users.id} from ${users} where ${users.id} = ${target.owner.id} for update`,
      );
      const used = await storageUsedBytes(tx, target.owner.id);
      const limit = planStorageBytes(target.owner.plan);
      if (used + stored.size > limit) throw budget.overQuota(stored.size, used);
      let dataset: DatasetRow;
      if (existing) {
        const [updated] = await tx
          .update(datasets)
          .set({
            lastVersionNumber: sql`${datasets.lastVersionNumber} + 1`,
            sizeBytes: sql`${datasets.sizeBytes} + ${stored.size}`,
            currentVersionId: versionId,
            format: detected.format,
            roles,
            task,
            updatedAt: new Date(),
          })
          .where(and(eq(datasets.id, existing.id), eq(datasets.ownerId, target.owner.id)))
          .returning();
        if (!updated) throw new Error("The dataset disappeared during the upload.");
        dataset = updated;
      } else {
        const [inserted] = await tx
          .insert(datasets)
          .values({
            id: newId("ds"),
            ownerId: target.owner.id,
            name: target.name?.trim() || defaultName(stored.fileName),
            description: target.description ?? "",
            format: detected.format,
            roles,
            task,
            currentVersionId: versionId,
            sizeBytes: stored.size,
            lastVersionNumber: 1,
          })
          .returning();
        dataset = inserted;
      }
      const [version] = await tx
        .insert(datasetVersions)
        .values({
          id: versionId,
          datasetId: dataset.id,
          number: dataset.lastVersionNumber,
          contentHash: stored.sha256,
          blobKey: blobKey(stored.blob),
          fileName: stored.fileName,
          sizeBytes: stored.size,
          rowCount: profile.row_count,
          schema,
          profile,
          // Split folders in the file become the version's explicit split.
          splits: splits
            ? {
                kind: "explicit",
                ...splits,
                created_at: new Date().toISOString(),
                created_by: target.owner.id,
              }
            : null,
          createdBy: target.owner.id,
        })
        .returning();
      return { dataset, version, created: true };
    });
    keepBlob = true;
    return result;
  } catch (err) {
    // Two identical uploads raced: the unique (dataset, hash) index let one through; answer with it.
    if (target.datasetId && isUniqueViolation(err)) {
      const same = await existingVersionWithHash(db, target.datasetId, stored.sha256);
      const dataset = same ? await ownedDataset(db, target.owner, target.datasetId) : null;
      if (same && dataset) return { dataset, version: same, created: false };
    }
    throw err;
  } finally {
    if (!keepBlob) await deleteDatasetFile(blobKey(stored.blob)).catch(() => {});
  }
}

function defaultName(fileName: string): string {
  return fileName.replace(/\.[A-Za-z0-9]+$/, "").slice(0, 120) || "Untitled dataset";
}
