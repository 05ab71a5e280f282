import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { CreateBucketCommand, ListMultipartUploadsCommand, ListObjectsV2Command } from "@aws-sdk/client-s3";
import { readBlobStoreConfig } from "@/lib/server/config";
import { blobStore, setBlobStore } from "@/lib/server/storage/blob-stores";
import { S3BlobStore } from "@/lib/server/storage/s3-blob-store";

/**
 * With BLOB_STORE=s3, makes this test file's store a fresh bucket on the configured server (the files
 * of one run share the server, so counts of stored objects would see the others' uploads); nothing
 * changes on the local disk, where each file has its own BLOB_DIR. Call in beforeAll.
 */
export async function useOwnBlobBucket(): Promise<void> {
  const config = readBlobStoreConfig(process.env);
  if (config.driver !== "s3") return;
  const bucket = `${config.bucket}-${randomBytes(6).toString("hex")}`.slice(0, 63);
  const store = new S3BlobStore({ ...config, bucket });
  await store.client.send(new CreateBucketCommand({ Bucket: bucket }));
  setBlobStore(store);
}

/**
 * Every stored file of an area, temporary ones included: on the local disk the names in the blob
 * directory's `<area>/`; on S3 the objects under `<area>/`, temporary upload objects and open
 * multipart uploads of the bucket.
 */
export async function storedAreaFiles(blobDir: string, area: string): Promise<string[]> {
  const store = blobStore();
  if (!(store instanceof S3BlobStore)) {
    const dir = path.join(blobDir, area);
    return fs.existsSync(dir) ? fs.readdirSync(dir) : [];
  }
  const names: string[] = [];
  for (const prefix of [`${area}/`, ".incoming/"]) {
    const listed = await store.client.send(
      new ListObjectsV2Command({ Bucket: store.bucket, Prefix: prefix }),
    );
    for (const o of listed.Contents ?? [])
      names.push(prefix === ".incoming/" ? `.tmp:${o.Key}` : (o.Key ?? "").slice(prefix.length));
  }
  const uploads = await store.client.send(new ListMultipartUploadsCommand({ Bucket: store.bucket }));
  for (const u of uploads.Uploads ?? []) names.push(`.tmp:upload:${u.Key}`);
  return names;
}
