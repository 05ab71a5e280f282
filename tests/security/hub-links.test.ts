// The app first: it extends zod with .openapi() before the schema modules build their schemas.
import "@/lib/server/app";
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/lib/server/db/client";
import { hubModels, users } from "@/lib/server/db/schema";
import { tempBlobDir } from "../api/projects.fixtures";
import { call, signUpWithKey, startTestApp, type TestApp } from "../helpers";

/**
 * A hub signed link is checked again on every fetch: the model must still exist and be visible to the
 * account that minted the link. Replaying a link counts one download.
 */
tempBlobDir();
let app: TestApp;
let owner: Awaited<ReturnType<typeof signUpWithKey>>;

beforeAll(async () => {
  app = await startTestApp();
  owner = await signUpWithKey(app);
  const db = await getDb();
  await db.update(users).set({ plan: "pro" }).where(eq(users.id, owner.user.id)); // private models
});

async function publishedModel(name: string) {
  const m = await call(app, "POST", "/api/v1/hub/models", { key: owner.key, body: { name } });
  expect(m.status, m.text).toBe(201);
  const f = await call(app, "POST", `/api/v1/hub/models/${m.json.id}/files?path=w.bin`, {
    key: owner.key,
    rawBody: new Uint8Array([1, 2, 3]),
    headers: { "Content-Type": "application/octet-stream" },
  });
  expect(f.status, f.text).toBe(201);
  const fin = await call(app, "POST", `/api/v1/hub/models/${m.json.id}/finalize`, { key: owner.key });
  expect(fin.status, fin.text).toBe(200);
  return { id: m.json.id as string, fileId: f.json.id as string };
}

/** A link fetched as a client would: a redirect to the object store (files in S3) is followed. */
const fetchLink = async (url: string) => {
  const res = await app.request(url, { headers: { Host: "localhost" } });
  await res.arrayBuffer();
  if (res.status !== 302) return res.status;
  const direct = await fetch(res.headers.get("location") ?? "");
  await direct.arrayBuffer();
  return direct.status;
};

async function downloads(id: string): Promise<number> {
  const db = await getDb();
  const [row] = await db.select({ d: hubModels.downloads }).from(hubModels).where(eq(hubModels.id, id));
  return row.d;
}

describe("hub signed links", () => {
  it("stop working the moment the model turns private (file and ZIP links minted signed out)", async () => {
    const { id, fileId } = await publishedModel("Soon private");
    const file = await call(app, "POST", `/api/v1/hub/models/${id}/download`, { body: { file_id: fileId } });
    const all = await call(app, "POST", `/api/v1/hub/models/${id}/download`, { body: {} });
    expect(await fetchLink(file.json.url)).toBe(200);
    expect(await fetchLink(all.json.url)).toBe(200);
    // The owner's own link, minted while public.
    const mine = await call(app, "POST", `/api/v1/hub/models/${id}/download`, {
      key: owner.key,
      body: { file_id: fileId },
    });

    const priv = await call(app, "PUT", `/api/v1/hub/models/${id}`, {
      key: owner.key,
      body: { visibility: "private" },
    });
    expect(priv.status, priv.text).toBe(200);
    expect(await fetchLink(file.json.url)).toBe(404);
    expect(await fetchLink(all.json.url)).toBe(404);
    // The owner still sees the model: the link the owner minted still opens it.
    expect(await fetchLink(mine.json.url)).toBe(200);

    // Deleted: no link opens it.
    expect((await call(app, "DELETE", `/api/v1/hub/models/${id}`, { key: owner.key })).status).toBe(204);
    expect(await fetchLink(mine.json.url)).toBe(404);
  });

  it("a link that claims another minter has no valid signature", async () => {
    const { id, fileId } = await publishedModel("Claimed");
    const link = await call(app, "POST", `/api/v1/hub/models/${id}/download`, { body: { file_id: fileId } });
    expect(await fetchLink(`${link.json.url}&v=${owner.user.id}`)).toBe(403);
  });

  it("replaying a link counts one download; another link counts another", async () => {
    const { id, fileId } = await publishedModel("Counted once");
    const link = await call(app, "POST", `/api/v1/hub/models/${id}/download`, { body: { file_id: fileId } });
    for (let i = 0; i < 5; i++) expect(await fetchLink(link.json.url)).toBe(200);
    await Promise.all(Array.from({ length: 5 }, () => fetchLink(link.json.url)));
    expect(await downloads(id)).toBe(1);
    const again = await call(app, "POST", `/api/v1/hub/models/${id}/download`, { body: {} });
    expect(await fetchLink(again.json.url)).toBe(200);
    expect(await fetchLink(again.json.url)).toBe(200);
    expect(await downloads(id)).toBe(2);
  });
});
