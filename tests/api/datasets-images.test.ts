import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "@/lib/server/db/client";
import { datasetVersions } from "@/lib/server/db/schema";
import { decodeImage } from "@/lib/server/modules/datasets/image-decode";
import { listImageZip, readImageZip } from "@/lib/server/modules/datasets/image-zip";
import { buildImageZip, zipOf } from "../fixtures/image-zip";
import { call, signUpWithKey } from "../helpers";
import { datasetVersionFile, startDatasetTestApp, upload } from "./datasets-helpers";

const { app, blobDir } = await startDatasetTestApp("ds-images");

async function storedFile(versionId: string): Promise<string> {
  const db = await getDb();
  const [v] = await db.select().from(datasetVersions).where(eq(datasetVersions.id, versionId));
  return datasetVersionFile(v.blobKey);
}

describe("image ZIP layouts", () => {
  it("reads one folder per class, and the same inside one top folder", async () => {
    const { key } = await signUpWithKey(app);
    for (const layout of ["classes", "wrapped"] as const) {
      const { zip } = await buildImageZip({ classes: [0, 1, 2], perClass: 4, layout });
      const r = await upload(app, key, zip, `${layout}.zip`);
      expect(r.status).toBe(201);
      const images = r.json.version.profile.images;
      expect(images.layout).toBe(layout);
      expect(images.classes).toEqual([
        { name: "0", count: 4 },
        { name: "1", count: 4 },
        { name: "2", count: 4 },
      ]);
      expect(images.corrupt).toEqual([]);
      expect(images.splits).toBeUndefined();
      expect(r.json.version.splits).toBeNull();
      expect(r.json.dataset.row_count).toBe(12);
    }
  });

  for (const validationFolder of ["validation", "val"] as const) {
    it(`makes top-level train/, ${validationFolder}/ and test/ folders the version's explicit split`, async () => {
      const { key } = await signUpWithKey(app);
      const built = await buildImageZip({
        classes: [3, 8],
        layout: "splits",
        validationFolder,
        splitSizes: { train: 5, validation: 2, test: 3 },
      });
      const r = await upload(app, key, built.zip, "splits.zip");
      expect(r.status).toBe(201);
      const images = r.json.version.profile.images;
      expect(images.layout).toBe("splits");
      expect(images.splits).toEqual({ train: 10, validation: 4, test: 6 });
      // The classes are the folders inside the split folders, not the split folders.
      expect(images.classes).toEqual([
        { name: "3", count: 10 },
        { name: "8", count: 10 },
      ]);
      expect(r.json.version.splits).toMatchObject({ kind: "explicit", train: 10, validation: 4, test: 6 });
      const dsId = r.json.dataset.id;
      const version = await call(app, "GET", `/api/v1/datasets/${dsId}/versions/${r.json.version.id}`, {
        key,
      });
      expect(version.json.splits).toMatchObject({ kind: "explicit", train: 10, validation: 4, test: 6 });

      // The stored rows of each split are the images of its folder.
      const db = await getDb();
      const [row] = await db.select().from(datasetVersions).where(eq(datasetVersions.id, r.json.version.id));
      const listing = await listImageZip(await storedFile(r.json.version.id), images.corrupt);
      expect(listing.layout).toBe("splits");
      expect(listing.entries).toEqual(built.entries);
      for (const split of ["train", "validation", "test"] as const) {
        const rows = row.splits?.[split] ?? [];
        expect(rows.map((i) => listing.entries[i].split)).toEqual(rows.map(() => split));
        expect(rows.length).toBe(built.entries.filter((e) => e.split === split).length);
      }
      // The rows route pages the images in archive order.
      const page = await call(app, "GET", `/api/v1/datasets/${dsId}/rows?offset=10&limit=3`, { key });
      expect(page.status).toBe(200);
      expect(page.json.rows).toEqual(built.entries.slice(10, 13).map((e) => [e.path, e.label]));
    });
  }

  it("wrapped split folders are read as splits too", async () => {
    const { key } = await signUpWithKey(app);
    const built = await buildImageZip({ classes: [1, 7], perClass: 2, layout: "splits" });
    // Re-pack the same files inside one top folder.
    const files: [string, Buffer][] = [];
    for await (const { entry, bytes } of readImageZipFromBuffer(built.zip))
      files.push([`digits/${entry}`, bytes]);
    const r = await upload(app, key, await zipOf(files), "wrapped-splits.zip");
    expect(r.status).toBe(201);
    expect(r.json.version.profile.images.layout).toBe("splits");
    expect(r.json.version.splits).toMatchObject({ train: 4, validation: 4, test: 4 });
  });

  it("refuses a ZIP with only some images in split folders, naming the layouts", async () => {
    const { key } = await signUpWithKey(app);
    const { zip: splitZip } = await buildImageZip({ classes: [1], perClass: 1, layout: "splits" });
    const files: [string, Buffer][] = [];
    for await (const { entry, bytes } of readImageZipFromBuffer(splitZip)) files.push([entry, bytes]);
    files.push(["cats/extra.png", files[0][1]]);
    const r = await upload(app, key, await zipOf(files), "mixed-layout.zip");
    expect(r.status).toBe(422);
    expect(r.json.detail).toMatch(/train\/, validation\/ \(or val\/\) and test\//);
  });

  it("accepts mixed sizes, modes and formats, lists a corrupt file by name and skips it", async () => {
    const { key } = await signUpWithKey(app);
    const built = await buildImageZip({ classes: [4, 9], perClass: 6, mixed: true, corrupt: true });
    const r = await upload(app, key, built.zip, "mixed.zip");
    expect(r.status).toBe(201);
    const images = r.json.version.profile.images;
    expect(images.corrupt).toEqual(["4/corrupt.png"]);
    expect(images.skipped).toBe(1);
    expect(r.json.dataset.row_count).toBe(12);
    expect(images.classes).toEqual([
      { name: "4", count: 6 },
      { name: "9", count: 6 },
    ]);
    expect(images.formats.map((f: { format: string }) => f.format).sort()).toEqual([
      "gif",
      "jpeg",
      "png",
      "webp",
    ]);
    expect(images.channels.map((c: { channels: number }) => c.channels).sort()).toEqual([1, 3, 4]);
    expect(images.sizes.length).toBeGreaterThanOrEqual(5);
    expect(
      images.samples.every((s: { thumbnail?: string }) => s.thumbnail?.startsWith("data:image/png")),
    ).toBe(true);

    // The rows leave the corrupt file out; the reader streams exactly the readable images.
    const page = await call(app, "GET", `/api/v1/datasets/${r.json.dataset.id}/rows?limit=100`, { key });
    expect(page.json.rows.map((row: string[]) => row[0])).toEqual(built.entries.map((e) => e.path));
    const file = await storedFile(r.json.version.id);
    const listing = await listImageZip(file, images.corrupt);
    expect(listing.corrupt).toEqual(["4/corrupt.png"]);
    let n = 0;
    for await (const { entry, bytes } of readImageZip(file, undefined, images.corrupt)) {
      expect(entry).toEqual(built.entries[n]);
      const pixels = await decodeImage(bytes, { channels: 1, height: 28, width: 28, resize: "stretch" });
      expect(pixels.length).toBe(784);
      n += 1;
    }
    expect(n).toBe(12);
  });

  it("lists a damaged ZIP entry (its data does not match its CRC) as corrupt and skips it", async () => {
    const { key } = await signUpWithKey(app);
    const built = await buildImageZip({ classes: [2, 5], perClass: 3 });
    const zip = Buffer.from(built.zip);
    const target = built.entries[4].path;
    const yauzl = (await import("yauzl")).default;
    const file = await yauzl.fromBufferPromise(zip, { lazyEntries: true });
    for await (const entry of file.eachEntry()) {
      if (entry.fileName !== target) continue;
      const at = entry.relativeOffsetOfLocalHeader;
      const start = at + 30 + zip.readUInt16LE(at + 26) + zip.readUInt16LE(at + 28);
      zip[start + Math.floor(entry.compressedSize / 2)] ^= 0xff;
    }
    const r = await upload(app, key, zip, "damaged.zip");
    expect(r.status, r.text).toBe(201);
    expect(r.json.version.profile.images.corrupt).toEqual([target]);
    expect(r.json.dataset.row_count).toBe(5);
  });

  it("refuses a ZIP whose images are all unreadable", async () => {
    const { key } = await signUpWithKey(app);
    const r = await upload(
      app,
      key,
      await zipOf({ "a/1.png": "not a png", "b/2.jpg": Buffer.from([0xff, 0xd8, 0xff, 0, 1, 2]) }),
      "broken.zip",
    );
    expect(r.status).toBe(422);
    expect(r.json.detail).toMatch(/None of the images/);
    expect(JSON.stringify(r.json)).not.toContain(blobDir);
  });
});

/** The files of a ZIP held in memory, in archive order (entry = path). */
async function* readImageZipFromBuffer(zip: Buffer): AsyncGenerator<{ entry: string; bytes: Buffer }> {
  const yauzl = (await import("yauzl")).default;
  const file = await yauzl.fromBufferPromise(zip, { lazyEntries: true });
  for await (const entry of file.eachEntry()) {
    const chunks: Buffer[] = [];
    for await (const c of await file.openReadStreamPromise(entry)) chunks.push(c as Buffer);
    yield { entry: entry.fileName, bytes: Buffer.concat(chunks) };
  }
}
