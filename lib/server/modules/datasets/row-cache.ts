import { randomBytes } from "node:crypto";
import fs from "node:fs";
import fsp from "node:fs/promises";
import path from "node:path";
import { blobRoot } from "../../storage/blob-store";
import { lit, sourceSql, type TableSource, withDuckDb } from "./duckdb";

/**
 * Caches that make paging through a large version cheap at any depth (GET /datasets/{id}/rows).
 *
 * - Table files in text formats (CSV, TSV, JSON Lines) must be parsed from the start to reach row N:
 *   at 500 MB a page deep in the file costs seconds. The first page request for such a file (from
 *   DATASET_ROW_CACHE_MIN_BYTES, 8 MB by default) starts a background copy of it as Parquet, in file
 *   order, under `<blob root>/dataset-rows/<version id>.parquet`; once it exists pages are read from it
 *   (tens of milliseconds at any offset). Until then pages are read from the file itself. The copy is
 *   derived data: it is not counted in the storage quota and is removed with its dataset.
 * - Plain text: a line index (the byte offset of every 1024th line), kept in memory for a few files,
 *   so that a page starts reading close to its first line.
 */
export const ROW_CACHE_AREA = "dataset-rows";
const DEFAULT_MIN_BYTES = 8 * 1024 * 1024;

export function rowCacheMinBytes(env: NodeJS.ProcessEnv = process.env): number {
  const n = Number(env.DATASET_ROW_CACHE_MIN_BYTES);
  return Number.isSafeInteger(n) && n >= 0 && env.DATASET_ROW_CACHE_MIN_BYTES !== "" ? n : DEFAULT_MIN_BYTES;
}

const SAFE_ID = /^[A-Za-z0-9][A-Za-z0-9_-]{0,127}$/;

export function rowCachePath(versionId: string): string {
  if (!SAFE_ID.test(versionId)) throw new Error("Invalid version id for the row cache");
  return path.join(blobRoot(), ROW_CACHE_AREA, `${versionId}.parquet`);
}

interface CacheState {
  building: Map<string, Promise<void>>;
  /** Versions whose cache could not be built (read from the file instead; not retried). */
  failed: Set<string>;
}

const store = globalThis as unknown as { __datasetRowCache?: CacheState };
function state(): CacheState {
  store.__datasetRowCache ??= { building: new Map(), failed: new Set() };
  return store.__datasetRowCache;
}

async function buildRowCache(versionId: string, src: TableSource): Promise<void> {
  const target = rowCachePath(versionId);
  await fsp.mkdir(path.dirname(target), { recursive: true });
  const tmp = path.join(path.dirname(target), `.tmp-${randomBytes(6).toString("hex")}-${versionId}.parquet`);
  try {
    // Within DuckDB's usual memory limit: the copy streams (and spills beyond it).
    await withDuckDb(async (con) => {
      // Insertion order is DuckDB's default; set it anyway: row i of the copy must be row i of the file.
      await con.run("SET preserve_insertion_order = true");
      await con.run(
        `COPY (SELECT * FROM ${sourceSql(src)}) TO ${lit(tmp)} (FORMAT parquet, ROW_GROUP_SIZE 16384, COMPRESSION zstd)`,
      );
    });
    await fsp.rename(tmp, target);
  } catch (err) {
    await fsp.rm(tmp, { force: true });
    throw err;
  }
}

export interface RowCacheRequest {
  versionId: string;
  source: TableSource;
  sizeBytes: number;
}

/** True when pages of this file are worth a Parquet copy. */
export function wantsRowCache(req: RowCacheRequest): boolean {
  return req.source.format !== "parquet" && req.sizeBytes >= rowCacheMinBytes();
}

/**
 * The Parquet copy of a version when it is ready, else null (and, for a file that wants one, its build
 * starts in the background: the caller reads this page from the file itself).
 */
export function cachedRowFile(req: RowCacheRequest): string | null {
  if (!wantsRowCache(req)) return null;
  const file = rowCachePath(req.versionId);
  if (fs.existsSync(file)) return file;
  const s = state();
  if (!s.building.has(req.versionId) && !s.failed.has(req.versionId)) {
    const job = buildRowCache(req.versionId, req.source)
      .catch((err: unknown) => {
        s.failed.add(req.versionId);
        console.error(
          `dataset row cache for ${req.versionId} could not be built:`,
          err instanceof Error ? err.message.split("\n")[0] : err,
        );
      })
      .finally(() => s.building.delete(req.versionId));
    s.building.set(req.versionId, job);
  }
  return null;
}

/** Waits for a build in progress (tests, benchmarks). */
export async function rowCacheSettled(versionId: string): Promise<void> {
  await state().building.get(versionId);
}

/** Removes a version's cache, waiting for a build in progress first (so none is left behind). */
export async function dropRowCache(versionId: string): Promise<void> {
  const s = state();
  await s.building.get(versionId);
  s.failed.delete(versionId);
  lineIndexes.delete(versionId);
  if (!SAFE_ID.test(versionId)) return;
  await fsp.rm(rowCachePath(versionId), { force: true });
  await fsp.rm(imageTensorDir(versionId), { recursive: true, force: true });
}

/**
 * Image ZIPs: the decoded pictures training prepares (modules/training/materialize-images.ts), one
 * uint8 file per preprocessing under `<blob root>/image-tensors/<version id>/`. Derived data like the
 * Parquet copy: not counted in the storage quota, removed with the dataset (dropRowCache).
 */
export const IMAGE_TENSOR_AREA = "image-tensors";

export function imageTensorDir(versionId: string): string {
  if (!SAFE_ID.test(versionId)) throw new Error("Invalid version id for the image cache");
  return path.join(blobRoot(), IMAGE_TENSOR_AREA, versionId);
}

// ---------------------------------------------------------------------------------------------------
// Plain text: a sparse line index

export const LINE_STEP = 1024;
/** Text files below this size are read from the start: an index would not pay for itself. */
const LINE_INDEX_MIN_BYTES = 1024 * 1024;
const MAX_LINE_INDEXES = 16;

export interface LineIndex {
  /** starts[k]: the byte offset where line k × LINE_STEP begins. */
  starts: number[];
}

const lineIndexes = new Map<string, Promise<LineIndex>>();

async function buildLineIndex(file: string): Promise<LineIndex> {
  const starts = [0];
  let line = 0;
  let offset = 0;
  for await (const chunk of fs.createReadStream(file, { highWaterMark: 1024 * 1024 })) {
    const buf = chunk as Buffer;
    let at = buf.indexOf(10);
    while (at >= 0) {
      line += 1;
      if (line % LINE_STEP === 0) starts.push(offset + at + 1);
      at = buf.indexOf(10, at + 1);
    }
    offset += buf.length;
  }
  return { starts };
}

/**
 * Where to start reading to reach line `offset`: a byte offset where a line begins, and that line's
 * number. Small files start at the beginning.
 */
export async function lineStart(
  key: string,
  file: string,
  sizeBytes: number,
  offset: number,
): Promise<{ byte: number; line: number }> {
  if (sizeBytes < LINE_INDEX_MIN_BYTES || offset < LINE_STEP) return { byte: 0, line: 0 };
  let index = lineIndexes.get(key);
  if (index) {
    // Most recently used last.
    lineIndexes.delete(key);
    lineIndexes.set(key, index);
  } else {
    index = buildLineIndex(file);
    lineIndexes.set(key, index);
    index.catch(() => lineIndexes.delete(key));
    while (lineIndexes.size > MAX_LINE_INDEXES) {
      const oldest = lineIndexes.keys().next().value;
      if (oldest === undefined) break;
      lineIndexes.delete(oldest);
    }
  }
  const { starts } = await index;
  const k = Math.min(Math.floor(offset / LINE_STEP), starts.length - 1);
  return { byte: starts[k], line: k * LINE_STEP };
}
