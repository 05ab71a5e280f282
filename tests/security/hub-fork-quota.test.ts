/**
 * A hub fork records the parent's files in the forker's account, where they count in the storage
 * quota (each blob once per owner) like every other copy: a fork that would not fit is refused with
 * 402 `storage-quota` and leaves nothing (no model, no file rows), and a fork of blobs the forker
 * already counts costs nothing more.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tempBlobDir } from "../api/projects.fixtures";
import { call, signUpWithKey, startTestApp, type TestApp } from "../helpers";

tempBlobDir();
let app: TestApp;
const LIMIT = 60_000;
const saved = process.env.STORAGE_QUOTA_BYTES;

beforeAll(async () => {
  process.env.STORAGE_QUOTA_BYTES = String(LIMIT);
  app = await startTestApp();
});
afterAll(() => {
  if (saved === undefined) delete process.env.STORAGE_QUOTA_BYTES;
  else process.env.STORAGE_QUOTA_BYTES = saved;
});

const raw = (key: string, body: Uint8Array<ArrayBuffer>) => ({
  key,
  rawBody: body,
  headers: { "Content-Type": "application/octet-stream" },
});

async function draftWithFile(key: string, name: string, size: number, fill: number): Promise<string> {
  const m = await call(app, "POST", "/api/v1/hub/models", { key, body: { name } });
  expect(m.status, m.text).toBe(201);
  const f = await call(
    app,
    "POST",
    `/api/v1/hub/models/${m.json.id}/files?path=weights.bin`,
    raw(key, new Uint8Array(size).fill(fill)),
  );
  expect(f.status, f.text).toBe(201);
  return m.json.id;
}

async function hubUsage(key: string): Promise<number> {
  const r = await call(app, "GET", "/api/v1/datasets/storage/quota", { key });
  expect(r.status, r.text).toBe(200);
  return r.json.breakdown.hub;
}

async function ownModels(key: string, username: string): Promise<string[]> {
  const r = await call(app, "GET", `/api/v1/hub/models?owner=${username}&limit=100`, { key });
  expect(r.status, r.text).toBe(200);
  return r.json.items.map((m: { id: string }) => m.id);
}

describe("hub fork and the storage quota", () => {
  it("refuses a fork that would not fit with 402 storage-quota, records nothing, and allows it once it fits", async () => {
    const author = await signUpWithKey(app);
    const parent = await draftWithFile(author.key, "Big model", 40_000, 7);
    const fin = await call(app, "POST", `/api/v1/hub/models/${parent}/finalize`, { key: author.key });
    expect(fin.status, fin.text).toBe(200);

    const forker = await signUpWithKey(app);
    const filler = await draftWithFile(forker.key, "Filler", 30_000, 9);
    expect(await hubUsage(forker.key)).toBe(30_000);
    const before = await ownModels(forker.key, forker.username);

    // 30,000 stored + 40,000 forked > 60,000.
    const refused = await call(app, "POST", `/api/v1/hub/models/${parent}/fork`, {
      key: forker.key,
      body: {},
    });
    expect(refused.status, refused.text).toBe(402);
    expect(refused.res.headers.get("content-type")).toMatch(/application\/problem\+json/);
    expect(refused.json.type).toMatch(/storage-quota$/);
    expect(refused.json).toMatchObject({ limit_bytes: LIMIT, used_bytes: 30_000, requested_bytes: 40_000 });
    expect(refused.json.detail).toMatch(/storage quota/);
    expect(await hubUsage(forker.key)).toBe(30_000);
    expect(await ownModels(forker.key, forker.username)).toEqual(before);
    const parentView = await call(app, "GET", `/api/v1/hub/models/${parent}`, { key: author.key });
    expect(parentView.json.fork_tree.children).toEqual([]);

    // With the filler gone it fits; a second fork of the same blobs costs nothing more.
    expect((await call(app, "DELETE", `/api/v1/hub/models/${filler}`, { key: forker.key })).status).toBe(204);
    const fork = await call(app, "POST", `/api/v1/hub/models/${parent}/fork`, { key: forker.key, body: {} });
    expect(fork.status, fork.text).toBe(201);
    expect(fork.json.parent_id).toBe(parent);
    expect(await hubUsage(forker.key)).toBe(40_000);
    const again = await call(app, "POST", `/api/v1/hub/models/${parent}/fork`, {
      key: forker.key,
      body: { name: "Second fork" },
    });
    expect(again.status, again.text).toBe(201);
    expect(await hubUsage(forker.key)).toBe(40_000);
  });
});
