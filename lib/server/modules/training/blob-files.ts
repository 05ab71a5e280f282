import fsp from "node:fs/promises";
import { withLocalBlobFile, writeCheckedFile } from "../../storage/blob-cache";
import { blobStore } from "../../storage/blob-stores";

/**
 * Copies a stored blob to a local file, streamed from whichever store holds it and checked against
 * its recorded SHA-256 (a mismatch removes the file and throws); false when the blob is missing.
 * Nothing is kept besides `file`: for blobs read once (a checkpoint a run resumes from).
 */
export async function copyBlobToFile(blobKey: string, file: string): Promise<boolean> {
  const read = await blobStore().get(blobKey);
  if (!read) return false;
  await writeCheckedFile(read, file);
  return true;
}

/**
 * Puts a blob's bytes at `file` from this process's local copy (storage/blob-cache.ts: the blob's own
 * file on the local disk; with a remote store a copy fetched and checked once, then reused by every
 * later load on this machine, leased while linked): a hard link when the file system allows, else a
 * copy (a linked copy counts as in use in the cache until the file is removed). For model files
 * that are loaded again after an eviction or by another evaluation; false when the blob is missing.
 */
export async function linkBlobToFile(blobKey: string, file: string): Promise<boolean> {
  const linked = await withLocalBlobFile(blobKey, async (local) => {
    try {
      await fsp.link(local, file);
    } catch {
      await fsp.copyFile(local, file);
    }
    return true;
  });
  return linked ?? false;
}
