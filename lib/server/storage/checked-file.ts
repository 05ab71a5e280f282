import { createHash } from "node:crypto";
import fs from "node:fs";
import fsp from "node:fs/promises";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { ReadableStream as NodeReadableStream } from "node:stream/web";
import type { BlobRead } from "./blob-driver";

/**
 * Streams a blob that was read into `file`, hashing it on the way: when the store recorded a SHA-256
 * and the bytes do not match it, the file is removed and an error thrown (a reader never gets bytes
 * the store did not vouch for). `exclusive` refuses to overwrite an existing file. Returns the
 * SHA-256 (hex) of the bytes written.
 */
export async function writeCheckedFile(
  read: Pick<BlobRead, "stream" | "sha256">,
  file: string,
  opts: { exclusive?: boolean } = {},
): Promise<string> {
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
    const sha256 = hash.digest("hex");
    if (read.sha256 && sha256 !== read.sha256)
      throw new Error("A stored file does not match its recorded SHA-256.");
    return sha256;
  } catch (err) {
    await fsp.rm(file, { force: true });
    throw err;
  }
}
