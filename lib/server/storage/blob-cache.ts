import { createHash, randomBytes } from "node:crypto";
import fs from "node:fs";
import fsp from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { ReadableStream as NodeReadableStream } from "node:stream/web";
import type { BlobRead, BlobSource, BlobStore, PutBlobOptions, StoredBlob } from "./blob-driver";
import { assertBlobKey } from "./blob-keys";
import { chunksOf } from "./blob-source";
import { blobStore } from "./blob-stores";
import { LocalBlobStore } from "./local-blob-store";

/**
 * Local files for code that needs a path (DuckDB, the ZIP reader, profiling). On the local disk a
 * blob's own file is that path. With a remote store, a copy in this process's cache directory
 * (`BLOB_CACHE_DIR`, default `<tmp>/layerline-blob-cache`): kept from the upload that wrote the blob,
 * or fetched once, checked against the stored SHA-256, and renamed into place (never half a file).
 * Copies are named by key: callers use it for blobs that are never rewritten under the same key.
 */
export function blobCacheDir(env: Readonly<Record<string, string | undefined>> = process.env): string {
  return path.resolve(
    /* turbopackIgnore: true */ env.BLOB_CACHE_DIR || path.join(os.tmpdir(), "layerline-blob-cache"),
  );
}

function cachedFileOf(key: string): string {
  assertBlobKey(key);
  return path.join(blobCacheDir(), ...key.split("/"));
}

function tempBeside(file: string): string {
  return path.join(path.dirname(file), `.tmp-${path.basename(file)}-${randomBytes(6).toString("hex")}`);
}

/** A local file with the blob's bytes, or null when there is no such blob. */
export async function localBlobFile(key: string, store: BlobStore = blobStore()): Promise<string | null> {
  if (store instanceof LocalBlobStore) {
    const file = store.fileOf(key);
    return fs.existsSync(file) ? file : null;
  }
  const file = cachedFileOf(key);
  if (fs.existsSync(file)) return file;
  const read = await store.get(key);
  if (!read) return null;
  await fsp.mkdir(path.dirname(file), { recursive: true });
  const temp = tempBeside(file);
  await writeCheckedFile(read, temp, { exclusive: true });
  try {
    await fsp.rename(temp, file);
  } catch (err) {
    await fsp.rm(temp, { force: true });
    throw err;
  }
  return file;
}

/**
 * Streams a blob that was read into `file`, hashing it on the way: when the store recorded a SHA-256
 * and the bytes do not match it, the file is removed and an error thrown (a reader never gets bytes
 * the store did not vouch for). `exclusive` refuses to overwrite an existing file.
 */
export async function writeCheckedFile(
  read: Pick<BlobRead, "stream" | "sha256">,
  file: string,
  opts: { exclusive?: boolean } = {},
): Promise<void> {
  const hash = createHash("sha256");
  try {
    await pipeline(
      Readable.fromWeb(read.stream as unknown as NodeReadableStream<Uint8Array>),
      async function* (chunks: AsyncIterable<Buffer>) {
        for await (const chunk of chunks) {
          hash.update(chunk);
          yield chunk;
        }
      },
      fs.createWriteStream(file, { flags: opts.exclusive ? "wx" : "w" }),
    );
    if (read.sha256 && hash.digest("hex") !== read.sha256)
      throw new Error("A stored file does not match its recorded SHA-256.");
  } catch (err) {
    await fsp.rm(file, { force: true });
    throw err;
  }
}

/**
 * `store.put`, keeping a local file of what was written: on the local disk the blob's own file, on a
 * remote store a copy written while the bytes stream by (so what was just uploaded is not fetched
 * back to be read).
 */
export async function putKeepingLocalFile(
  key: string,
  source: BlobSource,
  opts: PutBlobOptions = {},
  store: BlobStore = blobStore(),
): Promise<StoredBlob & { file: string }> {
  if (store instanceof LocalBlobStore) {
    const stored = await store.put(key, source, opts);
    return { ...stored, file: store.fileOf(key) };
  }
  const file = cachedFileOf(key);
  await fsp.mkdir(path.dirname(file), { recursive: true });
  const temp = tempBeside(file);
  const out = await fsp.open(temp, "wx");
  async function* tee(): AsyncIterable<Uint8Array> {
    for await (const chunk of chunksOf(source)) {
      await out.write(chunk);
      yield chunk;
    }
  }
  try {
    const stored = await store.put(key, tee(), opts);
    await out.close();
    await fsp.rename(temp, file);
    return { ...stored, file };
  } catch (err) {
    await out.close().catch(() => {});
    await fsp.rm(temp, { force: true });
    throw err;
  }
}

/** Deletes a blob and this process's local copy of it. */
export async function deleteBlobAndLocalFile(key: string, store: BlobStore = blobStore()): Promise<void> {
  await store.delete(key);
  if (!(store instanceof LocalBlobStore)) await fsp.rm(cachedFileOf(key), { force: true });
}
