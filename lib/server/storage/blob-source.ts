import { createHash, type Hash } from "node:crypto";
import { PayloadTooLargeError } from "../errors";
import { BlobChecksumError, type BlobSource } from "./blob-driver";

/** The chunks of any source a blob can be written from. */
export async function* chunksOf(source: BlobSource): AsyncIterable<Uint8Array> {
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

/**
 * Passes a source's chunks through while counting and hashing them; throws PayloadTooLargeError as
 * soon as more than `maxBytes` went by. `digest()` once the chunks are exhausted.
 */
export class HashingCounter {
  size = 0;
  private readonly hash: Hash = createHash("sha256");
  private digested: string | undefined;

  constructor(private readonly maxBytes?: number) {}

  async *pass(source: BlobSource): AsyncIterable<Uint8Array> {
    for await (const chunk of chunksOf(source)) {
      this.size += chunk.byteLength;
      if (this.maxBytes !== undefined && this.size > this.maxBytes)
        throw new PayloadTooLargeError(`The file is larger than ${this.maxBytes} bytes.`);
      this.hash.update(chunk);
      yield chunk;
    }
  }

  digest(): string {
    this.digested ??= this.hash.digest("hex");
    return this.digested;
  }

  /** The digest, refused (BlobChecksumError) when it differs from the expected one. */
  verified(expectedSha256: string | undefined): string {
    const sha256 = this.digest();
    if (expectedSha256 !== undefined && expectedSha256.toLowerCase() !== sha256)
      throw new BlobChecksumError();
    return sha256;
  }
}
