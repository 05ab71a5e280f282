import os from "node:os";
import path from "node:path";

/**
 * The local disk driver's root and the `area/id` key helpers older callers still build keys with.
 * Reading and writing stored bytes goes through `blobStore()` (blob-stores.ts, interface in
 * blob-driver.ts) on whichever driver the settings choose; nothing here touches a blob's bytes.
 * The root is `BLOB_DIR` when set, else `${DATA_DIR}/blobs` (`./.data/blobs` by default; a temporary
 * directory when DATA_DIR is `:memory:`).
 */

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
