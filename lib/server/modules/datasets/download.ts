import fs from "node:fs";
import { Readable } from "node:stream";
import type { z } from "@hono/zod-openapi";
import { eq } from "drizzle-orm";
import type { Db } from "../../db/client";
import { type DatasetFormat, datasets } from "../../db/schema";
import { NotFoundError } from "../../errors";
import { blobStore } from "../../storage/blob-stores";
import { presignedDownloadUrl } from "../../storage/presigned";
import { currentVersionOf, readableDataset, type Viewer, versionOf } from "./access";
import { builtinPath, builtinVersionData, builtinVersionId, findBuiltin, isBuiltinId } from "./builtin";
import { datasetView } from "./datasets";
import type { metaSchema } from "./datasets.schemas";
import { consumeDownloadLink, mintDownloadLink, type SignedLinkParams } from "./signed-links";

/** GET /meta (with a fresh signed link) and GET /download (with a credential or that link). */

const CONTENT_TYPES: Record<DatasetFormat, string> = {
  csv: "text/csv; charset=utf-8",
  tsv: "text/tab-separated-values; charset=utf-8",
  jsonl: "application/x-ndjson",
  json: "application/json",
  parquet: "application/vnd.apache.parquet",
  image_zip: "application/zip",
  text: "text/plain; charset=utf-8",
};

export interface DatasetFile {
  stream: ReadableStream<Uint8Array>;
  size: number;
  fileName: string;
  contentType: string;
  contentHash: string;
}

export type DatasetMeta = z.infer<typeof metaSchema>;

async function resolveVersion(db: Db, viewer: Viewer, datasetId: string, versionId?: string) {
  const ref = await readableDataset(db, viewer, datasetId);
  if (ref.kind === "builtin") {
    if (versionId && versionId !== builtinVersionId(ref.builtin)) throw new NotFoundError("Dataset version");
    const data = await builtinVersionData(ref.builtin);
    return {
      ref,
      versionId: builtinVersionId(ref.builtin),
      fileName: ref.builtin.file,
      contentHash: data.contentHash,
    };
  }
  const v = versionId ? await versionOf(db, datasetId, versionId) : await currentVersionOf(db, ref.row);
  return { ref, versionId: v.id, fileName: v.fileName, contentHash: v.contentHash };
}

export async function getDatasetMeta(
  db: Db,
  viewer: Viewer,
  datasetId: string,
  origin: string,
): Promise<DatasetMeta> {
  const { ref, versionId, fileName, contentHash } = await resolveVersion(db, viewer, datasetId);
  const link = await mintDownloadLink(db, datasetId, versionId);
  const url = new URL(`/api/v1/datasets/${encodeURIComponent(datasetId)}/download`, origin);
  for (const [k, v] of Object.entries(link.query)) url.searchParams.set(k, v);
  return {
    ...(await datasetView(db, viewer, ref)),
    version_id: versionId,
    file_name: fileName,
    content_hash: contentHash,
    download_url: url.toString(),
    download_expires_at: link.expiresAt.toISOString(),
  };
}

async function openVersionFile(db: Db, datasetId: string, versionId: string): Promise<DatasetFile> {
  if (isBuiltinId(datasetId)) {
    const b = findBuiltin(datasetId);
    if (!b || versionId !== builtinVersionId(b)) throw new NotFoundError("Dataset version");
    const data = await builtinVersionData(b);
    const stream = Readable.toWeb(
      fs.createReadStream(builtinPath(b)),
    ) as unknown as ReadableStream<Uint8Array>;
    return {
      stream,
      size: data.sizeBytes,
      fileName: b.file,
      contentType: CONTENT_TYPES[b.format],
      contentHash: data.contentHash,
    };
  }
  const [dataset] = await db.select({ id: datasets.id }).from(datasets).where(eq(datasets.id, datasetId));
  if (!dataset) throw new NotFoundError("Dataset");
  const v = await versionOf(db, datasetId, versionId);
  const blob = await blobStore().get(v.blobKey);
  if (!blob) throw new NotFoundError("Dataset file");
  return {
    stream: blob.stream,
    size: blob.size,
    fileName: v.fileName,
    contentType: CONTENT_TYPES[v.schema.format],
    contentHash: v.contentHash,
  };
}

/** Download with the caller's credential: any dataset the caller can read. */
export async function openDatasetForViewer(
  db: Db,
  viewer: Viewer,
  datasetId: string,
  versionId?: string,
): Promise<DatasetFile> {
  const resolved = await resolveVersion(db, viewer, datasetId, versionId);
  return openVersionFile(db, datasetId, resolved.versionId);
}

/** What a signed link answers: the file streamed, or a redirect to the object itself. */
export type DatasetLinkDownload = { file: DatasetFile } | { redirect: string };

/**
 * Download with a signed link from /meta (no credential): the link is used up first (single-use as
 * ever), then, when the file is in an S3 bucket and presigned downloads are on, the answer is a
 * redirect to a presigned GET of that object, valid for at most a minute and never past the link's
 * own expiry; otherwise the bytes are streamed. Built-in datasets are always streamed.
 */
export async function openDatasetWithLink(
  db: Db,
  datasetId: string,
  params: Partial<SignedLinkParams>,
): Promise<DatasetLinkDownload> {
  const { versionId, expiresAt } = await consumeDownloadLink(db, datasetId, params);
  if (!isBuiltinId(datasetId)) {
    const v = await versionOf(db, datasetId, versionId);
    const url = await presignedDownloadUrl(v.blobKey, {
      filename: v.fileName,
      contentType: CONTENT_TYPES[v.schema.format],
      notAfter: expiresAt,
    });
    if (url) return { redirect: url };
  }
  return { file: await openVersionFile(db, datasetId, versionId) };
}
