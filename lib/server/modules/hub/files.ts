/**
 * Hub model files: uploads streamed into blob storage (hashed and counted on the way, never held
 * in memory; refused with 402 the moment they pass the plan's `hub_file_bytes`), listing, content
 * streaming and the whole model as a streamed ZIP. Blobs are `hub/<id>`; a fork's files and version
 * snapshots refer to the same blobs, so a blob is removed only when nothing refers to it any more.
 *
 * One piece (past ~400 lines): uploads, downloads, the ZIP stream and blob reference counting share
 * one reference-counting rule, kept in one file.
 */
import { createHash } from "node:crypto";
import { Readable } from "node:stream";
import type { ReadableStream as NodeWebReadableStream } from "node:stream/web";
import busboy from "busboy";
import { and, asc, count, eq, sql } from "drizzle-orm";
import yazl from "yazl";
import type { Db } from "../../db/client";
import { type HubModelFileRow, hubModelFiles, hubModels, hubModelVersions } from "../../db/schema";
import {
  BadRequestError,
  DomainError,
  NotFoundError,
  PaymentRequiredError,
  ValidationError,
} from "../../errors";
import { offsetOf, type PageQuery, paged } from "../../http/paging";
import { newId } from "../../ids";
import { planOf } from "../../plans";
import { BlobRangeError, type BlobRead, type ByteRange } from "../../storage/blob-driver";
import { blobStore } from "../../storage/blob-stores";
import { presignedDownloadUrl } from "../../storage/presigned";
import { commitWithinQuota, StorageBudget } from "../account/storage-quota";
import { findOwnedModel, findVisibleModel } from "./access";
import { FILE_PATH_PATTERN, type HubFileView } from "./hub.schemas";
import { firstFetchOfLink, type HubSignedLink, mintHubLink, type VerifiedHubLink } from "./signed-links";

/** A page of a model the caller may see's files, by path. */
export async function listFilesPage(db: Db, viewerId: string | null, modelId: string, q: PageQuery) {
  await findVisibleModel(db, viewerId, modelId);
  const [rows, [{ total }]] = await Promise.all([
    db
      .select()
      .from(hubModelFiles)
      .where(eq(hubModelFiles.modelId, modelId))
      .orderBy(asc(hubModelFiles.path))
      .limit(q.limit)
      .offset(offsetOf(q)),
    db.select({ total: count() }).from(hubModelFiles).where(eq(hubModelFiles.modelId, modelId)),
  ]);
  return paged(rows.map(toFileView), total, q);
}

/** Room for multipart boundaries and part headers around the file itself. */
const MULTIPART_OVERHEAD_BYTES = 64 * 1024;

export function toFileView(f: HubModelFileRow): HubFileView {
  return {
    id: f.id,
    model_id: f.modelId,
    path: f.path,
    size_bytes: f.sizeBytes,
    sha256: f.sha256,
    content_type: f.contentType,
    created_at: f.createdAt.toISOString(),
    updated_at: f.updatedAt.toISOString(),
  };
}

export async function listFiles(db: Db, modelId: string): Promise<HubModelFileRow[]> {
  return db
    .select()
    .from(hubModelFiles)
    .where(eq(hubModelFiles.modelId, modelId))
    .orderBy(asc(hubModelFiles.path));
}

function tooLarge(limit: number): PaymentRequiredError {
  return new PaymentRequiredError(
    `The file is larger than your plan's hub file limit (${limit} bytes); upgrade the plan to upload it.`,
  );
}

/**
 * Counts and hashes chunks as they pass; fails with 402 as soon as the plan's file limit or the
 * owner's storage quota is passed.
 */
async function* measured(
  source: AsyncIterable<Uint8Array>,
  limit: number,
  budget: StorageBudget,
  out: { size: number; hash: ReturnType<typeof createHash> },
): AsyncIterable<Uint8Array> {
  for await (const chunk of source) {
    out.size += chunk.byteLength;
    if (out.size > limit) throw tooLarge(limit);
    budget.check(out.size);
    out.hash.update(chunk);
    yield chunk;
  }
}

interface StoredBlob {
  blobKey: string;
  size: number;
  sha256: string;
}

async function storeStream(
  source: AsyncIterable<Uint8Array>,
  limit: number,
  budget: StorageBudget,
): Promise<StoredBlob> {
  const out = { size: 0, hash: createHash("sha256") };
  const { key } = await blobStore().put(`hub/${newId("hbf")}`, measured(source, limit, budget, out));
  return { blobKey: key, size: out.size, sha256: out.hash.digest("hex") };
}

function guessContentType(path: string): string {
  const ext = path.toLowerCase().split(".").pop() ?? "";
  const types: Record<string, string> = {
    json: "application/json",
    md: "text/markdown; charset=utf-8",
    txt: "text/plain; charset=utf-8",
    csv: "text/csv; charset=utf-8",
    onnx: "application/octet-stream",
    zip: "application/zip",
    py: "text/x-python; charset=utf-8",
  };
  return types[ext] ?? "application/octet-stream";
}

function checkPath(path: string): string {
  if (!FILE_PATH_PATTERN.test(path))
    throw new ValidationError("The file path is not valid.", [
      {
        path: "path",
        message: "A relative path of letters, digits, space and . _ - / (no . or .. segments)",
      },
    ]);
  return path;
}

export interface FileUploadRequest {
  body: ReadableStream<Uint8Array> | null;
  contentType: string | undefined;
  contentLength: number | undefined;
  /** From the query string (raw bodies). */
  path: string | undefined;
}

function receiveMultipart(
  body: ReadableStream<Uint8Array>,
  contentType: string,
  limit: number,
  budget: StorageBudget,
): Promise<{ stored: StoredBlob; path: string; contentType: string }> {
  return new Promise((resolve, reject) => {
    let parser: busboy.Busboy;
    try {
      parser = busboy({
        headers: { "content-type": contentType },
        limits: { fields: 10, fieldSize: 4096, parts: 20, headerPairs: 100 },
        // Browsers send a file name's UTF-8 bytes as they are (busboy's default reads them as Latin-1).
        defParamCharset: "utf8",
      });
    } catch {
      reject(new BadRequestError("The body must be multipart/form-data with a boundary."));
      return;
    }
    const input = Readable.fromWeb(body as unknown as NodeWebReadableStream<Uint8Array>);
    const fields: Record<string, string> = {};
    let fileStream: Readable | null = null;
    let stored: Promise<StoredBlob> | null = null;
    let fileName = "";
    let partType = "";
    let settled = false;
    const fail = (err: unknown) => {
      if (settled) return;
      settled = true;
      input.unpipe(parser);
      input.destroy();
      fileStream?.destroy(err instanceof Error ? err : new Error(String(err)));
      const cleaned = stored ? stored.then((s) => blobStore().delete(s.blobKey)).catch(() => {}) : null;
      void Promise.resolve(cleaned).then(() => reject(err));
    };
    parser.on("field", (name, value) => {
      fields[name] = value;
    });
    parser.on("file", (name, stream, info) => {
      if (name !== "file" || stored) {
        stream.resume();
        return;
      }
      fileStream = stream;
      fileName = info.filename ?? "";
      partType = info.mimeType ?? "";
      stored = storeStream(stream, limit, budget);
      stored.catch(fail);
    });
    parser.on("partsLimit", () => fail(new BadRequestError("Too many form parts.")));
    parser.on("error", () => fail(new BadRequestError("The multipart body could not be parsed.")));
    parser.on("close", () => {
      if (settled) return;
      if (!stored)
        return fail(new ValidationError("A file is required.", [{ path: "file", message: "Required" }]));
      stored.then(
        (s) => {
          if (settled) return;
          settled = true;
          const path = fields.path || fileName;
          const type =
            partType && partType !== "application/octet-stream" ? partType : guessContentType(path);
          resolve({ stored: s, path, contentType: type });
        },
        (err) => fail(err),
      );
    });
    input.on("error", (err) =>
      fail(err instanceof DomainError ? err : new BadRequestError("The upload was interrupted.")),
    );
    input.pipe(parser);
  });
}

async function* chunksOf(body: ReadableStream<Uint8Array>): AsyncIterable<Uint8Array> {
  const reader = body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      yield value;
    }
  } finally {
    reader.releaseLock();
  }
}

/**
 * Adds (or replaces, by path) a file of the caller's model. Multipart (`file` part, optional `path`
 * field) or a raw body with `?path=`. A declared length above the plan's limit is refused before
 * anything is read; an undeclared one when the stream passes it.
 */
export async function uploadFile(
  db: Db,
  user: { id: string; plan: string },
  modelId: string,
  req: FileUploadRequest,
): Promise<{ file: HubFileView; created: boolean }> {
  await findOwnedModel(db, user.id, modelId);
  const limit = planOf(user.plan).limits.hub_file_bytes;
  if (!req.body) throw new BadRequestError("The request has no body.");
  const multipart = req.contentType !== undefined && /^multipart\/form-data/i.test(req.contentType);
  // The storage quota (a raw upload replacing a file of the same path frees that file's bytes).
  const [replacing] =
    !multipart && req.path
      ? await db
          .select({ size: hubModelFiles.sizeBytes })
          .from(hubModelFiles)
          .where(and(eq(hubModelFiles.modelId, modelId), eq(hubModelFiles.path, req.path)))
          .limit(1)
      : [];
  const budget = await StorageBudget.of(db, user.id, replacing?.size ?? 0);
  if (req.contentLength !== undefined && Number.isFinite(req.contentLength)) {
    const allowance = multipart ? limit + MULTIPART_OVERHEAD_BYTES : limit;
    if (req.contentLength > allowance) throw tooLarge(limit);
    budget.check(Math.max(0, req.contentLength - (multipart ? MULTIPART_OVERHEAD_BYTES : 0)));
  }
  let stored: StoredBlob;
  let path: string;
  let contentType: string;
  if (multipart) {
    ({ stored, path, contentType } = await receiveMultipart(
      req.body,
      req.contentType as string,
      limit,
      budget,
    ));
  } else {
    if (!req.path)
      throw new ValidationError("A raw upload needs the file's path in `?path=`.", [
        { path: "query.path", message: "Required for a raw body" },
      ]);
    path = checkPath(req.path);
    stored = await storeStream(chunksOf(req.body), limit, budget);
    const declared = req.contentType?.split(";")[0]?.trim();
    contentType =
      declared && declared !== "application/octet-stream" ? (req.contentType ?? "") : guessContentType(path);
  }
  try {
    checkPath(path);
    // The model may have been deleted while its file streamed in.
    await findOwnedModel(db, user.id, modelId);
  } catch (err) {
    await blobStore()
      .delete(stored.blobKey)
      .catch(() => {});
    throw err;
  }
  const [previous] = await db
    .select()
    .from(hubModelFiles)
    .where(and(eq(hubModelFiles.modelId, modelId), eq(hubModelFiles.path, path)))
    .limit(1);
  const record = (tx: Pick<Db, "insert">) =>
    tx
      .insert(hubModelFiles)
      .values({
        id: newId("hf"),
        modelId,
        path,
        sizeBytes: stored.size,
        sha256: stored.sha256,
        blobKey: stored.blobKey,
        contentType,
      })
      .onConflictDoUpdate({
        target: [hubModelFiles.modelId, hubModelFiles.path],
        set: {
          sizeBytes: stored.size,
          sha256: stored.sha256,
          blobKey: stored.blobKey,
          contentType,
          updatedAt: new Date(),
        },
      })
      .returning();
  let row: HubModelFileRow;
  try {
    [row] = await commitWithinQuota(db, user.id, stored.size, (tx) => record(tx));
  } catch (err) {
    await blobStore()
      .delete(stored.blobKey)
      .catch(() => {});
    throw err;
  }
  await db.update(hubModels).set({ updatedAt: new Date() }).where(eq(hubModels.id, modelId));
  if (previous) await removeUnreferencedBlobs(db, [previous.blobKey]);
  return { file: toFileView(row), created: !previous };
}

/** Deletes the blobs among `keys` that no file row and no version snapshot refers to any more. */
export async function removeUnreferencedBlobs(db: Db, keys: string[]): Promise<void> {
  for (const key of new Set(keys)) {
    const [file] = await db
      .select({ id: hubModelFiles.id })
      .from(hubModelFiles)
      .where(eq(hubModelFiles.blobKey, key))
      .limit(1);
    if (file) continue;
    const [version] = await db
      .select({ id: hubModelVersions.id })
      .from(hubModelVersions)
      .where(sql`${hubModelVersions.files} @> ${JSON.stringify([{ blob_key: key }])}::jsonb`)
      .limit(1);
    if (version) continue;
    await blobStore()
      .delete(key)
      .catch(() => {});
  }
}

/** A signed link for one file of a model the caller may see, or for all of them (a ZIP). */
export async function createDownloadLink(
  db: Db,
  viewerId: string | null,
  modelId: string,
  fileId: string | undefined,
): Promise<HubSignedLink> {
  await findVisibleModel(db, viewerId, modelId);
  if (fileId) {
    const [file] = await db
      .select({ id: hubModelFiles.id })
      .from(hubModelFiles)
      .where(and(eq(hubModelFiles.id, fileId), eq(hubModelFiles.modelId, modelId)))
      .limit(1);
    if (!file) throw new NotFoundError("Hub model file");
  }
  return mintHubLink(modelId, fileId, Date.now(), viewerId);
}

/**
 * One atomic increment per link that fetches content (never on page views, listings or a replay of
 * the same link).
 */
async function countDownload(db: Db, modelId: string, link: VerifiedHubLink): Promise<void> {
  if (!(await firstFetchOfLink(db, modelId, link))) return;
  await db
    .update(hubModels)
    .set({ downloads: sql`${hubModels.downloads} + 1` })
    .where(eq(hubModels.id, modelId));
}

/** The name a downloaded file is saved under: the last segment of its path. */
export function downloadName(file: Pick<HubModelFileRow, "path">): string {
  return file.path.split("/").pop() ?? file.path;
}

function rangeNotSatisfiable(size: number): DomainError {
  return new DomainError(416, "Range Not Satisfiable", `The file has ${size} bytes.`, undefined, {
    "Content-Range": `bytes */${size}`,
  });
}

/**
 * The one `bytes=` range a `Range` header asks of a file of `size` bytes (`a-b`, `a-`, or the last
 * `-n`); undefined for none, and for what this server ignores and answers whole (several ranges, a
 * malformed header). 416 when the range starts past the end.
 */
export function requestedRange(header: string | undefined, size: number): ByteRange | undefined {
  const m = header ? /^bytes=(\d{0,15})-(\d{0,15})$/.exec(header.trim()) : null;
  if (!m || (m[1] === "" && m[2] === "")) return undefined;
  if (m[1] === "") {
    const last = Number(m[2]);
    if (last === 0 || size === 0) throw rangeNotSatisfiable(size);
    return { start: Math.max(0, size - last) };
  }
  const start = Number(m[1]);
  const end = m[2] === "" ? undefined : Number(m[2]);
  if (end !== undefined && end < start) return undefined;
  if (start >= size) throw rangeNotSatisfiable(size);
  return { start, end: end === undefined ? undefined : Math.min(end, size - 1) };
}

/** A file's bytes as streamed: the whole file, or the range asked for. */
export interface FileContent {
  stream: ReadableStream<Uint8Array>;
  /** Set for a range: the bytes sent, both included. */
  range?: { start: number; end: number };
}

/**
 * A link's content: the model must still exist and be visible to the account that minted the link;
 * the fetch is counted. Then, when the file is in an S3 bucket and presigned downloads are on, a
 * presigned URL of the object (at most a minute, never past the link's expiry) to redirect to (the
 * store answers the client's `Range` there); otherwise its bytes, streamed: the range asked for
 * (see requestedRange; unless `If-Range` names another version) or all of them.
 */
export async function openFileContent(
  db: Db,
  modelId: string,
  fileId: string,
  link: VerifiedHubLink,
  asked: { range?: string; ifRange?: string } = {},
): Promise<{ file: HubModelFileRow } & (FileContent | { redirect: string })> {
  await findVisibleModel(db, link.viewerId, modelId);
  const [file] = await db
    .select()
    .from(hubModelFiles)
    .where(and(eq(hubModelFiles.id, fileId), eq(hubModelFiles.modelId, modelId)))
    .limit(1);
  if (!file) throw new NotFoundError("Hub model file");
  const redirect = await presignedDownloadUrl(file.blobKey, {
    filename: downloadName(file),
    contentType: file.contentType,
    notAfter: link.expiresAt,
  });
  if (redirect) {
    await countDownload(db, modelId, link);
    return { file, redirect };
  }
  // A range applies to the version the client holds only (If-Range names it by its ETag).
  const current = !asked.ifRange || asked.ifRange === `"${file.sha256}"`;
  const range = current ? requestedRange(asked.range, file.sizeBytes) : undefined;
  let blob: BlobRead | null;
  try {
    blob = await blobStore().get(file.blobKey, { range });
  } catch (err) {
    if (err instanceof BlobRangeError) throw rangeNotSatisfiable(err.size);
    throw err;
  }
  if (!blob) throw new NotFoundError("Hub model file");
  await countDownload(db, modelId, link);
  return { file, stream: blob.stream, ...(range && { range: { start: blob.start, end: blob.end } }) };
}

/**
 * Every file of the model as a ZIP, streamed: entries are stored (model weights hardly compress),
 * each file opened only when the archive reaches it, CRC-32 computed as its bytes pass.
 */
export async function openModelZip(
  db: Db,
  modelId: string,
  link: VerifiedHubLink,
): Promise<{ filename: string; stream: ReadableStream<Uint8Array> }> {
  const model = await findVisibleModel(db, link.viewerId, modelId);
  const files = await listFiles(db, modelId);
  const zip = new yazl.ZipFile();
  for (const f of files) {
    zip.addReadStreamLazy(
      `${model.slug}/${f.path}`,
      { compress: false, size: f.sizeBytes, mtime: f.updatedAt },
      (cb: (err: Error | null, stream: NodeJS.ReadableStream) => void) => {
        blobStore()
          .get(f.blobKey)
          .then(
            (blob) => {
              if (!blob) return cb(new Error(`missing blob ${f.blobKey}`), Readable.from([]));
              cb(null, Readable.fromWeb(blob.stream as unknown as NodeWebReadableStream<Uint8Array>));
            },
            (err: Error) => cb(err, Readable.from([])),
          );
      },
    );
  }
  zip.end();
  await countDownload(db, modelId, link);
  return {
    filename: `${model.slug}.zip`,
    stream: Readable.toWeb(zip.outputStream as Readable) as ReadableStream<Uint8Array>,
  };
}
