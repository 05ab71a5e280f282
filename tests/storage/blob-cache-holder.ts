/**
 * A second process for tests/storage/blob-cache.test.ts: leases a blob from a shared cache directory,
 * prints `leased <file>`, waits for a line on stdin, then prints `read <sha256>` of the file's bytes
 * as it reads them now, releases the lease and exits. Killed instead, it leaves its lease behind.
 *
 *   tsx tests/storage/blob-cache-holder.ts '<json: {dir, maxBytes, key, root?, s3?}>'
 */
import { createHash } from "node:crypto";
import fs from "node:fs/promises";
import readline from "node:readline";
import type { S3BlobStoreConfig } from "@/lib/server/config";
import type { BlobStore } from "@/lib/server/storage/blob-driver";
import { BlobFileCache } from "@/lib/server/storage/blob-file-cache";
import { LocalBlobStore } from "@/lib/server/storage/local-blob-store";
import { S3BlobStore } from "@/lib/server/storage/s3-blob-store";

interface Args {
  dir: string;
  maxBytes: number;
  key: string;
  root?: string;
  s3?: S3BlobStoreConfig;
}

async function main(): Promise<void> {
  const args = JSON.parse(process.argv[2] ?? "{}") as Args;
  const store: BlobStore = args.s3 ? new S3BlobStore(args.s3) : new LocalBlobStore(args.root as string);
  const cache = new BlobFileCache(args.dir, { maxBytes: args.maxBytes });
  const lease = await cache.lease(store, args.key);
  if (!lease) throw new Error("no such blob");
  process.stdout.write(`leased ${lease.file}\n`);
  const lines = readline.createInterface({ input: process.stdin });
  for await (const _ of lines) break;
  const sha = createHash("sha256")
    .update(await fs.readFile(lease.file))
    .digest("hex");
  process.stdout.write(`read ${sha}\n`);
  await lease.release();
  lines.close();
}

main().catch((err) => {
  process.stderr.write(`${(err as Error).message}\n`);
  process.exit(1);
});
