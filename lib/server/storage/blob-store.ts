import { randomBytes } from "node:crypto";
import fsp from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import type { ReadableStream as NodeReadableStream } from "node:stream/web";
import { PayloadTooLargeError } from "../errors";

/**
 * Files on local disk under `<root>/<area>/<id>` (e.g. `thumbnails/prj_…`, `datasets/dsv_…`).
 * The root is `BLOB_DIR` when set, else `${DATA_DIR}/blobs` (`./.data/blobs` by default; a temporary
 * directory when DATA_DIR is `:memory:`). Writes are atomic: a temporary file in the same directory,
 * then a rename, so a reader never sees half a file. Callers store the `area/id` key, never a path.
 */

const NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,127}$/;

export function blobRoot(env: Readonly<Record<string, string | undefined>> = process.env): string {
  if (env.BLOB_DIR) return path.resolve(/* turbopackIgnore: true */ env.BLOB_DIR);
  if (env.DATA_DIR === ":memory:") return path.join(os.tmpdir(), `layerline-blobs-${process.pid}`);
  return path.join(path.resolve(/* turbopackIgnore: true */ env.DATA_DIR ?? ".data"), "blobs");
}

export interface BlobRef {
  area: string;
  id: string;
}

/** The key stored in the database for a blob: `area/id`. */
export function blobKey(ref: BlobRef): string {
  return `${ref.area}/${ref.id}`;
}

export function parseBlobKey(key: string): BlobRef {
  const [area, id, ...rest] = key.split("/");
  if (rest.length > 0 || !area || !id) throw new Error(`Invalid blob key: ${key}`);
  return { area, id };
}

function blobPath(ref: BlobRef): string {
  // Names come from our own ids, but never let one escape the root.
  if (!NAME.test(ref.area) || !NAME.test(ref.id) || ref.id.includes(".."))
    throw new Error("Invalid blob name");
  return path.join(blobRoot(), ref.area, ref.id);
}

export type BlobSource = Uint8Array | ReadableStream<Uint8Array> | AsyncIterable<Uint8Array>;

export interface PutBlobOptions {
  /** Refuse (413) and leave nothing behind when the content is larger than this. */
  maxBytes?: number;
}

async function* chunksOf(source: BlobSource): AsyncIterable<Uint8Array> {
  if (source instanceof Uint8Array) {
    yield source;
    return;
  }
  if (Symbol.asyncIterator in source) {
    yield* source as AsyncIterable<Uint8Array>;
    return;
  }
  const reader = (source as ReadableStream<Uint8Array>).getReader();
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

/** Writes a blob atomically (replacing any previous content) and returns its size in bytes. */
export async function putBlob(
  ref: BlobRef,
  source: BlobSource,
  opts: PutBlobOptions = {},
): Promise<{ key: string; size: number }> {
  const target = blobPath(ref);
  await fsp.mkdir(path.dirname(target), { recursive: true });
  const temp = path.join(path.dirname(target), `.tmp-${ref.id}-${randomBytes(6).toString("hex")}`);
  const handle = await fsp.open(temp, "wx");
  let size = 0;
  try {
    for await (const chunk of chunksOf(source)) {
      size += chunk.byteLength;
      if (opts.maxBytes !== undefined && size > opts.maxBytes)
        throw new PayloadTooLargeError(`The file is larger than ${opts.maxBytes} bytes.`);
      await handle.write(chunk);
    }
    await handle.sync();
    await handle.close();
    await fsp.rename(temp, target);
  } catch (err) {
    await handle.close().catch(() => {});
    await fsp.rm(temp, { force: true });
    throw err;
  }
  return { key: blobKey(ref), size };
}

export interface OpenedBlob {
  size: number;
  stream: ReadableStream<Uint8Array>;
}

/** Opens a blob for streaming, or null when it does not exist. */
export async function openBlob(ref: BlobRef): Promise<OpenedBlob | null> {
  const file = blobPath(ref);
  let handle: fsp.FileHandle;
  try {
    handle = await fsp.open(file, "r");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw err;
  }
  // Stat and read through the same descriptor: a concurrent replace cannot mix two versions.
  let size: number;
  try {
    ({ size } = await handle.stat());
  } catch (err) {
    await handle.close();
    throw err;
  }
  const nodeStream = handle.createReadStream({ autoClose: true });
  const web = Readable.toWeb(nodeStream) as NodeReadableStream<Uint8Array>;
  return { size, stream: web as unknown as ReadableStream<Uint8Array> };
}

/** Reads a whole (small) blob into memory, or null when it does not exist. */
export async function readBlob(ref: BlobRef): Promise<Buffer | null> {
  try {
    return await fsp.readFile(blobPath(ref));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw err;
  }
}

/**
 * Copies a blob to another name, atomically (temporary file, then rename). Returns false when the
 * source does not exist.
 */
export async function copyBlob(from: BlobRef, to: BlobRef): Promise<boolean> {
  const source = blobPath(from);
  const target = blobPath(to);
  await fsp.mkdir(path.dirname(target), { recursive: true });
  const temp = path.join(path.dirname(target), `.tmp-${to.id}-${randomBytes(6).toString("hex")}`);
  try {
    await fsp.copyFile(source, temp, fsp.constants.COPYFILE_EXCL);
    await fsp.rename(temp, target);
    return true;
  } catch (err) {
    await fsp.rm(temp, { force: true });
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return false;
    throw err;
  }
}

/** Removes a blob; a missing blob is not an error. */
export async function deleteBlob(ref: BlobRef): Promise<void> {
  await fsp.rm(blobPath(ref), { force: true });
}
