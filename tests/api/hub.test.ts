/**
 * The hub through the real app and database: drafts, streamed uploads (402 above the plan's
 * hub_file_bytes without buffering), finalize, public reads and search, signed links (tampered →
 * 403, expired → 410), download counts (content fetches only), private models' isolation, stars
 * and trending, forks and their tree, reviews, versions, use-in-studio, and publishing a real
 * trained Iris job.
 */
// The app first: it extends zod with .openapi() before the schema modules build their schemas.
import "@/lib/server/app";
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { ListMultipartUploadsCommand, ListObjectsV2Command } from "@aws-sdk/client-s3";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import yauzl from "yauzl";
import { getDb } from "@/lib/server/db/client";
import { hubModels, hubStars, users } from "@/lib/server/db/schema";
import { type JobRunner, startJobRunner } from "@/lib/server/jobs/runner";
import { setFeatured } from "@/lib/server/modules/hub/models";
import { mintHubLink } from "@/lib/server/modules/hub/signed-links";
import { PLANS } from "@/lib/server/plans";
import { blobStore } from "@/lib/server/storage/blob-stores";
import { S3BlobStore } from "@/lib/server/storage/s3-blob-store";
import { call, serveForUploads, signUpWithKey, startTestApp, type TestApp } from "../helpers";
import { mlpGraph, tempBlobDir } from "./projects.fixtures";
import { irisGraph, TERMINAL, waitFor } from "./training-fixtures";

const blobDir = tempBlobDir();
let app: TestApp;
let runner: JobRunner | null = null;
let close: () => void = () => {};
type Account = Awaited<ReturnType<typeof signUpWithKey>>;
let owner: Account;
let other: Account;
let third: Account;
let irisJob: Promise<string>;
let reviewerJob: Promise<string>;

async function trainIris(key: string): Promise<string> {
  const project = await call(app, "POST", "/api/v1/projects", {
    key,
    body: { name: "Iris MLP", graph: irisGraph },
  });
  expect(project.status, project.text).toBe(201);
  const r = await call(app, "POST", "/api/v1/training/jobs", {
    key,
    body: {
      project_id: project.json.id,
      dataset_id: "builtin-iris",
      runtime: "tfjs",
      config: { epochs: 10, batch_size: 16, learning_rate: 0.02 },
    },
  });
  expect(r.status, r.text).toBe(201);
  const id = r.json.id as string;
  const job = await waitFor(`job ${id}`, 170_000, async () => {
    const got = await call(app, "GET", `/api/v1/training/jobs/${id}`, { key });
    return TERMINAL.includes(got.json.state) ? got.json : null;
  });
  expect(job.state, job.reason).toBe("succeeded");
  return id;
}

const sha256 = (b: Uint8Array | string) => createHash("sha256").update(b).digest("hex");

async function setPlan(userId: string, plan: "free" | "pro" | "team") {
  const db = await getDb();
  await db.update(users).set({ plan }).where(eq(users.id, userId));
}

async function createDraft(key: string, body: Record<string, unknown>) {
  const r = await call(app, "POST", "/api/v1/hub/models", { key, body });
  expect(r.status, r.text).toBe(201);
  return r.json as { id: string; slug: string; state: string };
}

async function uploadRaw(
  key: string,
  modelId: string,
  filePath: string,
  content: string | Uint8Array<ArrayBuffer>,
) {
  return call(app, "POST", `/api/v1/hub/models/${modelId}/files?path=${encodeURIComponent(filePath)}`, {
    key,
    rawBody: content,
    headers: { "Content-Type": "application/octet-stream" },
  });
}

/** A published public model with two files; returns its id and file ids. */
async function publishedModel(key: string, fields: Record<string, unknown> = {}) {
  const m = await createDraft(key, { name: "Tiny MLP", description: "A tiny test model", ...fields });
  const a = await uploadRaw(key, m.id, "weights.bin", new Uint8Array([1, 2, 3, 4, 5]));
  expect(a.status, a.text).toBe(201);
  const b = await uploadRaw(key, m.id, "config/model.json", JSON.stringify({ units: 8 }));
  expect(b.status, b.text).toBe(201);
  const f = await call(app, "POST", `/api/v1/hub/models/${m.id}/finalize`, { key });
  expect(f.status, f.text).toBe(200);
  return { id: m.id, weights: a.json.id as string, config: b.json.id as string };
}

/** A signed link fetched as a client would: a redirect to the object store (files in S3) is followed. */
async function fetchSigned(url: string) {
  let res = await app.request(url, { headers: { Host: "localhost" } });
  if (res.status === 302) res = await fetch(res.headers.get("location") ?? "");
  return { status: res.status, res, bytes: new Uint8Array(await res.arrayBuffer()) };
}

async function downloads(id: string): Promise<number> {
  const db = await getDb();
  const [row] = await db.select({ d: hubModels.downloads }).from(hubModels).where(eq(hubModels.id, id));
  return row.d;
}

function zipEntries(buf: Uint8Array): Promise<Map<string, Buffer>> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(Buffer.from(buf), { lazyEntries: true }, (err, zip) => {
      if (err || !zip) return reject(err);
      const out = new Map<string, Buffer>();
      zip.on("entry", (entry: yauzl.Entry) => {
        zip.openReadStream(entry, (e, stream) => {
          if (e || !stream) return reject(e);
          const chunks: Buffer[] = [];
          stream.on("data", (c: Buffer) => chunks.push(c));
          stream.on("end", () => {
            out.set(entry.fileName, Buffer.concat(chunks));
            zip.readEntry();
          });
        });
      });
      zip.on("end", () => resolve(out));
      zip.on("error", reject);
      zip.readEntry();
    });
  });
}

beforeAll(async () => {
  app = await startTestApp();
  close = await serveForUploads(app);
  runner = startJobRunner({ db: await getDb(), concurrency: 2, pollIntervalMs: 100 });
  [owner, other, third] = await Promise.all([signUpWithKey(app), signUpWithKey(app), signUpWithKey(app)]);
  irisJob = trainIris(owner.key);
  reviewerJob = trainIris(other.key);
  // Awaited by the publishing test.
  irisJob.catch(() => {});
  reviewerJob.catch(() => {});
}, 60_000);

afterAll(async () => {
  await Promise.all([irisJob.catch(() => {}), reviewerJob.catch(() => {})]);
  await runner?.stop({ graceMs: 2000 });
  close();
});

describe("hub: create, upload, finalize, read", () => {
  it("keeps a draft to its owner until finalize, then lists and finds it signed out", async () => {
    const word = `zebrafish${Date.now()}`;
    const m = await createDraft(owner.key, {
      name: "Draft Model",
      description: `Detects ${word} in tanks`,
      task: "image-classification",
      tags: ["vision", "Fish"],
      license: "mit",
    });
    expect(m.state).toBe("draft");
    expect(m.slug).toBe("draft-model");
    expect((await call(app, "GET", `/api/v1/hub/models/${m.id}`)).status).toBe(404);
    expect((await call(app, "GET", `/api/v1/hub/models/${m.id}`, { key: other.key })).status).toBe(404);
    expect((await call(app, "GET", `/api/v1/hub/models/${m.id}`, { key: owner.key })).status).toBe(200);
    let found = await call(app, "GET", `/api/v1/hub/models/search?q=${word}`);
    expect(found.json.total).toBe(0);
    // The owner's own listing shows the draft.
    const mine = await call(app, "GET", `/api/v1/hub/models?owner=${owner.username}`, { key: owner.key });
    expect(mine.json.items.map((i: { id: string }) => i.id)).toContain(m.id);

    expect((await call(app, "POST", `/api/v1/hub/models/${m.id}/finalize`, { key: owner.key })).status).toBe(
      409,
    );
    // Multipart upload (a path field) and a raw upload with ?path=.
    const form = new FormData();
    form.set("path", "model/weights.bin");
    form.set("file", new Blob([new Uint8Array(1000).fill(7)]), "ignored.bin");
    const up = await call(app, "POST", `/api/v1/hub/models/${m.id}/files`, { key: owner.key, rawBody: form });
    expect(up.status, up.text).toBe(201);
    expect(up.json.path).toBe("model/weights.bin");
    expect(up.json.size_bytes).toBe(1000);
    expect(up.json.sha256).toBe(sha256(new Uint8Array(1000).fill(7)));
    const readme = await uploadRaw(owner.key, m.id, "README.md", "# hello");
    expect(readme.status).toBe(201);
    expect(readme.json.content_type).toContain("text/markdown");
    // Same path again: replaced (200), not duplicated.
    const again = await uploadRaw(owner.key, m.id, "README.md", "# hello again");
    expect(again.status).toBe(200);
    expect(again.json.sha256).toBe(sha256("# hello again"));
    // Paths that could escape are refused.
    expect((await uploadRaw(owner.key, m.id, "../etc/passwd", "x")).status).toBe(422);
    expect((await uploadRaw(other.key, m.id, "x.bin", "x")).status).toBe(404);

    const fin = await call(app, "POST", `/api/v1/hub/models/${m.id}/finalize`, { key: owner.key });
    expect(fin.status, fin.text).toBe(200);
    expect(fin.json.state).toBe("published");
    expect(fin.json.tags).toEqual(["vision", "fish"]);
    expect((await call(app, "POST", `/api/v1/hub/models/${m.id}/finalize`, { key: owner.key })).status).toBe(
      409,
    );

    const pub = await call(app, "GET", `/api/v1/hub/models/${m.id}`);
    expect(pub.status).toBe(200);
    expect(pub.json.owner.username).toBe(owner.username);
    expect(pub.json.starred).toBe(false);
    const files = await call(app, "GET", `/api/v1/hub/models/${m.id}/files`);
    expect(files.json.items.map((f: { path: string }) => f.path)).toEqual(["README.md", "model/weights.bin"]);
    const versions = await call(app, "GET", `/api/v1/hub/models/${m.id}/versions`);
    expect(versions.json.items.map((v: { version: string }) => v.version)).toEqual(["1"]);

    found = await call(app, "GET", `/api/v1/hub/models/search?q=${word}`);
    expect(found.status).toBe(200);
    expect(found.json).toMatchObject({ total: 1, page: 1, limit: 20, pages: 1 });
    expect(found.json.items[0].id).toBe(m.id);
    // Filters and the tag/stemmed search.
    const filtered = await call(
      app,
      "GET",
      `/api/v1/hub/models?task=image-classification&tags=fish,vision&license=mit`,
    );
    expect(filtered.json.items.map((i: { id: string }) => i.id)).toContain(m.id);
    const wrongTag = await call(app, "GET", `/api/v1/hub/models?tags=fish,audio`);
    expect(wrongTag.json.items.map((i: { id: string }) => i.id)).not.toContain(m.id);
    const stem = await call(app, "GET", `/api/v1/hub/models/search?q=${word}+detecting`);
    expect(stem.json.total).toBe(1);
    const excluded = await call(app, "GET", `/api/v1/hub/models/search?q=${word}+-tanks`);
    expect(excluded.json.total).toBe(0);
    const cats = await call(app, "GET", "/api/v1/hub/categories");
    expect(cats.json).toContainEqual({ category: "image-classification", count: expect.any(Number) });
  });

  it("lets only the owner update and delete", async () => {
    const { id } = await publishedModel(owner.key, { name: "Editable" });
    expect(
      (await call(app, "PUT", `/api/v1/hub/models/${id}`, { key: other.key, body: { name: "x" } })).status,
    ).toBe(404);
    const put = await call(app, "PUT", `/api/v1/hub/models/${id}`, {
      key: owner.key,
      body: {
        description: "Now described",
        card: "# Card\n\n<script>alert(1)</script>\n\nText with **bold** <img src=x onerror=alert(1)>",
      },
    });
    expect(put.status, put.text).toBe(200);
    expect(put.json.name).toBe("Editable");
    expect(put.json.description).toBe("Now described");
    expect(put.json.card_html).toContain("<strong>bold</strong>");
    expect(put.json.card_html).not.toContain("<script");
    expect(put.json.card_html).not.toContain("onerror");
    expect(
      (await call(app, "PUT", `/api/v1/hub/models/${id}`, { key: owner.key, body: { bogus: 1 } })).status,
    ).toBe(422);
    expect((await call(app, "DELETE", `/api/v1/hub/models/${id}`, { key: other.key })).status).toBe(404);
    expect((await call(app, "DELETE", `/api/v1/hub/models/${id}`, { key: owner.key })).status).toBe(204);
    expect((await call(app, "GET", `/api/v1/hub/models/${id}`)).status).toBe(404);
  });

  it("refuses bad queries and unauthenticated writes with problem details", async () => {
    const bad = await call(app, "GET", "/api/v1/hub/models?page=0");
    expect(bad.status).toBe(422);
    expect(bad.res.headers.get("content-type")).toContain("application/problem+json");
    expect((await call(app, "GET", "/api/v1/hub/models?sort=random")).status).toBe(422);
    expect((await call(app, "GET", "/api/v1/hub/models/search")).status).toBe(422);
    expect((await call(app, "POST", "/api/v1/hub/models", { body: { name: "x" } })).status).toBe(401);
    expect((await call(app, "GET", "/api/v1/hub/models/starred")).status).toBe(401);
  });
});

describe("hub: signed links and download counts", () => {
  it("serves a file and the whole model as a ZIP with a signed link; refuses tampered and expired links", async () => {
    const { id, weights, config } = await publishedModel(owner.key);
    // Signed out, a public model's link can be minted.
    const link = await call(app, "POST", `/api/v1/hub/models/${id}/download`, { body: { file_id: weights } });
    expect(link.status, link.text).toBe(200);
    expect(link.json.url).toMatch(
      new RegExp(`^/api/v1/hub/models/${id}/files/${weights}/content\\?expires=\\d+&sig=`),
    );
    const ttl = Date.parse(link.json.expires_at) - Date.now();
    expect(ttl).toBeGreaterThan(14 * 60_000);
    expect(ttl).toBeLessThanOrEqual(15 * 60_000);
    const got = await fetchSigned(link.json.url);
    expect(got.status).toBe(200);
    expect([...got.bytes]).toEqual([1, 2, 3, 4, 5]);
    expect(got.res.headers.get("content-disposition")).toContain('filename="weights.bin"');
    // Reusable within its lifetime.
    expect((await fetchSigned(link.json.url)).status).toBe(200);

    // Tampered: another file with the same signature, a changed expiry, a changed signature, none.
    const otherFile = link.json.url.replace(weights, config);
    const t1 = await fetchSigned(otherFile);
    expect(t1.status).toBe(403);
    const t1Body = JSON.parse(new TextDecoder().decode(t1.bytes));
    expect(t1Body.detail).toMatch(/signature/);
    expect(t1.res.headers.get("content-type")).toContain("application/problem+json");
    const later = link.json.url.replace(
      /expires=(\d+)/,
      (_: string, e: string) => `expires=${Number(e) + 3600}`,
    );
    expect((await fetchSigned(later)).status).toBe(403);
    const flipped = link.json.url.replace(
      /sig=(.)/,
      (_: string, ch: string) => `sig=${ch === "A" ? "B" : "A"}`,
    );
    expect((await fetchSigned(flipped)).status).toBe(403);
    expect((await fetchSigned(`/api/v1/hub/models/${id}/files/${weights}/content`)).status).toBe(403);
    // A link for the whole model does not open one file, and one model's link no other model.
    const all = await call(app, "POST", `/api/v1/hub/models/${id}/download`, { key: other.key });
    expect(all.json.url).toMatch(/\/download-all\?/);
    const query = all.json.url.split("?")[1];
    expect((await fetchSigned(`/api/v1/hub/models/${id}/files/${weights}/content?${query}`)).status).toBe(
      403,
    );
    // Expired: a genuine signature whose time is up → 410.
    const expired = mintHubLink(id, weights, Date.now() - 16 * 60_000);
    const gone = await fetchSigned(expired.url);
    expect(gone.status).toBe(410);
    expect(JSON.parse(new TextDecoder().decode(gone.bytes)).detail).toMatch(/expired/);

    const zip = await fetchSigned(all.json.url);
    expect(zip.status).toBe(200);
    expect(zip.res.headers.get("content-type")).toBe("application/zip");
    const entries = await zipEntries(zip.bytes);
    expect([...entries.keys()].sort()).toEqual(["tiny-mlp/config/model.json", "tiny-mlp/weights.bin"]);
    expect([...(entries.get("tiny-mlp/weights.bin") ?? [])]).toEqual([1, 2, 3, 4, 5]);
    expect(JSON.parse(String(entries.get("tiny-mlp/config/model.json")))).toEqual({ units: 8 });

    // A body that is not JSON, or JSON with unknown fields, is refused.
    const notJson = await call(app, "POST", `/api/v1/hub/models/${id}/download`, {
      rawBody: "file_id=x",
      headers: { "Content-Type": "application/json" },
    });
    expect(notJson.status).toBe(400);
    expect(
      (await call(app, "POST", `/api/v1/hub/models/${id}/download`, { body: { file: weights } })).status,
    ).toBe(422);
    // An unknown file → 404 when minting.
    expect(
      (await call(app, "POST", `/api/v1/hub/models/${id}/download`, { body: { file_id: "hf_nope" } })).status,
    ).toBe(404);
  });

  it("counts a download once per link that fetches content, never on page views, listings, minting or replays", async () => {
    const { id, weights } = await publishedModel(owner.key, { name: "Counted" });
    for (let i = 0; i < 3; i++) {
      expect((await call(app, "GET", `/api/v1/hub/models/${id}`)).status).toBe(200);
      await call(app, "GET", `/api/v1/hub/models/${id}/files`);
    }
    await call(app, "GET", "/api/v1/hub/models?sort=downloads");
    const file = await call(app, "POST", `/api/v1/hub/models/${id}/download`, { body: { file_id: weights } });
    const all = await call(app, "POST", `/api/v1/hub/models/${id}/download`, {});
    expect(await downloads(id)).toBe(0);
    await fetchSigned(file.json.url);
    expect(await downloads(id)).toBe(1);
    // A replayed link counts nothing more; another link counts once.
    await Promise.all([fetchSigned(file.json.url), fetchSigned(file.json.url), fetchSigned(all.json.url)]);
    expect(await downloads(id)).toBe(2);
    // Refused fetches count nothing.
    await fetchSigned(file.json.url.replace(/sig=./, "sig=x"));
    await fetchSigned(mintHubLink(id, weights, Date.now() - 20 * 60_000).url);
    expect(await downloads(id)).toBe(2);
    const page = await call(app, "GET", `/api/v1/hub/models/${id}`);
    expect(page.json.downloads).toBe(2);
  });
});

describe("hub: private models", () => {
  it("needs a paid plan, and is a 404 to everyone but its owner and absent from their search", async () => {
    const refused = await call(app, "POST", "/api/v1/hub/models", {
      key: owner.key,
      body: { name: "Secret", visibility: "private" },
    });
    expect(refused.status).toBe(402);
    await setPlan(owner.user.id, "pro");
    const word = `okapi${Date.now()}`;
    const m = await createDraft(owner.key, { name: "Secret", description: word, visibility: "private" });
    const file = await uploadRaw(owner.key, m.id, "w.bin", "secret");
    await call(app, "POST", `/api/v1/hub/models/${m.id}/finalize`, { key: owner.key });

    for (const key of [other.key, undefined]) {
      const opts = key ? { key } : {};
      expect((await call(app, "GET", `/api/v1/hub/models/${m.id}`, opts)).status).toBe(404);
      expect((await call(app, "GET", `/api/v1/hub/models/${m.id}/files`, opts)).status).toBe(404);
      expect((await call(app, "GET", `/api/v1/hub/models/${m.id}/reviews`, opts)).status).toBe(404);
      expect((await call(app, "GET", `/api/v1/hub/models/${m.id}/versions`, opts)).status).toBe(404);
      expect(
        (await call(app, "POST", `/api/v1/hub/models/${m.id}/download`, { ...opts, body: {} })).status,
      ).toBe(404);
      const s = await call(app, "GET", `/api/v1/hub/models/search?q=${word}`, opts);
      expect(s.json.total).toBe(0);
      const profile = await call(app, "GET", `/api/v1/hub/models?owner=${owner.username}`, opts);
      expect(profile.json.items.map((i: { id: string }) => i.id)).not.toContain(m.id);
    }
    for (const action of ["star", "fork", "use-in-studio"]) {
      expect(
        (await call(app, "POST", `/api/v1/hub/models/${m.id}/${action}`, { key: other.key })).status,
      ).toBe(404);
    }
    expect(
      (await call(app, "POST", `/api/v1/hub/models/${m.id}/reviews`, { key: other.key, body: { rating: 5 } }))
        .status,
    ).toBe(404);
    const cats = await call(app, "GET", "/api/v1/hub/categories");
    expect(JSON.stringify(cats.json)).not.toContain(word);
    // The owner sees and finds it; a link the owner shares works (the link is the credential).
    expect((await call(app, "GET", `/api/v1/hub/models/${m.id}`, { key: owner.key })).status).toBe(200);
    const mine = await call(app, "GET", `/api/v1/hub/models/search?q=${word}`, { key: owner.key });
    expect(mine.json.total).toBe(1);
    const link = await call(app, "POST", `/api/v1/hub/models/${m.id}/download`, {
      key: owner.key,
      body: { file_id: file.json.id },
    });
    expect(new TextDecoder().decode((await fetchSigned(link.json.url)).bytes)).toBe("secret");
    await setPlan(owner.user.id, "free");
  });
});

describe("hub: stars, trending, forks, reviews, versions, use-in-studio", () => {
  it("stars idempotently and lists trending by stars of the last 7 days only", async () => {
    const a = await publishedModel(owner.key, { name: "Old favourite" });
    const b = await publishedModel(owner.key, { name: "New favourite" });
    for (let i = 0; i < 2; i++) {
      const s = await call(app, "POST", `/api/v1/hub/models/${a.id}/star`, { key: other.key });
      expect(s.status).toBe(200);
      expect(s.json).toEqual({ starred: true, stars: 1 });
    }
    await call(app, "POST", `/api/v1/hub/models/${a.id}/star`, { key: third.key });
    await call(app, "POST", `/api/v1/hub/models/${b.id}/star`, { key: third.key });
    expect((await call(app, "GET", `/api/v1/hub/models/${a.id}`, { key: other.key })).json).toMatchObject({
      stars: 2,
      starred: true,
    });
    const starred = await call(app, "GET", "/api/v1/hub/models/starred", { key: third.key });
    expect(starred.json.items.map((i: { id: string }) => i.id)).toEqual([b.id, a.id]);
    for (let i = 0; i < 2; i++) {
      const u = await call(app, "DELETE", `/api/v1/hub/models/${a.id}/star`, { key: other.key });
      expect(u.status).toBe(200);
      expect(u.json).toEqual({ starred: false, stars: 1 });
    }
    // a's remaining star is 8 days old: out of the trending window; b's is fresh.
    const db = await getDb();
    await db
      .update(hubStars)
      .set({ createdAt: sql`now() - interval '8 days'` })
      .where(eq(hubStars.modelId, a.id));
    const trending = await call(app, "GET", "/api/v1/hub/trending?limit=100");
    const ids = trending.json.items.map((i: { id: string }) => i.id);
    expect(ids).toContain(b.id);
    expect(ids).not.toContain(a.id);
    const sorted = await call(app, "GET", "/api/v1/hub/models?sort=trending&limit=100");
    const order = sorted.json.items.map((i: { id: string }) => i.id);
    expect(order.indexOf(b.id)).toBeLessThan(order.indexOf(a.id));
    // All-time stars still count for sort=stars (a has 1, b has 1; both listed).
    expect((await call(app, "GET", `/api/v1/hub/models/${a.id}`)).json.stars).toBe(1);
    // Featured: set by the operators.
    await setFeatured(db, a.id, true); // what `npm run admin -- feature <id>` does
    await expect(setFeatured(db, "hub_missing", true)).rejects.toMatchObject({ status: 404 });
    const featured = await call(app, "GET", "/api/v1/hub/featured");
    expect(featured.json.items.map((i: { id: string }) => i.id)).toEqual([a.id]);
  });

  it("forks with the parent recorded and shows the fork tree both ways", async () => {
    const base = await publishedModel(owner.key, { name: "Base net", base_model: "digits-cnn" });
    const fork = await call(app, "POST", `/api/v1/hub/models/${base.id}/fork`, { key: other.key });
    expect(fork.status, fork.text).toBe(201);
    expect(fork.json.parent_id).toBe(base.id);
    expect(fork.json.owner.username).toBe(other.username);
    expect(fork.json.state).toBe("published");
    expect(fork.json.fork_tree.ancestors.map((a: { id: string }) => a.id)).toEqual([base.id]);
    const grand = await call(app, "POST", `/api/v1/hub/models/${fork.json.id}/fork`, {
      key: third.key,
      body: { name: "Grandchild" },
    });
    expect(grand.status).toBe(201);
    expect(grand.json.name).toBe("Grandchild");
    expect(grand.json.fork_tree.ancestors.map((a: { id: string }) => a.id)).toEqual([fork.json.id, base.id]);
    expect(grand.json.fork_tree.ancestors[1].base_model).toBe("digits-cnn");
    const page = await call(app, "GET", `/api/v1/hub/models/${base.id}`);
    expect(page.json.fork_tree.children.map((c: { id: string }) => c.id)).toEqual([fork.json.id]);
    // The fork's files are the parent's, downloadable; they survive the parent's deletion.
    const files = await call(app, "GET", `/api/v1/hub/models/${fork.json.id}/files`);
    expect(files.json.total).toBe(2);
    expect((await call(app, "DELETE", `/api/v1/hub/models/${base.id}`, { key: owner.key })).status).toBe(204);
    const weights = files.json.items.find((f: { path: string }) => f.path === "weights.bin");
    const link = await call(app, "POST", `/api/v1/hub/models/${fork.json.id}/download`, {
      body: { file_id: weights.id },
    });
    expect([...(await fetchSigned(link.json.url)).bytes]).toEqual([1, 2, 3, 4, 5]);
    const after = await call(app, "GET", `/api/v1/hub/models/${fork.json.id}`);
    expect(after.json.parent_id).toBeNull();
    expect(after.json.fork_tree.children.map((c: { id: string }) => c.id)).toEqual([grand.json.id]);
  });

  it("takes one review per user, never the owner's, and shows the cited figures", async () => {
    const { id } = await publishedModel(owner.key, { name: "Reviewed" });
    const own = await call(app, "POST", `/api/v1/hub/models/${id}/reviews`, {
      key: owner.key,
      body: { rating: 5, text: "Mine is great" },
    });
    expect(own.status).toBe(403);
    const r = await call(app, "POST", `/api/v1/hub/models/${id}/reviews`, {
      key: other.key,
      body: { rating: 4, text: "Works well" },
    });
    expect(r.status, r.text).toBe(201);
    expect(r.json).toMatchObject({
      rating: 4,
      text: "Works well",
      user: { username: other.username },
      evaluation: null,
    });
    const second = await call(app, "POST", `/api/v1/hub/models/${id}/reviews`, {
      key: other.key,
      body: { rating: 1 },
    });
    expect(second.status).toBe(409);
    for (const rating of [0, 6, 2.5])
      expect(
        (await call(app, "POST", `/api/v1/hub/models/${id}/reviews`, { key: third.key, body: { rating } }))
          .status,
      ).toBe(422);
    const unknownEval = await call(app, "POST", `/api/v1/hub/models/${id}/reviews`, {
      key: third.key,
      body: { rating: 2, evaluation_id: "ev_nope" },
    });
    expect(unknownEval.status).toBe(404);
    await call(app, "POST", `/api/v1/hub/models/${id}/reviews`, { key: third.key, body: { rating: 2 } });
    const list = await call(app, "GET", `/api/v1/hub/models/${id}/reviews`);
    expect(list.json.total).toBe(2);
    expect(list.json.items[0].rating).toBe(2);
    const page = await call(app, "GET", `/api/v1/hub/models/${id}`);
    expect(page.json.rating).toEqual({ average: 3, count: 2 });
  });

  it("records versions as snapshots of the files", async () => {
    const { id } = await publishedModel(owner.key, { name: "Versioned" });
    await uploadRaw(owner.key, id, "weights.bin", new Uint8Array([9, 9]));
    const v = await call(app, "POST", `/api/v1/hub/models/${id}/versions`, {
      key: owner.key,
      body: { version: "1.1.0", notes: "Retrained" },
    });
    expect(v.status, v.text).toBe(201);
    expect(v.json.files.find((f: { path: string }) => f.path === "weights.bin").sha256).toBe(
      sha256(new Uint8Array([9, 9])),
    );
    const dup = await call(app, "POST", `/api/v1/hub/models/${id}/versions`, {
      key: owner.key,
      body: { version: "1.1.0" },
    });
    expect(dup.status).toBe(409);
    expect(
      (
        await call(app, "POST", `/api/v1/hub/models/${id}/versions`, {
          key: other.key,
          body: { version: "2" },
        })
      ).status,
    ).toBe(404);
    const list = await call(app, "GET", `/api/v1/hub/models/${id}/versions`);
    expect(list.json.items.map((x: { version: string }) => x.version)).toEqual(["1.1.0", "1"]);
    expect(list.json.items[1].files.find((f: { path: string }) => f.path === "weights.bin").sha256).toBe(
      sha256(new Uint8Array([1, 2, 3, 4, 5])),
    );
  });

  it("opens a model with an architecture as a new project; explains why one without cannot", async () => {
    const withDag = await publishedModel(owner.key, { name: "Has DAG", architecture: mlpGraph(8) });
    const r = await call(app, "POST", `/api/v1/hub/models/${withDag.id}/use-in-studio`, { key: other.key });
    expect(r.status, r.text).toBe(201);
    expect(r.json.name).toBe("Has DAG");
    expect(r.json.graph.nodes.map((n: { id: string }) => n.id)).toEqual(["in", "hidden", "out"]);
    const project = await call(app, "GET", `/api/v1/projects/${r.json.id}`, { key: other.key });
    expect(project.status).toBe(200);
    expect((await call(app, "GET", `/api/v1/projects/${r.json.id}`, { key: owner.key })).status).toBe(404);

    const noDag = await publishedModel(owner.key, { name: "Files only" });
    const refused = await call(app, "POST", `/api/v1/hub/models/${noDag.id}/use-in-studio`, {
      key: other.key,
    });
    expect(refused.status).toBe(422);
    expect(refused.res.headers.get("content-type")).toContain("application/problem+json");
    expect(refused.json.detail).toMatch(/no architecture/);
  });
});

describe("hub: the plan's file limit", () => {
  const limit = PLANS.free.limits.hub_file_bytes;
  // Every stored hub file, temporary ones included, in whichever store is configured.
  const hubBlobs = async (): Promise<number> => {
    const store = blobStore();
    if (!(store instanceof S3BlobStore)) {
      try {
        return fs.readdirSync(path.join(blobDir, "hub")).length;
      } catch {
        return 0;
      }
    }
    let n = 0;
    for (const Prefix of ["hub/", ".incoming/"]) {
      const listed = await store.client.send(new ListObjectsV2Command({ Bucket: store.bucket, Prefix }));
      n += listed.KeyCount ?? 0;
    }
    const uploads = await store.client.send(new ListMultipartUploadsCommand({ Bucket: store.bucket }));
    return n + (uploads.Uploads?.length ?? 0);
  };

  it("refuses a declared length above hub_file_bytes with 402 before reading", async () => {
    const m = await createDraft(owner.key, { name: "Too big declared" });
    const r = await call(app, "POST", `/api/v1/hub/models/${m.id}/files?path=big.bin`, {
      key: owner.key,
      rawBody: new Uint8Array(10),
      headers: { "Content-Type": "application/octet-stream", "Content-Length": String(limit + 1) },
    });
    expect(r.status).toBe(402);
    expect(r.json.type).toMatch(/plan-limit$/);
  });

  it("refuses an absurd declared size (above the 550 MB request cap) with 413", async () => {
    const m = await createDraft(owner.key, { name: "Absurd" });
    const r = await call(app, "POST", `/api/v1/hub/models/${m.id}/files?path=huge.bin`, {
      key: owner.key,
      rawBody: new Uint8Array(10),
      headers: { "Content-Type": "application/octet-stream", "Content-Length": String(600 * 1024 * 1024) },
    });
    expect(r.status).toBe(413);
  });

  it("streams an undeclared upload and stops it with 402 past the limit, without buffering it", async () => {
    const m = await createDraft(owner.key, { name: "Too big streamed" });
    const before = await hubBlobs();
    const chunk = new Uint8Array(1024 * 1024).fill(42);
    const total = limit + chunk.byteLength; // one chunk too many
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent >= total) return controller.close();
        controller.enqueue(chunk.slice());
        sent += chunk.byteLength;
      },
    });
    global.gc?.();
    const baseline = process.memoryUsage().rss;
    let peak = baseline;
    const sampler = setInterval(() => {
      peak = Math.max(peak, process.memoryUsage().rss);
    }, 20);
    const res = await app.request(`/api/v1/hub/models/${m.id}/files?path=big.bin`, {
      method: "POST",
      headers: {
        Host: "localhost",
        Authorization: `Bearer ${owner.key}`,
        "Content-Type": "application/octet-stream",
      },
      body,
      duplex: "half",
    } as RequestInit);
    clearInterval(sampler);
    expect(res.status).toBe(402);
    const problem = await res.json();
    expect(problem.detail).toMatch(/hub file limit/);
    // It read up to the limit (it streamed), yet memory grew far less than the 200 MB it saw.
    expect(sent).toBeGreaterThan(limit / 2);
    // On S3 a multipart part is whole in memory while it is sent (S3 needs its length first): the
    // driver holds queueSize + 1 = 3 part buffers of 8 MiB (s3-multipart.ts), 24 MiB the local disk
    // does not need. Measured peaks on S3: 119–152 MiB before those buffers were reused (lib-storage
    // concatenated each part afresh), 13–105 MiB after; on the local disk 6–15 MiB.
    const partBuffers = blobStore().driver === "s3" ? 3 * 8 * 1024 * 1024 : 0;
    expect(peak - baseline).toBeLessThan(100 * 1024 * 1024 + partBuffers);
    // Nothing is left behind: no file row, no blob.
    expect(await hubBlobs()).toBe(before);
    const files = await call(app, "GET", `/api/v1/hub/models/${m.id}/files`, { key: owner.key });
    expect(files.json.total).toBe(0);
  }, 120_000);

  it("accepts a file at the limit's scale when it fits", async () => {
    const m = await createDraft(owner.key, { name: "Fits" });
    const bytes = new Uint8Array(3 * 1024 * 1024).map((_, i) => i % 251);
    const r = await uploadRaw(owner.key, m.id, "ok.bin", bytes);
    expect(r.status).toBe(201);
    expect(r.json.size_bytes).toBe(bytes.byteLength);
    expect(r.json.sha256).toBe(sha256(bytes));
  });
});

describe("hub: publishing a trained job", () => {
  it("publishes a real Iris job with its artifact, architecture, figures and an editable card", async () => {
    const jobId = await irisJob;
    expect(
      (await call(app, "POST", "/api/v1/hub/models", { key: other.key, body: { source_job_id: jobId } }))
        .status,
    ).toBe(404);
    const r = await call(app, "POST", "/api/v1/hub/models", {
      key: owner.key,
      body: { source_job_id: jobId, license: "apache-2.0", tags: ["iris", "flowers"] },
    });
    expect(r.status, r.text).toBe(201);
    const m = r.json;
    expect(m.state).toBe("published");
    expect(m.source_job_id).toBe(jobId);
    expect(m.name).toBe("Iris MLP");
    expect(m.task).toBe("tabular-classification");
    expect(m.license).toBe("apache-2.0");
    expect(m.has_architecture).toBe(true);
    expect(m.architecture.nodes.length).toBe(irisGraph.nodes.length);
    // The figures are the exported weights' held-out ones, under their split (not the training
    // split's accuracy labelled as validation).
    const manifest = await call(app, "GET", `/api/v1/training/jobs/${jobId}/artifact/manifest.json`, {
      key: owner.key,
    });
    expect(m.evaluation.split).toBe("validation");
    expect(m.evaluation.metrics.accuracy).toBe(manifest.json.metrics.val_accuracy);
    expect(m.evaluation.metrics.loss).toBe(manifest.json.metrics.val_loss);
    expect(Object.keys(m.evaluation.metrics).some((k) => k.startsWith("val_"))).toBe(false);
    expect(m.evaluation.dataset).toBe("builtin-iris");
    expect(m.card).toContain("## Metrics");
    expect(m.card).toContain("| val_accuracy |");
    expect(m.card).toContain("use-in-studio");
    expect(m.card_html).toContain("<table>");

    // Files: the job's artifact (same bytes, same checksums) and its manifest.
    const files = await call(app, "GET", `/api/v1/hub/models/${m.id}/files`);
    const paths = files.json.items.map((f: { path: string }) => f.path);
    expect(paths).toContain("manifest.json");
    expect(paths.some((p: string) => p === "model.json" || p === "model.onnx")).toBe(true);
    for (const f of files.json.items as { id: string; path: string; sha256: string }[]) {
      const link = await call(app, "POST", `/api/v1/hub/models/${m.id}/download`, {
        body: { file_id: f.id },
      });
      const got = await fetchSigned(link.json.url);
      expect(sha256(got.bytes)).toBe(f.sha256);
      const original = await app.request(`/api/v1/training/jobs/${jobId}/artifact/${f.path}`, {
        headers: { Host: "localhost", Authorization: `Bearer ${owner.key}` },
      });
      const originalBytes = new Uint8Array(await original.arrayBuffer());
      if (f.path !== "manifest.json") expect(sha256(originalBytes)).toBe(f.sha256);
      else
        expect(JSON.parse(new TextDecoder().decode(got.bytes))).toEqual(
          JSON.parse(new TextDecoder().decode(originalBytes)),
        );
    }

    // The owner edits the card; signed out, search finds the model; another user opens it in the studio.
    const put = await call(app, "PUT", `/api/v1/hub/models/${m.id}`, {
      key: owner.key,
      body: { card: `${m.card}\n\n## Notes\n\nGood on setosa.` },
    });
    expect(put.json.card_html).toContain("Good on setosa.");
    const found = await call(app, "GET", "/api/v1/hub/models/search?q=iris+flowers&tags=iris");
    expect(found.json.items.map((i: { id: string }) => i.id)).toContain(m.id);
    const studio = await call(app, "POST", `/api/v1/hub/models/${m.id}/use-in-studio`, { key: other.key });
    expect(studio.status, studio.text).toBe(201);
    expect(studio.json.graph.nodes.length).toBe(irisGraph.nodes.length);
    expect(studio.json.training_config.epochs).toBe(10);

    // A review citing the reviewer's own evaluation shows its figures beside it.
    const evaluation = await call(app, "POST", "/api/v1/training/evaluations", {
      key: other.key,
      body: { job_id: await reviewerJob },
    });
    expect(evaluation.status, evaluation.text).toBe(202);
    const done = await waitFor("evaluation", 120_000, async () => {
      const e = await call(app, "GET", `/api/v1/training/evaluations/${evaluation.json.id}`, {
        key: other.key,
      });
      return e.json.state === "succeeded" || e.json.state === "failed" ? e.json : null;
    });
    expect(done.state, done.reason).toBe("succeeded");
    const review = await call(app, "POST", `/api/v1/hub/models/${m.id}/reviews`, {
      key: other.key,
      body: { rating: 5, text: "Matches my own evaluation", evaluation_id: done.id },
    });
    expect(review.status, review.text).toBe(201);
    expect(review.json.evaluation).toEqual({ id: done.id, metrics: done.metrics });
    expect(review.json.evaluation.metrics.accuracy).toBeGreaterThan(0);
    const reviews = await call(app, "GET", `/api/v1/hub/models/${m.id}/reviews`);
    expect(reviews.json.items[0].evaluation.id).toBe(done.id);

    // A job that did not succeed cannot be published.
    const project = await call(app, "POST", "/api/v1/projects", {
      key: owner.key,
      body: { name: "P", graph: irisGraph },
    });
    const queued = await call(app, "POST", "/api/v1/training/jobs", {
      key: owner.key,
      body: { project_id: project.json.id, dataset_id: "builtin-iris", runtime: "external" },
    });
    expect(queued.status, queued.text).toBe(201);
    const refused = await call(app, "POST", "/api/v1/hub/models", {
      key: owner.key,
      body: { source_job_id: queued.json.id },
    });
    expect(refused.status).toBe(409);
  }, 200_000);

  it("publishes a registry model version: one pushed from a job as that job, named after the model", async () => {
    const jobId = await irisJob;
    const model = await call(app, "POST", "/api/v1/models", {
      key: owner.key,
      body: { name: "iris-registry" },
    });
    expect(model.status, model.text).toBe(201);
    const version = await call(app, "POST", `/api/v1/models/${model.json.id}/versions`, {
      key: owner.key,
      body: { job_id: jobId },
    });
    const early = await call(app, "POST", "/api/v1/hub/models", {
      key: owner.key,
      body: { source_model_version_id: version.json.id },
    });
    expect(early.status).toBe(409);
    await call(app, "POST", `/api/v1/model-versions/${version.json.id}/finalize`, { key: owner.key });
    const both = await call(app, "POST", "/api/v1/hub/models", {
      key: owner.key,
      body: { source_model_version_id: version.json.id, source_job_id: jobId },
    });
    expect(both.status).toBe(422);
    const foreign = await call(app, "POST", "/api/v1/hub/models", {
      key: other.key,
      body: { source_model_version_id: version.json.id },
    });
    expect(foreign.status).toBe(404);
    const r = await call(app, "POST", "/api/v1/hub/models", {
      key: owner.key,
      body: { source_model_version_id: version.json.id },
    });
    expect(r.status, r.text).toBe(201);
    expect(r.json).toMatchObject({ name: "iris-registry", source_job_id: jobId, state: "published" });
    const files = await call(app, "GET", `/api/v1/hub/models/${r.json.id}/files`, { key: owner.key });
    const paths = (files.json.items ?? files.json).map((f: { path: string }) => f.path).sort();
    expect(paths).toContain("manifest.json");
    expect(paths.length).toBeGreaterThanOrEqual(2);
    const versions = await call(app, "GET", `/api/v1/hub/models/${r.json.id}/versions`, { key: owner.key });
    expect(JSON.stringify(versions.json)).toContain("registry model iris-registry");
  }, 200_000);
});
