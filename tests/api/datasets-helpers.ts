import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { ListMultipartUploadsCommand, ListObjectsV2Command } from "@aws-sdk/client-s3";
import { afterAll } from "vitest";
import { getDb } from "@/lib/server/db/client";
import { stopInProcessRunner } from "@/lib/server/jobs/runner";
import { flushUsage } from "@/lib/server/modules/account/usage-recorder";
import { blobCacheDir, localBlobFile } from "@/lib/server/storage/blob-cache";
import { blobStore } from "@/lib/server/storage/blob-stores";
import { S3BlobStore } from "@/lib/server/storage/s3-blob-store";
import { call, startTestApp, type TestApp } from "../helpers";

/** Shared setup of the dataset API tests: a private blob directory, multipart bodies, task polling. */

/**
 * Starts the app on a fresh database with the blob store in a fresh directory; afterwards stops the
 * job runner and flushes key usage before the database closes (after-hooks run in reverse order).
 */
export async function startDatasetTestApp(prefix: string): Promise<{ app: TestApp; blobDir: string }> {
  const blobDir = fs.mkdtempSync(path.join(os.tmpdir(), `${prefix}-`));
  process.env.BLOB_DIR = blobDir;
  afterAll(() => fs.rmSync(blobDir, { recursive: true, force: true }));
  const app = await startTestApp();
  afterAll(async () => {
    await stopInProcessRunner({ graceMs: 1000 });
    await flushUsage(await getDb());
  });
  return { app, blobDir };
}

/**
 * Every stored dataset file, temporary ones included: on the local disk the files of the blob
 * directory's datasets area; on an S3-compatible store (BLOB_STORE=s3) the objects under `datasets/`,
 * temporary upload objects, open multipart uploads and temporary files of the local cache.
 */
export async function datasetBlobFiles(blobDir: string): Promise<string[]> {
  const store = blobStore();
  if (!(store instanceof S3BlobStore)) {
    const dir = path.join(blobDir, "datasets");
    return fs.existsSync(dir) ? fs.readdirSync(dir) : [];
  }
  const names: string[] = [];
  for (const prefix of ["datasets/", ".incoming/"]) {
    const listed = await store.client.send(
      new ListObjectsV2Command({ Bucket: store.bucket, Prefix: prefix }),
    );
    for (const o of listed.Contents ?? [])
      names.push(prefix === "datasets/" ? (o.Key ?? "").slice(prefix.length) : `${o.Key}`);
  }
  const uploads = await store.client.send(new ListMultipartUploadsCommand({ Bucket: store.bucket }));
  for (const u of uploads.Uploads ?? []) names.push(`upload:${u.Key}`);
  const cache = path.join(blobCacheDir(), "tmp"); // fetches and uploads in progress
  if (fs.existsSync(cache)) names.push(...fs.readdirSync(cache).filter((n) => n.startsWith(".tmp")));
  return names;
}

/** A local file with a stored dataset version's bytes (whichever store holds them). */
export async function datasetVersionFile(blobKey: string): Promise<string> {
  const file = await localBlobFile(blobKey);
  if (!file) throw new Error(`no stored file for ${blobKey}`);
  return file;
}

export function multipart(
  content: string | Uint8Array,
  fileName: string,
  fields: Record<string, string> = {},
): FormData {
  const fd = new FormData();
  for (const [k, v] of Object.entries(fields)) fd.set(k, v);
  fd.set("file", new Blob([typeof content === "string" ? content : Buffer.from(content)]), fileName);
  return fd;
}

export async function upload(
  app: TestApp,
  key: string,
  content: string | Uint8Array,
  fileName = "data.csv",
  fields: Record<string, string> = {},
) {
  return call(app, "POST", "/api/v1/datasets/", { key, rawBody: multipart(content, fileName, fields) });
}

/** Polls a dataset task until it has finished. */
export async function waitForTask(app: TestApp, key: string, taskId: string, timeoutMs = 20_000) {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const r = await call(app, "GET", `/api/v1/datasets/tasks/${taskId}`, { key });
    if (r.status !== 200) throw new Error(`task poll failed: ${r.status} ${r.text}`);
    if (["succeeded", "failed", "cancelled"].includes(r.json.state)) return r.json;
    if (Date.now() > until) throw new Error(`task ${taskId} did not finish: ${r.text}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Runs `fn` with environment variables set, restoring them afterwards. */
export async function withEnv<T>(vars: Record<string, string | undefined>, fn: () => Promise<T>): Promise<T> {
  const saved = Object.fromEntries(Object.keys(vars).map((k) => [k, process.env[k]]));
  for (const [k, v] of Object.entries(vars)) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
  try {
    return await fn();
  } finally {
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  }
}

export function csv(rows: (string | number)[][]): string {
  return `${rows.map((r) => r.join(",")).join("\n")}\n`;
}
