import { type FileHandle, open } from "node:fs/promises";
import type { Readable } from "node:stream";
import { promisify } from "node:util";
import { crc32, inflateRaw, inflateRawSync } from "node:zlib";
import yauzl from "yauzl";

/**
 * Reading image ZIP datasets: which layouts are understood, and the images of an archive listed and
 * streamed one at a time from the stored file (the central directory is read, then each image is
 * inflated when asked for; the archive is never loaded whole).
 *
 * Layouts (`ImageZipLayout`):
 * - `classes`: one folder per class, `cats/1.png`, `dogs/2.jpg`;
 * - `wrapped`: the same inside one top folder, `pets/cats/1.png` (what zipping a folder gives);
 * - `splits`:  top-level `train/`, `validation/` (or `val/`) and `test/` folders, each holding class
 *   folders (`train/cats/1.png`, `val/dogs/7.png`), optionally inside one top folder too. The folders
 *   become the version's explicit split. Any of the three may be left out.
 * The class is the first folder below the split or wrapper folder; deeper folders are allowed.
 * Hidden files, `__MACOSX/` and files that are not images (by extension) are ignored.
 *
 * Rows: the readable images in archive order. Files that cannot be decoded are found when the
 * version is profiled, listed by name in its profile (`images.corrupt`) and skipped everywhere.
 */

export const IMAGE_EXTENSIONS = /\.(png|jpe?g|gif|webp|tiff?|avif)$/i;
export const MAX_IMAGES = 200_000;
export const MAX_IMAGE_BYTES = 50 * 1024 * 1024;
export const MAX_TOTAL_IMAGE_BYTES = 4 * 1024 * 1024 * 1024;

export class InvalidImageZipError extends Error {}

export type ImageZipLayout = "classes" | "wrapped" | "splits";
export type ImageSplit = "train" | "validation" | "test";

export interface ImageZipEntry {
  /** The path inside the archive. */
  path: string;
  label: string;
  /** The split folder the image is in (`splits` layout), else null. */
  split: ImageSplit | null;
}

export interface ImageZipListing {
  layout: ImageZipLayout;
  /** Readable images (all images minus `corrupt`), in archive order: row i is entries[i]. */
  entries: ImageZipEntry[];
  /** Images the profile found unreadable, skipped. */
  corrupt: string[];
}

const SPLIT_FOLDERS: Record<string, ImageSplit> = {
  train: "train",
  validation: "validation",
  val: "validation",
  test: "test",
};

function ignored(name: string): boolean {
  return name.endsWith("/") || name.startsWith("__MACOSX/") || name.split("/").some((p) => p.startsWith("."));
}

function splitOf(folder: string): ImageSplit | undefined {
  return Object.hasOwn(SPLIT_FOLDERS, folder.toLowerCase()) ? SPLIT_FOLDERS[folder.toLowerCase()] : undefined;
}

/** In split folders: every image is `<split>/<class>/…`. Null when none is; an error when only some are. */
function splitLayout(rels: string[][]): boolean {
  const inSplit = rels.filter((r) => r.length >= 3 && splitOf(r[0]) !== undefined).length;
  if (inSplit === 0) return false;
  if (inSplit < rels.length) {
    throw new InvalidImageZipError(
      "Put every image in train/, validation/ (or val/) and test/ folders holding class folders, or none of them.",
    );
  }
  return true;
}

/** Lists the images of an archive (by name) with their class and split; throws when the layout is not understood. */
export function classifyImageEntries(names: string[]): { layout: ImageZipLayout; entries: ImageZipEntry[] } {
  const images = names.filter((n) => !ignored(n) && IMAGE_EXTENSIONS.test(n));
  if (images.length === 0)
    throw new InvalidImageZipError("The ZIP contains no images (PNG, JPEG, GIF, WebP, TIFF or AVIF).");
  let rels = images.map((n) => n.split("/"));
  let layout: ImageZipLayout = "classes";
  let splits = splitLayout(rels);
  // One wrapping folder around the class (or split) folders is common (zipping the folder itself).
  if (!splits && new Set(rels.map((r) => r[0])).size === 1 && rels.every((r) => r.length >= 3)) {
    rels = rels.map((r) => r.slice(1));
    layout = "wrapped";
    splits = splitLayout(rels);
  }
  if (splits) layout = "splits";
  const entries = images.map((path, i) => {
    const rel = splits ? rels[i].slice(1) : rels[i];
    if (rel.length < 2)
      throw new InvalidImageZipError(
        "Images must be inside one folder per class (e.g. cats/1.png), or in train/, validation/ and test/ folders of class folders.",
      );
    return { path, label: rel[0], split: splits ? (splitOf(rels[i][0]) ?? null) : null };
  });
  return { layout, entries };
}

/** Opens an archive (only its central directory is read). */
export async function openZip(file: string): Promise<yauzl.ZipFile> {
  try {
    return await yauzl.openPromise(file, { lazyEntries: true, autoClose: false, strictFileNames: false });
  } catch {
    throw new InvalidImageZipError("The file is not a readable ZIP archive.");
  }
}

/** The image entries of an open archive by name, with the archive's limits checked. */
export async function imageEntriesOf(zip: yauzl.ZipFile): Promise<Map<string, yauzl.Entry>> {
  const byName = new Map<string, yauzl.Entry>();
  let seen = 0;
  for await (const entry of zip.eachEntry()) {
    seen += 1;
    if (seen > MAX_IMAGES * 2)
      throw new InvalidImageZipError(`The ZIP has more than ${MAX_IMAGES * 2} files.`);
    if (entry.isEncrypted()) throw new InvalidImageZipError("Encrypted ZIP archives are not supported.");
    if (ignored(entry.fileName) || !IMAGE_EXTENSIONS.test(entry.fileName)) continue;
    if (byName.size >= MAX_IMAGES)
      throw new InvalidImageZipError(`The ZIP has more than ${MAX_IMAGES} images.`);
    byName.set(entry.fileName, entry);
  }
  // Entry sizes are checked against what is really inflated (yauzl validates them): no ZIP bombs.
  let inflated = 0;
  for (const e of byName.values()) inflated += e.uncompressedSize;
  if (inflated > MAX_TOTAL_IMAGE_BYTES)
    throw new InvalidImageZipError("The images in the ZIP add up to more than 4 GB uncompressed.");
  return byName;
}

/** The bytes of one entry, refused past MAX_IMAGE_BYTES. */
export async function readEntry(zip: yauzl.ZipFile, entry: yauzl.Entry): Promise<Buffer> {
  if (entry.uncompressedSize > MAX_IMAGE_BYTES)
    throw new InvalidImageZipError("An image in the ZIP is larger than 50 MB.");
  const stream: Readable = await zip.openReadStreamPromise(entry);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream) {
    size += (chunk as Buffer).length;
    if (size > MAX_IMAGE_BYTES) {
      stream.destroy();
      throw new InvalidImageZipError("An image in the ZIP is larger than 50 MB.");
    }
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

export class DamagedEntryError extends InvalidImageZipError {}

const LOCAL_HEADER = 0x04034b50;
/** Entries compressed to more than this are inflated off the event loop. */
const SYNC_INFLATE_BYTES = 1024 * 1024;
const inflateRawAsync = promisify(inflateRaw);

/**
 * The bytes of one entry read straight from the archive file: one positioned read (local header
 * and data together) and one inflate, instead of yauzl's streams (about 4× faster on small pictures).
 * The inflated size must be the recorded one (no ZIP bombs) and its CRC-32 must match; a damaged
 * entry is a DamagedEntryError. Stored and deflated entries only (what ZIP tools write).
 */
export async function readEntryBytes(file: FileHandle, entry: yauzl.Entry): Promise<Buffer> {
  if (entry.uncompressedSize > MAX_IMAGE_BYTES || entry.compressedSize > MAX_IMAGE_BYTES)
    throw new InvalidImageZipError("An image in the ZIP is larger than 50 MB.");
  if (entry.compressionMethod !== 0 && entry.compressionMethod !== 8)
    throw new DamagedEntryError("An image in the ZIP uses an unsupported compression method.");
  const damaged = () => new DamagedEntryError("An image in the ZIP is damaged.");
  // The local header's name and extra field usually match the central directory's: read them with
  // the data in one go, and read the data again only when they do not.
  const guess = 30 + entry.fileNameLength + entry.extraFieldLength;
  const buf = Buffer.allocUnsafe(guess + entry.compressedSize);
  const { bytesRead } = await file.read(buf, 0, buf.length, entry.relativeOffsetOfLocalHeader);
  if (bytesRead < 30 || buf.readUInt32LE(0) !== LOCAL_HEADER) throw damaged();
  const start = 30 + buf.readUInt16LE(26) + buf.readUInt16LE(28);
  let data: Buffer;
  if (start + entry.compressedSize <= bytesRead) data = buf.subarray(start, start + entry.compressedSize);
  else {
    data = Buffer.allocUnsafe(entry.compressedSize);
    const again = await file.read(data, 0, data.length, entry.relativeOffsetOfLocalHeader + start);
    if (again.bytesRead !== data.length) throw damaged();
  }
  let out: Buffer;
  try {
    const limit = { maxOutputLength: Math.max(1, entry.uncompressedSize) };
    out =
      entry.compressionMethod === 0
        ? data
        : data.length <= SYNC_INFLATE_BYTES
          ? inflateRawSync(data, limit)
          : await inflateRawAsync(data, limit);
  } catch {
    throw damaged();
  }
  if (out.length !== entry.uncompressedSize || crc32(out) >>> 0 !== entry.crc32 >>> 0) throw damaged();
  return out;
}

/**
 * Lists the readable images of a stored image ZIP with their class and split (for training,
 * evaluation and the rows route). `corrupt` is the version profile's `images.corrupt`.
 */
export async function listImageZip(file: string, corrupt: readonly string[] = []): Promise<ImageZipListing> {
  const zip = await openZip(file);
  try {
    const { layout, entries } = classifyImageEntries([...(await imageEntriesOf(zip)).keys()]);
    const bad = new Set(corrupt);
    return { layout, entries: entries.filter((e) => !bad.has(e.path)), corrupt: [...corrupt] };
  } finally {
    zip.close();
  }
}

/**
 * Streams the images of a stored image ZIP, one at a time in archive order (the readable ones, or the
 * given `entries` of a listing, e.g. one split). Only one image is in memory at a time.
 */
export async function* readImageZip(
  file: string,
  entries?: readonly ImageZipEntry[],
  corrupt: readonly string[] = [],
): AsyncGenerator<{ entry: ImageZipEntry; bytes: Buffer }> {
  const zip = await openZip(file);
  const handle = await open(file, "r");
  try {
    const byName = await imageEntriesOf(zip);
    const wanted = entries ?? listedEntries(byName, corrupt);
    for (const entry of wanted) {
      const raw = byName.get(entry.path);
      if (!raw) throw new InvalidImageZipError("An image listed for the dataset is missing from its ZIP.");
      yield { entry, bytes: await readEntryBytes(handle, raw) };
    }
  } finally {
    zip.close();
    await handle.close();
  }
}

function listedEntries(byName: Map<string, yauzl.Entry>, corrupt: readonly string[]): ImageZipEntry[] {
  const bad = new Set(corrupt);
  return classifyImageEntries([...byName.keys()]).entries.filter((e) => !bad.has(e.path));
}
