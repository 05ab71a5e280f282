import { type Env, readBlobStoreConfig } from "../config";
import type { BlobStore } from "./blob-driver";
import { blobRoot } from "./blob-store";
import { LocalBlobStore } from "./local-blob-store";
import { S3BlobStore } from "./s3-blob-store";

/** The store the settings choose (BLOB_STORE, S3_*): built from the environment given. */
export function createBlobStore(env: Env = process.env): BlobStore {
  const config = readBlobStoreConfig(env);
  if (config.driver === "s3") return new S3BlobStore(config);
  return new LocalBlobStore(blobRoot(env));
}

// One client per process (it pools connections); not state: every process builds the same from
// the same settings.
const holder = globalThis as unknown as { __layerlineBlobStore?: BlobStore };

/** This process's blob store, built on first use from process.env. */
export function blobStore(): BlobStore {
  holder.__layerlineBlobStore ??= createBlobStore();
  return holder.__layerlineBlobStore;
}

/** Tests: use this store (or the settings' again, with undefined) from now on. */
export function setBlobStore(store: BlobStore | undefined): void {
  holder.__layerlineBlobStore = store;
}
