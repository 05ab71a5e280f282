import { createHash } from "node:crypto";
import fs from "node:fs";
import fsp from "node:fs/promises";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { ReadableStream as NodeReadableStream } from "node:stream/web";
import { localBlobFile } from "../../storage/blob-cache";
import { blobStore } from "../../storage/blob-stores";

/**
 * Copies a stored blob to a local file, streamed from whichever store holds it and checked against
 * its recorded SHA-256 (a mismatch removes the file and throws); false when the blob is missing.
 * Nothing is kept besides `file`: for blobs read once (a checkpoint a run resumes from).
 */
export async function copyBlobToFile(blobKey: string, file: string): Promise<boolean> {
  const read = await blobStore().get(blobKey);
  if (!read) return false;
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
      fs.createWriteStream(file),
    );
    if (read.sha256 && hash.digest("hex") !== read.sha256)
      throw new Error("A stored file does not match its recorded SHA-256.");
  } catch (err) {
    await fsp.rm(file, { force: true });
    throw err;
  }
  return true;
}

/**
 * Puts a blob's bytes at `file` from this process's local copy (storage/blob-cache.ts: the blob's own
 * file on the local disk; with a remote store a copy fetched and checked once, then reused by every
 * later load on this machine): a hard link when the file system allows, else a copy. For model files
 * that are loaded again after an eviction or by another evaluation; false when the blob is missing.
 */
export async function linkBlobToFile(blobKey: string, file: string): Promise<boolean> {
  const local = await localBlobFile(blobKey);
  if (!local) return false;
  try {
    await fsp.link(local, file);
  } catch {
    await fsp.copyFile(local, file);
  }
  return true;
}
