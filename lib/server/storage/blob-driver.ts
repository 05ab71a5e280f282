import { ValidationError } from "../errors";

/**
 * One interface over where stored bytes live: the local disk (the embedded default) or an
 * S3-compatible bucket (`BLOB_STORE=s3`). Callers hold keys (`datasets/dsv_…`), never paths.
 *
 * Guarantees of both drivers:
 * - `put` streams, computes the SHA-256 on the way, and makes the object visible only once it is
 *   complete and (when `expectedSha256` is given) verified: a failed or refused write leaves nothing
 *   under the key, no temporary file and no incomplete multipart upload (aborted on failure).
 * - `head` and `get` give the SHA-256 recorded at write time; `null` for an object written around
 *   `put` (a presigned PUT without a declared checksum) and, from `get` only, for a local file written
 *   by an older version (`head` hashes and records it).
 * - Keys are validated (blob-keys.ts): no path can escape the local root.
 */
export type BlobSource = Uint8Array | ReadableStream<Uint8Array> | AsyncIterable<Uint8Array>;

export interface PutBlobOptions {
  /** Refuse (413) and leave nothing behind when the content is larger than this. */
  maxBytes?: number;
  /** Refuse (422) and leave nothing behind when the content's SHA-256 (hex) differs. */
  expectedSha256?: string;
  contentType?: string;
}

export interface StoredBlob {
  key: string;
  size: number;
  /** Lower-case hex. */
  sha256: string;
}

export interface BlobHead {
  key: string;
  size: number;
  sha256: string | null;
  lastModified: Date;
}

/** Bytes `start` to `end`, both included (as in an HTTP Range header); `end` defaults to the last byte. */
export interface ByteRange {
  start: number;
  end?: number;
}

export interface BlobRead {
  /** Size of the whole object. */
  size: number;
  /** The bytes streamed: `start` to `end` included (the whole object without a range). */
  start: number;
  end: number;
  sha256: string | null;
  stream: ReadableStream<Uint8Array>;
}

export interface ListedBlob {
  key: string;
  size: number;
  lastModified: Date;
}

export interface PresignGetOptions {
  expiresInSeconds: number;
  /** Sent back as `Content-Disposition: attachment; filename=…`. */
  filename?: string;
  contentType?: string;
  /** Sent back as `Cache-Control`. */
  cacheControl?: string;
}

export interface PresignPutOptions {
  expiresInSeconds: number;
  contentType?: string;
  /**
   * The SHA-256 (hex) the uploader declares: it becomes signed `x-amz-meta-sha256` and
   * `x-amz-checksum-sha256` headers the client must send, and S3 refuses a body that does not match.
   */
  sha256?: string;
  /** The exact body length: a signed `Content-Length` the client must send (S3 refuses another). */
  contentLength?: number;
}

export interface BlobStore {
  readonly driver: "local" | "s3";
  put(key: string, source: BlobSource, opts?: PutBlobOptions): Promise<StoredBlob>;
  /** Null when there is no such object. A range past the end throws BlobRangeError. */
  get(key: string, opts?: { range?: ByteRange }): Promise<BlobRead | null>;
  head(key: string): Promise<BlobHead | null>;
  /** A missing object is not an error. */
  delete(key: string): Promise<void>;
  /** Every object whose key starts with `prefix`, in no particular order. */
  list(prefix: string): AsyncIterable<ListedBlob>;
  /** Replaces `to` with a copy of `from` (checksum included); false when `from` does not exist. */
  copy(from: string, to: string): Promise<boolean>;
  /** A URL anyone can GET the object from until it expires; null on the local disk (stream instead). */
  presignGet(key: string, opts: PresignGetOptions): Promise<string | null>;
  /** A URL a client can PUT the object's bytes to; null on the local disk (stream through the API). */
  presignPut(key: string, opts: PresignPutOptions): Promise<string | null>;
  /**
   * Removes what interrupted writes left (temporary files and objects, incomplete multipart uploads)
   * started before `olderThan`; returns how many were removed. For the orphan sweep.
   */
  sweepIncomplete(olderThan: Date): Promise<number>;
}

export class BlobChecksumError extends ValidationError {
  constructor() {
    super("The content's SHA-256 does not match the declared checksum: nothing was stored.");
  }
}

export class BlobRangeError extends Error {
  constructor(readonly size: number) {
    super("The requested range is not satisfiable.");
    this.name = "BlobRangeError";
  }
}

/** Checks a range against an object's size; returns the inclusive end. */
export function resolveRange(range: ByteRange | undefined, size: number): { start: number; end: number } {
  if (!range) return { start: 0, end: size - 1 };
  const { start } = range;
  const end = Math.min(range.end ?? size - 1, size - 1);
  if (!Number.isSafeInteger(start) || start < 0 || start >= size || end < start)
    throw new BlobRangeError(size);
  return { start, end };
}
