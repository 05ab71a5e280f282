/**
 * Training's stored files on both drivers (the local disk and an S3-compatible server): the orphan
 * sweep of the recovery pass (what interrupted writes left, checkpoint and artifact objects no row
 * references) and the local files a resumed run, an evaluation or a deployment reads (streamed and
 * checked, or linked from this process's checked copy).
 */
// The app first: it extends zod with .openapi() before the schema modules build their schemas.
import "@/lib/server/app";
import { createHash } from "node:crypto";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { CreateMultipartUploadCommand, PutObjectCommand, UploadPartCommand } from "@aws-sdk/client-s3";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { readBlobStoreConfig, type S3BlobStoreConfig } from "@/lib/server/config";
import { getDb } from "@/lib/server/db/client";
import { trainingCheckpoints } from "@/lib/server/db/schema";
import { copyBlobToFile, linkBlobToFile } from "@/lib/server/modules/training/blob-files";
import { sweepOrphanBlobs } from "@/lib/server/modules/training/recovery";
import type { BlobStore } from "@/lib/server/storage/blob-driver";
import { setBlobStore } from "@/lib/server/storage/blob-stores";
import { LocalBlobStore } from "@/lib/server/storage/local-blob-store";
import { S3BlobStore } from "@/lib/server/storage/s3-blob-store";
import { call, signUpWithKey, startTestApp, type TestApp } from "../helpers";
import { startS3Server, type TestS3Server } from "../helpers/s3-server";

interface Fixture {
  store: BlobStore;
  /** Leaves what a crash in the middle of a write would leave (an hour old on the local disk). */
  interruptWrite(): Promise<void>;
  /** Replaces an object's bytes behind the store's back, keeping its recorded SHA-256. */
  tamper(key: string): Promise<void>;
  close(): Promise<void>;
}

async function localFixture(): Promise<Fixture> {
  const root = await fs.mkdtemp(path.join(os.tmpdir(), "layerline-training-blobs-"));
  const store = new LocalBlobStore(path.join(root, "blobs"));
  return {
    store,
    async interruptWrite() {
      const dir = path.join(root, "blobs", "datasets");
      await fs.mkdir(dir, { recursive: true });
      await fs.writeFile(path.join(dir, ".tmp-dsv_crashed-0123456789ab"), "half a file");
    },
    // The local driver records (inode, mtime) with the checksum: a rewrite is not served as checked.
    tamper: async () => {},
    close: () => fs.rm(root, { recursive: true, force: true }),
  };
}

async function s3Fixture(server: TestS3Server): Promise<Fixture> {
  const store = new S3BlobStore(readBlobStoreConfig(server.env) as S3BlobStoreConfig);
  const Bucket = server.bucket;
  return {
    store,
    async interruptWrite() {
      const Key = ".incoming/crashed";
      const { UploadId } = await store.client.send(new CreateMultipartUploadCommand({ Bucket, Key }));
      await store.client.send(new UploadPartCommand({ Bucket, Key, UploadId, PartNumber: 1, Body: "part" }));
    },
    async tamper(key) {
      const head = await store.head(key);
      await store.client.send(
        new PutObjectCommand({
          Bucket,
          Key: key,
          Body: "not the model",
          Metadata: { sha256: head?.sha256 ?? "" },
        }),
      );
    },
    close: async () => {},
  };
}

let app: TestApp;
let s3: TestS3Server;
const cacheBefore = process.env.BLOB_CACHE_DIR;
let cache: string;
beforeAll(async () => {
  app = await startTestApp();
  s3 = await startS3Server();
  // This file's own local copies of remote blobs (keys repeat across runs).
  cache = await fs.mkdtemp(path.join(os.tmpdir(), "layerline-training-cache-"));
  process.env.BLOB_CACHE_DIR = cache;
});
afterAll(async () => {
  setBlobStore(undefined);
  if (cacheBefore === undefined) delete process.env.BLOB_CACHE_DIR;
  else process.env.BLOB_CACHE_DIR = cacheBefore;
  await fs.rm(cache, { recursive: true, force: true });
  await s3.close();
});

const sha256 = (b: Uint8Array | string) => createHash("sha256").update(b).digest("hex");

describe.each([
  ["local disk", () => localFixture()],
  ["S3", () => s3Fixture(s3)],
])("training files on the %s", (_name, make) => {
  let f: Fixture;
  beforeAll(async () => {
    f = await make();
    setBlobStore(f.store);
  });
  afterAll(async () => {
    setBlobStore(undefined);
    await f.close();
  });

  test("the orphan sweep removes interrupted writes and unreferenced checkpoints and artifacts only", async () => {
    const db = await getDb();
    const { key } = await signUpWithKey(app);
    const project = await call(app, "POST", "/api/v1/projects", {
      key,
      body: { name: "p", template: "mlp-classifier" },
    });
    const job = await call(app, "POST", "/api/v1/training/jobs", {
      key,
      body: { project_id: project.json.id, dataset_id: "builtin-iris", runtime: "external" },
    });
    const kept = await f.store.put("checkpoints/ckpt_kept", new TextEncoder().encode("kept"));
    await db.insert(trainingCheckpoints).values({
      id: `ckpt_kept_${job.json.id}`,
      jobId: job.json.id,
      epoch: 1,
      blobKey: kept.key,
      sizeBytes: kept.size,
      sha256: kept.sha256,
    });
    await f.store.put("checkpoints/ckpt_orphan", new TextEncoder().encode("orphan"));
    await f.store.put("artifacts/job_gone.abc.model.onnx", new TextEncoder().encode("orphan"));
    await f.store.put("datasets/dsv_unrelated", new TextEncoder().encode("a dataset"));
    await f.interruptWrite();

    // Young objects may still be being written by another process: kept.
    expect(await sweepOrphanBlobs(db, 3600_000)).toBe(0);
    expect(await sweepOrphanBlobs(db, 0)).toBe(3);
    expect(await f.store.head("checkpoints/ckpt_orphan")).toBeNull();
    expect(await f.store.head("artifacts/job_gone.abc.model.onnx")).toBeNull();
    expect(await f.store.head("checkpoints/ckpt_kept")).not.toBeNull();
    expect(await f.store.head("datasets/dsv_unrelated")).not.toBeNull();
    expect(await sweepOrphanBlobs(db, 0)).toBe(0);
  });

  test("a checkpoint streams to a local file, checked; a model file is linked from the checked local copy", async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), "layerline-training-files-"));
    try {
      const data = new Uint8Array(300_000).map((_, i) => (i * 31) % 251);
      await f.store.put("checkpoints/ckpt_resume", data);
      expect(await copyBlobToFile("checkpoints/ckpt_resume", path.join(dir, "resume.ckpt"))).toBe(true);
      expect(sha256(await fs.readFile(path.join(dir, "resume.ckpt")))).toBe(sha256(data));
      expect(await copyBlobToFile("checkpoints/ckpt_missing", path.join(dir, "missing.ckpt"))).toBe(false);

      await f.store.put("artifacts/job_1.abc.model.onnx", data);
      for (const name of ["first", "second"]) {
        expect(await linkBlobToFile("artifacts/job_1.abc.model.onnx", path.join(dir, name))).toBe(true);
        expect(sha256(await fs.readFile(path.join(dir, name)))).toBe(sha256(data));
      }
      expect(await linkBlobToFile("artifacts/job_missing.model.onnx", path.join(dir, "none"))).toBe(false);

      if (f.store.driver === "s3") {
        // Bytes that do not match their recorded SHA-256 are refused and leave no file.
        await f.store.put("checkpoints/ckpt_tampered", data);
        await f.tamper("checkpoints/ckpt_tampered");
        await expect(copyBlobToFile("checkpoints/ckpt_tampered", path.join(dir, "t.ckpt"))).rejects.toThrow(
          /SHA-256/,
        );
        await expect(fs.stat(path.join(dir, "t.ckpt"))).rejects.toThrow();
        await f.store.put("artifacts/job_2.abc.model.onnx", data);
        await f.tamper("artifacts/job_2.abc.model.onnx");
        await expect(linkBlobToFile("artifacts/job_2.abc.model.onnx", path.join(dir, "m"))).rejects.toThrow(
          /SHA-256/,
        );
        await expect(fs.stat(path.join(dir, "m"))).rejects.toThrow();
      }
    } finally {
      await fs.rm(dir, { recursive: true, force: true });
    }
  });
});
