import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { createHash } from "node:crypto";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import readline from "node:readline";
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "vitest";
import {
  ConfigError,
  DEFAULT_BLOB_CACHE_MAX_BYTES,
  readBlobCacheMaxBytes,
  readBlobStoreConfig,
  type S3BlobStoreConfig,
} from "@/lib/server/config";
import type { BlobStore } from "@/lib/server/storage/blob-driver";
import { BlobFileCache, type BlobFileLease } from "@/lib/server/storage/blob-file-cache";
import { LocalBlobStore } from "@/lib/server/storage/local-blob-store";
import { S3BlobStore } from "@/lib/server/storage/s3-blob-store";
import { startS3Server, type TestS3Server } from "../helpers/s3-server";

/**
 * The bounded cache of local copies (storage/blob-file-cache.ts) over both drivers: the same bucket
 * or blob root seen by two "servers" (two store objects, each with its own cache directory), and a
 * second process sharing one cache directory.
 */

const KB = 1000;

interface Driver {
  /** Another store object on the same objects (another server's client). */
  store(): BlobStore;
  /** What a second process needs to open the same objects. */
  holderArgs: { root?: string; s3?: S3BlobStoreConfig };
  close(): Promise<void>;
}

async function localDriver(): Promise<Driver> {
  const root = await fs.mkdtemp(path.join(os.tmpdir(), "layerline-cache-blobs-"));
  return {
    store: () => new LocalBlobStore(root),
    holderArgs: { root },
    close: () => fs.rm(root, { recursive: true, force: true }),
  };
}

async function s3Driver(server: TestS3Server): Promise<Driver> {
  const config = readBlobStoreConfig(server.env) as S3BlobStoreConfig;
  return { store: () => new S3BlobStore(config), holderArgs: { s3: config }, close: async () => {} };
}

function sha256(bytes: Uint8Array): string {
  return createHash("sha256").update(bytes).digest("hex");
}

/** Deterministic bytes, different for each seed. */
function bytes(n: number, seed: number): Uint8Array {
  const out = new Uint8Array(n);
  let x = seed * 2654435761;
  for (let i = 0; i < n; i++) {
    x = (x * 1103515245 + 12345) >>> 0;
    out[i] = x >>> 24;
  }
  return out;
}

async function fileSha(file: string): Promise<string> {
  return sha256(await fs.readFile(file));
}

/** Copies' modification times are the LRU order: let the clock move between hand-outs. */
const tick = () => new Promise((r) => setTimeout(r, 25));

async function keysOf(cache: BlobFileCache): Promise<string[]> {
  return (await cache.usage()).copies.map((c) => c.key).sort();
}

/** A second process holding a lease (tests/storage/blob-cache-holder.ts). */
async function holder(args: object): Promise<{
  child: ChildProcessWithoutNullStreams;
  file: string;
  finish(): Promise<string>;
}> {
  const child = spawn(
    process.execPath,
    ["--import", "tsx", path.join(__dirname, "blob-cache-holder.ts"), JSON.stringify(args)],
    { cwd: path.resolve(__dirname, "../.."), stdio: ["pipe", "pipe", "pipe"] },
  );
  let stderr = "";
  child.stderr.on("data", (d) => {
    stderr += String(d);
  });
  const lines = readline.createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  const next = async (prefix: string): Promise<string> => {
    const line = await lines.next();
    if (line.done || !line.value.startsWith(prefix)) throw new Error(`holder: ${line.value ?? ""} ${stderr}`);
    return line.value.slice(prefix.length);
  };
  const file = await next("leased ");
  return {
    child,
    file,
    async finish() {
      child.stdin.write("go\n");
      const sha = await next("read ");
      await new Promise((r) => child.once("exit", r));
      return sha;
    },
  };
}

let s3: TestS3Server;
beforeAll(async () => {
  s3 = await startS3Server({ bucket: "layerline-cache-test" });
});
afterAll(async () => {
  await s3?.close();
});

describe.each([
  ["local disk", () => localDriver()],
  ["S3-compatible", () => s3Driver(s3)],
] as const)("the bounded blob cache over the %s", (_name, makeDriver) => {
  let driver: Driver;
  let store: BlobStore;
  let dir: string;
  let n = 0;
  /** A fresh key per test (the stores are shared by the tests of a driver). */
  let prefix: string;

  beforeAll(async () => {
    driver = await makeDriver();
    store = driver.store();
  });
  afterAll(async () => {
    await driver?.close();
  });
  beforeEach(async () => {
    n += 1;
    prefix = `t${n}-${Date.now()}`;
    dir = await fs.mkdtemp(path.join(os.tmpdir(), "layerline-cache-dir-"));
    return () => fs.rm(dir, { recursive: true, force: true });
  });

  async function put(name: string, size: number, seed: number): Promise<{ key: string; sha: string }> {
    const data = bytes(size, seed);
    const key = `${prefix}/${name}`;
    await store.put(key, data);
    return { key, sha: sha256(data) };
  }

  async function use(cache: BlobFileCache, key: string): Promise<string> {
    const lease = (await cache.lease(store, key)) as BlobFileLease;
    const sha = await fileSha(lease.file);
    await lease.release();
    return sha;
  }

  test("evicts the least recently used copies first, down to the bound", async () => {
    const cache = new BlobFileCache(dir, { maxBytes: 350 * KB });
    const a = await put("a", 100 * KB, 1);
    const b = await put("b", 100 * KB, 2);
    const c = await put("c", 100 * KB, 3);
    const d = await put("d", 100 * KB, 4);
    expect(await use(cache, a.key)).toBe(a.sha);
    await tick();
    expect(await use(cache, b.key)).toBe(b.sha);
    await tick();
    expect(await use(cache, c.key)).toBe(c.sha);
    await tick();
    expect(await use(cache, a.key)).toBe(a.sha); // a hit: a is now the most recent
    await tick();
    expect(await keysOf(cache)).toEqual([a.key, b.key, c.key]);
    expect(await use(cache, d.key)).toBe(d.sha);
    // b was the least recently used.
    expect(await keysOf(cache)).toEqual([a.key, c.key, d.key]);
    expect((await cache.usage()).bytes).toBeLessThanOrEqual(350 * KB);
  });

  test("a copy in use is never evicted, by this process or another one sharing the directory", async () => {
    const cache = new BlobFileCache(dir, { maxBytes: 150 * KB });
    const a = await put("a", 100 * KB, 11);
    const b = await put("b", 100 * KB, 12);
    const held = (await cache.lease(store, a.key)) as BlobFileLease;
    // Another process holds b while this one evicts everything it can.
    const other = await holder({ ...driver.holderArgs, dir, maxBytes: 150 * KB, key: b.key });
    const c = await put("c", 100 * KB, 13);
    expect(await use(cache, c.key)).toBe(c.sha);
    await new BlobFileCache(dir, { maxBytes: 0 }).trim();
    const usage = await cache.usage();
    expect(
      usage.copies
        .filter((x) => x.inUse)
        .map((x) => x.key)
        .sort(),
    ).toEqual([a.key, b.key]);
    expect(usage.copies.map((x) => x.key)).not.toContain(c.key);
    // Both readers still read the right bytes at the paths they were given.
    expect(await fileSha(held.file)).toBe(a.sha);
    expect(await other.finish()).toBe(b.sha);
    await held.release();
    // Released, they go the next time the directory is over its bound.
    await new BlobFileCache(dir, { maxBytes: 0 }).trim();
    expect((await cache.usage()).copies).toEqual([]);
    expect((await cache.usage()).bytes).toBe(0);
  }, 60_000);

  test("a process killed while holding a copy does not pin it for ever", async () => {
    const cache = new BlobFileCache(dir, { maxBytes: 0 });
    const a = await put("a", 50 * KB, 21);
    const other = await holder({ ...driver.holderArgs, dir, maxBytes: 0, key: a.key });
    await cache.trim();
    expect((await cache.usage()).copies.map((x) => x.inUse)).toEqual([true]);
    other.child.kill("SIGKILL");
    await new Promise((r) => other.child.once("exit", r));
    await cache.trim();
    expect(await cache.usage()).toEqual({ bytes: 0, copies: [] });
  }, 60_000);

  test("a lease of another host (a container sharing the directory) is not judged by its pid", async () => {
    const cache = new BlobFileCache(dir, { maxBytes: 0 });
    const a = await put("a", 30 * KB, 25);
    const lease = (await cache.lease(store, a.key)) as BlobFileLease;
    // A link named like another host's process whose pid does not exist here.
    const foreign = path.join(dir, "leases", "999999999-0badcafe-00000000-1~a");
    await fs.link(lease.file, foreign);
    await lease.release();
    await cache.trim();
    expect((await cache.usage()).copies.map((c) => c.inUse)).toEqual([true]);
    expect(await fileSha(foreign)).toBe(a.sha);
    await fs.rm(foreign);
    await cache.trim();
    expect(await cache.usage()).toEqual({ bytes: 0, copies: [] });
  });

  test("an object replaced by another server is fetched again, never served stale", async () => {
    const serverA = new BlobFileCache(dir, { maxBytes: 10_000 * KB });
    const dirB = await fs.mkdtemp(path.join(os.tmpdir(), "layerline-cache-dir-b-"));
    try {
      const serverB = new BlobFileCache(dirB, { maxBytes: 10_000 * KB });
      const storeB = driver.store();
      const key = `${prefix}/model.onnx`;
      const v1 = bytes(60 * KB, 31);
      const v2 = bytes(60 * KB, 32); // same size: only the identity tells them apart
      await serverB.put(storeB, key, v1);
      const oldLease = (await serverA.lease(store, key)) as BlobFileLease;
      expect(await fileSha(oldLease.file)).toBe(sha256(v1));
      // Server B replaces the object under the same key.
      const replaced = await serverB.put(storeB, key, v2);
      expect(await fileSha(replaced.file)).toBe(sha256(v2));
      const fresh = (await serverA.lease(store, key)) as BlobFileLease;
      expect(fresh.file).not.toBe(oldLease.file);
      expect(await fileSha(fresh.file)).toBe(sha256(v2));
      // The reader that held the old bytes still has them, unchanged.
      expect(await fileSha(oldLease.file)).toBe(sha256(v1));
      await oldLease.release();
      await fresh.release();
      expect(await serverA.file(store, key).then((f) => fileSha(f as string))).toBe(sha256(v2));
    } finally {
      await fs.rm(dirB, { recursive: true, force: true });
    }
  });

  test("an object larger than the bound is fetched, used, then evicted", async () => {
    const cache = new BlobFileCache(dir, { maxBytes: 50 * KB });
    const small = await put("small", 30 * KB, 41);
    const big = await put("big", 200 * KB, 42);
    expect(await use(cache, small.key)).toBe(small.sha);
    const lease = (await cache.lease(store, big.key)) as BlobFileLease;
    expect(await fileSha(lease.file)).toBe(big.sha);
    // Making room for it evicted the small copy; while in use it stays, above the bound.
    expect(await keysOf(cache)).toEqual([big.key]);
    await lease.release();
    expect(await cache.usage()).toEqual({ bytes: 0, copies: [] });
  });

  test("the bound holds after a burst of concurrent readers", async () => {
    const bound = 500 * KB;
    const cache = new BlobFileCache(dir, { maxBytes: bound });
    const blobs = await Promise.all(Array.from({ length: 12 }, (_, i) => put(`burst-${i}`, 80 * KB, 50 + i)));
    // 36 readers, each object read by three of them at once, with a second process's cache object.
    const other = new BlobFileCache(dir, { maxBytes: bound });
    const shas = await Promise.all(
      Array.from({ length: 36 }, (_, i) => use(i % 2 ? cache : other, blobs[i % 12].key)),
    );
    expect(shas).toEqual(Array.from({ length: 36 }, (_, i) => blobs[i % 12].sha));
    const usage = await cache.usage();
    expect(usage.bytes).toBeLessThanOrEqual(bound);
    expect(usage.copies.every((c) => !c.inUse)).toBe(true);
    expect(usage.copies.length).toBeGreaterThan(0);
    // Nothing left in progress.
    expect(await fs.readdir(path.join(dir, "tmp")).catch(() => [])).toEqual([]);
  });

  test("concurrent readers of one object share one fetch and one copy", async () => {
    const cache = new BlobFileCache(dir, { maxBytes: 10_000 * KB });
    const a = await put("a", 100 * KB, 71);
    const leases = (await Promise.all(
      Array.from({ length: 5 }, () => cache.lease(store, a.key)),
    )) as BlobFileLease[];
    expect(new Set(leases.map((l) => l.file)).size).toBe(1);
    expect(await fileSha(leases[0].file)).toBe(a.sha);
    const usage = await cache.usage();
    expect(usage.copies).toEqual([{ key: a.key, sha256: a.sha, size: 100 * KB, inUse: true }]);
    expect(usage.bytes).toBe(100 * KB);
    for (const l of leases) await l.release();
    expect((await cache.usage()).copies[0]?.inUse).toBe(false);
  });

  test("a path handed out without a lease stays valid for the hold, then is let go", async () => {
    const cache = new BlobFileCache(dir, { maxBytes: 0, holdMs: 100 });
    const a = await put("a", 40 * KB, 81);
    const file = (await cache.file(store, a.key)) as string;
    expect(await cache.file(store, a.key)).toBe(file);
    await cache.trim();
    expect(await fileSha(file)).toBe(a.sha);
    for (let i = 0; i < 100 && (await cache.usage()).bytes > 0; i++) await tick();
    expect(await cache.usage()).toEqual({ bytes: 0, copies: [] });
  });

  test("a held path still open in this process outlives its hold until it is closed", async () => {
    const cache = new BlobFileCache(dir, { maxBytes: 0, holdMs: 50 });
    const a = await put("a", 40 * KB, 82);
    const file = (await cache.file(store, a.key)) as string;
    const handle = await fs.open(file, "r");
    try {
      // Several holds go by while it is open: the link and its copy stay.
      for (let i = 0; i < 8; i++) await tick();
      await cache.trim();
      expect(await fs.stat(file).then((st) => st.isFile())).toBe(true);
      expect((await cache.usage()).copies.map((c) => c.inUse)).toEqual([true]);
    } finally {
      await handle.close();
    }
    for (let i = 0; i < 100 && (await cache.usage()).bytes > 0; i++) await tick();
    expect(await cache.usage()).toEqual({ bytes: 0, copies: [] });
  });

  test("forgetting a deleted object removes its copies and this process's links", async () => {
    const cache = new BlobFileCache(dir, { maxBytes: 10_000 * KB });
    const a = await put("a", 40 * KB, 91);
    await cache.file(store, a.key);
    await store.delete(a.key);
    await cache.forget(a.key);
    expect(await cache.usage()).toEqual({ bytes: 0, copies: [] });
    expect(await cache.lease(store, a.key)).toBeNull();
  });

  test("a missing object is null, and a refused fetch leaves nothing", async () => {
    const cache = new BlobFileCache(dir, { maxBytes: 10_000 * KB });
    expect(await cache.lease(store, `${prefix}/none`)).toBeNull();
    expect(await cache.file(store, `${prefix}/none`)).toBeNull();
    const corrupt: BlobStore = Object.assign(Object.create(store), {
      get: async (key: string) => {
        const read = await store.get(key);
        return read && { ...read, sha256: "0".repeat(64) };
      },
      head: async (key: string) => {
        const head = await store.head(key);
        return head && { ...head, sha256: "0".repeat(64) };
      },
    });
    const a = await put("a", 40 * KB, 99);
    await expect(cache.lease(corrupt, a.key)).rejects.toThrow(/does not match/);
    expect(await cache.usage()).toEqual({ bytes: 0, copies: [] });
  });
});

describe("BLOB_CACHE_MAX_BYTES", () => {
  test("reads bytes or a size with a unit; 2 GiB when unset", () => {
    expect(readBlobCacheMaxBytes({})).toBe(DEFAULT_BLOB_CACHE_MAX_BYTES);
    expect(DEFAULT_BLOB_CACHE_MAX_BYTES).toBe(2 * 1024 ** 3);
    expect(readBlobCacheMaxBytes({ BLOB_CACHE_MAX_BYTES: "1048576" })).toBe(1024 ** 2);
    expect(readBlobCacheMaxBytes({ BLOB_CACHE_MAX_BYTES: "2GiB" })).toBe(2 * 1024 ** 3);
    expect(readBlobCacheMaxBytes({ BLOB_CACHE_MAX_BYTES: "1.5 G" })).toBe(1.5 * 1024 ** 3);
    expect(readBlobCacheMaxBytes({ BLOB_CACHE_MAX_BYTES: "500MB" })).toBe(500 * 1000 ** 2);
    expect(readBlobCacheMaxBytes({ BLOB_CACHE_MAX_BYTES: "0" })).toBe(0);
  });

  test("a value that cannot work stops the start with a clear message", () => {
    for (const bad of ["lots", "-1", "2 parsecs", "1e3", "99999999999999999999"]) {
      expect(() => readBlobCacheMaxBytes({ BLOB_CACHE_MAX_BYTES: bad })).toThrow(ConfigError);
      expect(() => readBlobStoreConfig({ BLOB_CACHE_MAX_BYTES: bad })).toThrow(
        /BLOB_CACHE_MAX_BYTES must be a size such as 2147483648, 2GiB or 500MB/,
      );
    }
  });
});
