import { createHash, randomBytes } from "node:crypto";
import fsp from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { BlobSource, BlobStore, PutBlobOptions, StoredBlob } from "./blob-driver";
import { assertBlobKey } from "./blob-keys";
import { chunksOf } from "./blob-source";
import { writeCheckedFile } from "./checked-file";

/**
 * A bounded directory of checked local copies of stored objects, shared by every process of a
 * machine that points at it (BLOB_CACHE_DIR), for readers that need a path.
 *
 * Layout:
 * - `objects/<key>/@<sha256>`: the copy of the object stored under `<key>` whose bytes have that
 *   SHA-256. A copy is named by the object's identity, so an object replaced under the same key (by
 *   any server) is never served from an old copy: each hand-out asks the store for the object's
 *   SHA-256 (`head`) and fetches it again when no copy of those bytes exists.
 * - `leases/<pid>-<tag>-<host>-<n>~<name>`: a hard link to a copy per process using it; the path
 *   handed out to readers is this link, never the copy itself. Eviction only ever removes copies, so
 *   a reader's path stays valid (and its bytes on disk) until it is released, whatever other
 *   processes evict.
 *   A copy with more than one link is in use and not evicted (removing it would free nothing).
 *   Links of processes that died are removed by whichever process of the same host evicts next
 *   (those of another host name, such as another container sharing the directory, a day after
 *   their copy was last used).
 * - `tmp/.tmp-<pid>-<tag>-<host>-…`: fetches in progress, renamed into `objects/` once complete and checked.
 *
 * The bound (`maxBytes`) counts every distinct file under the directory. Before a fetch, copies not
 * in use are evicted, least recently used first (a hand-out touches the copy's modification time,
 * which every process sees), to make room; after it, and when a lease ends, down to the bound. An
 * object larger than the bound is still fetched and used, then evicted once released. Copies in use
 * can keep the directory above the bound while they are.
 *
 * Objects without a recorded SHA-256 (written around `put`, e.g. by a presigned PUT without a
 * declared checksum) are fetched again on every hand-out (their copy is named by the bytes' hash,
 * which the store cannot be asked for).
 */

const OBJECTS = "objects";
const LEASES = "leases";
const TEMP = "tmp";
const TEMP_PREFIX = ".tmp-";
const COPY_PREFIX = "@";
/** Distinguishes this process from an earlier one that had the same pid (a restarted container). */
const PROCESS_TAG = `${process.pid}-${randomBytes(4).toString("hex")}`;
/**
 * This machine (or container): a pid means something only on its own host, so a lease of another
 * host name (a container sharing the directory) is never judged by its pid, only swept once nothing
 * touched its copy for FOREIGN_LEASE_MS.
 */
const HOST_TAG = createHash("sha256").update(os.hostname()).digest("hex").slice(0, 8);
const FOREIGN_LEASE_MS = 24 * 3600_000;
/**
 * How long a path handed out without a lease (`file`) stays protected after its last hand-out, and
 * again as long as a descriptor of this process has it open.
 */
const DEFAULT_HOLD_MS = 10 * 60_000;

export interface BlobFileCacheOptions {
  /** Total bytes the directory may hold (copies in use excepted). */
  maxBytes: number;
  /**
   * How long `file()` keeps its path valid after the last hand-out (longer while this process has
   * the file open). Default 10 minutes.
   */
  holdMs?: number;
}

/** A local file with an object's bytes, valid until `release()` (idempotent). */
export interface BlobFileLease {
  readonly file: string;
  release(): Promise<void>;
}

export interface BlobFileCacheUsage {
  /** Bytes of every distinct file under the directory (copies, links of evicted copies, fetches). */
  bytes: number;
  copies: { key: string; sha256: string; size: number; inUse: boolean }[];
}

/** This process's link to one copy. */
interface Held {
  /** The copy's path under `objects/` (the map key). */
  copy: string;
  key: string;
  /** The lease link handed out. */
  file: string;
  /** Leases not yet released. */
  refs: number;
  /** `file()` hand-outs keep the link until then. */
  holdUntil: number;
  timer?: NodeJS.Timeout;
}

// Per process (a lease is this process's own), shared by every cache object on the same directory.
const heldCopies = new Map<string, Held>();
const pendingByKey = new Map<string, Promise<unknown>>();
let leaseCounter = 0;

function errno(err: unknown): string | undefined {
  return (err as NodeJS.ErrnoException | undefined)?.code;
}

/**
 * Whether the process named in a lease or temporary file's name (`<pid>-<tag>-<host>-…`) is alive:
 * "dead" when it is gone from this host, "foreign" when it ran on another host name.
 */
function ownerOf(name: string): "alive" | "dead" | "foreign" {
  const match = /^(\d+)-([0-9a-f]+)-([0-9a-f]{8})-/.exec(name);
  if (!match) return "dead";
  if (match[3] !== HOST_TAG) return "foreign";
  const pid = Number(match[1]);
  if (pid === process.pid) return `${match[1]}-${match[2]}` === PROCESS_TAG ? "alive" : "dead";
  try {
    process.kill(pid, 0);
    return "alive";
  } catch (err) {
    return errno(err) === "EPERM" ? "alive" : "dead";
  }
}

/** Whether a descriptor of this process has `file` open (Linux: /proc/self/fd; elsewhere false). */
async function openInThisProcess(file: string): Promise<boolean> {
  const fds = await fsp.readdir("/proc/self/fd").catch(() => [] as string[]);
  for (const fd of fds) {
    const target = await fsp.readlink(`/proc/self/fd/${fd}`).catch(() => "");
    if (target === file) return true;
  }
  return false;
}

export class BlobFileCache {
  readonly dir: string;
  readonly maxBytes: number;
  private readonly holdMs: number;
  private evicting: Promise<void> = Promise.resolve();

  constructor(dir: string, opts: BlobFileCacheOptions) {
    this.dir = path.resolve(/* turbopackIgnore: true */ dir);
    if (!Number.isSafeInteger(opts.maxBytes) || opts.maxBytes < 0)
      throw new Error("The blob cache's bound must be a whole number of bytes.");
    this.maxBytes = opts.maxBytes;
    this.holdMs = opts.holdMs ?? DEFAULT_HOLD_MS;
  }

  /** A lease on a checked local copy of the object under `key`; null when there is no such object. */
  async lease(store: BlobStore, key: string): Promise<BlobFileLease | null> {
    const held = await this.acquire(store, key, "lease");
    if (!held) return null;
    let released = false;
    return {
      file: held.file,
      release: async () => {
        if (released) return;
        released = true;
        held.refs -= 1;
        await this.settle(held);
      },
    };
  }

  /**
   * A checked local copy's path for callers that cannot say when they are done: it stays valid for
   * `holdMs` after the last hand-out of that copy in this process (prefer `lease`).
   */
  async file(store: BlobStore, key: string): Promise<string | null> {
    return (await this.acquire(store, key, "hold"))?.file ?? null;
  }

  /** `store.put`, keeping a copy of what was written (held as `file()` hands out). */
  async put(
    store: BlobStore,
    key: string,
    source: BlobSource,
    opts: PutBlobOptions = {},
  ): Promise<StoredBlob & { file: string }> {
    assertBlobKey(key);
    const temp = await this.tempFile();
    const out = await fsp.open(temp, "wx");
    async function* tee(): AsyncIterable<Uint8Array> {
      for await (const chunk of chunksOf(source)) {
        await out.write(chunk);
        yield chunk;
      }
    }
    let stored: StoredBlob;
    try {
      stored = await store.put(key, tee(), opts);
      await out.close();
    } catch (err) {
      await out.close().catch(() => {});
      await fsp.rm(temp, { force: true });
      throw err;
    }
    const held = await this.serialized(key, () => this.adopt(temp, key, stored.sha256, "hold"));
    await this.trim();
    return { ...stored, file: held.file };
  }

  /**
   * Removes the copies of `key` (after the object was deleted) and this process's links to them,
   * except those of leases still held (removed when released).
   */
  forget(key: string): Promise<void> {
    assertBlobKey(key);
    return this.serialized(key, () => this.forgetNow(key));
  }

  private async forgetNow(key: string): Promise<void> {
    const keyDir = this.keyDir(key);
    for (const held of [...heldCopies.values()]) {
      if (held.key !== key || path.dirname(held.copy) !== keyDir || held.refs > 0) continue;
      this.drop(held);
      await fsp.rm(held.file, { force: true });
    }
    const names = await fsp.readdir(keyDir).catch(() => [] as string[]);
    for (const name of names)
      if (name.startsWith(COPY_PREFIX))
        await fsp.rm(path.join(/* turbopackIgnore: true */ keyDir, name), { force: true });
    await this.removeEmptyDirs(keyDir);
  }

  /** Evicts copies not in use, least recently used first, until the directory holds `maxBytes`. */
  trim(): Promise<void> {
    return this.evictTo(this.maxBytes);
  }

  /** What the directory holds now (every process's files). */
  async usage(): Promise<BlobFileCacheUsage> {
    const scan = await this.scan();
    return {
      bytes: scan.bytes,
      copies: scan.copies.map((c) => ({
        key: path
          .relative(path.join(/* turbopackIgnore: true */ this.dir, OBJECTS), path.dirname(c.file))
          .split(path.sep)
          .join("/"),
        sha256: path.basename(c.file).slice(COPY_PREFIX.length),
        size: c.size,
        inUse: c.nlink > 1,
      })),
    };
  }

  // --- hand-outs ---

  private keyDir(key: string): string {
    return path.join(/* turbopackIgnore: true */ this.dir, OBJECTS, ...key.split("/"));
  }

  private copyOf(key: string, sha256: string): string {
    return path.join(/* turbopackIgnore: true */ this.keyDir(key), `${COPY_PREFIX}${sha256}`);
  }

  private async tempFile(): Promise<string> {
    const dir = path.join(/* turbopackIgnore: true */ this.dir, TEMP);
    await fsp.mkdir(dir, { recursive: true });
    return path.join(
      /* turbopackIgnore: true */ dir,
      `${TEMP_PREFIX}${PROCESS_TAG}-${HOST_TAG}-${randomBytes(6).toString("hex")}`,
    );
  }

  private async leaseFile(key: string): Promise<string> {
    const dir = path.join(/* turbopackIgnore: true */ this.dir, LEASES);
    await fsp.mkdir(dir, { recursive: true });
    leaseCounter += 1;
    const name = key.split("/").pop() as string;
    return path.join(/* turbopackIgnore: true */ dir, `${PROCESS_TAG}-${HOST_TAG}-${leaseCounter}~${name}`);
  }

  /** One hand-out of a key at a time in this process (concurrent ones share the first's copy). */
  private async serialized<T>(key: string, run: () => Promise<T>): Promise<T> {
    const id = `${this.dir}\0${key}`;
    for (let running = pendingByKey.get(id); running; running = pendingByKey.get(id))
      await running.catch(() => {});
    const promise = run();
    pendingByKey.set(id, promise);
    try {
      return await promise;
    } finally {
      if (pendingByKey.get(id) === promise) pendingByKey.delete(id);
    }
  }

  private acquire(store: BlobStore, key: string, mode: "lease" | "hold"): Promise<Held | null> {
    assertBlobKey(key);
    return this.serialized(key, async () => {
      const head = await store.head(key);
      if (!head) return null;
      if (head.sha256) {
        const held = await this.attach(this.copyOf(key, head.sha256), key, mode);
        if (held) return held;
      }
      return this.fetch(store, key, mode);
    });
  }

  private use(held: Held, mode: "lease" | "hold"): void {
    if (mode === "lease") {
      held.refs += 1;
      return;
    }
    held.holdUntil = Date.now() + this.holdMs;
    clearTimeout(held.timer);
    held.timer = setTimeout(() => void this.settle(held), this.holdMs + 50);
    held.timer.unref();
  }

  /** This process's link to an existing copy (made if needed), or null when there is no copy. */
  private async attach(copy: string, key: string, mode: "lease" | "hold"): Promise<Held | null> {
    let held = heldCopies.get(copy);
    if (!held) {
      const file = await this.leaseFile(key);
      try {
        await fsp.link(copy, file);
      } catch (err) {
        if (errno(err) === "ENOENT") return null;
        throw err;
      }
      held = heldCopies.get(copy);
      if (held) await fsp.rm(file, { force: true });
      else {
        held = { copy, key, file, refs: 0, holdUntil: 0 };
        heldCopies.set(copy, held);
      }
    }
    this.use(held, mode);
    // Recently used, for every process's eviction (the link shares the copy's inode).
    const now = new Date();
    await fsp.utimes(held.file, now, now).catch(() => {});
    return held;
  }

  private async fetch(store: BlobStore, key: string, mode: "lease" | "hold"): Promise<Held | null> {
    const read = await store.get(key);
    if (!read) return null;
    let temp: string | undefined;
    let sha256: string;
    try {
      await this.evictTo(Math.max(0, this.maxBytes - read.size));
      temp = await this.tempFile();
      sha256 = await writeCheckedFile(read, temp, { exclusive: true });
    } catch (err) {
      await read.stream.cancel().catch(() => {});
      if (temp) await fsp.rm(temp, { force: true });
      throw err;
    }
    const held = await this.adopt(temp, key, sha256, mode);
    await this.trim();
    return held;
  }

  /** Moves a complete, checked temporary file into place as the copy of `key` with these bytes. */
  private async adopt(temp: string, key: string, sha256: string, mode: "lease" | "hold"): Promise<Held> {
    const copy = this.copyOf(key, sha256);
    const file = await this.leaseFile(key);
    try {
      // Linked before it is visible: a copy appears already in use, so no eviction can take it.
      await fsp.link(temp, file);
      for (let attempt = 0; ; attempt += 1) {
        await fsp.mkdir(path.dirname(copy), { recursive: true });
        try {
          await fsp.rename(temp, copy);
          break;
        } catch (err) {
          // Another process's eviction removed the directory just made empty: make it again.
          if (errno(err) !== "ENOENT" || attempt >= 5) throw err;
        }
      }
    } catch (err) {
      await fsp.rm(temp, { force: true });
      await fsp.rm(file, { force: true });
      throw err;
    }
    let held = heldCopies.get(copy);
    if (held) {
      // This process already links these bytes (an object without a recorded SHA-256, fetched again).
      await fsp.rm(file, { force: true });
    } else {
      held = { copy, key, file, refs: 0, holdUntil: 0 };
      heldCopies.set(copy, held);
    }
    this.use(held, mode);
    return held;
  }

  /** Ends this process's link to a copy once no lease or hold needs it, then trims the directory. */
  private async settle(held: Held): Promise<void> {
    if (held.refs > 0 || Date.now() < held.holdUntil) return;
    if (heldCopies.get(held.copy) !== held) return;
    if (held.holdUntil > 0 && (await openInThisProcess(held.file))) {
      // A hold that ran out while a reader still has the file open: kept for another hold.
      if (held.refs === 0 && heldCopies.get(held.copy) === held) this.use(held, "hold");
      return;
    }
    if (held.refs > 0 || Date.now() < held.holdUntil || heldCopies.get(held.copy) !== held) return;
    this.drop(held);
    try {
      await fsp.rm(held.file, { force: true });
      await this.trim();
    } catch {
      // A failed clean-up is retried by the next eviction (it is never an error for the reader).
    }
  }

  private drop(held: Held): void {
    clearTimeout(held.timer);
    if (heldCopies.get(held.copy) === held) heldCopies.delete(held.copy);
  }

  // --- eviction ---

  private async scan(): Promise<{
    bytes: number;
    copies: { file: string; size: number; mtimeMs: number; nlink: number; ino: number }[];
  }> {
    const inodes = new Map<number, number>();
    // Links and fetches of processes that are gone: removed (they would pin bytes for ever).
    for (const sub of [LEASES, TEMP]) {
      const dir = path.join(/* turbopackIgnore: true */ this.dir, sub);
      for (const name of await fsp.readdir(dir).catch(() => [] as string[])) {
        const file = path.join(/* turbopackIgnore: true */ dir, name);
        const owner = name.startsWith(TEMP_PREFIX) ? name.slice(TEMP_PREFIX.length) : name;
        const state = ownerOf(owner);
        if (state === "dead") {
          await fsp.rm(file, { force: true });
          continue;
        }
        const st = await fsp.stat(file).catch(() => null);
        // The inode's change time moves with every hand-out of the copy, by any process.
        if (st && state === "foreign" && Date.now() - st.ctimeMs > FOREIGN_LEASE_MS) {
          await fsp.rm(file, { force: true });
          continue;
        }
        if (st?.isFile()) inodes.set(st.ino, st.size);
      }
    }
    const copies: { file: string; size: number; mtimeMs: number; nlink: number; ino: number }[] = [];
    const walk = async (dir: string): Promise<void> => {
      const entries = await fsp.readdir(dir, { withFileTypes: true }).catch(() => []);
      for (const entry of entries) {
        const file = path.join(/* turbopackIgnore: true */ dir, entry.name);
        if (entry.isDirectory()) await walk(file);
        else if (entry.name.startsWith(COPY_PREFIX)) {
          const st = await fsp.stat(file).catch(() => null);
          if (!st?.isFile()) continue;
          inodes.set(st.ino, st.size);
          copies.push({ file, size: st.size, mtimeMs: st.mtimeMs, nlink: st.nlink, ino: st.ino });
        }
      }
    };
    await walk(path.join(/* turbopackIgnore: true */ this.dir, OBJECTS));
    let bytes = 0;
    for (const size of inodes.values()) bytes += size;
    return { bytes, copies };
  }

  /** One eviction at a time in this process (others may run in other processes: harmless). */
  private evictTo(limit: number): Promise<void> {
    const next = this.evicting.then(() => this.evictNow(limit));
    this.evicting = next.catch(() => {});
    return next;
  }

  private async evictNow(limit: number): Promise<void> {
    const { bytes, copies } = await this.scan();
    let total = bytes;
    if (total <= limit) return;
    const idle = copies.filter((c) => c.nlink === 1).sort((a, b) => a.mtimeMs - b.mtimeMs);
    for (const copy of idle) {
      if (total <= limit) break;
      // Linked since the scan (by a process that is about to read it)? Its link keeps the bytes;
      // the next reader fetches again. Nothing to protect here.
      const st = await fsp.stat(copy.file).catch(() => null);
      if (!st || st.ino !== copy.ino || st.nlink > 1) continue;
      await fsp.rm(copy.file, { force: true });
      total -= copy.size;
      await this.removeEmptyDirs(path.dirname(copy.file));
    }
  }

  /** Removes `dir` and its parents up to `objects/` while they are empty. */
  private async removeEmptyDirs(dir: string): Promise<void> {
    const root = path.join(/* turbopackIgnore: true */ this.dir, OBJECTS);
    for (let d = dir; d.startsWith(root + path.sep); d = path.dirname(d)) {
      try {
        await fsp.rmdir(d);
      } catch {
        return;
      }
    }
  }
}
