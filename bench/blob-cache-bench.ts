/**
 * The bounded blob cache (lib/server/storage/blob-file-cache.ts), run by hand:
 * `npx tsx bench/blob-cache-bench.ts` (BENCH_MB sets the object size, default 32; BENCH_ROUNDS the
 * leases per phase, default 10).
 *
 * Starts an S3-compatible test server (tests/helpers/s3-server.ts, in this process), stores one
 * object and takes leases on a local copy of it: a miss (an empty cache directory: the object is
 * fetched, checked against its SHA-256 and renamed into place) against a hit (the copy exists: one
 * `head` to learn the object's identity, a hard link, a touch). Also the time to trim a directory of
 * 200 small copies to a bound that keeps half (a scan of every process's files, then LRU eviction).
 * Ratios are against the miss of the same run. The test server shares the machine's two cores, so a
 * real bucket's miss costs more (network) and its hit about the same (one HEAD round trip).
 */
import { randomBytes } from "node:crypto";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { readBlobStoreConfig, type S3BlobStoreConfig } from "../lib/server/config";
import { BlobFileCache } from "../lib/server/storage/blob-file-cache";
import { S3BlobStore } from "../lib/server/storage/s3-blob-store";
import { startS3Server } from "../tests/helpers/s3-server";

const MB = 1024 * 1024;
const SIZE = Number(process.env.BENCH_MB ?? 32) * MB;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 10);

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

async function timed(run: () => Promise<void>): Promise<number> {
  const t0 = performance.now();
  await run();
  return performance.now() - t0;
}

async function main(): Promise<void> {
  const s3 = await startS3Server({ bucket: "layerline-cache-bench" });
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), "layerline-cache-bench-"));
  try {
    const store = new S3BlobStore(readBlobStoreConfig(s3.env) as S3BlobStoreConfig);
    await store.put("bench/object", randomBytes(SIZE));
    const misses: number[] = [];
    const hits: number[] = [];
    for (let i = 0; i < ROUNDS; i++) {
      const cacheDir = path.join(dir, `miss-${i}`);
      const cache = new BlobFileCache(cacheDir, { maxBytes: 4 * SIZE });
      misses.push(
        await timed(async () => {
          const lease = await cache.lease(store, "bench/object");
          await lease?.release();
        }),
      );
      hits.push(
        await timed(async () => {
          const lease = await cache.lease(store, "bench/object");
          await lease?.release();
        }),
      );
      await fs.rm(cacheDir, { recursive: true, force: true });
    }
    const small = new BlobFileCache(path.join(dir, "trim"), { maxBytes: 100 * 64 * 1024 });
    const bulk = new BlobFileCache(path.join(dir, "trim"), { maxBytes: 1024 ** 4 });
    for (let i = 0; i < 200; i++) {
      await store.put(`bench/small-${i}`, randomBytes(64 * 1024));
      await (await bulk.lease(store, `bench/small-${i}`))?.release();
    }
    const trim = await timed(() => small.trim());
    const after = await small.usage();

    const miss = median(misses);
    const hit = median(hits);
    console.log(`object: ${SIZE / MB} MiB, ${ROUNDS} rounds (medians)`);
    console.log(`miss (fetch + SHA-256 check + rename): ${miss.toFixed(1)} ms  ratio 1.00`);
    console.log(
      `hit (head + link + touch):             ${hit.toFixed(1)} ms  ratio ${(hit / miss).toFixed(3)}`,
    );
    console.log(`miss / hit: ${(miss / hit).toFixed(0)}×`);
    console.log(
      `trim 200 copies of 64 KiB to a bound of 100: ${trim.toFixed(1)} ms (${after.copies.length} copies left, ${(after.bytes / MB).toFixed(2)} MiB)`,
    );
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
    await s3.close();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
