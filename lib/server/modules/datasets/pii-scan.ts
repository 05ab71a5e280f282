import { setImmediate as nextTurn } from "node:timers/promises";
import yauzl from "yauzl";
import type { DatasetSchemaInfo, PiiFinding, PiiKind, PiiReport } from "../../db/schema/datasets";
import { ident, sourceSql, type TableFormat, withDuckDb } from "./duckdb";
import {
  type Detection,
  detectInCell,
  MAX_SCANNED_CELL_CHARS,
  maskValue,
  nameColumnKind,
} from "./pii-detectors";
import { readLines } from "./profile-text";

/**
 * Scans every cell of a dataset version for personal data in one streaming pass: table formats are
 * read by DuckDB chunk by chunk as text (CSV cells exactly as written), text corpora line by line,
 * image ZIPs by their file names. Per column and kind it counts the cells with a finding and keeps up
 * to three distinct masked examples.
 */
export interface ScanOptions {
  rowCount: number;
  signal?: AbortSignal;
  onProgress?: (fraction: number) => void;
}

const MAX_EXAMPLES = 3;

/**
 * The scan gives the event loop a turn after every this many characters of cells (a few
 * milliseconds of detection): in embedded mode it shares the server's thread with every request.
 */
export const YIELD_EVERY_CHARS = 256 * 1024;

/** Counts scanned characters; `due` says when to give the event loop a turn (`await nextTurn()`). */
export class Yielder {
  private since = 0;
  yields = 0;
  due(chars: number): boolean {
    this.since += Math.min(chars, MAX_SCANNED_CELL_CHARS);
    if (this.since < YIELD_EVERY_CHARS) return false;
    this.since = 0;
    this.yields += 1;
    return true;
  }
}

class FindingsCollector {
  private readonly counts = new Map<string, Map<PiiKind, number>>();
  private readonly examples = new Map<string, Set<string>>();
  rows = 0;
  cells = 0;

  add(column: string, found: Detection[]): void {
    const kinds = new Set<PiiKind>();
    for (const d of found) {
      kinds.add(d.kind);
      const key = `${column}\u0000${d.kind}`;
      const ex = this.examples.get(key) ?? new Set<string>();
      if (ex.size < MAX_EXAMPLES) ex.add(maskValue(d.kind, d.match));
      this.examples.set(key, ex);
    }
    const perColumn = this.counts.get(column) ?? new Map<PiiKind, number>();
    for (const k of kinds) perColumn.set(k, (perColumn.get(k) ?? 0) + 1);
    this.counts.set(column, perColumn);
  }

  report(): Omit<PiiReport, "task_id" | "scanned_at"> {
    const findings: PiiFinding[] = [];
    const columns: PiiReport["columns"] = {};
    for (const [column, kinds] of this.counts) {
      if (kinds.size === 0) continue;
      columns[column] = Object.fromEntries(kinds);
      for (const [kind, count] of kinds) {
        findings.push({
          column,
          kind,
          count,
          examples: [...(this.examples.get(`${column}\u0000${kind}`) ?? [])],
        });
      }
    }
    findings.sort((a, b) => b.count - a.count || a.column.localeCompare(b.column));
    return {
      rows_scanned: this.rows,
      cells_scanned: this.cells,
      has_pii: findings.length > 0,
      findings,
      columns,
    };
  }
}

function checkAborted(signal?: AbortSignal): void {
  if (signal?.aborted)
    throw signal.reason instanceof Error ? signal.reason : new Error("The scan was cancelled.");
}

async function scanTable(file: string, schema: DatasetSchemaInfo, opts: ScanOptions, out: FindingsCollector) {
  const names = schema.columns.map((c) => c.name);
  const nameKinds = names.map(nameColumnKind);
  const format = schema.format as TableFormat;
  const csv = format === "csv" || format === "tsv";
  const select = names.map((n) => (csv ? ident(n) : `CAST(${ident(n)} AS VARCHAR)`)).join(", ");
  await withDuckDb(async (con) => {
    const result = await con.stream(
      `SELECT ${select} FROM ${sourceSql({ format, file, dialect: schema.dialect, columns: schema.columns }, { allVarchar: csv })}`,
    );
    let lastReport = 0;
    const turn = new Yielder();
    for await (const rows of result.yieldRowsJs()) {
      checkAborted(opts.signal);
      for (const row of rows) {
        out.rows += 1;
        for (let i = 0; i < row.length; i++) {
          const v = row[i];
          if (v === null || v === undefined) continue;
          out.cells += 1;
          const cell = String(v);
          const found = detectInCell(cell, nameKinds[i]);
          if (found.length > 0) out.add(names[i], found);
          if (turn.due(cell.length)) await nextTurn();
        }
      }
      if (out.rows - lastReport >= 50_000) {
        lastReport = out.rows;
        opts.onProgress?.(opts.rowCount > 0 ? out.rows / opts.rowCount : 0);
      }
    }
  });
}

async function scanText(file: string, opts: ScanOptions, out: FindingsCollector) {
  const turn = new Yielder();
  for await (const line of readLines(file)) {
    out.rows += 1;
    if (line === "") continue;
    out.cells += 1;
    const found = detectInCell(line);
    if (found.length > 0) out.add("text", found);
    if (turn.due(line.length)) await nextTurn();
    if (out.rows % 50_000 === 0) {
      checkAborted(opts.signal);
      opts.onProgress?.(opts.rowCount > 0 ? out.rows / opts.rowCount : 0);
    }
  }
}

async function scanZipNames(file: string, opts: ScanOptions, out: FindingsCollector) {
  const zip = await yauzl.openPromise(file, { lazyEntries: true, autoClose: false, strictFileNames: false });
  try {
    for await (const entry of zip.eachEntry()) {
      checkAborted(opts.signal);
      if (entry.fileName.endsWith("/")) continue;
      out.rows += 1;
      out.cells += 1;
      const found = detectInCell(entry.fileName);
      if (found.length > 0) out.add("path", found);
    }
  } finally {
    zip.close();
  }
}

export async function scanFileForPii(
  file: string,
  schema: DatasetSchemaInfo,
  opts: ScanOptions,
): Promise<Omit<PiiReport, "task_id" | "scanned_at">> {
  const out = new FindingsCollector();
  if (schema.format === "text") await scanText(file, opts, out);
  else if (schema.format === "image_zip") await scanZipNames(file, opts, out);
  else await scanTable(file, schema, opts, out);
  opts.onProgress?.(1);
  return out.report();
}
