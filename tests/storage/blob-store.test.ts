import { createHash } from "node:crypto";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import {
  CreateMultipartUploadCommand,
  GetObjectCommand,
  ListMultipartUploadsCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  UploadPartCommand,
} from "@aws-sdk/client-s3";
import { getSignedUrl } from "@aws-sdk/s3-request-presigner";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { readBlobStoreConfig, type S3BlobStoreConfig } from "@/lib/server/config";
import { PayloadTooLargeError } from "@/lib/server/errors";
import { deleteBlobAndLocalFile, localBlobFile, putKeepingLocalFile } from "@/lib/server/storage/blob-cache";
import { BlobChecksumError, BlobRangeError, type BlobStore } from "@/lib/server/storage/blob-driver";
import { InvalidBlobKeyError } from "@/lib/server/storage/blob-keys";
import { LocalBlobStore } from "@/lib/server/storage/local-blob-store";
import { S3BlobStore } from "@/lib/server/storage/s3-blob-store";
import { startS3Server, type TestS3Server } from "../helpers/s3-server";

/**
 * The same cases against both drivers: the local disk and an S3-compatible server (s3rver, with the
 * AbortMultipartUpload and ListMultipartUploads it lacks added by the helper).
 */

const MIB = 1024 * 1024;

interface Fixture {
  store: BlobStore;
  /** Everything stored, visible or not: files (local); objects and multipart uploads (S3). */
  everything(): Promise<string[]>;
  /** Leaves what a crash in the middle of a write would leave. */
  interruptWrite(): Promise<void>;
  /** S3 only: the SDK commands sent so far. */
  commands?: string[];
  close(): Promise<void>;
}

async function filesUnder(dir: string, base = dir): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await fs.readdir(dir, { withFileTypes: true }).catch(() => [])) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...(await filesUnder(full, base)));
    else out.push(path.relative(base, full));
  }
  return out.sort();
}

async function localFixture(): Promise<Fixture> {
  const root = await fs.mkdtemp(path.join(os.tmpdir(), "layerline-blobs-test-"));
  const store = new LocalBlobStore(path.join(root, "blobs"));
  return {
    store,
    // Checksum records (.sha256/…) belong to their blobs; everything else counts.
    everything: async () => (await filesUnder(root)).filter((f) => !f.startsWith(`blobs${path.sep}.sha256`)),
    async interruptWrite() {
      const dir = path.join(root, "blobs", "crashed");
      await fs.mkdir(dir, { recursive: true });
      const temp = path.join(dir, ".tmp-dsv_1-0123456789ab");
      await fs.writeFile(temp, "half a file");
      const past = new Date(Date.now() - 3600_000);
      await fs.utimes(temp, past, past);
    },
    close: () => fs.rm(root, { recursive: true, force: true }),
  };
}

async function s3Fixture(server: TestS3Server): Promise<Fixture> {
  const config = readBlobStoreConfig(server.env) as S3BlobStoreConfig;
  const store = new S3BlobStore(config, { partSize: 5 * MIB, multipartThreshold: 5 * MIB });
  const commands: string[] = [];
  store.client.middlewareStack.add(
    (next, context) => (args) => {
      commands.push(context.commandName ?? "?");
      return next(args);
    },
    { step: "initialize", name: "recordCommands" },
  );
  const bucket = server.bucket;
  return {
    store,
    commands,
    async everything() {
      const objects = await store.client.send(new ListObjectsV2Command({ Bucket: bucket }));
      const uploads = await store.client.send(new ListMultipartUploadsCommand({ Bucket: bucket }));
      return [
        ...(objects.Contents ?? []).map((o) => `object:${o.Key}`),
        ...(uploads.Uploads ?? []).map((u) => `upload:${u.Key}`),
      ].sort();
    },
    async interruptWrite() {
      const { UploadId } = await store.client.send(
        new CreateMultipartUploadCommand({ Bucket: bucket, Key: ".incoming/crashed" }),
      );
      await store.client.send(
        new UploadPartCommand({
          Bucket: bucket,
          Key: ".incoming/crashed",
          UploadId,
          PartNumber: 1,
          Body: "part",
        }),
      );
      await store.client.send(new PutObjectCommand({ Bucket: bucket, Key: ".incoming/orphan", Body: "x" }));
    },
    close: async () => {},
  };
}

function must<T>(value: T | null | undefined): T {
  if (value === null || value === undefined) throw new Error("expected a value");
  return value;
}

function sha256(bytes: Uint8Array): string {
  return createHash("sha256").update(bytes).digest("hex");
}

/** Deterministic, not compressible-looking bytes. */
function bytes(n: number, seed = 1): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(n);
  let x = seed * 2654435761;
  for (let i = 0; i < n; i++) {
    x = (x * 1103515245 + 12345) >>> 0;
    out[i] = x >>> 24;
  }
  return out;
}

async function* inChunks(data: Uint8Array, size: number): AsyncIterable<Uint8Array> {
  for (let i = 0; i < data.byteLength; i += size) yield data.subarray(i, i + size);
}

async function* failingAfter(data: Uint8Array, size: number): AsyncIterable<Uint8Array> {
  yield* inChunks(data, size);
  throw new Error("the client went away");
}

async function readAll(stream: ReadableStream<Uint8Array>): Promise<Uint8Array> {
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

async function keys(store: BlobStore, prefix: string): Promise<string[]> {
  const out: string[] = [];
  for await (const b of store.list(prefix)) out.push(b.key);
  return out.sort();
}

let s3: TestS3Server;
beforeAll(async () => {
  s3 = await startS3Server();
});
afterAll(async () => {
  await s3?.close();
});

describe.each([
  ["local disk", () => localFixture()],
  ["S3-compatible", () => s3Fixture(s3)],
] as const)("blob store on the %s", (_name, makeFixture) => {
  let f: Fixture;
  beforeAll(async () => {
    f = await makeFixture();
  });
  afterAll(async () => {
    await f?.close();
  });

  test("put from a stream and get it back, with its SHA-256 computed on the way and stored", async () => {
    const data = bytes(300_000);
    const stream = new Blob([data]).stream();
    const stored = await f.store.put("rt/one", stream);
    expect(stored).toEqual({ key: "rt/one", size: data.byteLength, sha256: sha256(data) });

    const head = await f.store.head("rt/one");
    expect(head).toMatchObject({ key: "rt/one", size: data.byteLength, sha256: sha256(data) });
    expect(head?.lastModified).toBeInstanceOf(Date);

    const got = await f.store.get("rt/one");
    expect(got).toMatchObject({
      size: data.byteLength,
      start: 0,
      end: data.byteLength - 1,
      sha256: sha256(data),
    });
    expect(sha256(await readAll(must(got).stream))).toBe(sha256(data));
  });

  test("an empty object round-trips", async () => {
    const stored = await f.store.put("rt/empty", new Uint8Array(0));
    expect(stored.size).toBe(0);
    const got = await f.store.get("rt/empty");
    expect(got?.size).toBe(0);
    expect((await readAll(must(got).stream)).byteLength).toBe(0);
  });

  test("a second put replaces the content and its checksum", async () => {
    await f.store.put("rt/again", bytes(1000, 1));
    const second = bytes(2000, 2);
    await f.store.put("rt/again", second);
    const got = await f.store.get("rt/again");
    expect(got?.sha256).toBe(sha256(second));
    expect(sha256(await readAll(must(got).stream))).toBe(sha256(second));
  });

  test("a missing object is null for get and head", async () => {
    expect(await f.store.get("rt/none")).toBeNull();
    expect(await f.store.head("rt/none")).toBeNull();
  });

  test("a large put (12 MiB, 5 MiB parts) goes through in parts and round-trips", async () => {
    const data = bytes(12 * MIB, 3);
    const before = f.commands?.length ?? 0;
    const stored = await f.store.put("large/twelve", inChunks(data, 256 * 1024));
    expect(stored).toEqual({ key: "large/twelve", size: data.byteLength, sha256: sha256(data) });
    if (f.commands) {
      const sent = f.commands.slice(before);
      expect(sent).toContain("CreateMultipartUploadCommand");
      expect(sent.filter((c) => c === "UploadPartCommand").length).toBe(3);
      expect(sent).toContain("CompleteMultipartUploadCommand");
    }
    expect((await f.store.head("large/twelve"))?.sha256).toBe(sha256(data));
    const got = await f.store.get("large/twelve");
    expect(sha256(await readAll(must(got).stream))).toBe(sha256(data));
    // Nothing but the object itself is left (no temporary copy, no open upload).
    expect((await f.everything()).filter((e) => !e.includes("rt/") && !e.includes(`rt${path.sep}`))).toEqual(
      f.commands ? ["object:large/twelve"] : [path.join("blobs", "large", "twelve")],
    );
  });

  test.each([
    ["half-way through a large upload (7 MiB of parts sent)", 7 * MIB],
    ["in the first kilobytes", 4096],
  ])("a stream that fails %s leaves nothing behind", async (_when, n) => {
    const before = await f.everything();
    const sentBefore = f.commands?.length ?? 0;
    await expect(f.store.put("fail/one", failingAfter(bytes(n, 4), 64 * 1024))).rejects.toThrow(
      "the client went away",
    );
    expect(await f.store.head("fail/one")).toBeNull();
    expect(await f.everything()).toEqual(before);
    if (f.commands && n > 5 * MIB) {
      const sent = f.commands.slice(sentBefore);
      expect(sent).toContain("UploadPartCommand");
      expect(sent).toContain("AbortMultipartUploadCommand");
    }
  });

  test("a stream that fails does not replace what was there", async () => {
    const good = bytes(5000, 5);
    await f.store.put("fail/kept", good);
    await expect(f.store.put("fail/kept", failingAfter(bytes(6 * MIB, 6), MIB))).rejects.toThrow();
    const got = await f.store.get("fail/kept");
    expect(sha256(await readAll(must(got).stream))).toBe(sha256(good));
  });

  test.each([
    ["small", 10_000],
    ["large", 6 * MIB],
  ])("a %s put over maxBytes is refused (413) and leaves nothing", async (_size, n) => {
    const before = await f.everything();
    await expect(
      f.store.put("limit/x", inChunks(bytes(n, 7), 4096), { maxBytes: n - 1 }),
    ).rejects.toBeInstanceOf(PayloadTooLargeError);
    expect(await f.store.head("limit/x")).toBeNull();
    expect(await f.everything()).toEqual(before);
  });

  test.each([
    ["small", 10_000],
    ["large", 6 * MIB],
  ])(
    "a %s put whose SHA-256 differs from the declared one is refused and leaves nothing",
    async (_size, n) => {
      const data = bytes(n, 8);
      const key = `sum/${n}`;
      const before = await f.everything();
      await expect(f.store.put(key, data, { expectedSha256: "0".repeat(64) })).rejects.toBeInstanceOf(
        BlobChecksumError,
      );
      expect(await f.store.head(key)).toBeNull();
      expect(await f.everything()).toEqual(before);
      const ok = await f.store.put(key, data, { expectedSha256: sha256(data).toUpperCase() });
      expect(ok.sha256).toBe(sha256(data));
    },
  );

  test("ranged get", async () => {
    const data = bytes(1000, 9);
    await f.store.put("range/r", data);
    const mid = await f.store.get("range/r", { range: { start: 10, end: 19 } });
    expect(mid).toMatchObject({ size: 1000, start: 10, end: 19 });
    expect(await readAll(must(mid).stream)).toEqual(data.subarray(10, 20));

    const tail = await f.store.get("range/r", { range: { start: 990 } });
    expect(tail).toMatchObject({ start: 990, end: 999 });
    expect(await readAll(must(tail).stream)).toEqual(data.subarray(990));

    const clamped = await f.store.get("range/r", { range: { start: 995, end: 5000 } });
    expect(clamped).toMatchObject({ start: 995, end: 999 });
    expect(await readAll(must(clamped).stream)).toEqual(data.subarray(995));

    await expect(f.store.get("range/r", { range: { start: 1000 } })).rejects.toBeInstanceOf(BlobRangeError);
    await expect(f.store.get("range/r", { range: { start: 20, end: 10 } })).rejects.toBeInstanceOf(
      BlobRangeError,
    );
    expect(await f.store.get("range/none", { range: { start: 0, end: 1 } })).toBeNull();
  });

  test("delete", async () => {
    await f.store.put("del/d", bytes(10));
    await f.store.delete("del/d");
    expect(await f.store.head("del/d")).toBeNull();
    expect(await f.store.get("del/d")).toBeNull();
    await f.store.delete("del/d"); // a missing object is not an error
    expect(await keys(f.store, "del/")).toEqual([]);
  });

  test("list by prefix", async () => {
    for (const key of ["ls/a/x1", "ls/a/x2", "ls/a/y/z", "ls/ab", "ls/b/x"]) await f.store.put(key, bytes(3));
    expect(await keys(f.store, "ls/a/")).toEqual(["ls/a/x1", "ls/a/x2", "ls/a/y/z"]);
    expect(await keys(f.store, "ls/a/x")).toEqual(["ls/a/x1", "ls/a/x2"]);
    expect(await keys(f.store, "ls/a")).toEqual(["ls/a/x1", "ls/a/x2", "ls/a/y/z", "ls/ab"]);
    expect(await keys(f.store, "ls/none/")).toEqual([]);
    const listed = [];
    for await (const b of f.store.list("ls/b/")) listed.push(b);
    expect(listed).toEqual([{ key: "ls/b/x", size: 3, lastModified: expect.any(Date) }]);
    // The stores' own names (temporary files and objects, checksum records) are never listed.
    expect((await keys(f.store, "")).every((k) => !k.startsWith(".") && !k.includes("/."))).toBe(true);
  });

  test("copy, with its checksum; a missing source is false", async () => {
    const data = bytes(4321, 10);
    await f.store.put("cp/from", data);
    await f.store.put("cp/to", bytes(5, 11));
    expect(await f.store.copy("cp/from", "cp/to")).toBe(true);
    const got = await f.store.get("cp/to");
    expect(got?.sha256).toBe(sha256(data));
    expect(sha256(await readAll(must(got).stream))).toBe(sha256(data));
    expect((await f.store.head("cp/to"))?.sha256).toBe(sha256(data));
    expect((await f.store.head("cp/from"))?.sha256).toBe(sha256(data));
    expect(await f.store.copy("cp/none", "cp/other")).toBe(false);
    expect(await f.store.head("cp/other")).toBeNull();
  });

  test.each([
    "../escape",
    "a/../../escape",
    "a/..",
    "/etc/passwd",
    "a\0b",
    "",
    "a//b",
    "a/",
    ".hidden",
    "a/.tmp-x",
    "a\\..\\b",
    "a/b c",
  ])("the key %j is refused by every operation", async (key) => {
    const before = await f.everything();
    await expect(f.store.put(key, bytes(3))).rejects.toBeInstanceOf(InvalidBlobKeyError);
    await expect(f.store.get(key)).rejects.toBeInstanceOf(InvalidBlobKeyError);
    await expect(f.store.head(key)).rejects.toBeInstanceOf(InvalidBlobKeyError);
    await expect(f.store.delete(key)).rejects.toBeInstanceOf(InvalidBlobKeyError);
    await expect(f.store.copy("rt/one", key)).rejects.toBeInstanceOf(InvalidBlobKeyError);
    await expect(f.store.copy(key, "rt/copy")).rejects.toBeInstanceOf(InvalidBlobKeyError);
    await expect(f.store.presignGet(key, { expiresInSeconds: 60 })).rejects.toBeInstanceOf(
      InvalidBlobKeyError,
    );
    await expect(keys(f.store, `${key}/`)).rejects.toBeInstanceOf(InvalidBlobKeyError);
    expect(await f.everything()).toEqual(before);
  });

  test("the sweep removes what interrupted writes left, and nothing else", async () => {
    await f.store.put("sweep/kept", bytes(10));
    const before = await f.everything();
    await f.interruptWrite();
    expect(await f.everything()).not.toEqual(before);
    // Too recent: kept (a write may still be going on).
    expect(await f.store.sweepIncomplete(new Date(Date.now() - 24 * 3600_000))).toBe(0);
    expect(await f.store.sweepIncomplete(new Date(Date.now() + 60_000))).toBeGreaterThan(0);
    expect(await f.everything()).toEqual(before);
    expect(await f.store.head("sweep/kept")).not.toBeNull();
  });

  test("presigned GET and PUT: URLs on S3 that plain fetch can use, null on the local disk", async () => {
    const data = bytes(2048, 12);
    await f.store.put("sign/get", data);
    const getUrl = await f.store.presignGet("sign/get", { expiresInSeconds: 60, filename: "données.csv" });
    const putUrl = await f.store.presignPut("sign/put", { expiresInSeconds: 60 });
    if (f.store.driver === "local") {
      expect(getUrl).toBeNull();
      expect(putUrl).toBeNull();
      return;
    }
    const res = await fetch(must(getUrl));
    expect(res.status).toBe(200);
    expect(res.headers.get("content-disposition")).toBe(
      `attachment; filename="donn_es.csv"; filename*=UTF-8''donn%C3%A9es.csv`,
    );
    expect(sha256(new Uint8Array(await res.arrayBuffer()))).toBe(sha256(data));
    // Tampering with the signed URL is refused; so is a URL past its expiry.
    expect((await fetch(must(getUrl).replace("/sign/get?", "/rt/one?"))).status).toBe(403);
    if (f.store instanceof S3BlobStore) {
      // The test server checks expiry as S3 does: a URL signed an hour ago for a minute is refused.
      const expired = await getSignedUrl(
        f.store.client,
        new GetObjectCommand({ Bucket: f.store.bucket, Key: "sign/get" }),
        { expiresIn: 60, signingDate: new Date(Date.now() - 3600_000) },
      );
      expect((await fetch(expired)).status).toBe(403);
    }

    const body = bytes(3000, 13);
    const put = await fetch(must(putUrl), { method: "PUT", body });
    expect(put.status).toBe(200);
    const got = await f.store.get("sign/put");
    expect(sha256(await readAll(must(got).stream))).toBe(sha256(body));

    // With a declared checksum, the client must send it (signed headers): it is stored as metadata.
    const declared = await f.store.presignPut("sign/declared", {
      expiresInSeconds: 60,
      sha256: sha256(body),
    });
    expect((await fetch(must(declared), { method: "PUT", body })).status).toBe(403);
    const withHeaders = await fetch(must(declared), {
      method: "PUT",
      body,
      headers: {
        "x-amz-meta-sha256": sha256(body),
        "x-amz-checksum-sha256": Buffer.from(sha256(body), "hex").toString("base64"),
      },
    });
    expect(withHeaders.status).toBe(200);
    expect((await f.store.head("sign/declared"))?.sha256).toBe(sha256(body));
  });
});

describe("local disk specifics", () => {
  test("files written before checksum records existed get their SHA-256 on head, then recorded", async () => {
    const root = await fs.mkdtemp(path.join(os.tmpdir(), "layerline-blobs-legacy-"));
    try {
      const store = new LocalBlobStore(root);
      const data = bytes(777, 14);
      await fs.mkdir(path.join(root, "datasets"), { recursive: true });
      await fs.writeFile(path.join(root, "datasets", "dsv_legacy"), data);
      expect((await store.get("datasets/dsv_legacy"))?.sha256).toBeNull();
      expect((await store.head("datasets/dsv_legacy"))?.sha256).toBe(sha256(data));
      expect((await store.get("datasets/dsv_legacy"))?.sha256).toBe(sha256(data));
      // Replaced by other means: the record no longer applies and is recomputed.
      const other = bytes(778, 15);
      await fs.writeFile(path.join(root, "datasets", "dsv_legacy"), other);
      expect((await store.head("datasets/dsv_legacy"))?.sha256).toBe(sha256(other));
    } finally {
      await fs.rm(root, { recursive: true, force: true });
    }
  });

  test("the layout on disk is <root>/<area>/<id>, as before", async () => {
    const root = await fs.mkdtemp(path.join(os.tmpdir(), "layerline-blobs-layout-"));
    try {
      const store = new LocalBlobStore(root);
      await store.put("datasets/dsv_abc", bytes(5));
      expect(await fs.readFile(path.join(root, "datasets", "dsv_abc"))).toEqual(Buffer.from(bytes(5)));
      expect(await fs.readdir(path.join(root, "datasets"))).toEqual(["dsv_abc"]);
    } finally {
      await fs.rm(root, { recursive: true, force: true });
    }
  });
});

describe.each([
  ["local disk", () => localFixture()],
  ["S3-compatible", () => s3Fixture(s3)],
] as const)("local files of blobs on the %s (for readers that need a path)", (_name, makeFixture) => {
  let f: Fixture;
  let cacheDir: string;
  beforeAll(async () => {
    f = await makeFixture();
    cacheDir = await fs.mkdtemp(path.join(os.tmpdir(), "layerline-blob-cache-test-"));
    process.env.BLOB_CACHE_DIR = cacheDir;
  });
  afterAll(async () => {
    delete process.env.BLOB_CACHE_DIR;
    await fs.rm(cacheDir, { recursive: true, force: true });
    await f?.close();
  });

  test("an upload keeps a local file of what it wrote; deleting removes both", async () => {
    const data = bytes(70_000, 20);
    const stored = await putKeepingLocalFile("cache/kept", inChunks(data, 8192), {}, f.store);
    expect(stored.sha256).toBe(sha256(data));
    expect(sha256(await fs.readFile(stored.file))).toBe(sha256(data));
    expect(await localBlobFile("cache/kept", f.store)).toBe(stored.file);
    await deleteBlobAndLocalFile("cache/kept", f.store);
    expect(await f.store.head("cache/kept")).toBeNull();
    expect(await localBlobFile("cache/kept", f.store)).toBeNull();
    expect(await filesUnder(cacheDir)).toEqual([]);
  });

  test("a blob written elsewhere is fetched once into a local file", async () => {
    const data = bytes(90_000, 21);
    await f.store.put("cache/remote", data);
    const file = must(await localBlobFile("cache/remote", f.store));
    expect(sha256(await fs.readFile(file))).toBe(sha256(data));
    expect(await localBlobFile("cache/remote", f.store)).toBe(file);
    expect(await localBlobFile("cache/none", f.store)).toBeNull();
  });

  test("a failed upload leaves no local file either", async () => {
    await expect(
      putKeepingLocalFile("cache/failed", failingAfter(bytes(6 * MIB, 22), MIB), {}, f.store),
    ).rejects.toThrow("the client went away");
    expect(await localBlobFile("cache/failed", f.store)).toBeNull();
    expect((await filesUnder(cacheDir)).filter((n) => n.includes("failed"))).toEqual([]);
  });

  test("an object whose bytes do not match its recorded SHA-256 is refused, and not cached", async () => {
    if (!(f.store instanceof S3BlobStore)) {
      // The local disk is its own file: there is no copy to check.
      expect(f.store.driver).toBe("local");
      return;
    }
    await f.store.client.send(
      new PutObjectCommand({
        Bucket: f.store.bucket,
        Key: "cache/corrupt",
        Body: "tampered",
        Metadata: { sha256: "0".repeat(64) },
      }),
    );
    await expect(localBlobFile("cache/corrupt", f.store)).rejects.toThrow(/does not match/);
    expect((await filesUnder(cacheDir)).filter((n) => n.includes("corrupt"))).toEqual([]);
  });
});
