import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { readBlobCacheMaxBytes } from "../config";
import type { BlobSource, BlobStore, PutBlobOptions, StoredBlob } from "./blob-driver";
import { BlobFileCache, type BlobFileLease } from "./blob-file-cache";
import { blobStore } from "./blob-stores";
import { LocalBlobStore } from "./local-blob-store";

export type { BlobFileLease } from "./blob-file-cache";
export { writeCheckedFile } from "./checked-file";

/**
 * Local files for code that needs a path (DuckDB, the ZIP reader, profiling, a job's dataset, model
 * files for serving). On the local disk a blob's own file is that path. With a remote store, a copy
 * in the cache directory (`BLOB_CACHE_DIR`, default `<tmp>/layerline-blob-cache`, shared by the
 * processes of a machine), bounded by `BLOB_CACHE_MAX_BYTES`: kept from the upload that wrote the
 * blob or fetched, checked against the stored SHA-256, named by it (a blob replaced under the same
 * key is fetched again), and evicted least recently used first once no reader holds it
 * (blob-file-cache.ts).
 */
export function blobCacheDir(env: Readonly<Record<string, string | undefined>> = process.env): string {
  return path.resolve(
    /* turbopackIgnore: true */ env.BLOB_CACHE_DIR || path.join(os.tmpdir(), "layerline-blob-cache"),
  );
}

// One per directory and bound in a process (their leases are this process's own).
const caches = new Map<string, BlobFileCache>();

/** The cache the settings choose (BLOB_CACHE_DIR, BLOB_CACHE_MAX_BYTES), read on each call. */
export function blobFileCache(
  env: Readonly<Record<string, string | undefined>> = process.env,
): BlobFileCache {
  const dir = blobCacheDir(env);
  const maxBytes = readBlobCacheMaxBytes(env);
  const id = `${dir}\0${maxBytes}`;
  let cache = caches.get(id);
  if (!cache) {
    cache = new BlobFileCache(dir, { maxBytes });
    caches.set(id, cache);
  }
  return cache;
}

/**
 * A local file with the blob's bytes, valid until `release()`; null when there is no such blob.
 * On the local disk the blob's own file (release does nothing).
 */
export async function leaseLocalBlobFile(
  key: string,
  store: BlobStore = blobStore(),
): Promise<BlobFileLease | null> {
  if (store instanceof LocalBlobStore) {
    const file = await localBlobFile(key, store);
    return file ? { file, release: async () => {} } : null;
  }
  return blobFileCache().lease(store, key);
}

/** Runs `use` with a local file of the blob, released afterwards; null when there is no such blob. */
export async function withLocalBlobFile<T>(
  key: string,
  use: (file: string) => Promise<T>,
  store: BlobStore = blobStore(),
): Promise<T | null> {
  const lease = await leaseLocalBlobFile(key, store);
  if (!lease) return null;
  try {
    return await use(lease.file);
  } finally {
    await lease.release();
  }
}

/**
 * A local file with the blob's bytes, or null when there is no such blob. With a remote store the
 * path stays valid for 10 minutes after its last hand-out in this process: for callers that cannot
 * say when they are done (prefer `leaseLocalBlobFile`).
 */
export async function localBlobFile(key: string, store: BlobStore = blobStore()): Promise<string | null> {
  if (store instanceof LocalBlobStore) {
    const file = store.fileOf(key);
    return fs.existsSync(file) ? file : null;
  }
  return blobFileCache().file(store, key);
}

/**
 * `store.put`, keeping a local file of what was written: on the local disk the blob's own file, on a
 * remote store a copy written while the bytes stream by (so what was just uploaded is not fetched
 * back to be read), valid as `localBlobFile`'s.
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
  return blobFileCache().put(store, key, source, opts);
}

/** Deletes a blob and the local copies of it. */
export async function deleteBlobAndLocalFile(key: string, store: BlobStore = blobStore()): Promise<void> {
  await store.delete(key);
  if (!(store instanceof LocalBlobStore)) await blobFileCache().forget(key);
}
