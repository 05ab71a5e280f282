import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  type S3Client,
  UploadPartCommand,
} from "@aws-sdk/client-s3";

export interface MultipartTarget {
  client: S3Client;
  bucket: string;
  key: string;
  contentType?: string;
  /** Bytes per part (S3: at least 5 MiB but the last). */
  partSize: number;
  /** Parts sent at once. */
  queueSize: number;
}

/**
 * Streams `chunks` to `key` as a multipart upload with a fixed amount of memory: `queueSize + 1`
 * part buffers per upload, filled by copying the chunks in (each byte copied once) and reused once
 * their part is sent, so a long upload neither holds more than that nor leaves a part-sized buffer
 * of garbage per part for the collector (lib-storage's `Upload` concatenates each part afresh and
 * reads ahead 16 chunks of its source). S3 needs each part's length before sending it, so a part is
 * whole in memory while it is sent: that, times the parts in flight, is the floor.
 *
 * Any failure (the source's, a part's, completing) aborts the upload after the parts in flight have
 * settled: nothing stays in the bucket.
 */
export async function uploadInParts(
  target: MultipartTarget,
  chunks: AsyncIterable<Uint8Array>,
): Promise<void> {
  const { client, bucket: Bucket, key: Key, partSize, queueSize } = target;
  const { UploadId } = await client.send(
    new CreateMultipartUploadCommand({ Bucket, Key, ContentType: target.contentType }),
  );
  if (!UploadId) throw new Error("The object store started no multipart upload.");
  const parts: { PartNumber: number; ETag: string | undefined }[] = [];
  const inFlight = new Set<Promise<void>>();
  const spare: Buffer<ArrayBuffer>[] = [];
  let failure: unknown;
  let buffer: Buffer<ArrayBuffer> = Buffer.allocUnsafe(partSize);
  let filled = 0;

  const send = (body: Buffer<ArrayBuffer>, length: number): void => {
    const PartNumber = parts.length + 1;
    const part = { PartNumber, ETag: undefined as string | undefined };
    parts.push(part);
    const sending: Promise<void> = client
      .send(new UploadPartCommand({ Bucket, Key, UploadId, PartNumber, Body: body.subarray(0, length) }))
      .then(
        (res) => {
          part.ETag = res.ETag;
          spare.push(body);
        },
        (err) => {
          failure ??= err;
        },
      )
      .finally(() => inFlight.delete(sending));
    inFlight.add(sending);
  };
  const room = async (): Promise<void> => {
    while (inFlight.size >= queueSize) await Promise.race(inFlight);
    if (failure) throw failure;
  };

  try {
    for await (const chunk of chunks) {
      for (let offset = 0; offset < chunk.byteLength; ) {
        const n = Math.min(partSize - filled, chunk.byteLength - offset);
        buffer.set(chunk.subarray(offset, offset + n), filled);
        filled += n;
        offset += n;
        if (filled === partSize) {
          await room();
          send(buffer, filled);
          buffer = spare.pop() ?? Buffer.allocUnsafe(partSize);
          filled = 0;
        }
      }
    }
    if (filled > 0 || parts.length === 0) {
      await room();
      send(buffer, filled);
    }
    await Promise.all(inFlight);
    if (failure) throw failure;
    await client.send(
      new CompleteMultipartUploadCommand({ Bucket, Key, UploadId, MultipartUpload: { Parts: parts } }),
    );
  } catch (err) {
    await Promise.allSettled(inFlight);
    await client.send(new AbortMultipartUploadCommand({ Bucket, Key, UploadId })).catch(() => {});
    throw err;
  }
}
