import fs from "node:fs";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { ReadableStream as NodeReadableStream } from "node:stream/web";
import { openBlob, parseBlobKey } from "../../storage/blob-store";

/** Copies a stored blob to a local file (streamed); false when the blob is missing. */
export async function copyBlobToFile(blobKey: string, file: string): Promise<boolean> {
  const blob = await openBlob(parseBlobKey(blobKey));
  if (!blob) return false;
  await pipeline(
    Readable.fromWeb(blob.stream as unknown as NodeReadableStream<Uint8Array>),
    fs.createWriteStream(file),
  );
  return true;
}
