import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { type DuckDBConnection, DuckDBInstance } from "@duckdb/node-api";
import type { CsvDialect, SchemaColumn } from "../../db/schema/datasets";

/**
 * DuckDB as the engine that reads dataset files (CSV/TSV, JSON Lines, Parquet): one short-lived
 * in-memory instance per operation, bounded in memory and threads, spilling to a temporary directory.
 * SQL is built only from our own paths and column names, always quoted with the helpers below.
 */
const TEMP_DIR = path.join(os.tmpdir(), "layerline-duckdb");
/**
 * DuckDB's memory per operation; beyond it, it spills to TEMP_DIR. Profiling a 500 MB CSV within this
 * limit is as fast as with 1 GB, and the upload's peak RSS stays about 110 MB above idle instead of over
 * 1 GB (bench/dataset-bench.ts). Should an operation still run out of memory (some aggregates cannot
 * spill), it is run once more with FALLBACK_MEMORY.
 */
const DEFAULT_MEMORY = "128MB";
const FALLBACK_MEMORY = "1GB";

export interface DuckDbOptions {
  /** Worker threads (default DATASET_DUCKDB_THREADS, else 2). */
  threads?: number;
  /** Memory limit, e.g. "256MB" (default DATASET_DUCKDB_MEMORY, else DEFAULT_MEMORY). */
  memoryLimit?: string;
}

/** True for DuckDB's out-of-memory error (also when re-thrown with its message, e.g. as a 422). */
export function isOutOfMemory(err: unknown): boolean {
  return err instanceof Error && /Out of Memory Error/i.test(err.message);
}

async function runDuckDb<T>(
  fn: (con: DuckDBConnection) => Promise<T>,
  threads: number,
  memoryLimit: string,
): Promise<T> {
  fs.mkdirSync(TEMP_DIR, { recursive: true });
  const instance = await DuckDBInstance.create(":memory:", {
    threads: String(threads),
    memory_limit: memoryLimit,
    temp_directory: TEMP_DIR,
    autoinstall_known_extensions: "false",
    autoload_known_extensions: "true",
  });
  const con = await instance.connect();
  try {
    return await fn(con);
  } finally {
    con.closeSync();
    instance.closeSync();
  }
}

/**
 * Runs `fn` on a fresh in-memory DuckDB. Without an explicit `memoryLimit`, an out-of-memory failure
 * is retried once with FALLBACK_MEMORY, so `fn` must be safe to run twice (every caller starts from
 * nothing: it reads files and builds its own tables).
 */
export async function withDuckDb<T>(
  fn: (con: DuckDBConnection) => Promise<T>,
  opts: DuckDbOptions = {},
): Promise<T> {
  const threads = opts.threads ?? Math.max(1, Number(process.env.DATASET_DUCKDB_THREADS) || 2);
  const limit = opts.memoryLimit ?? process.env.DATASET_DUCKDB_MEMORY ?? DEFAULT_MEMORY;
  try {
    return await runDuckDb(fn, threads, limit);
  } catch (err) {
    if (opts.memoryLimit !== undefined || limit === FALLBACK_MEMORY || !isOutOfMemory(err)) throw err;
    return runDuckDb(fn, threads, FALLBACK_MEMORY);
  }
}

/** A SQL string literal. */
export function lit(value: string): string {
  return `'${value.replaceAll("'", "''")}'`;
}

/** A quoted SQL identifier. */
export function ident(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

export type TableFormat = "csv" | "tsv" | "jsonl" | "json" | "parquet";

export interface TableSource {
  format: TableFormat;
  file: string;
  dialect?: CsvDialect;
  /**
   * The columns found when the version was profiled: later reads of a CSV use them (and the dialect)
   * instead of sniffing again, so they are instant and always agree with the stored schema.
   */
  columns?: SchemaColumn[];
}

/** The table function that reads a dataset file, e.g. `read_csv('/…', delim=',', header=true)`. */
export function sourceSql(src: TableSource, opts: { allVarchar?: boolean } = {}): string {
  const file = lit(src.file);
  switch (src.format) {
    case "csv":
    case "tsv": {
      const args = [file];
      const d = src.dialect;
      const pinned = d !== undefined && src.columns !== undefined && src.columns.length > 0;
      if (d) {
        args.push(`delim=${lit(d.delimiter)}`, `header=${d.has_header}`);
        if (d.quote) args.push(`quote=${lit(d.quote)}`);
        if (d.escape) args.push(`escape=${lit(d.escape)}`);
        if (d.skip_rows) args.push(`skip=${Math.trunc(d.skip_rows)}`);
        if (!pinned && d.full_sample) args.push("sample_size=-1");
      }
      if (pinned) {
        const cols = (src.columns ?? []).map(
          (c) => `${lit(c.name)}: ${lit(opts.allVarchar ? "VARCHAR" : c.source_type)}`,
        );
        args.push("auto_detect=false", `columns={${cols.join(", ")}}`);
      } else if (opts.allVarchar) {
        args.push("all_varchar=true");
      }
      return `read_csv(${args.join(", ")})`;
    }
    case "jsonl":
      return `read_json(${file}, format='newline_delimited')`;
    case "json":
      // One JSON array of records, as many public datasets are published.
      return `read_json(${file}, format='array')`;
    case "parquet":
      return `read_parquet(${file})`;
  }
}

/** Turns a value read with DuckDB's JS conversion into plain JSON (bigints, dates, bytes, nested values). */
export function toJsonValue(value: unknown): unknown {
  if (value === null || value === undefined) return null;
  if (typeof value === "bigint")
    return Number.isSafeInteger(Number(value)) ? Number(value) : value.toString();
  if (typeof value === "number") return Number.isFinite(value) ? value : String(value);
  if (typeof value === "string" || typeof value === "boolean") return value;
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : value.toISOString();
  if (value instanceof Uint8Array) return Buffer.from(value).toString("base64");
  if (Array.isArray(value)) return value.map(toJsonValue);
  if (value instanceof Map)
    return Object.fromEntries([...value].map(([k, v]) => [String(k), toJsonValue(v)]));
  if (typeof value === "object") {
    return Object.fromEntries(
      Object.entries(value as Record<string, unknown>).map(([k, v]) => [k, toJsonValue(v)]),
    );
  }
  return String(value);
}

/**
 * One cell for the rows route, from DuckDB's JS value and its JSON form: numbers, booleans and strings
 * as they are (64-bit integers as numbers when exact, else strings), everything else (dates, times,
 * decimals beyond doubles, intervals, bytes, nested values) in DuckDB's JSON form, e.g. "2024-01-02".
 */
export function cellValue(js: unknown, json: unknown): unknown {
  if (js === null || js === undefined) return null;
  if (typeof js === "number") return Number.isFinite(js) ? js : String(js);
  if (typeof js === "bigint") return Number.isSafeInteger(Number(js)) ? Number(js) : js.toString();
  if (typeof js === "string" || typeof js === "boolean") return js;
  return json ?? null;
}

/** DuckDB's message without SQL, file paths or caret lines, for job errors and problem details. */
export function safeEngineMessage(err: unknown): string {
  const first = (err instanceof Error ? err.message : String(err)).split("\n")[0];
  return first
    .replace(/(['"])(?:\/|[A-Za-z]:\\)[^'"]*\1/g, "the file")
    .replace(/\/[\w./-]+/g, "the file")
    .slice(0, 300);
}
