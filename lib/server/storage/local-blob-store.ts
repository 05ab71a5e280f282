import { createHash, randomBytes } from "node:crypto";
import { createReadStream, type Stats } from "node:fs";
import fsp from "node:fs/promises";
import path from "node:path";
import { Readable } from "node:stream";
import type { ReadableStream as NodeReadableStream } from "node:stream/web";
import {
  type BlobHead,
  type BlobRead,
  type BlobSource,
  type BlobStore,
  type ByteRange,
  type ListedBlob,
  type PutBlobOptions,
  resolveRange,
  type StoredBlob,
} from "./blob-driver";
import { assertBlobKey, assertBlobPrefix, InvalidBlobKeyError } from "./blob-keys";
import { HashingCounter } from "./blob-source";

/** Checksum records live in their own tree, so the area directories hold exactly the blobs. */
const CHECKSUMS = ".sha256";
const TEMP_PREFIX = ".tmp-";

/**
 * The checksum recorded for a file, valid only while the file is the one it was computed for (same
 * inode, size and modification time): a file replaced by any other means is hashed again.
 */
interface ChecksumRecord {
  sha256: string;
  size: number;
  ino: number;
  mtimeMs: number;
}

function sameFile(record: ChecksumRecord | null, st: Stats): record is ChecksumRecord {
  return record !== null && record.ino === st.ino && record.size === st.size && record.mtimeMs === st.mtimeMs;
}

function isMissing(err: unknown): boolean {
  const code = (err as NodeJS.ErrnoException).code;
  return code === "ENOENT" || code === "ENOTDIR";
}

function tempBeside(file: string): string {
  return path.join(
    path.dirname(file),
    `${TEMP_PREFIX}${path.basename(file)}-${randomBytes(6).toString("hex")}`,
  );
}

function webStream(stream: Readable): ReadableStream<Uint8Array> {
  return Readable.toWeb(stream) as NodeReadableStream<Uint8Array> as unknown as ReadableStream<Uint8Array>;
}

async function hashFile(file: string): Promise<string> {
  const hash = createHash("sha256");
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest("hex");
}

/**
 * Blobs as files under a root directory, the key's segments as directories: `datasets/dsv_…` is
 * `<root>/datasets/dsv_…`, the layout the server has always used. Writes go to a temporary file
 * beside the target and are renamed into place, so a reader never sees half a file.
 */
export class LocalBlobStore implements BlobStore {
  readonly driver = "local" as const;
  readonly root: string;

  constructor(root: string) {
    this.root = path.resolve(/* turbopackIgnore: true */ root);
  }

  /** The file of a key (keys are validated; the result is always inside the root). */
  fileOf(key: string): string {
    assertBlobKey(key);
    const file = path.join(this.root, ...key.split("/"));
    if (!file.startsWith(this.root + path.sep)) throw new InvalidBlobKeyError("key");
    return file;
  }

  private recordFileOf(key: string): string {
    return path.join(this.root, CHECKSUMS, ...key.split("/"));
  }

  private async readRecord(key: string): Promise<ChecksumRecord | null> {
    try {
      return JSON.parse(await fsp.readFile(this.recordFileOf(key), "utf8")) as ChecksumRecord;
    } catch {
      return null;
    }
  }

  private async writeRecord(key: string, record: ChecksumRecord): Promise<void> {
    const file = this.recordFileOf(key);
    await fsp.mkdir(path.dirname(file), { recursive: true });
    const temp = tempBeside(file);
    try {
      await fsp.writeFile(temp, JSON.stringify(record), { flag: "wx" });
      await fsp.rename(temp, file);
    } catch (err) {
      await fsp.rm(temp, { force: true });
      throw err;
    }
  }

  async put(key: string, source: BlobSource, opts: PutBlobOptions = {}): Promise<StoredBlob> {
    const target = this.fileOf(key);
    await fsp.mkdir(path.dirname(target), { recursive: true });
    const temp = tempBeside(target);
    const handle = await fsp.open(temp, "wx");
    const counter = new HashingCounter(opts.maxBytes);
    try {
      for await (const chunk of counter.pass(source)) await handle.write(chunk);
      const sha256 = counter.verified(opts.expectedSha256);
      await handle.sync();
      const st = await handle.stat();
      await handle.close();
      // The record names the temporary file's inode, which the rename keeps: written first, it is
      // never wrong (a crash in between leaves a record that matches no file).
      await this.writeRecord(key, { sha256, size: st.size, ino: st.ino, mtimeMs: st.mtimeMs });
      await fsp.rename(temp, target);
      return { key, size: counter.size, sha256 };
    } catch (err) {
      await handle.close().catch(() => {});
      await fsp.rm(temp, { force: true });
      throw err;
    }
  }

  async get(key: string, opts: { range?: ByteRange } = {}): Promise<BlobRead | null> {
    const file = this.fileOf(key);
    let handle: fsp.FileHandle;
    try {
      handle = await fsp.open(file, "r");
    } catch (err) {
      if (isMissing(err) || (err as NodeJS.ErrnoException).code === "EISDIR") return null;
      throw err;
    }
    // Stat and read through the same descriptor: a concurrent replace cannot mix two versions.
    try {
      const st = await handle.stat();
      if (!st.isFile()) {
        await handle.close();
        return null;
      }
      const { start, end } = resolveRange(opts.range, st.size);
      const record = await this.readRecord(key);
      const sha256 = sameFile(record, st) ? record.sha256 : null;
      if (end < start) {
        // An empty file: nothing to read.
        await handle.close();
        return { size: 0, start, end, sha256, stream: new ReadableStream({ start: (c) => c.close() }) };
      }
      const stream = webStream(handle.createReadStream({ start, end, autoClose: true }));
      return { size: st.size, start, end, sha256, stream };
    } catch (err) {
      await handle.close().catch(() => {});
      throw err;
    }
  }

  async head(key: string): Promise<BlobHead | null> {
    const file = this.fileOf(key);
    let st: Stats;
    try {
      st = await fsp.stat(file);
    } catch (err) {
      if (isMissing(err)) return null;
      throw err;
    }
    if (!st.isFile()) return null;
    return { key, size: st.size, sha256: await this.checksumOf(key, file, st), lastModified: st.mtime };
  }

  /** The recorded checksum, or (a file from before records, or replaced by hand) hashed and recorded. */
  private async checksumOf(key: string, file: string, st: Stats): Promise<string> {
    const record = await this.readRecord(key);
    if (sameFile(record, st)) return record.sha256;
    const sha256 = await hashFile(file);
    const after = await fsp.stat(file).catch(() => null);
    if (after && after.ino === st.ino && after.size === st.size && after.mtimeMs === st.mtimeMs)
      await this.writeRecord(key, { sha256, size: st.size, ino: st.ino, mtimeMs: st.mtimeMs });
    return sha256;
  }

  async delete(key: string): Promise<void> {
    const file = this.fileOf(key);
    await fsp.rm(file, { force: true });
    await fsp.rm(this.recordFileOf(key), { force: true });
  }

  async *list(prefix: string): AsyncIterable<ListedBlob> {
    assertBlobPrefix(prefix);
    const slash = prefix.lastIndexOf("/");
    yield* this.walk(slash >= 0 ? prefix.slice(0, slash) : "", prefix);
  }

  private async *walk(dir: string, prefix: string): AsyncIterable<ListedBlob> {
    let entries: import("node:fs").Dirent[];
    try {
      entries = await fsp.readdir(path.join(this.root, dir), { withFileTypes: true });
    } catch (err) {
      if (isMissing(err)) return;
      throw err;
    }
    for (const entry of entries) {
      if (entry.name.startsWith(".")) continue;
      const key = dir ? `${dir}/${entry.name}` : entry.name;
      if (entry.isDirectory()) {
        if (prefix.startsWith(`${key}/`) || `${key}/`.startsWith(prefix)) yield* this.walk(key, prefix);
      } else if (entry.isFile() && key.startsWith(prefix)) {
        const st = await fsp.stat(path.join(this.root, key)).catch(() => null);
        if (st) yield { key, size: st.size, lastModified: st.mtime };
      }
    }
  }

  async copy(from: string, to: string): Promise<boolean> {
    const source = this.fileOf(from);
    const target = this.fileOf(to);
    const before = await fsp.stat(source).catch((err) => {
      if (isMissing(err)) return null;
      throw err;
    });
    if (!before?.isFile()) return false;
    const record = await this.readRecord(from);
    await fsp.mkdir(path.dirname(target), { recursive: true });
    const temp = tempBeside(target);
    try {
      await fsp.copyFile(source, temp, fsp.constants.COPYFILE_EXCL);
      const after = await fsp.stat(source);
      // The source's record holds if the source did not change while it was copied; else hash the copy.
      const unchanged =
        after.ino === before.ino && after.mtimeMs === before.mtimeMs && after.size === before.size;
      const sha256 = unchanged && sameFile(record, before) ? record.sha256 : await hashFile(temp);
      const st = await fsp.stat(temp);
      await this.writeRecord(to, { sha256, size: st.size, ino: st.ino, mtimeMs: st.mtimeMs });
      await fsp.rename(temp, target);
      return true;
    } catch (err) {
      await fsp.rm(temp, { force: true });
      if (isMissing(err)) return false;
      throw err;
    }
  }

  /** No URLs on the local disk: callers stream the bytes through the API instead. */
  async presignGet(key: string): Promise<string | null> {
    assertBlobKey(key);
    return null;
  }

  async presignPut(key: string): Promise<string | null> {
    assertBlobKey(key);
    return null;
  }

  async sweepIncomplete(olderThan: Date): Promise<number> {
    return this.sweepDir(this.root, olderThan.getTime());
  }

  /** Temporary files left by interrupted writes, and checksum records of blobs that are gone. */
  private async sweepDir(dir: string, cutoffMs: number): Promise<number> {
    let entries: import("node:fs").Dirent[];
    try {
      entries = await fsp.readdir(dir, { withFileTypes: true });
    } catch (err) {
      if (isMissing(err)) return 0;
      throw err;
    }
    let removed = 0;
    const recordsRoot = path.join(this.root, CHECKSUMS);
    for (const entry of entries) {
      const file = path.join(dir, entry.name);
      if (entry.isDirectory()) {
        removed += await this.sweepDir(file, cutoffMs);
        continue;
      }
      const st = await fsp.stat(file).catch(() => null);
      if (!st || st.mtimeMs > cutoffMs) continue;
      const orphanRecord =
        file.startsWith(recordsRoot + path.sep) &&
        !entry.name.startsWith(TEMP_PREFIX) &&
        !(await fsp.stat(path.join(this.root, path.relative(recordsRoot, file))).catch(() => null));
      if (entry.name.startsWith(TEMP_PREFIX) || orphanRecord) {
        await fsp.rm(file, { force: true });
        removed += 1;
      }
    }
    return removed;
  }
}
