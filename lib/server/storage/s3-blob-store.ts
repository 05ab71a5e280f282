import { randomUUID } from "node:crypto";
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CopyObjectCommand,
  CreateMultipartUploadCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  type GetObjectCommandOutput,
  HeadObjectCommand,
  ListMultipartUploadsCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
  UploadPartCopyCommand,
} from "@aws-sdk/client-s3";
import { getSignedUrl } from "@aws-sdk/s3-request-presigner";
import type { S3BlobStoreConfig } from "../config";
import { attachmentDisposition } from "../http/content-disposition";
import {
  type BlobHead,
  BlobRangeError,
  type BlobRead,
  type BlobSource,
  type BlobStore,
  type ByteRange,
  type ListedBlob,
  type PresignGetOptions,
  type PresignPutOptions,
  type PutBlobOptions,
  type StoredBlob,
} from "./blob-driver";
import { assertBlobKey, assertBlobPrefix } from "./blob-keys";
import { HashingCounter } from "./blob-source";
import { uploadInParts } from "./s3-multipart";

/** Large uploads go to a temporary key first and are copied into place once complete and verified. */
const INCOMING = ".incoming/";
/** S3's limit for a single CopyObject; larger objects are copied part by part. */
const MAX_SINGLE_COPY_BYTES = 5 * 1024 ** 3;
const COPY_PART_BYTES = 512 * 1024 ** 2;
const MIB = 1024 * 1024;

export interface S3BlobStoreTuning {
  /** Multipart part size (S3's minimum is 5 MiB). Default 8 MiB. */
  partSize?: number;
  /** Content up to this size is sent in one PutObject. Default: the part size. */
  multipartThreshold?: number;
  /** Parts uploaded at once (each holds a part in memory). Default 2. */
  queueSize?: number;
}

function status(err: unknown): number | undefined {
  return err instanceof S3ServiceException ? err.$metadata.httpStatusCode : undefined;
}

function copySource(bucket: string, key: string): string {
  return `${bucket}/${key.split("/").map(encodeURIComponent).join("/")}`;
}

function base64OfHex(hex: string): string {
  return Buffer.from(hex, "hex").toString("base64");
}

/**
 * Blobs in an S3-compatible bucket (AWS S3, Ceph RGW, MinIO, R2 …). Small content is buffered, hashed
 * and sent in one PutObject (atomic). Larger content is a multipart upload to a temporary key
 * (`.incoming/…`, s3-multipart.ts: a fixed `queueSize + 1` part buffers per upload; aborted on any
 * failure), then, once its SHA-256 is known
 * and verified, copied server-side to the key with the checksum as `x-amz-meta-sha256`, and the
 * temporary object deleted: nothing half-written or unverified is ever visible under a key.
 */
export class S3BlobStore implements BlobStore {
  readonly driver = "s3" as const;
  readonly client: S3Client;
  /** Signs presigned URLs for the address clients reach (S3_PUBLIC_ENDPOINT); else `client`. */
  private readonly presigner: S3Client;
  readonly bucket: string;
  private readonly partSize: number;
  private readonly threshold: number;
  private readonly queueSize: number;

  constructor(config: S3BlobStoreConfig, tuning: S3BlobStoreTuning = {}) {
    this.bucket = config.bucket;
    const clientFor = (endpoint: string | undefined) =>
      new S3Client({
        region: config.region,
        endpoint,
        forcePathStyle: config.forcePathStyle,
        credentials: config.credentials,
        // The SDK's default CRC32 on every request is not understood by every S3-compatible server and
        // would be baked into presigned URLs; integrity is our SHA-256 (sent as a checksum where known).
        requestChecksumCalculation: "WHEN_REQUIRED",
        responseChecksumValidation: "WHEN_REQUIRED",
      });
    this.client = clientFor(config.endpoint);
    // Signing is local (no request is sent): a second client only changes the host in the URL.
    this.presigner =
      config.publicEndpoint && config.publicEndpoint !== config.endpoint
        ? clientFor(config.publicEndpoint)
        : this.client;
    this.partSize = Math.max(tuning.partSize ?? 8 * MIB, 5 * MIB);
    this.threshold = tuning.multipartThreshold ?? this.partSize;
    this.queueSize = tuning.queueSize ?? 2;
  }

  async put(key: string, source: BlobSource, opts: PutBlobOptions = {}): Promise<StoredBlob> {
    assertBlobKey(key);
    const counter = new HashingCounter(opts.maxBytes);
    const chunks = counter.pass(source)[Symbol.asyncIterator]();
    const head: Uint8Array[] = [];
    let buffered = 0;
    let ended = false;
    while (buffered <= this.threshold) {
      const next = await chunks.next();
      if (next.done) {
        ended = true;
        break;
      }
      head.push(next.value);
      buffered += next.value.byteLength;
    }
    if (ended) {
      const sha256 = counter.verified(opts.expectedSha256);
      await this.client.send(
        new PutObjectCommand({
          Bucket: this.bucket,
          Key: key,
          Body: Buffer.concat(head),
          ContentLength: buffered,
          ContentType: opts.contentType,
          Metadata: { sha256 },
          ChecksumSHA256: base64OfHex(sha256),
        }),
      );
      return { key, size: buffered, sha256 };
    }
    const temp = `${INCOMING}${randomUUID()}`;
    async function* all(): AsyncGenerator<Uint8Array> {
      try {
        for (const chunk of head.splice(0)) yield chunk;
        for (;;) {
          const next = await chunks.next();
          if (next.done) return;
          yield next.value;
        }
      } finally {
        await chunks.return?.();
      }
    }
    try {
      await uploadInParts(
        {
          client: this.client,
          bucket: this.bucket,
          key: temp,
          contentType: opts.contentType,
          partSize: this.partSize,
          queueSize: this.queueSize,
        },
        all(),
      );
      const sha256 = counter.verified(opts.expectedSha256);
      await this.copyObject(temp, key, counter.size, { sha256 }, opts.contentType);
      return { key, size: counter.size, sha256 };
    } finally {
      await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: temp })).catch(() => {});
    }
  }

  /** A server-side copy; `metadata` replaces the source's (undefined: kept). */
  private async copyObject(
    from: string,
    to: string,
    size: number,
    metadata: Record<string, string> | undefined,
    contentType: string | undefined,
  ): Promise<void> {
    const directive = metadata ? "REPLACE" : "COPY";
    if (size <= MAX_SINGLE_COPY_BYTES) {
      await this.client.send(
        new CopyObjectCommand({
          Bucket: this.bucket,
          Key: to,
          CopySource: copySource(this.bucket, from),
          MetadataDirective: directive,
          Metadata: metadata,
          ContentType: metadata ? contentType : undefined,
        }),
      );
      return;
    }
    let meta = metadata;
    let type = contentType;
    if (!meta) {
      const head = await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: from }));
      meta = head.Metadata;
      type = head.ContentType;
    }
    const { UploadId } = await this.client.send(
      new CreateMultipartUploadCommand({ Bucket: this.bucket, Key: to, Metadata: meta, ContentType: type }),
    );
    try {
      const parts: { PartNumber: number; ETag: string | undefined }[] = [];
      for (let start = 0, n = 1; start < size; start += COPY_PART_BYTES, n += 1) {
        const end = Math.min(start + COPY_PART_BYTES, size) - 1;
        const res = await this.client.send(
          new UploadPartCopyCommand({
            Bucket: this.bucket,
            Key: to,
            UploadId,
            PartNumber: n,
            CopySource: copySource(this.bucket, from),
            CopySourceRange: `bytes=${start}-${end}`,
          }),
        );
        parts.push({ PartNumber: n, ETag: res.CopyPartResult?.ETag });
      }
      await this.client.send(
        new CompleteMultipartUploadCommand({
          Bucket: this.bucket,
          Key: to,
          UploadId,
          MultipartUpload: { Parts: parts },
        }),
      );
    } catch (err) {
      await this.client
        .send(new AbortMultipartUploadCommand({ Bucket: this.bucket, Key: to, UploadId }))
        .catch(() => {});
      throw err;
    }
  }

  async get(key: string, opts: { range?: ByteRange } = {}): Promise<BlobRead | null> {
    assertBlobKey(key);
    const { range } = opts;
    if (
      range &&
      (!Number.isSafeInteger(range.start) || range.start < 0 || (range.end ?? range.start) < range.start)
    ) {
      const head = await this.head(key);
      if (!head) return null;
      throw new BlobRangeError(head.size);
    }
    let res: GetObjectCommandOutput;
    try {
      res = await this.client.send(
        new GetObjectCommand({
          Bucket: this.bucket,
          Key: key,
          Range: range ? `bytes=${range.start}-${range.end ?? ""}` : undefined,
        }),
      );
    } catch (err) {
      if (status(err) === 404) return null;
      if (status(err) === 416) {
        const head = await this.head(key);
        if (!head) return null;
        throw new BlobRangeError(head.size);
      }
      throw err;
    }
    const length = res.ContentLength ?? 0;
    let size = length;
    let start = 0;
    let end = length - 1;
    const match = /^bytes (\d+)-(\d+)\/(\d+)$/.exec(res.ContentRange ?? "");
    if (match) {
      start = Number(match[1]);
      end = Number(match[2]);
      size = Number(match[3]);
    }
    if (!res.Body) throw new Error("The object store sent no body.");
    return {
      size,
      start,
      end,
      sha256: res.Metadata?.sha256 ?? null,
      stream: res.Body.transformToWebStream() as ReadableStream<Uint8Array>,
    };
  }

  async head(key: string): Promise<BlobHead | null> {
    assertBlobKey(key);
    try {
      const res = await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: key }));
      return {
        key,
        size: res.ContentLength ?? 0,
        sha256: res.Metadata?.sha256 ?? null,
        lastModified: res.LastModified ?? new Date(0),
      };
    } catch (err) {
      if (status(err) === 404) return null;
      throw err;
    }
  }

  async delete(key: string): Promise<void> {
    assertBlobKey(key);
    await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: key }));
  }

  async *list(prefix: string): AsyncIterable<ListedBlob> {
    assertBlobPrefix(prefix);
    yield* this.listRaw(prefix, false);
  }

  private async *listRaw(prefix: string, includeHidden: boolean): AsyncIterable<ListedBlob> {
    let token: string | undefined;
    do {
      const page = await this.client.send(
        new ListObjectsV2Command({
          Bucket: this.bucket,
          Prefix: prefix || undefined,
          ContinuationToken: token,
        }),
      );
      for (const o of page.Contents ?? []) {
        if (!o.Key || (!includeHidden && o.Key.startsWith("."))) continue;
        yield { key: o.Key, size: o.Size ?? 0, lastModified: o.LastModified ?? new Date(0) };
      }
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
  }

  async copy(from: string, to: string): Promise<boolean> {
    assertBlobKey(from);
    assertBlobKey(to);
    const head = await this.head(from);
    if (!head) return false;
    try {
      await this.copyObject(from, to, head.size, undefined, undefined);
      return true;
    } catch (err) {
      if (status(err) === 404) return false;
      throw err;
    }
  }

  async presignGet(key: string, opts: PresignGetOptions): Promise<string> {
    assertBlobKey(key);
    return getSignedUrl(
      this.presigner,
      new GetObjectCommand({
        Bucket: this.bucket,
        Key: key,
        ResponseContentDisposition: opts.filename ? attachmentDisposition(opts.filename) : undefined,
        ResponseContentType: opts.contentType,
        ResponseCacheControl: opts.cacheControl,
      }),
      { expiresIn: opts.expiresInSeconds },
    );
  }

  async presignPut(key: string, opts: PresignPutOptions): Promise<string> {
    assertBlobKey(key);
    const sha256 = opts.sha256?.toLowerCase();
    return getSignedUrl(
      this.presigner,
      new PutObjectCommand({
        Bucket: this.bucket,
        Key: key,
        ContentType: opts.contentType,
        ContentLength: opts.contentLength,
        Metadata: sha256 ? { sha256 } : undefined,
        ChecksumSHA256: sha256 ? base64OfHex(sha256) : undefined,
      }),
      {
        expiresIn: opts.expiresInSeconds,
        // Signed headers the client must send (not query parameters it could drop).
        unhoistableHeaders: new Set(sha256 ? ["x-amz-meta-sha256", "x-amz-checksum-sha256"] : []),
      },
    );
  }

  async sweepIncomplete(olderThan: Date): Promise<number> {
    let removed = 0;
    for await (const o of this.listRaw(INCOMING, true)) {
      if (o.lastModified >= olderThan) continue;
      await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: o.key }));
      removed += 1;
    }
    let keyMarker: string | undefined;
    let uploadIdMarker: string | undefined;
    do {
      const page = await this.client.send(
        new ListMultipartUploadsCommand({
          Bucket: this.bucket,
          KeyMarker: keyMarker,
          UploadIdMarker: uploadIdMarker,
        }),
      );
      for (const u of page.Uploads ?? []) {
        if (!u.Key || !u.UploadId || (u.Initiated && u.Initiated >= olderThan)) continue;
        await this.client.send(
          new AbortMultipartUploadCommand({ Bucket: this.bucket, Key: u.Key, UploadId: u.UploadId }),
        );
        removed += 1;
      }
      const more = page.IsTruncated;
      keyMarker = more ? page.NextKeyMarker : undefined;
      uploadIdMarker = more ? page.NextUploadIdMarker : undefined;
    } while (keyMarker);
    return removed;
  }
}
