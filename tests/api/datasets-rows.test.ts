import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { DuckDBInstance } from "@duckdb/node-api";
import { describe, expect, it } from "vitest";
import yazl from "yazl";
import { rowCachePath, rowCacheSettled } from "@/lib/server/modules/datasets/row-cache";
import { call, signUpWithKey } from "../helpers";
import { csv, startDatasetTestApp, upload, withEnv } from "./datasets-helpers";

const { app } = await startDatasetTestApp("ds-rows");

async function parquetOf(sql: string): Promise<Buffer> {
  const file = path.join(os.tmpdir(), `ds-rows-${process.pid}-${Date.now()}.parquet`);
  const instance = await DuckDBInstance.create(":memory:");
  const con = await instance.connect();
  await con.run(`COPY (${sql}) TO '${file}' (FORMAT parquet, ROW_GROUP_SIZE 2048)`);
  con.closeSync();
  instance.closeSync();
  const buf = fs.readFileSync(file);
  fs.rmSync(file);
  return buf;
}

async function zipOf(files: Record<string, Buffer | string>): Promise<Buffer> {
  const zip = new yazl.ZipFile();
  for (const [name, content] of Object.entries(files)) zip.addBuffer(Buffer.from(content), name);
  zip.end();
  const chunks: Buffer[] = [];
  for await (const chunk of zip.outputStream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** A 1×1 PNG. */
const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==",
  "base64",
);

function rows(key: string, id: string, query = "") {
  return call(app, "GET", `/api/v1/datasets/${id}/rows${query ? `?${query}` : ""}`, { key });
}

const NUMBERED = csv([
  ["id", "label", "value", "note"],
  ...Array.from({ length: 2500 }, (_, i) => [i, i % 4 === 0 ? "spam" : "ham", i * 0.5, `row ${i + 1}`]),
]);

describe("GET /datasets/{id}/rows", () => {
  it("pages through a CSV in file order at any offset", async () => {
    const { key } = await signUpWithKey(app);
    const ds = await upload(app, key, NUMBERED, "numbered.csv");
    expect(ds.status).toBe(201);
    const id = ds.json.dataset.id;

    const first = await rows(key, id);
    expect(first.status).toBe(200);
    expect(first.json).toMatchObject({
      dataset_id: id,
      version_id: ds.json.version.id,
      format: "csv",
      offset: 0,
      limit: 100,
      total: 2500,
      next_offset: 100,
    });
    expect(first.json.columns.map((c: { name: string }) => c.name)).toEqual(["id", "label", "value", "note"]);
    expect(first.json.rows).toHaveLength(100);
    expect(first.json.rows[0]).toEqual([0, "spam", 0, "row 1"]);
    expect(first.json.rows[99]).toEqual([99, "ham", 49.5, "row 100"]);

    // Every page, stitched together, is the whole file in order.
    const seen: number[] = [];
    for (let offset: number | null = 0; offset !== null; ) {
      const page = await rows(key, id, `offset=${offset}&limit=1000`);
      expect(page.status).toBe(200);
      seen.push(...page.json.rows.map((r: unknown[]) => r[0] as number));
      offset = page.json.next_offset;
    }
    expect(seen).toEqual(Array.from({ length: 2500 }, (_, i) => i));

    const deep = await rows(key, id, "offset=2498&limit=10");
    expect(deep.json.rows).toEqual([
      [2498, "ham", 1249, "row 2499"],
      [2499, "ham", 1249.5, "row 2500"],
    ]);
    expect(deep.json.next_offset).toBeNull();
  });

  it("answers an empty page beyond the last row", async () => {
    const { key } = await signUpWithKey(app);
    const id = (await upload(app, key, NUMBERED)).json.dataset.id;
    for (const offset of [2500, 2501, 1_000_000, Number.MAX_SAFE_INTEGER]) {
      const r = await rows(key, id, `offset=${offset}`);
      expect(r.status, String(offset)).toBe(200);
      expect(r.json).toMatchObject({ offset, total: 2500, next_offset: null, rows: [] });
    }
  });

  it("validates offset, limit and columns with 422", async () => {
    const { key } = await signUpWithKey(app);
    const id = (await upload(app, key, NUMBERED)).json.dataset.id;
    for (const [query, field] of [
      ["limit=0", "limit"],
      ["limit=1001", "limit"],
      ["limit=1001&columns=id,label", "limit"],
      ["limit=100001&columns=label", "limit"],
      ["limit=-5", "limit"],
      ["limit=ten", "limit"],
      ["limit=1.5", "limit"],
      ["offset=-1", "offset"],
      ["offset=abc", "offset"],
      ["offset=1e400", "offset"],
      ["columns=nope", "columns"],
      ["columns=id,nope,zilch", "columns"],
    ] as const) {
      const r = await rows(key, id, query);
      expect(r.status, query).toBe(422);
      expect(r.res.headers.get("content-type"), query).toContain("application/problem+json");
      expect(r.json.errors.map((e: { path: string }) => e.path).join(" "), query).toContain(field);
    }
    const unknown = await rows(key, id, "columns=id,nope");
    expect(unknown.json.detail).toContain("“nope”");
    // Exactly 1000 rows, and a single column may be paged in bigger steps.
    const max = await rows(key, id, "limit=1000");
    expect(max.status).toBe(200);
    expect(max.json.rows).toHaveLength(1000);
    const labels = await rows(key, id, "columns=label&limit=100000");
    expect(labels.status).toBe(200);
    expect(labels.json.rows).toHaveLength(2500);
    expect(labels.json.rows.slice(0, 5)).toEqual([["spam"], ["ham"], ["ham"], ["ham"], ["spam"]]);
  });

  it("selects columns in the order asked, repeated or comma-separated, without repeats", async () => {
    const { key } = await signUpWithKey(app);
    const id = (await upload(app, key, NUMBERED)).json.dataset.id;
    const a = await rows(key, id, "columns=note,id&limit=2&offset=10");
    expect(a.json.columns.map((c: { name: string }) => c.name)).toEqual(["note", "id"]);
    expect(a.json.rows).toEqual([
      ["row 11", 10],
      ["row 12", 11],
    ]);
    const b = await rows(key, id, "columns=note&columns=id&columns=note&limit=1");
    expect(b.json.rows).toEqual([["row 1", 0]]);
    expect(b.json.columns[0]).toEqual({ name: "note", type: "string", source_type: "VARCHAR" });

    // A column whose name has a comma is named exactly.
    const comma = await upload(app, key, '"a,b",c\n1,2\n3,4\n', "comma.csv");
    const c = await rows(key, comma.json.dataset.id, `columns=${encodeURIComponent("a,b")}`);
    expect(c.status).toBe(200);
    expect(c.json.rows).toEqual([[1], [3]]);
  });

  it("reads TSV, JSON Lines and Parquet, with typed cells", async () => {
    const { key } = await signUpWithKey(app);
    const tsv = await upload(app, key, "x\ty\n1\ta\n2\tb\n3\t\n", "t.tsv");
    const t = await rows(key, tsv.json.dataset.id, "offset=1");
    expect(t.json).toMatchObject({
      format: "tsv",
      total: 3,
      rows: [
        [2, "b"],
        [3, null],
      ],
    });

    const jsonl = await upload(
      app,
      key,
      '{"a": 1, "b": "x", "c": {"k": [1, 2]}}\n{"a": 2, "b": null, "c": null}\n{"a": 3, "b": "z", "c": {"k": []}}\n',
      "rows.jsonl",
    );
    const j = await rows(key, jsonl.json.dataset.id, "limit=2&offset=1");
    expect(j.json.format).toBe("jsonl");
    expect(j.json.rows).toEqual([
      [2, null, null],
      [3, "z", { k: [] }],
    ]);

    const parquet = await upload(
      app,
      key,
      await parquetOf(
        "SELECT range AS n, range * 1.5 AS f, DATE '2024-01-01' + CAST(range AS INTEGER) AS d, " +
          "(range % 2 = 0) AS even, CAST(range AS BIGINT) * 1000000000000 AS huge FROM range(10000)",
      ),
      "p.parquet",
    );
    expect(parquet.status).toBe(201);
    const p = await rows(key, parquet.json.dataset.id, "offset=9998&limit=5");
    expect(p.json).toMatchObject({ format: "parquet", total: 10000, next_offset: null });
    expect(p.json.rows).toEqual([
      [9998, 14997, "2051-05-17", true, "9998000000000000"],
      [9999, 14998.5, "2051-05-18", false, "9999000000000000"],
    ]);
    const mid = await rows(key, parquet.json.dataset.id, "offset=4095&limit=3&columns=n");
    expect(mid.json.rows).toEqual([[4095], [4096], [4097]]);
  });

  it("reads plain text one line per row, deep in a large file too", async () => {
    const { key } = await signUpWithKey(app);
    const small = await upload(app, key, "first\n\nthird line\nlast", "notes.txt");
    const s = await rows(key, small.json.dataset.id, "offset=1");
    expect(s.json).toMatchObject({ format: "text", total: 4, rows: [[""], ["third line"], ["last"]] });

    // Over 1 MB: pages start from the line index.
    const lines = Array.from({ length: 120_000 }, (_, i) => `line ${i} ${"é".repeat(i % 7)}`);
    const big = await upload(app, key, `${lines.join("\r\n")}\r\n`, "corpus.txt");
    expect(big.status).toBe(201);
    const id = big.json.dataset.id;
    for (const offset of [0, 1023, 1024, 1025, 65_536, 119_998]) {
      const r = await rows(key, id, `offset=${offset}&limit=3`);
      expect(r.json.rows, String(offset)).toEqual(lines.slice(offset, offset + 3).map((l) => [l]));
    }
    const end = await rows(key, id, "offset=120000");
    expect(end.json).toMatchObject({ total: 120_000, rows: [], next_offset: null });
  });

  it("lists a ZIP of images one image per row, with its class", async () => {
    const { key } = await signUpWithKey(app);
    const zip = await zipOf({
      "cats/a.png": PNG,
      "cats/b.png": PNG,
      "dogs/c.png": PNG,
      "dogs/readme.txt": "not an image",
    });
    const ds = await upload(app, key, zip, "pets.zip");
    expect(ds.status).toBe(201);
    const r = await rows(key, ds.json.dataset.id, "offset=1");
    expect(r.json).toMatchObject({
      format: "image_zip",
      total: 3,
      rows: [
        ["cats/b.png", "cats"],
        ["dogs/c.png", "dogs"],
      ],
    });
    const labels = await rows(key, ds.json.dataset.id, "columns=label");
    expect(labels.json.rows).toEqual([["cats"], ["cats"], ["dogs"]]);
  });

  it("reads built-ins and earlier versions; hides others' private datasets", async () => {
    const a = await signUpWithKey(app);
    const b = await signUpWithKey(app);
    const iris = await rows(a.key, "builtin-iris", "offset=149&limit=5");
    expect(iris.status).toBe(200);
    expect(iris.json).toMatchObject({ version_id: "builtin-iris-v1", total: 150, next_offset: null });
    expect(iris.json.rows).toHaveLength(1);
    expect(iris.json.rows[0].at(-1)).toBe("virginica");
    expect((await rows(a.key, "builtin-iris", "version_id=other")).status).toBe(404);

    const v1 = await upload(app, a.key, "n\n1\n2\n");
    const id = v1.json.dataset.id;
    await upload(app, a.key, "n\n10\n20\n30\n", "d.csv", { dataset_id: id });
    expect((await rows(a.key, id)).json.rows).toEqual([[10], [20], [30]]);
    const old = await rows(a.key, id, `version_id=${v1.json.version.id}`);
    expect(old.json).toMatchObject({ version_id: v1.json.version.id, total: 2, rows: [[1], [2]] });
    expect((await rows(a.key, id, "version_id=dsv_nope")).status).toBe(404);

    expect((await rows(b.key, id)).status).toBe(404);
    await call(app, "PUT", `/api/v1/datasets/${id}`, { key: a.key, body: { visibility: "public" } });
    expect((await rows(b.key, id)).status).toBe(200);
    expect((await call(app, "GET", `/api/v1/datasets/${id}/rows`)).status).toBe(401);
  });

  it("makes a Parquet copy of a large CSV on first use, reads the same rows from it, drops it on delete", async () => {
    const { key } = await signUpWithKey(app);
    const body = csv([
      ["id", "city", "when"],
      ...Array.from({ length: 60_000 }, (_, i) => [
        i,
        `"c ${i % 97}, x"`,
        `2024-02-${String((i % 28) + 1).padStart(2, "0")}`,
      ]),
    ]);
    await withEnv({ DATASET_ROW_CACHE_MIN_BYTES: "1000" }, async () => {
      const ds = await upload(app, key, body, "cities.csv");
      expect(ds.status).toBe(201);
      const id = ds.json.dataset.id;
      const vid = ds.json.version.id;
      const fromFile = await rows(key, id, "offset=45000&limit=1000");
      expect(fromFile.status).toBe(200);
      await rowCacheSettled(vid);
      expect(fs.existsSync(rowCachePath(vid))).toBe(true);
      const fromCache = await rows(key, id, "offset=45000&limit=1000");
      expect(fromCache.json).toEqual(fromFile.json);
      expect(fromCache.json.rows[0]).toEqual([45000, "c 89, x", "2024-02-05"]);
      const last = await rows(key, id, "offset=59999");
      expect(last.json.rows).toEqual([[59999, "c 53, x", "2024-02-24"]]);
      const labels = await rows(key, id, "columns=city&limit=100000");
      expect(labels.json.rows).toHaveLength(60_000);
      expect(labels.json.rows[12345]).toEqual([`c ${12345 % 97}, x`]);

      const del = await call(app, "DELETE", `/api/v1/datasets/${id}`, { key });
      expect(del.status).toBe(204);
      expect(fs.existsSync(rowCachePath(vid))).toBe(false);
    });
  });
});

describe("DuckDB memory", () => {
  it("retries an operation that runs out of memory with more, so wide files still profile", async () => {
    const { key } = await signUpWithKey(app);
    const header = Array.from({ length: 80 }, (_, i) => `c${i}`);
    const body = csv([
      header,
      ...Array.from({ length: 3000 }, (_, r) => header.map((_, c) => (r * 131 + c * 7) % 1000)),
    ]);
    await withEnv({ DATASET_DUCKDB_MEMORY: "4MB" }, async () => {
      const ds = await upload(app, key, body, "wide.csv");
      expect(ds.status).toBe(201);
      expect(ds.json.version.profile.columns).toHaveLength(80);
      expect(ds.json.version.profile.columns[5]).toMatchObject({ count: 3000, missing: 0 });
      const page = await rows(key, ds.json.dataset.id, "offset=2999&columns=c79");
      expect(page.json.rows).toEqual([[(2999 * 131 + 79 * 7) % 1000]]);
    });
  });
});
