/**
 * Clients sent to the bucket itself (BLOB_STORE=s3): a dataset's or a hub file's signed link is
 * checked exactly as before (single use, expiry, signature, visibility, download count) and only
 * then answered with a redirect to a presigned GET of that object, never outliving the link; a
 * registry artifact upload that asks for it gets a presigned PUT of a staging object, which
 * `complete` checks (size, SHA-256 read back, quota), moves into place and deletes; a refused or
 * abandoned upload leaves nothing in the bucket. On the local disk (and with the settings off) the
 * same calls stream through the API as before. Run on both drivers:
 *   npx vitest run tests/storage/presigned-transfers.test.ts
 *   npx tsx tests/helpers/with-s3.ts npx vitest run tests/storage/presigned-transfers.test.ts
 */
// The app first: it extends zod with .openapi() before the schema modules build their schemas.
import "@/lib/server/app";
import { createHash } from "node:crypto";
import { ListObjectsV2Command } from "@aws-sdk/client-s3";
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { ConfigError, readBlobStoreConfig, type S3BlobStoreConfig } from "@/lib/server/config";
import { getDb } from "@/lib/server/db/client";
import { hubModels } from "@/lib/server/db/schema";
import { mintDownloadLink } from "@/lib/server/modules/datasets/signed-links";
import { mintHubLink } from "@/lib/server/modules/hub/signed-links";
import { artifactStagingKey } from "@/lib/server/modules/registry/direct-uploads";
import { sweepOrphanBlobs } from "@/lib/server/modules/training/recovery";
import { blobStore } from "@/lib/server/storage/blob-stores";
import { S3BlobStore } from "@/lib/server/storage/s3-blob-store";
import { tempBlobDir } from "../api/projects.fixtures";
import { call, signUpWithKey, startTestApp, type TestApp } from "../helpers";
import { useOwnBlobBucket } from "../helpers/own-blob-bucket";

tempBlobDir();
let app: TestApp;
let key = "";

const sha256 = (b: Uint8Array) => createHash("sha256").update(b).digest("hex");
const onS3 = () => blobStore().driver === "s3";

beforeAll(async () => {
  await useOwnBlobBucket();
  app = await startTestApp();
  ({ key } = await signUpWithKey(app));
});

/** Runs `fn` with environment variables set (undefined: removed), then restores them. */
async function withEnv<T>(vars: Record<string, string | undefined>, fn: () => Promise<T>): Promise<T> {
  const saved = Object.fromEntries(Object.keys(vars).map((k) => [k, process.env[k]]));
  const apply = (v: Record<string, string | undefined>) => {
    for (const [k, value] of Object.entries(v))
      if (value === undefined) delete process.env[k];
      else process.env[k] = value;
  };
  apply(vars);
  try {
    return await fn();
  } finally {
    apply(saved);
  }
}

/** Every object in this file's bucket (temporary ones included); on the local disk, its listing. */
async function bucketKeys(): Promise<string[]> {
  const store = blobStore();
  const keys: string[] = [];
  if (store instanceof S3BlobStore) {
    let token: string | undefined;
    do {
      const page = await store.client.send(
        new ListObjectsV2Command({ Bucket: store.bucket, ContinuationToken: token }),
      );
      for (const o of page.Contents ?? []) keys.push(o.Key ?? "");
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
  } else for await (const o of store.list("")) keys.push(o.key);
  return keys.sort();
}

/** The redirect's target, checked to be a presigned URL of the bucket valid for at most `maxSeconds`. */
function presignedTarget(res: Response, maxSeconds: number): string {
  const location = res.headers.get("location") ?? "";
  const url = new URL(location);
  expect(url.origin).toBe(new URL(process.env.S3_ENDPOINT ?? "").origin);
  const expires = Number(url.searchParams.get("X-Amz-Expires"));
  expect(expires).toBeGreaterThanOrEqual(1);
  expect(expires).toBeLessThanOrEqual(maxSeconds);
  return location;
}

function multipartCsv(content: string, fileName: string): FormData {
  const form = new FormData();
  form.append("file", new Blob([content], { type: "text/csv" }), fileName);
  return form;
}

describe("a dataset's signed link", () => {
  const CONTENT = "a,b,label\n1,2,x\n3,4,y\n5,6,x\n7,8,y\n";
  const FILE = "mesures (été).csv";
  // The same header streamed by the API and from the bucket.
  const DISPOSITION = `attachment; filename="mesures (_t_).csv"; filename*=UTF-8''mesures%20%28%C3%A9t%C3%A9%29.csv`;

  async function uploadDataset() {
    const form = multipartCsv(CONTENT, FILE);
    const res = await app.request("/api/v1/datasets/", {
      method: "POST",
      headers: { Host: "localhost", Authorization: `Bearer ${key}` },
      body: form,
    });
    const json = await res.json();
    expect(res.status, JSON.stringify(json)).toBe(201);
    return { id: json.dataset.id as string, versionId: json.version.id as string };
  }

  async function freshLink(id: string) {
    const meta = await call(app, "GET", `/api/v1/datasets/${id}/meta`, { key });
    expect(meta.status, meta.text).toBe(200);
    const url = new URL(meta.json.download_url);
    return url.pathname + url.search;
  }

  it("is used up, then redirected to the exact bytes and file name (streamed on the local disk)", async () => {
    const { id } = await uploadDataset();
    const link = await freshLink(id);
    const first = await call(app, "GET", link);
    if (!onS3()) {
      expect(first.status).toBe(200);
      expect(first.text).toBe(CONTENT);
      expect(first.res.headers.get("content-disposition")).toBe(DISPOSITION);
      expect((await call(app, "GET", link)).status).toBe(410);
      return;
    }
    expect(first.status).toBe(302);
    expect(first.text).toBe(""); // not one byte of the file through the API
    expect(first.res.headers.get("cache-control")).toContain("no-store");
    const target = presignedTarget(first.res, 60);
    // Single use still: the link is refused before any redirect.
    const reused = await call(app, "GET", link);
    expect(reused.status).toBe(410);
    expect(reused.res.headers.get("location")).toBeNull();

    const got = await fetch(target);
    expect(got.status).toBe(200);
    expect(await got.text()).toBe(CONTENT);
    expect(got.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(got.headers.get("content-disposition")).toBe(DISPOSITION);
    // Range requests go to the object store, which honours them.
    const part = await fetch(target, { headers: { Range: "bytes=2-6" } });
    expect(part.status).toBe(206);
    expect(await part.text()).toBe(CONTENT.slice(2, 7));
    // The presigned URL names one object: another key with its signature is refused.
    expect((await fetch(target.replace(/datasets\/[^?]+/, "datasets/dsv_other"))).status).toBe(403);
  });

  it("refuses forged, expired and reused links before any redirect", async () => {
    const { id, versionId } = await uploadDataset();
    const link = new URL(await freshLink(id), "http://localhost");
    const forged = new URL(link);
    forged.searchParams.set("sig", `${link.searchParams.get("sig")?.slice(0, -2)}AA`);
    const other = `/api/v1/datasets/builtin-iris/download${link.search}`;
    const expired = await mintDownloadLink(await getDb(), id, versionId, new Date(Date.now() - 10 * 60_000));
    for (const [path, status] of [
      [forged.pathname + forged.search, 403],
      [other, 403],
      [`/api/v1/datasets/${id}/download?${new URLSearchParams({ ...expired.query })}`, 410],
    ] as const) {
      const r = await call(app, "GET", path);
      expect(r.status, path).toBe(status);
      expect(r.res.headers.get("location")).toBeNull();
    }
    // None of those used the link up.
    expect([200, 302]).toContain((await call(app, "GET", link.pathname + link.search)).status);
  });

  it("a presigned URL never outlives its link; S3_PRESIGNED_DOWNLOADS=false streams", async () => {
    const { id, versionId } = await uploadDataset();
    // Minted 4 min 40 s ago: 20 s left.
    const late = await mintDownloadLink(await getDb(), id, versionId, new Date(Date.now() - 280_000));
    const r = await call(
      app,
      "GET",
      `/api/v1/datasets/${id}/download?${new URLSearchParams({ ...late.query })}`,
    );
    if (onS3()) {
      expect(r.status).toBe(302);
      presignedTarget(r.res, 20);
    } else expect(r.status).toBe(200);

    const streamed = await withEnv({ S3_PRESIGNED_DOWNLOADS: "false" }, async () =>
      call(app, "GET", await freshLink(id)),
    );
    expect(streamed.status).toBe(200);
    expect(streamed.text).toBe(CONTENT);
    expect(streamed.res.headers.get("content-disposition")).toBe(DISPOSITION);
  });
});

describe("a hub file's signed link", () => {
  const BYTES = new Uint8Array(Array.from({ length: 3000 }, (_, i) => (i * 7) % 251));

  async function hubFile(name: string) {
    const m = await call(app, "POST", "/api/v1/hub/models", { key, body: { name } });
    expect(m.status, m.text).toBe(201);
    const f = await call(app, "POST", `/api/v1/hub/models/${m.json.id}/files?path=weights/model%20v1.bin`, {
      key,
      rawBody: BYTES,
      headers: { "Content-Type": "application/octet-stream" },
    });
    expect(f.status, f.text).toBe(201);
    const fin = await call(app, "POST", `/api/v1/hub/models/${m.json.id}/finalize`, { key });
    expect(fin.status, fin.text).toBe(200);
    return { id: m.json.id as string, fileId: f.json.id as string };
  }

  async function downloads(id: string): Promise<number> {
    const db = await getDb();
    const [row] = await db.select({ d: hubModels.downloads }).from(hubModels).where(eq(hubModels.id, id));
    return row.d;
  }

  it("is checked, counted once, then redirected to the exact bytes and name", async () => {
    const { id, fileId } = await hubFile("Direct download");
    const link = await call(app, "POST", `/api/v1/hub/models/${id}/download`, { body: { file_id: fileId } });
    expect(link.status, link.text).toBe(200);
    const first = await call(app, "GET", link.json.url);
    if (!onS3()) {
      expect(first.status).toBe(200);
      expect(await downloads(id)).toBe(1);
      return;
    }
    expect(first.status).toBe(302);
    expect(first.text).toBe("");
    expect(await downloads(id)).toBe(1);
    const target = presignedTarget(first.res, 60);
    const got = await fetch(target);
    expect(got.status).toBe(200);
    expect(sha256(new Uint8Array(await got.arrayBuffer()))).toBe(sha256(BYTES));
    expect(got.headers.get("content-disposition")).toBe(
      `attachment; filename="model v1.bin"; filename*=UTF-8''model%20v1.bin`,
    );
    expect(got.headers.get("content-type")).toBe("application/octet-stream");
    const part = await fetch(target, { headers: { Range: "bytes=1000-1009" } });
    expect(part.status).toBe(206);
    expect([...new Uint8Array(await part.arrayBuffer())]).toEqual([...BYTES.subarray(1000, 1010)]);
    // A replay of the link is redirected again and still counts one download.
    expect((await call(app, "GET", link.json.url)).status).toBe(302);
    expect(await downloads(id)).toBe(1);
    // A link with 10 s left gets a presigned URL of at most 10 s.
    const late = mintHubLink(id, fileId, Date.now() - (15 * 60 - 10) * 1000, null);
    presignedTarget((await call(app, "GET", late.url)).res, 10);
  });

  it("streamed (local disk, or S3_PRESIGNED_DOWNLOADS=false), a range is answered too", async () => {
    const { id, fileId } = await hubFile("Streamed ranges");
    const link = await call(app, "POST", `/api/v1/hub/models/${id}/download`, { body: { file_id: fileId } });
    const get = (headers: Record<string, string>) =>
      withEnv({ S3_PRESIGNED_DOWNLOADS: "false" }, async () => {
        const res = await app.request(link.json.url, { headers: { Host: "localhost", ...headers } });
        return { res, bytes: new Uint8Array(await res.arrayBuffer()) };
      });
    const whole = await get({});
    expect(whole.res.status).toBe(200);
    expect(whole.res.headers.get("accept-ranges")).toBe("bytes");
    const etag = whole.res.headers.get("etag") ?? "";
    expect(etag).toBe(`"${sha256(BYTES)}"`);
    for (const [range, start, end] of [
      ["bytes=1000-1009", 1000, 1009],
      ["bytes=2990-", 2990, 2999],
      ["bytes=-7", 2993, 2999],
      ["bytes=2995-9999", 2995, 2999],
    ] as const) {
      const part = await get({ Range: range, "If-Range": etag });
      expect(part.res.status, range).toBe(206);
      expect(part.res.headers.get("content-range")).toBe(`bytes ${start}-${end}/${BYTES.byteLength}`);
      expect(part.res.headers.get("content-length")).toBe(String(end - start + 1));
      expect([...part.bytes]).toEqual([...BYTES.subarray(start, end + 1)]);
    }
    // Another version named by If-Range, several ranges, or a malformed one: the whole file.
    for (const headers of [
      { Range: "bytes=0-9", "If-Range": '"0000"' } as Record<string, string>,
      { Range: "bytes=0-9,20-29" },
      { Range: "items=0-9" },
    ]) {
      const all = await get(headers);
      expect(all.res.status).toBe(200);
      expect(all.bytes.byteLength).toBe(BYTES.byteLength);
    }
    const past = await call(app, "GET", link.json.url, { headers: { Range: "bytes=3000-" } });
    if (onS3()) expect(past.status).toBe(302);
    else {
      expect(past.status).toBe(416);
      expect(past.res.headers.get("content-range")).toBe(`bytes */${BYTES.byteLength}`);
    }
    expect(await downloads(id)).toBe(1);
  });

  it("refuses forged, expired and no-longer-visible links before any redirect", async () => {
    const { id, fileId } = await hubFile("Soon hidden");
    const link = await call(app, "POST", `/api/v1/hub/models/${id}/download`, { body: { file_id: fileId } });
    const forged = link.json.url.replace(/sig=[^&]+/, "sig=AAAA");
    const expired = mintHubLink(id, fileId, Date.now() - 20 * 60_000, null).url;
    const otherFile = link.json.url.replace(fileId, "hf_other");
    for (const [url, status] of [
      [forged, 403],
      [expired, 410],
      [otherFile, 403],
    ] as const) {
      const r = await call(app, "GET", url);
      expect(r.status, url).toBe(status);
      expect(r.res.headers.get("location")).toBeNull();
    }
    // Another account's model made private: a link minted signed out opens nothing.
    const { key: proKey, user } = await signUpWithKey(app);
    const { users } = await import("@/lib/server/db/schema");
    await (await getDb()).update(users).set({ plan: "pro" }).where(eq(users.id, user.id));
    const m = await call(app, "POST", "/api/v1/hub/models", { key: proKey, body: { name: "Private later" } });
    const f = await call(app, "POST", `/api/v1/hub/models/${m.json.id}/files?path=w.bin`, {
      key: proKey,
      rawBody: BYTES,
      headers: { "Content-Type": "application/octet-stream" },
    });
    expect(
      (await call(app, "POST", `/api/v1/hub/models/${m.json.id}/finalize`, { key: proKey })).status,
    ).toBe(200);
    const theirs = await call(app, "POST", `/api/v1/hub/models/${m.json.id}/download`, {
      body: { file_id: f.json.id },
    });
    expect([200, 302]).toContain((await call(app, "GET", theirs.json.url)).status);
    const priv = await call(app, "PUT", `/api/v1/hub/models/${m.json.id}`, {
      key: proKey,
      body: { visibility: "private" },
    });
    expect(priv.status, priv.text).toBe(200);
    const hidden = await call(app, "GET", theirs.json.url);
    expect(hidden.status).toBe(404);
    expect(hidden.res.headers.get("location")).toBeNull();
    expect(await downloads(m.json.id)).toBe(1);
  });
});

describe("a registry artifact's direct upload", () => {
  const WEIGHTS = new Uint8Array(Array.from({ length: 40_000 }, (_, i) => (i * 31 + 7) % 256));

  async function pendingVersion() {
    const model = await call(app, "POST", "/api/v1/models", {
      key,
      body: { name: `direct-${Math.random().toString(36).slice(2, 10)}` },
    });
    expect(model.status, model.text).toBe(201);
    const v = await call(app, "POST", `/api/v1/models/${model.json.id}/versions`, { key, body: {} });
    expect(v.status, v.text).toBe(201);
    return v.json.id as string;
  }

  const initiate = (versionId: string, body: Record<string, unknown>) =>
    call(app, "POST", `/api/v1/model-versions/${versionId}/artifacts:initiate`, { key, body });
  const complete = (versionId: string, artifactId: string) =>
    call(app, "POST", `/api/v1/model-versions/${versionId}/artifacts/${artifactId}/complete`, { key });

  /** Sends bytes to the upload URL: the bucket itself with plain fetch, or the API. */
  async function send(
    upload: { url: string; headers: Record<string, string>; direct: boolean },
    body: Uint8Array<ArrayBuffer>,
  ) {
    const init = { method: "PUT", headers: upload.headers, body };
    const res = upload.direct ? await fetch(upload.url, init) : await app.request(upload.url, init);
    await res.arrayBuffer();
    return res.status;
  }

  /** This version's objects: artifacts in place and staging objects. */
  async function objectsOf(artifactIds: string[]): Promise<string[]> {
    return (await bucketKeys()).filter((k) => artifactIds.some((a) => k.includes(a)));
  }

  it("a presigned PUT of the right bytes publishes the version; the quota counts them", async () => {
    const versionId = await pendingVersion();
    const before = await call(app, "GET", "/api/v1/datasets/storage/quota", { key });
    const init = await initiate(versionId, {
      name: "model.onnx",
      size_bytes: WEIGHTS.byteLength,
      sha256: sha256(WEIGHTS),
      direct_upload: true,
    });
    expect(init.status, init.text).toBe(201);
    const { upload, artifact_id: artifactId } = init.json;
    expect(upload.direct).toBe(onS3());
    if (onS3()) {
      expect(new URL(upload.url).origin).toBe(new URL(process.env.S3_ENDPOINT ?? "").origin);
      expect(upload.headers["x-amz-checksum-sha256"]).toBe(
        Buffer.from(sha256(WEIGHTS), "hex").toString("base64"),
      );
      // Bound to the declared length: a longer body is refused by the store itself.
      expect(await send(upload, new Uint8Array([...WEIGHTS, 0]))).toBe(403);
      // Without the signed checksum headers: refused too.
      expect(await send({ ...upload, headers: {} }, WEIGHTS)).toBe(403);
    }
    expect(await send(upload, WEIGHTS)).toBe(200);
    if (onS3()) expect(await objectsOf([artifactId])).toEqual([artifactStagingKey(artifactId)]);

    const done = await complete(versionId, artifactId);
    expect(done.status, done.text).toBe(200);
    expect(done.json.state).toBe("complete");
    // Moved into place: the staging object is gone, one object holds the artifact.
    const stored = await objectsOf([artifactId]);
    expect(stored).toHaveLength(1);
    expect(stored[0]).toMatch(new RegExp(`^registry/${artifactId}\\.`));
    expect((await blobStore().head(stored[0]))?.sha256).toBe(sha256(WEIGHTS));

    const after = await call(app, "GET", "/api/v1/datasets/storage/quota", { key });
    expect(after.json.breakdown.registry - before.json.breakdown.registry).toBe(WEIGHTS.byteLength);
    const fin = await call(app, "POST", `/api/v1/model-versions/${versionId}/finalize`, { key });
    expect(fin.status, fin.text).toBe(200);
    expect(fin.json.state).toBe("ready");
    const dl = await app.request(`/api/v1/model-versions/${versionId}/artifacts/${artifactId}/download`, {
      headers: { Authorization: `Bearer ${key}` },
    });
    expect(sha256(new Uint8Array(await dl.arrayBuffer()))).toBe(sha256(WEIGHTS));
  });

  it("wrong bytes, a wrong size, nothing uploaded or no room: a clear refusal and nothing left", async () => {
    if (!onS3()) {
      // Nothing to stage on the local disk: the request is answered with the API's own URL.
      const versionId = await pendingVersion();
      const init = await initiate(versionId, {
        name: "w.bin",
        size_bytes: 3,
        sha256: sha256(new Uint8Array([1, 2, 3])),
        direct_upload: true,
      });
      expect(init.json.upload.direct).toBe(false);
      expect(new URL(init.json.upload.url).pathname).toMatch(/\/artifacts\/[^/]+\/upload$/);
      return;
    }
    const versionId = await pendingVersion();
    const declared = { size_bytes: WEIGHTS.byteLength, sha256: sha256(WEIGHTS), direct_upload: true };

    // Other bytes of the same length (S3 itself refuses them with the signed checksum; the test
    // server does not): complete reads them back, refuses them and deletes them.
    const wrong = await initiate(versionId, { name: "wrong.bin", ...declared });
    const forged = WEIGHTS.slice();
    forged[123] ^= 0xff;
    expect([200, 400]).toContain(await send(wrong.json.upload, forged));
    const refused = await complete(versionId, wrong.json.artifact_id);
    expect(refused.status, refused.text).toBe(422);
    expect(refused.json.errors).toEqual([expect.objectContaining({ path: "sha256" })]);
    expect(refused.res.headers.get("content-type")).toMatch(/problem\+json/);
    expect(await objectsOf([wrong.json.artifact_id])).toEqual([]);
    // Still pending: the right bytes to the same URL are then accepted.
    expect(await send(wrong.json.upload, WEIGHTS)).toBe(200);
    expect((await complete(versionId, wrong.json.artifact_id)).status).toBe(200);

    // A larger object under the staging key (a store that does not check the signed length).
    const big = await initiate(versionId, { name: "big.bin", ...declared });
    await blobStore().put(artifactStagingKey(big.json.artifact_id), new Uint8Array([...WEIGHTS, 1, 2, 3]));
    const tooBig = await complete(versionId, big.json.artifact_id);
    expect(tooBig.status, tooBig.text).toBe(422);
    expect(tooBig.json.errors).toEqual([expect.objectContaining({ path: "size_bytes" })]);
    expect(await objectsOf([big.json.artifact_id])).toEqual([]);

    // Never uploaded.
    const none = await initiate(versionId, { name: "none.bin", ...declared });
    const nothing = await complete(versionId, none.json.artifact_id);
    expect(nothing.status, nothing.text).toBe(409);
    expect(await objectsOf([none.json.artifact_id])).toEqual([]);

    // Room at initiate, none left at complete: 402 and the bytes are deleted.
    const late = await initiate(versionId, { name: "late.bin", ...declared });
    expect(await send(late.json.upload, WEIGHTS)).toBe(200);
    const noRoom = await withEnv({ STORAGE_QUOTA_BYTES: String(WEIGHTS.byteLength) }, () =>
      complete(versionId, late.json.artifact_id),
    );
    expect(noRoom.status, noRoom.text).toBe(402);
    expect(noRoom.json.type).toMatch(/storage-quota$/);
    expect(await objectsOf([late.json.artifact_id])).toEqual([]);

    // Finalize refuses while those stay incomplete.
    expect((await call(app, "POST", `/api/v1/model-versions/${versionId}/finalize`, { key })).status).toBe(
      409,
    );
  });

  it("an upload never completed is collected by the orphan sweep", async () => {
    if (!onS3()) return;
    const versionId = await pendingVersion();
    const init = await initiate(versionId, {
      name: "abandoned.bin",
      size_bytes: WEIGHTS.byteLength,
      sha256: sha256(WEIGHTS),
      direct_upload: true,
    });
    expect(await send(init.json.upload, WEIGHTS)).toBe(200);
    // Too recent for the usual age: kept (its client may still complete it).
    await sweepOrphanBlobs(await getDb(), 3600_000);
    expect(await objectsOf([init.json.artifact_id])).toEqual([artifactStagingKey(init.json.artifact_id)]);
    await sweepOrphanBlobs(await getDb(), 0);
    expect(await objectsOf([init.json.artifact_id])).toEqual([]);
    expect((await complete(versionId, init.json.artifact_id)).status).toBe(409);
  });

  it("S3_PRESIGNED_UPLOADS=false: the API's own URL, as without direct_upload", async () => {
    const versionId = await pendingVersion();
    const init = await withEnv({ S3_PRESIGNED_UPLOADS: "false" }, () =>
      initiate(versionId, {
        name: "through.bin",
        size_bytes: WEIGHTS.byteLength,
        sha256: sha256(WEIGHTS),
        direct_upload: true,
      }),
    );
    expect(init.json.upload.direct).toBe(false);
    expect(await send(init.json.upload, WEIGHTS)).toBe(200);
    expect((await complete(versionId, init.json.artifact_id)).status).toBe(200);
  });
});

describe("presigned URL settings", () => {
  it("S3_PUBLIC_ENDPOINT: presigned URLs name the address clients reach, and work there", async () => {
    const config = readBlobStoreConfig({
      BLOB_STORE: "s3",
      S3_BUCKET: "b-public",
      S3_ENDPOINT: "http://10.0.0.5:9000",
      S3_PUBLIC_ENDPOINT: "https://files.example.com/",
      AWS_ACCESS_KEY_ID: "AKIDEXAMPLE",
      AWS_SECRET_ACCESS_KEY: "secret",
    }) as S3BlobStoreConfig;
    expect(config.publicEndpoint).toBe("https://files.example.com");
    const url = await new S3BlobStore(config).presignGet("a/b", { expiresInSeconds: 30 });
    expect(new URL(url).origin).toBe("https://files.example.com");
    for (const [name, value] of [
      ["S3_PUBLIC_ENDPOINT", "files.example.com"],
      ["S3_PRESIGNED_DOWNLOADS", "sometimes"],
      ["S3_PRESIGNED_UPLOADS", "yes please"],
    ])
      expect(() =>
        readBlobStoreConfig({
          BLOB_STORE: "s3",
          S3_BUCKET: "b-public",
          S3_ENDPOINT: "http://s3:9000",
          [name]: value,
        }),
      ).toThrow(ConfigError);
    if (!onS3()) return;
    // Against the test server, reached as `localhost` instead of 127.0.0.1: signed for that host.
    const store = blobStore() as S3BlobStore;
    const base = readBlobStoreConfig(process.env) as S3BlobStoreConfig;
    const publicHost = (base.endpoint ?? "").replace("127.0.0.1", "localhost");
    const viaPublic = new S3BlobStore({ ...base, bucket: store.bucket, publicEndpoint: publicHost });
    await store.put("public/one", new Uint8Array([9, 8, 7]));
    const signed = await viaPublic.presignGet("public/one", { expiresInSeconds: 30 });
    expect(new URL(signed).host).toBe(new URL(publicHost).host);
    const got = await fetch(signed);
    expect([...new Uint8Array(await got.arrayBuffer())]).toEqual([9, 8, 7]);
    await store.delete("public/one");
  });
});
