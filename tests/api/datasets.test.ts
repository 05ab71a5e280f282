import { createHash } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { DuckDBInstance } from "@duckdb/node-api";
import { eq } from "drizzle-orm";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import yazl from "yazl";
import { getDb } from "@/lib/server/db/client";
import { datasets, datasetVersions } from "@/lib/server/db/schema";
import { call, signUpWithKey } from "../helpers";
import { csv, datasetBlobFiles, startDatasetTestApp, upload, withEnv } from "./datasets-helpers";

const { app, blobDir } = await startDatasetTestApp("ds-api");

const IRIS_LIKE = csv([
  ["sepal", "petal", "species", "weight"],
  [5.1, 1.4, "setosa", 10],
  [4.9, 1.3, "setosa", 12],
  [6.3, 4.9, "versicolor", 30],
  [5.8, 5.1, "virginica", 41],
  [7.1, 5.9, "virginica", 44],
]);

/**
 * A signed link fetched as a client would: with the files in an S3 bucket, the answer is a redirect
 * to the object itself, followed here with plain fetch.
 */
async function fetchLink(pathAndQuery: string) {
  const r = await call(app, "GET", pathAndQuery);
  if (r.status !== 302) return r;
  const res = await fetch(r.res.headers.get("location") ?? "");
  return { res, status: res.status, text: await res.text() };
}

async function rowsOf(userId: string) {
  const db = await getDb();
  const ds = await db.select().from(datasets).where(eq(datasets.ownerId, userId));
  const versions = (await db.select().from(datasetVersions)).filter((v) =>
    ds.some((d) => d.id === v.datasetId),
  );
  return { datasets: ds.length, versions: versions.length };
}

async function pngBuffer(width: number, height: number, color: { r: number; g: number; b: number }) {
  return sharp({ create: { width, height, channels: 3, background: color } })
    .png()
    .toBuffer();
}

async function zipOf(files: Record<string, Buffer | string>): Promise<Buffer> {
  const zip = new yazl.ZipFile();
  for (const [name, content] of Object.entries(files)) zip.addBuffer(Buffer.from(content), name);
  zip.end();
  const chunks: Buffer[] = [];
  for await (const chunk of zip.outputStream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

async function parquetOf(sql: string): Promise<Buffer> {
  const file = path.join(os.tmpdir(), `ds-test-${process.pid}-${Date.now()}.parquet`);
  const instance = await DuckDBInstance.create(":memory:");
  const con = await instance.connect();
  await con.run(`COPY (${sql}) TO '${file}' (FORMAT parquet)`);
  con.closeSync();
  instance.closeSync();
  const buf = fs.readFileSync(file);
  fs.rmSync(file);
  return buf;
}

async function createProject(key: string, name = "p") {
  const r = await call(app, "POST", "/api/v1/projects", { key, body: { name } });
  if (r.status !== 201) throw new Error(`project: ${r.status} ${r.text}`);
  return r.json.id as string;
}

describe("upload and profile", () => {
  it("uploads a CSV, detects its dialect and profiles every column", async () => {
    const { key, user } = await signUpWithKey(app);
    const r = await upload(app, key, IRIS_LIKE, "flowers.csv", { name: "Flowers", description: "tiny" });
    expect(r.status).toBe(201);
    expect(r.json.created).toBe(true);
    const { dataset, version } = r.json;
    expect(dataset).toMatchObject({
      name: "Flowers",
      description: "tiny",
      format: "csv",
      visibility: "private",
      builtin: false,
      read_only: false,
      owner: { id: user.id },
      row_count: 5,
      version_count: 1,
      current_version_id: version.id,
    });
    expect(dataset.id).toMatch(/^ds_/);
    expect(version.id).toMatch(/^dsv_/);
    expect(version.number).toBe(1);
    expect(version.content_hash).toBe(createHash("sha256").update(IRIS_LIKE).digest("hex"));
    expect(version.size_bytes).toBe(Buffer.byteLength(IRIS_LIKE));
    expect(version.schema.dialect).toMatchObject({ delimiter: ",", has_header: true });
    expect(version.schema.columns.map((c: { name: string; type: string }) => [c.name, c.type])).toEqual([
      ["sepal", "float"],
      ["petal", "float"],
      ["species", "string"],
      ["weight", "integer"],
    ]);
    const sepal = version.profile.columns[0];
    expect(sepal).toMatchObject({ count: 5, missing: 0, distinct: 5, min: 4.9, max: 7.1 });
    expect(sepal.mean).toBeCloseTo(5.84, 5);
    expect(sepal.histogram).toHaveLength(20);
    expect(sepal.histogram.reduce((s: number, b: { count: number }) => s + b.count, 0)).toBe(5);
    const species = version.profile.columns[2];
    expect(species.top_values[0]).toEqual({ value: "setosa", count: 2 });
    expect(species.histogram).toBeUndefined();
    expect(version.created_by).toMatchObject({ id: user.id });
    expect(await datasetBlobFiles(blobDir)).toContain(version.id);
  });

  it("names a dataset after its file, and counts missing values", async () => {
    const { key } = await signUpWithKey(app);
    const r = await upload(app, key, "a;b\n1;\n2;x\n;y\n", "semi colons.csv");
    expect(r.status).toBe(201);
    expect(r.json.dataset.name).toBe("semi colons");
    expect(r.json.version.schema.dialect.delimiter).toBe(";");
    const [a, b] = r.json.version.profile.columns;
    expect(a).toMatchObject({ count: 2, missing: 1 });
    expect(b).toMatchObject({ count: 2, missing: 1, distinct: 2 });
  });

  it("reads tricky CSVs: CRLF, quoted delimiters, a type contradicted after the sniffing sample", async () => {
    const { key } = await signUpWithKey(app);
    const quoted = await upload(app, key, 'id,comment\r\n1,"hello, world"\r\n2,"say ""hi"""\r\n', "q.csv");
    expect(quoted.status).toBe(201);
    const qp = await call(app, "GET", `/api/v1/datasets/${quoted.json.dataset.id}/preview`, { key });
    expect(qp.json.rows).toEqual([
      { id: 1, comment: "hello, world" },
      { id: 2, comment: 'say "hi"' },
    ]);
    const late = `n,code\n${Array.from({ length: 30_000 }, (_, i) => `${i},${i}`).join("\n")}\n30000,n/a\n`;
    const r = await upload(app, key, late, "late.csv");
    expect(r.status).toBe(201);
    expect(r.json.dataset.row_count).toBe(30_001);
    expect(r.json.version.schema.columns[1]).toMatchObject({ name: "code", type: "string" });
    const lp = await call(app, "GET", `/api/v1/datasets/${r.json.dataset.id}/preview?rows=1`, { key });
    expect(lp.json.rows).toEqual([{ n: 0, code: "0" }]);
  });

  it("detects TSV, JSON Lines, Parquet and plain text", async () => {
    const { key } = await signUpWithKey(app);
    const tsv = await upload(app, key, "x\ty\n1\ta\n2\tb\n", "t.tsv");
    expect(tsv.status).toBe(201);
    expect(tsv.json.dataset.format).toBe("tsv");

    const jsonl = await upload(
      app,
      key,
      '{"a": 1, "b": "x"}\n{"a": 2, "b": "y"}\n{"a": 3, "b": null}\n',
      "rows.jsonl",
    );
    expect(jsonl.status).toBe(201);
    expect(jsonl.json.dataset.format).toBe("jsonl");
    expect(jsonl.json.dataset.row_count).toBe(3);
    expect(jsonl.json.version.profile.columns[1]).toMatchObject({ name: "b", missing: 1 });

    // JSON Lines recognised from the content even without the extension
    const noExt = await upload(app, key, '{"k": "v"}\n{"k": "w"}\n', "export");
    expect(noExt.json.dataset.format).toBe("jsonl");

    const parquet = await upload(
      app,
      key,
      await parquetOf("SELECT range AS n, range * 1.5 AS f FROM range(1000)"),
      "p.parquet",
    );
    expect(parquet.status).toBe(201);
    expect(parquet.json.dataset.format).toBe("parquet");
    expect(parquet.json.dataset.row_count).toBe(1000);
    expect(parquet.json.version.profile.columns[0]).toMatchObject({ min: 0, max: 999, distinct: 1000 });

    const text = await upload(
      app,
      key,
      "The first line.\nThe second line, longer.\n\nLast one\n",
      "corpus.txt",
    );
    expect(text.status).toBe(201);
    expect(text.json.dataset).toMatchObject({
      format: "text",
      task: "language_modeling",
      roles: { text: "text" },
    });
    expect(text.json.version.profile.text).toMatchObject({ lines: 4, words: 9 });
    expect(text.json.version.profile.text.top_words[0]).toEqual({ value: "line", count: 2 });
  });

  it("profiles a ZIP of images in one folder per class, with thumbnails", async () => {
    const { key } = await signUpWithKey(app);
    const red = await pngBuffer(12, 10, { r: 255, g: 0, b: 0 });
    const blue = await pngBuffer(16, 16, { r: 0, g: 0, b: 255 });
    const zip = await zipOf({
      "pets/cats/1.png": red,
      "pets/cats/2.png": red,
      "pets/dogs/1.png": blue,
      "pets/README.txt": "ignored",
      "__MACOSX/pets/._1.png": "junk",
    });
    const r = await upload(app, key, zip, "pets.zip");
    expect(r.status).toBe(201);
    expect(r.json.dataset).toMatchObject({
      format: "image_zip",
      task: "image_classification",
      row_count: 3,
      roles: { image: "image", label: "target" },
    });
    const images = r.json.version.profile.images;
    expect(images.classes).toEqual([
      { name: "cats", count: 2 },
      { name: "dogs", count: 1 },
    ]);
    expect(images.width).toEqual({ min: 12, max: 16 });
    expect(images.sizes[0]).toEqual({ width: 12, height: 10, count: 2 });
    expect(images.samples[0].thumbnail).toMatch(/^data:image\/png;base64,/);
    const preview = await call(app, "GET", `/api/v1/datasets/${r.json.dataset.id}/preview?rows=2`, { key });
    expect(preview.status).toBe(200);
    expect(preview.json.rows).toHaveLength(2);
    expect(preview.json.images[0].thumbnail).toMatch(/^data:image\/png;base64,/);

    const flat = await upload(app, key, await zipOf({ "1.png": red, "2.png": blue }), "flat.zip");
    expect(flat.status).toBe(422);
    expect(flat.json.detail).toMatch(/one folder per class/);
  });

  it("refuses unsupported files with 422 and keeps nothing", async () => {
    const { key, user } = await signUpWithKey(app);
    const before = await datasetBlobFiles(blobDir);
    const gz = await upload(app, key, Buffer.from([0x1f, 0x8b, 8, 0, 0, 0, 0, 0]), "data.csv.gz");
    expect(gz.status).toBe(422);
    expect(gz.res.headers.get("content-type")).toMatch(/application\/problem\+json/);
    const binary = await upload(app, key, Buffer.from([1, 2, 0, 4, 5, 0]), "blob.bin");
    expect(binary.status).toBe(422);
    const empty = await upload(app, key, "", "empty.csv");
    expect(empty.status).toBe(422);
    const badZip = await upload(
      app,
      key,
      Buffer.concat([Buffer.from("PK\u0003\u0004"), Buffer.alloc(40)]),
      "x.zip",
    );
    expect(badZip.status).toBe(422);
    expect(JSON.stringify(badZip.json)).not.toContain(blobDir);
    expect(await datasetBlobFiles(blobDir)).toEqual(before);
    expect(await rowsOf(user.id)).toEqual({ datasets: 0, versions: 0 });
  });

  it("validates the form: file required, multipart required, field lengths", async () => {
    const { key } = await signUpWithKey(app);
    const fd = new FormData();
    fd.set("name", "no file");
    const noFile = await call(app, "POST", "/api/v1/datasets/", { key, rawBody: fd });
    expect(noFile.status).toBe(422);
    expect(noFile.json.errors[0].path).toBe("file");
    const json = await call(app, "POST", "/api/v1/datasets/", { key, body: { file: "x" } });
    expect(json.status).toBe(400);
    const longName = await upload(app, key, IRIS_LIKE, "a.csv", { name: "x".repeat(200) });
    expect(longName.status).toBe(422);
    expect(longName.json.errors[0].path).toBe("name");
    const noAuth = await call(app, "POST", "/api/v1/datasets/", { rawBody: new FormData() });
    expect(noAuth.status).toBe(401);
    // The trailing slash is part of the path.
    const noSlash = await call(app, "POST", "/api/v1/datasets", { key, rawBody: new FormData() });
    expect(noSlash.status).toBe(404);
  });
});

describe("versions", () => {
  it("re-uploading identical content returns the existing version; new content makes version 2", async () => {
    const { key, user } = await signUpWithKey(app);
    const first = await upload(app, key, IRIS_LIKE, "v.csv");
    const id = first.json.dataset.id;
    const roles = await call(app, "PATCH", `/api/v1/datasets/${id}/roles`, {
      key,
      body: { roles: { species: "target" } },
    });
    expect(roles.status).toBe(200);

    const filesBefore = (await datasetBlobFiles(blobDir)).length;
    const same = await upload(app, key, IRIS_LIKE, "v-again.csv", { dataset_id: id });
    expect(same.status).toBe(200);
    expect(same.json.created).toBe(false);
    expect(same.json.version.id).toBe(first.json.version.id);
    expect((await datasetBlobFiles(blobDir)).length).toBe(filesBefore);

    const rolesBefore = (await call(app, "GET", `/api/v1/datasets/${id}`, { key })).json.roles;
    expect(rolesBefore).toMatchObject({ species: "target" });
    const changed = `${IRIS_LIKE}6.0,4.0,versicolor,33\n`;
    const second = await upload(app, key, changed, "v2.csv", { dataset_id: id });
    expect(second.status).toBe(201);
    expect(second.json.version.number).toBe(2);
    expect(second.json.dataset).toMatchObject({
      current_version_id: second.json.version.id,
      version_count: 2,
      row_count: 6,
    });
    expect(second.json.dataset.size_bytes).toBe(Buffer.byteLength(IRIS_LIKE) + Buffer.byteLength(changed));
    // roles carry over to the new version
    expect(second.json.dataset.roles).toEqual(rolesBefore);
    expect(await rowsOf(user.id)).toEqual({ datasets: 1, versions: 2 });

    const list = await call(app, "GET", `/api/v1/datasets/${id}/versions`, { key });
    expect(list.status).toBe(200);
    expect(list.json).toMatchObject({ total: 2, page: 1, limit: 20, pages: 1 });
    expect(list.json.items.map((v: { number: number }) => v.number)).toEqual([2, 1]);
    expect(list.json.items[0].is_current).toBe(true);
    expect(list.json.items[0].profile).toBeUndefined();
    const page2 = await call(app, "GET", `/api/v1/datasets/${id}/versions?page=2&limit=1`, { key });
    expect(page2.json.items[0].number).toBe(1);
    const badPage = await call(app, "GET", `/api/v1/datasets/${id}/versions?limit=101`, { key });
    expect(badPage.status).toBe(422);

    const v1 = await call(app, "GET", `/api/v1/datasets/${id}/versions/${first.json.version.id}`, { key });
    expect(v1.status).toBe(200);
    expect(v1.json).toMatchObject({
      number: 1,
      row_count: 5,
      is_current: false,
      content_hash: first.json.version.content_hash,
    });
    expect(v1.json.profile.columns).toHaveLength(4);
    expect(v1.json.created_by.id).toBe(user.id);
    const missing = await call(app, "GET", `/api/v1/datasets/${id}/versions/dsv_nope`, { key });
    expect(missing.status).toBe(404);
  });

  it("refuses new versions of datasets the caller does not own", async () => {
    const a = await signUpWithKey(app);
    const b = await signUpWithKey(app);
    const ds = await upload(app, a.key, IRIS_LIKE);
    const other = await upload(app, b.key, "x,y\n1,2\n", "other.csv", { dataset_id: ds.json.dataset.id });
    expect(other.status).toBe(404);
    const builtin = await upload(app, b.key, "x,y\n1,2\n", "other.csv", { dataset_id: "builtin-iris" });
    expect(builtin.status).toBe(403);
    expect(await rowsOf(b.user.id)).toEqual({ datasets: 0, versions: 0 });
  });
});

describe("limits and quota", () => {
  it("413 above the overall cap, 402 above the plan's per-file limit, and nothing left behind", async () => {
    const { key, user } = await signUpWithKey(app);
    const before = await datasetBlobFiles(blobDir);
    const big = `a,b\n${"1234567,7654321\n".repeat(200)}`; // ~3.2 kB
    await withEnv({ DATASET_MAX_FILE_BYTES: "2000", DATASET_UPLOAD_FILE_BYTES: undefined }, async () => {
      const r = await upload(app, key, big, "big.csv");
      expect(r.status).toBe(413);
      expect(r.json.type).toMatch(/payload-too-large/);
    });
    await withEnv({ DATASET_MAX_FILE_BYTES: "5000", DATASET_UPLOAD_FILE_BYTES: "1000" }, async () => {
      const r = await upload(app, key, big, "big.csv");
      expect(r.status).toBe(402);
      expect(r.json.detail).toMatch(/plan/);
      const small = await upload(app, key, "a,b\n1,2\n", "small.csv");
      expect(small.status).toBe(201);
      const quota = await call(app, "GET", "/api/v1/datasets/storage/quota", { key });
      expect(quota.json.per_file_limit_bytes).toBe(1000);
    });
    expect((await datasetBlobFiles(blobDir)).length).toBe(before.length + 1);
    expect((await datasetBlobFiles(blobDir)).some((f) => f.startsWith(".tmp"))).toBe(false);
    expect(await rowsOf(user.id)).toEqual({ datasets: 1, versions: 1 });
  });

  it("enforces the storage quota during the upload and reports usage", async () => {
    const { key, user } = await signUpWithKey(app);
    await withEnv({ DATASET_STORAGE_BYTES: "600" }, async () => {
      const first = await upload(
        app,
        key,
        csv([["a", "b"], ...Array.from({ length: 40 }, (_, i) => [i, i * 2])]),
        "a.csv",
      );
      expect(first.status).toBe(201);
      const used = first.json.version.size_bytes as number;
      const quota = await call(app, "GET", "/api/v1/datasets/storage/quota", { key });
      expect(quota.status).toBe(200);
      expect(quota.json).toEqual({
        used_bytes: used,
        limit_bytes: 600,
        per_file_limit_bytes: 200 * 1024 * 1024,
        remaining_bytes: 600 - used,
        breakdown: { datasets: used, checkpoints: 0, artifacts: 0, hub: 0, registry: 0 },
      });
      const second = await upload(
        app,
        key,
        csv([["c", "d"], ...Array.from({ length: 60 }, (_, i) => [i, i * 3])]),
        "b.csv",
      );
      expect(second.status).toBe(402);
      expect(second.json.detail).toMatch(/storage quota/);
      expect(second.json.type).toMatch(/storage-quota$/);
      expect(second.json).toMatchObject({ used_bytes: used, limit_bytes: 600 });
      expect(second.json.requested_bytes).toBeGreaterThan(600 - used);
    });
    expect(await rowsOf(user.id)).toEqual({ datasets: 1, versions: 1 });
  });

  it("refuses from Content-Length before reading the body", async () => {
    const { key, user } = await signUpWithKey(app);
    const before = await datasetBlobFiles(blobDir);
    let pulled = 0;
    // A body that would never end: only the declared length can have decided.
    const endless = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled += 1;
        controller.enqueue(new TextEncoder().encode("x".repeat(1024)));
      },
    });
    const res = await app.request("/api/v1/datasets/", {
      method: "POST",
      headers: {
        Authorization: `Bearer ${key}`,
        "Content-Type": "multipart/form-data; boundary=XYZ",
        "Content-Length": String(300 * 1024 * 1024),
      },
      body: endless,
      duplex: "half",
    } as RequestInit);
    expect(res.status).toBe(402);
    expect(pulled).toBeLessThan(5);
    await withEnv({ DATASET_MAX_FILE_BYTES: "1000" }, async () => {
      const r = await app.request("/api/v1/datasets/", {
        method: "POST",
        headers: {
          Authorization: `Bearer ${key}`,
          "Content-Type": "multipart/form-data; boundary=XYZ",
          "Content-Length": String(200 * 1024),
        },
        body: "--XYZ--",
      });
      expect(r.status).toBe(413);
    });
    expect(await datasetBlobFiles(blobDir)).toEqual(before);
    expect(await rowsOf(user.id)).toEqual({ datasets: 0, versions: 0 });
  });

  it("an upload interrupted mid-file leaves no file and no row", async () => {
    const { key, user } = await signUpWithKey(app);
    const before = await datasetBlobFiles(blobDir);
    const head =
      '--B\r\nContent-Disposition: form-data; name="file"; filename="x.csv"\r\nContent-Type: text/csv\r\n\r\na,b\n';
    let sent = 0;
    const broken = new ReadableStream<Uint8Array>({
      pull(controller) {
        sent += 1;
        if (sent === 1) controller.enqueue(new TextEncoder().encode(head));
        else if (sent < 20) controller.enqueue(new TextEncoder().encode("1,2\n".repeat(1000)));
        else controller.error(new Error("client went away"));
      },
    });
    const res = await app.request("/api/v1/datasets/", {
      method: "POST",
      headers: {
        Authorization: `Bearer ${key}`,
        "Content-Type": "multipart/form-data; boundary=B",
        "Content-Length": "1000000",
      },
      body: broken,
      duplex: "half",
    } as RequestInit);
    expect(res.status).toBe(400);
    expect(await datasetBlobFiles(blobDir)).toEqual(before);
    expect(await rowsOf(user.id)).toEqual({ datasets: 0, versions: 0 });
  });
});

describe("browse, read, update, delete", () => {
  it("browses built-ins first, then own and public datasets, with skip/limit and filters", async () => {
    const a = await signUpWithKey(app);
    const b = await signUpWithKey(app);
    const mine = await upload(app, a.key, IRIS_LIKE, "zebra-measurements.csv");
    const theirsPrivate = await upload(app, b.key, IRIS_LIKE, "secret-zebra.csv");
    const theirsPublic = await upload(app, b.key, "q\n1\n2\n", "public-zebra.csv");
    await call(app, "PUT", `/api/v1/datasets/${theirsPublic.json.dataset.id}`, {
      key: b.key,
      body: { visibility: "public" },
    });

    const all = await call(app, "GET", "/api/v1/datasets/browse?limit=100", { key: a.key });
    expect(all.status).toBe(200);
    expect(Array.isArray(all.json)).toBe(true);
    const ids = all.json.map((d: { id: string }) => d.id);
    expect(ids.slice(0, 7)).toEqual([
      "builtin-iris",
      "builtin-wine",
      "builtin-breast-cancer",
      "builtin-digits",
      "builtin-diabetes",
      "builtin-penguins",
      "builtin-declaration",
    ]);
    expect(ids).toContain(mine.json.dataset.id);
    expect(ids).toContain(theirsPublic.json.dataset.id);
    expect(ids).not.toContain(theirsPrivate.json.dataset.id);
    const publicView = all.json.find((d: { id: string }) => d.id === theirsPublic.json.dataset.id);
    expect(publicView.read_only).toBe(true);

    const zebra = await call(app, "GET", "/api/v1/datasets/browse?q=zebra", { key: a.key });
    expect(zebra.json.map((d: { id: string }) => d.id).sort()).toEqual(
      [mine.json.dataset.id, theirsPublic.json.dataset.id].sort(),
    );
    const page = await call(app, "GET", "/api/v1/datasets/browse?skip=5&limit=3", { key: a.key });
    expect(page.json.map((d: { id: string }) => d.id)).toEqual(ids.slice(5, 8));
    const noBuiltin = await call(app, "GET", "/api/v1/datasets/browse?include_builtin=false&limit=100", {
      key: a.key,
    });
    expect(noBuiltin.json.some((d: { builtin: boolean }) => d.builtin)).toBe(false);
    const onlyMine = await call(app, "GET", "/api/v1/datasets/browse?mine=true", { key: a.key });
    expect(onlyMine.json.map((d: { id: string }) => d.id)).toEqual([mine.json.dataset.id]);
    const regression = await call(
      app,
      "GET",
      "/api/v1/datasets/browse?task=regression&include_builtin=true",
      { key: a.key },
    );
    expect(regression.json.map((d: { id: string }) => d.id)).toContain("builtin-diabetes");
    expect(regression.json.some((d: { task: string }) => d.task !== "regression")).toBe(false);
    const text = await call(app, "GET", "/api/v1/datasets/browse?format=text", { key: a.key });
    expect(text.json.map((d: { id: string }) => d.id)).toEqual(["builtin-declaration"]);
    const bad = await call(app, "GET", "/api/v1/datasets/browse?limit=0", { key: a.key });
    expect(bad.status).toBe(422);
    const badFormat = await call(app, "GET", "/api/v1/datasets/browse?format=xls", { key: a.key });
    expect(badFormat.status).toBe(422);
  });

  it("reads built-ins: metadata, preview, digits as images, download", async () => {
    const { key } = await signUpWithKey(app);
    const iris = await call(app, "GET", "/api/v1/datasets/builtin-iris", { key });
    expect(iris.status).toBe(200);
    expect(iris.json).toMatchObject({
      builtin: true,
      read_only: true,
      owner: null,
      row_count: 150,
      task: "classification",
      roles: { species: "target", sepal_length_cm: "feature" },
    });
    const preview = await call(app, "GET", "/api/v1/datasets/builtin-iris/preview?rows=3", { key });
    expect(preview.json.rows).toEqual([
      {
        sepal_length_cm: 5.1,
        sepal_width_cm: 3.5,
        petal_length_cm: 1.4,
        petal_width_cm: 0.2,
        species: "setosa",
      },
      {
        sepal_length_cm: 4.9,
        sepal_width_cm: 3,
        petal_length_cm: 1.4,
        petal_width_cm: 0.2,
        species: "setosa",
      },
      {
        sepal_length_cm: 4.7,
        sepal_width_cm: 3.2,
        petal_length_cm: 1.3,
        petal_width_cm: 0.2,
        species: "setosa",
      },
    ]);
    expect(
      preview.json.profile.columns.find((c: { name: string }) => c.name === "species").top_values,
    ).toHaveLength(3);

    const digits = await call(app, "GET", "/api/v1/datasets/builtin-digits/preview?rows=4", { key });
    expect(digits.json.columns).toHaveLength(65);
    expect(digits.json.images).toHaveLength(4);
    expect(digits.json.images[0]).toMatchObject({ row: 0, label: "0", width: 8, height: 8 });
    const png = Buffer.from(digits.json.images[0].thumbnail.split(",")[1], "base64");
    const meta = await sharp(png).metadata();
    expect(meta).toMatchObject({ format: "png", width: 32, height: 32 });
    const digitsView = await call(app, "GET", "/api/v1/datasets/builtin-digits", { key });
    expect(digitsView.json.image_layout).toMatchObject({ width: 8, height: 8, max_value: 16 });

    const diabetes = await call(app, "GET", "/api/v1/datasets/builtin-diabetes", { key });
    expect(diabetes.json.columns.map((c: { name: string }) => c.name)).toEqual([
      "age",
      "sex",
      "bmi",
      "bp",
      "s1",
      "s2",
      "s3",
      "s4",
      "s5",
      "s6",
      "target",
    ]);
    const penguins = await call(app, "GET", "/api/v1/datasets/builtin-penguins/preview?rows=1", { key });
    expect(penguins.json.rows[0]).toMatchObject({ species: "Adelie", island: "Torgersen", sex: "male" });
    const decl = await call(app, "GET", "/api/v1/datasets/builtin-declaration/preview?rows=1", { key });
    expect(decl.json.rows[0].text).toMatch(/In Congress/);

    const dl = await call(app, "GET", "/api/v1/datasets/builtin-iris/download", { key });
    expect(dl.status).toBe(200);
    expect(dl.res.headers.get("content-type")).toMatch(/text\/csv/);
    expect(dl.text.split("\n")[0]).toBe(
      "sepal_length_cm,sepal_width_cm,petal_length_cm,petal_width_cm,species",
    );
    const versions = await call(app, "GET", "/api/v1/datasets/builtin-iris/versions", { key });
    expect(versions.json.items[0]).toMatchObject({ id: "builtin-iris-v1", number: 1, is_current: true });
    const unknown = await call(app, "GET", "/api/v1/datasets/builtin-nope", { key });
    expect(unknown.status).toBe(404);
    const tooMany = await call(app, "GET", "/api/v1/datasets/builtin-iris/preview?rows=101", { key });
    expect(tooMany.status).toBe(422);
  });

  it("hides other users' private datasets (404) and lets only owners change them (403)", async () => {
    const a = await signUpWithKey(app);
    const b = await signUpWithKey(app);
    const ds = await upload(app, a.key, IRIS_LIKE);
    const id = ds.json.dataset.id;
    const vid = ds.json.version.id;
    for (const [method, url] of [
      ["GET", `/api/v1/datasets/${id}`],
      ["GET", `/api/v1/datasets/${id}/preview`],
      ["GET", `/api/v1/datasets/${id}/meta`],
      ["GET", `/api/v1/datasets/${id}/download`],
      ["GET", `/api/v1/datasets/${id}/versions`],
      ["GET", `/api/v1/datasets/${id}/versions/${vid}`],
      ["DELETE", `/api/v1/datasets/${id}`],
      ["POST", `/api/v1/datasets/${id}/versions/${vid}/pii-scan`],
    ] as const) {
      const r = await call(app, method, url, { key: b.key });
      expect(r.status, `${method} ${url}`).toBe(404);
    }
    const put = await call(app, "PUT", `/api/v1/datasets/${id}`, { key: b.key, body: { name: "mine now" } });
    expect(put.status).toBe(404);

    await call(app, "PUT", `/api/v1/datasets/${id}`, { key: a.key, body: { visibility: "public" } });
    const read = await call(app, "GET", `/api/v1/datasets/${id}`, { key: b.key });
    expect(read.status).toBe(200);
    expect(read.json.read_only).toBe(true);
    const change = await call(app, "PUT", `/api/v1/datasets/${id}`, {
      key: b.key,
      body: { name: "mine now" },
    });
    expect(change.status).toBe(403);
    const del = await call(app, "DELETE", `/api/v1/datasets/${id}`, { key: b.key });
    expect(del.status).toBe(403);
    const roles = await call(app, "PATCH", `/api/v1/datasets/${id}/roles`, {
      key: b.key,
      body: { roles: { sepal: "feature" } },
    });
    expect(roles.status).toBe(403);
  });

  it("updates name, description and visibility; validates the body; built-ins are read-only", async () => {
    const { key } = await signUpWithKey(app);
    const ds = await upload(app, key, IRIS_LIKE);
    const id = ds.json.dataset.id;
    const r = await call(app, "PUT", `/api/v1/datasets/${id}`, {
      key,
      body: { name: "Renamed", description: "Better words", visibility: "public" },
    });
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({ name: "Renamed", description: "Better words", visibility: "public" });
    expect(new Date(r.json.updated_at).getTime()).toBeGreaterThanOrEqual(
      new Date(ds.json.dataset.updated_at).getTime(),
    );
    const bad = await call(app, "PUT", `/api/v1/datasets/${id}`, { key, body: { visibility: "secret" } });
    expect(bad.status).toBe(422);
    const unknownField = await call(app, "PUT", `/api/v1/datasets/${id}`, { key, body: { owner_id: "x" } });
    expect(unknownField.status).toBe(422);
    const builtin = await call(app, "PUT", "/api/v1/datasets/builtin-iris", { key, body: { name: "Mine" } });
    expect(builtin.status).toBe(403);
    const delBuiltin = await call(app, "DELETE", "/api/v1/datasets/builtin-iris", { key });
    expect(delBuiltin.status).toBe(403);
  });

  it("deletes a dataset with its versions and files; 409 while a job uses it", async () => {
    const { key, user } = await signUpWithKey(app);
    const ds = await upload(app, key, IRIS_LIKE);
    const id = ds.json.dataset.id;
    const v2 = await upload(app, key, `${IRIS_LIKE}1,1,setosa,1\n`, "d.csv", { dataset_id: id });
    const files = [ds.json.version.id, v2.json.version.id];
    for (const f of files) expect(await datasetBlobFiles(blobDir)).toContain(f);

    // A model sized to the dataset (a job whose dataset does not fit its model is refused).
    const project = await call(app, "POST", "/api/v1/projects", {
      key,
      body: { name: "p", dataset_id: id },
    });
    const job = await call(app, "POST", "/api/v1/training/jobs", {
      key,
      body: { project_id: project.json.id, dataset_id: id, runtime: "external" },
    });
    expect(job.status, job.text).toBe(201);
    const jobId = job.json.id;
    const busy = await call(app, "DELETE", `/api/v1/datasets/${id}`, { key });
    expect(busy.status).toBe(409);
    expect(busy.json.detail).toContain(jobId);
    await call(app, "POST", `/api/v1/training/jobs/${jobId}/cancel`, { key });

    const del = await call(app, "DELETE", `/api/v1/datasets/${id}`, { key });
    expect(del.status).toBe(204);
    for (const f of files) expect(await datasetBlobFiles(blobDir)).not.toContain(f);
    expect(await rowsOf(user.id)).toEqual({ datasets: 0, versions: 0 });
    const gone = await call(app, "GET", `/api/v1/datasets/${id}`, { key });
    expect(gone.status).toBe(404);
    const again = await call(app, "DELETE", `/api/v1/datasets/${id}`, { key });
    expect(again.status).toBe(404);
    const quota = await call(app, "GET", "/api/v1/datasets/storage/quota", { key });
    expect(quota.json.used_bytes).toBe(0);
  });
});

describe("column roles", () => {
  it("sets roles and infers classification or regression from the target", async () => {
    const { key } = await signUpWithKey(app);
    const ds = await upload(app, key, IRIS_LIKE);
    const id = ds.json.dataset.id;
    const cls = await call(app, "PATCH", `/api/v1/datasets/${id}/roles`, {
      key,
      body: { roles: { sepal: "feature", petal: "feature", species: "target", weight: "ignored" } },
    });
    expect(cls.status).toBe(200);
    expect(cls.json).toEqual({
      dataset_id: id,
      roles: { sepal: "feature", petal: "feature", species: "target", weight: "ignored" },
      task: "classification",
    });
    const reg = await call(app, "PATCH", `/api/v1/datasets/${id}/roles`, {
      key,
      body: { roles: { species: "feature", sepal: "target" } },
    });
    expect(reg.json.task).toBe("regression");
    expect(reg.json.roles).toMatchObject({ sepal: "target", species: "feature", weight: "ignored" });
    const cleared = await call(app, "PATCH", `/api/v1/datasets/${id}/roles`, {
      key,
      body: { roles: { sepal: null } },
    });
    expect(cleared.json.task).toBeNull();
    expect(cleared.json.roles.sepal).toBeUndefined();
    const view = await call(app, "GET", `/api/v1/datasets/${id}`, { key });
    expect(view.json.roles).toEqual(cleared.json.roles);

    // a small-integer target is class labels; a wide one is a quantity
    const ints = await upload(
      app,
      key,
      csv([["x", "label", "amount"], ...Array.from({ length: 50 }, (_, i) => [i, i % 3, i * 17])]),
    );
    const intId = ints.json.dataset.id;
    const label = await call(app, "PATCH", `/api/v1/datasets/${intId}/roles`, {
      key,
      body: { roles: { label: "target" } },
    });
    expect(label.json.task).toBe("classification");
    const amount = await call(app, "PATCH", `/api/v1/datasets/${intId}/roles`, {
      key,
      body: { roles: { label: "feature", amount: "target" } },
    });
    expect(amount.json.task).toBe("regression");
  });

  it("refuses unknown columns, two targets and unknown roles with 422", async () => {
    const { key } = await signUpWithKey(app);
    const ds = await upload(app, key, IRIS_LIKE);
    const id = ds.json.dataset.id;
    const unknown = await call(app, "PATCH", `/api/v1/datasets/${id}/roles`, {
      key,
      body: { roles: { nope: "feature" } },
    });
    expect(unknown.status).toBe(422);
    expect(unknown.json.errors).toEqual([{ path: "roles.nope", message: 'Unknown column "nope".' }]);
    const two = await call(app, "PATCH", `/api/v1/datasets/${id}/roles`, {
      key,
      body: { roles: { sepal: "target", petal: "target" } },
    });
    expect(two.status).toBe(422);
    expect(two.json.errors[0].message).toMatch(/Only one column can be the target/);
    const badRole = await call(app, "PATCH", `/api/v1/datasets/${id}/roles`, {
      key,
      body: { roles: { sepal: "label" } },
    });
    expect(badRole.status).toBe(422);
    const builtin = await call(app, "PATCH", "/api/v1/datasets/builtin-iris/roles", {
      key,
      body: { roles: { species: "feature" } },
    });
    expect(builtin.status).toBe(403);
  });
});

describe("signed download links", () => {
  it("meta gives a single-use link that needs no credential", async () => {
    const { key } = await signUpWithKey(app);
    const ds = await upload(app, key, IRIS_LIKE, "flowers.csv");
    const id = ds.json.dataset.id;
    const meta = await call(app, "GET", `/api/v1/datasets/${id}/meta`, { key });
    expect(meta.status).toBe(200);
    expect(meta.json).toMatchObject({
      id,
      version_id: ds.json.version.id,
      file_name: "flowers.csv",
      row_count: 5,
    });
    const expiresIn = new Date(meta.json.download_expires_at).getTime() - Date.now();
    expect(expiresIn).toBeGreaterThan(4 * 60_000);
    expect(expiresIn).toBeLessThanOrEqual(5 * 60_000);
    const url = new URL(meta.json.download_url);
    expect(url.pathname).toBe(`/api/v1/datasets/${id}/download`);
    for (const p of ["expires", "nonce", "sig"]) expect(url.searchParams.get(p)).toBeTruthy();

    const first = await fetchLink(url.pathname + url.search);
    expect(first.status).toBe(200);
    expect(first.text).toBe(IRIS_LIKE);
    expect(first.res.headers.get("content-disposition")).toContain('filename="flowers.csv"');
    expect(first.res.headers.get("content-length")).toBe(String(Buffer.byteLength(IRIS_LIKE)));
    const reused = await call(app, "GET", url.pathname + url.search);
    expect(reused.status).toBe(410);
    expect(reused.res.headers.get("content-type")).toMatch(/problem\+json/);
  });

  it("of 10 concurrent uses of one link exactly one succeeds", async () => {
    const { key } = await signUpWithKey(app);
    const ds = await upload(app, key, IRIS_LIKE);
    const meta = await call(app, "GET", `/api/v1/datasets/${ds.json.dataset.id}/meta`, { key });
    const url = new URL(meta.json.download_url);
    const results = await Promise.all(Array.from({ length: 10 }, () => fetchLink(url.pathname + url.search)));
    const statuses = results.map((r) => r.status).sort();
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(statuses.filter((s) => s === 410)).toHaveLength(9);
  });

  it("refuses tampered, incomplete and expired links; needs a credential otherwise", async () => {
    const { key } = await signUpWithKey(app);
    const ds = await upload(app, key, IRIS_LIKE);
    const id = ds.json.dataset.id;
    const meta = await call(app, "GET", `/api/v1/datasets/${id}/meta`, { key });
    const url = new URL(meta.json.download_url);
    const tampered = new URL(url);
    tampered.searchParams.set("expires", String(Number(url.searchParams.get("expires")) + 3600));
    expect((await call(app, "GET", tampered.pathname + tampered.search)).status).toBe(403);
    const otherDataset = `/api/v1/datasets/builtin-iris/download${url.search}`;
    expect((await call(app, "GET", otherDataset)).status).toBe(403);
    const incomplete = new URL(url);
    incomplete.searchParams.delete("sig");
    expect((await call(app, "GET", incomplete.pathname + incomplete.search)).status).toBe(403);

    const { mintDownloadLink } = await import("@/lib/server/modules/datasets/signed-links");
    const old = await mintDownloadLink(
      await getDb(),
      id,
      ds.json.version.id,
      new Date(Date.now() - 10 * 60_000),
    );
    const expired = `/api/v1/datasets/${id}/download?${new URLSearchParams({ ...old.query })}`;
    const r = await call(app, "GET", expired);
    expect(r.status).toBe(410);
    expect(r.json.detail).toMatch(/expired/);

    // the link still works after the tampering attempts
    expect((await fetchLink(url.pathname + url.search)).status).toBe(200);
    expect((await call(app, "GET", `/api/v1/datasets/${id}/download`)).status).toBe(401);
    const withKey = await call(app, "GET", `/api/v1/datasets/${id}/download`, { key });
    expect(withKey.status).toBe(200);
    expect(withKey.text).toBe(IRIS_LIKE);
    const v1 = await call(app, "GET", `/api/v1/datasets/${id}/download?version_id=dsv_nope`, { key });
    expect(v1.status).toBe(404);
  });
});

describe("signed links after a delete", () => {
  it("a link to a deleted dataset is a 404", async () => {
    const { key } = await signUpWithKey(app);
    const ds = await upload(app, key, IRIS_LIKE);
    const meta = await call(app, "GET", `/api/v1/datasets/${ds.json.dataset.id}/meta`, { key });
    const url = new URL(meta.json.download_url);
    expect((await call(app, "DELETE", `/api/v1/datasets/${ds.json.dataset.id}`, { key })).status).toBe(204);
    expect((await call(app, "GET", url.pathname + url.search)).status).toBe(404);
  });
});

describe("explicit splits", () => {
  it("stores disjoint, in-range, non-empty splits on the version", async () => {
    const { key } = await signUpWithKey(app);
    const ds = await upload(app, key, IRIS_LIKE);
    const url = `/api/v1/datasets/${ds.json.dataset.id}/versions/${ds.json.version.id}/splits/explicit`;
    const ok = await call(app, "POST", url, {
      key,
      body: { splits: { train: [0, 1, 2], validation: [3], test: [4] } },
    });
    expect(ok.status).toBe(200);
    expect(ok.json).toMatchObject({
      kind: "explicit",
      train: 3,
      validation: 1,
      test: 1,
      row_count: 5,
      unassigned: 0,
    });
    const version = await call(
      app,
      "GET",
      `/api/v1/datasets/${ds.json.dataset.id}/versions/${ds.json.version.id}`,
      { key },
    );
    expect(version.json.splits).toMatchObject({ kind: "explicit", train: 3, validation: 1, test: 1 });

    const overlap = await call(app, "POST", url, { key, body: { splits: { train: [0, 1], test: [1] } } });
    expect(overlap.status).toBe(422);
    expect(overlap.json.errors[0]).toMatchObject({ path: "splits.test.0" });
    expect(overlap.json.errors[0].message).toMatch(/disjoint/);
    const range = await call(app, "POST", url, { key, body: { splits: { train: [0, 5] } } });
    expect(range.status).toBe(422);
    expect(range.json.errors[0].path).toBe("splits.train.1");
    const negative = await call(app, "POST", url, { key, body: { splits: { train: [-1] } } });
    expect(negative.status).toBe(422);
    const empty = await call(app, "POST", url, { key, body: { splits: { train: [0], validation: [] } } });
    expect(empty.status).toBe(422);
    const noTrain = await call(app, "POST", url, { key, body: { splits: { test: [0] } } });
    expect(noTrain.status).toBe(422);
    const dup = await call(app, "POST", url, { key, body: { splits: { train: [0, 0] } } });
    expect(dup.status).toBe(422);
    const unknownSplit = await call(app, "POST", url, {
      key,
      body: { splits: { train: [0], holdout: [1] } },
    });
    expect(unknownSplit.status).toBe(422);
    const fraction = await call(app, "POST", url, { key, body: { splits: { train: [0.5] } } });
    expect(fraction.status).toBe(422);
    const builtin = await call(
      app,
      "POST",
      "/api/v1/datasets/builtin-iris/versions/builtin-iris-v1/splits/explicit",
      {
        key,
        body: { splits: { train: [0] } },
      },
    );
    expect(builtin.status).toBe(403);
    // the stored splits were not changed by the refused requests
    const after = await call(
      app,
      "GET",
      `/api/v1/datasets/${ds.json.dataset.id}/versions/${ds.json.version.id}`,
      { key },
    );
    expect(after.json.splits.train).toBe(3);
  });
});

describe("project links", () => {
  it("links own, public and built-in datasets to the caller's project", async () => {
    const a = await signUpWithKey(app);
    const b = await signUpWithKey(app);
    const project = await createProject(a.key);
    const own = await upload(app, a.key, IRIS_LIKE);
    const theirs = await upload(app, b.key, IRIS_LIKE);
    const base = `/api/v1/projects/${project}/datasets`;

    const link = await call(app, "POST", base, { key: a.key, body: { dataset_id: own.json.dataset.id } });
    expect(link.status).toBe(201);
    expect(link.json).toMatchObject({ id: own.json.dataset.id, name: own.json.dataset.name });
    expect(link.json.linked_at).toBeTruthy();
    const again = await call(app, "POST", base, { key: a.key, body: { dataset_id: own.json.dataset.id } });
    expect(again.status).toBe(200);
    const builtin = await call(app, "POST", base, { key: a.key, body: { dataset_id: "builtin-digits" } });
    expect(builtin.status).toBe(201);
    const privateOther = await call(app, "POST", base, {
      key: a.key,
      body: { dataset_id: theirs.json.dataset.id },
    });
    expect(privateOther.status).toBe(404);
    await call(app, "PUT", `/api/v1/datasets/${theirs.json.dataset.id}`, {
      key: b.key,
      body: { visibility: "public" },
    });
    const publicOther = await call(app, "POST", base, {
      key: a.key,
      body: { dataset_id: theirs.json.dataset.id },
    });
    expect(publicOther.status).toBe(201);

    const list = await call(app, "GET", base, { key: a.key });
    expect(list.status).toBe(200);
    expect(list.json.map((d: { id: string }) => d.id)).toEqual([
      own.json.dataset.id,
      "builtin-digits",
      theirs.json.dataset.id,
    ]);
    const paged = await call(app, "GET", `${base}?skip=1&limit=1`, { key: a.key });
    expect(paged.json.map((d: { id: string }) => d.id)).toEqual(["builtin-digits"]);

    // someone else's project: 404 for every route
    expect((await call(app, "GET", base, { key: b.key })).status).toBe(404);
    expect((await call(app, "POST", base, { key: b.key, body: { dataset_id: "builtin-iris" } })).status).toBe(
      404,
    );
    expect((await call(app, "DELETE", `${base}/builtin-digits`, { key: b.key })).status).toBe(404);

    const unlink = await call(app, "DELETE", `${base}/builtin-digits`, { key: a.key });
    expect(unlink.status).toBe(204);
    expect((await call(app, "DELETE", `${base}/builtin-digits`, { key: a.key })).status).toBe(404);
    const missing = await call(app, "POST", base, { key: a.key, body: { dataset_id: "ds_missing" } });
    expect(missing.status).toBe(404);
    const invalid = await call(app, "POST", base, { key: a.key, body: {} });
    expect(invalid.status).toBe(422);

    // deleting a dataset removes its links
    await call(app, "DELETE", `/api/v1/datasets/${own.json.dataset.id}`, { key: a.key });
    const after = await call(app, "GET", base, { key: a.key });
    expect(after.json.map((d: { id: string }) => d.id)).toEqual([theirs.json.dataset.id]);
  });
});

describe("OpenAPI", () => {
  it("documents every dataset route with an operationId", async () => {
    const doc = await call(app, "GET", "/api/v1/openapi.json");
    const paths = doc.json.paths as Record<string, Record<string, { operationId?: string }>>;
    const ops = Object.entries(paths)
      .filter(
        ([p]) => p.startsWith("/api/v1/datasets") || /^\/api\/v1\/projects\/\{project_id\}\/datasets/.test(p),
      )
      .flatMap(([, methods]) => Object.values(methods).map((m) => m.operationId));
    expect(ops.sort()).toEqual(
      [
        "browseDatasets",
        "createDatasetFromUrl",
        "deleteDataset",
        "downloadDataset",
        "getDataset",
        "getDatasetMeta",
        "getDatasetStorageQuota",
        "getDatasetTask",
        "getDatasetVersion",
        "linkProjectDataset",
        "listDatasetRows",
        "listDatasetVersions",
        "listProjectDatasets",
        "previewDataset",
        "scanDatasetVersionForPii",
        "setDatasetRoles",
        "setDatasetVersionSplits",
        "unlinkProjectDataset",
        "updateDataset",
        "uploadDataset",
      ].sort(),
    );
    expect(paths["/api/v1/datasets/"].post.operationId).toBe("uploadDataset");
  });
});
