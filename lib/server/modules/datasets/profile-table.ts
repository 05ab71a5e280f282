import type { DuckDBConnection } from "@duckdb/node-api";
import type {
  ColumnProfile,
  ColumnType,
  CsvDialect,
  DatasetProfile,
  HistogramBin,
  SchemaColumn,
} from "../../db/schema/datasets";
import { ident, lit, safeEngineMessage, sourceSql, type TableSource, withDuckDb } from "./duckdb";

/**
 * Profiles a table-shaped file (CSV/TSV, JSON Lines, Parquet) with DuckDB: the file is loaded once
 * into a DuckDB table, then a few column-wise queries compute per column the inferred type, counts,
 * missing and distinct values, min/max/mean/std and a 20-bin histogram for numbers, and the 10 most
 * frequent values for strings, booleans and dates.
 */
export const HISTOGRAM_BINS = 20;
export const TOP_VALUES = 10;

export class UnreadableFileError extends Error {}

export function columnTypeOf(sourceType: string): ColumnType {
  const t = sourceType.toUpperCase();
  if (/^(U?TINYINT|U?SMALLINT|U?INTEGER|U?BIGINT|U?HUGEINT)$/.test(t)) return "integer";
  if (/^(FLOAT|REAL|DOUBLE|DECIMAL.*)$/.test(t)) return "float";
  if (t === "BOOLEAN") return "boolean";
  if (t === "VARCHAR") return "string";
  if (t === "DATE") return "date";
  if (/^(TIMESTAMP.*|TIME.*)$/.test(t)) return "datetime";
  return "other";
}

const isNumeric = (t: ColumnType) => t === "integer" || t === "float";

function num(v: unknown): number | null {
  if (v === null || v === undefined) return null;
  const n = typeof v === "bigint" ? Number(v) : Number(v);
  return Number.isFinite(n) ? n : null;
}

/** Reads the CSV dialect DuckDB's sniffer detects (delimiter, quote, escape, header). */
export async function sniffCsv(
  con: DuckDBConnection,
  file: string,
): Promise<{ dialect: CsvDialect; columns: number }> {
  const reader = await con.runAndReadAll(`SELECT * FROM sniff_csv(${lit(file)})`);
  const row = reader.getRowObjectsJson()[0] as Record<string, unknown>;
  const opt = (v: unknown) => (typeof v === "string" && v !== "(empty)" ? v : null);
  const delimiter = opt(row.Delimiter) ?? ",";
  const skip = Number(row.SkipRows ?? 0);
  return {
    dialect: {
      delimiter,
      quote: opt(row.Quote),
      escape: opt(row.Escape),
      has_header: row.HasHeader === true,
      ...(skip > 0 ? { skip_rows: skip } : {}),
    },
    columns: Array.isArray(row.Columns) ? row.Columns.length : 0,
  };
}

async function loadTable(con: DuckDBConnection, src: TableSource): Promise<TableSource> {
  try {
    await con.run(`CREATE TABLE t AS SELECT * FROM ${sourceSql(src)}`);
    return src;
  } catch (err) {
    // Types guessed from a sample can be contradicted later in a CSV: detect them from every row instead.
    if ((src.format === "csv" || src.format === "tsv") && src.dialect && !src.dialect.full_sample) {
      const full: TableSource = { ...src, dialect: { ...src.dialect, full_sample: true } };
      try {
        await con.run(`CREATE OR REPLACE TABLE t AS SELECT * FROM ${sourceSql(full)}`);
        return full;
      } catch (err2) {
        throw new UnreadableFileError(safeEngineMessage(err2));
      }
    }
    throw new UnreadableFileError(safeEngineMessage(err));
  }
}

export interface TableProfileResult {
  source: TableSource;
  columns: SchemaColumn[];
  profile: DatasetProfile;
}

export async function profileTable(src: TableSource): Promise<TableProfileResult> {
  const started = performance.now();
  return withDuckDb(async (con) => {
    const used = await loadTable(con, src);
    const described = (await con.runAndReadAll("DESCRIBE t")).getRowObjectsJson() as {
      column_name: string;
      column_type: string;
    }[];
    const columns: SchemaColumn[] = described.map((d) => ({
      name: d.column_name,
      type: columnTypeOf(d.column_type),
      source_type: d.column_type,
    }));
    if (columns.length === 0) throw new UnreadableFileError("The file has no columns.");

    const rowCount =
      num((await con.runAndReadAll("SELECT count(*) AS n FROM t")).getRowObjectsJS()[0].n) ?? 0;
    const stats = await basicStats(con, columns);
    const histograms = await numericHistograms(con, columns, stats);
    const tops = await topValues(con, columns);

    const profiles: ColumnProfile[] = columns.map((c, i) => {
      const s = stats[i];
      const p: ColumnProfile = {
        name: c.name,
        type: c.type,
        count: s.count,
        missing: rowCount - s.count,
        distinct: s.distinct,
      };
      if (isNumeric(c.type)) {
        Object.assign(p, {
          min: s.min,
          max: s.max,
          mean: s.mean,
          std: s.std,
          histogram: histograms.get(i) ?? [],
        });
      } else if (c.type !== "other") {
        Object.assign(p, { min: s.min, max: s.max, top_values: tops.get(i) ?? [] });
      }
      return p;
    });
    return {
      source: used,
      columns,
      profile: {
        row_count: rowCount,
        columns: profiles,
        duration_ms: Math.round(performance.now() - started),
      },
    };
  });
}

interface BasicStats {
  count: number;
  distinct: number;
  min: number | string | null;
  max: number | string | null;
  mean: number | null;
  std: number | null;
}

/**
 * Columns per statistics query: exact distinct counts keep a hash table per column, so wide tables are
 * measured a few columns at a time (each query a scan of the loaded table) to stay within DuckDB's
 * memory limit.
 */
const STATS_BATCH = 8;

async function basicStats(con: DuckDBConnection, columns: SchemaColumn[]): Promise<BasicStats[]> {
  const row: Record<string, unknown> = {};
  for (let from = 0; from < columns.length; from += STATS_BATCH) {
    Object.assign(row, await basicStatsRow(con, columns, from, Math.min(columns.length, from + STATS_BATCH)));
  }
  return columns.map((c, i) => {
    const numeric = isNumeric(c.type);
    const text = (v: unknown) => (v === null || v === undefined ? null : String(v));
    return {
      count: num(row[`n${i}`]) ?? 0,
      distinct: num(row[`d${i}`]) ?? 0,
      min: numeric ? num(row[`lo${i}`]) : text(row[`lo${i}`]),
      max: numeric ? num(row[`hi${i}`]) : text(row[`hi${i}`]),
      mean: numeric ? num(row[`mean${i}`]) : null,
      std: numeric ? num(row[`std${i}`]) : null,
    };
  });
}

/** The statistics of columns [from, to), as one row with the column's index in every alias. */
async function basicStatsRow(
  con: DuckDBConnection,
  columns: SchemaColumn[],
  from: number,
  to: number,
): Promise<Record<string, unknown>> {
  const exprs: string[] = [];
  columns.slice(from, to).forEach((c, k) => {
    const i = from + k;
    const col = ident(c.name);
    exprs.push(`count(${col}) AS n${i}`);
    if (c.type === "other") {
      exprs.push(`count(DISTINCT CAST(${col} AS VARCHAR)) AS d${i}`);
    } else {
      exprs.push(`count(DISTINCT ${col}) AS d${i}`);
    }
    if (isNumeric(c.type)) {
      exprs.push(
        `CAST(min(${col}) AS DOUBLE) AS lo${i}`,
        `CAST(max(${col}) AS DOUBLE) AS hi${i}`,
        `avg(CAST(${col} AS DOUBLE)) AS mean${i}`,
        `stddev_samp(CAST(${col} AS DOUBLE)) AS std${i}`,
      );
    } else if (c.type !== "other") {
      exprs.push(`CAST(min(${col}) AS VARCHAR) AS lo${i}`, `CAST(max(${col}) AS VARCHAR) AS hi${i}`);
    }
  });
  return (await con.runAndReadAll(`SELECT ${exprs.join(", ")} FROM t`)).getRowObjectsJS()[0];
}

async function numericHistograms(
  con: DuckDBConnection,
  columns: SchemaColumn[],
  stats: BasicStats[],
): Promise<Map<number, HistogramBin[]>> {
  const out = new Map<number, HistogramBin[]>();
  const exprs: string[] = [];
  const ranges = new Map<number, { lo: number; width: number }>();
  columns.forEach((c, i) => {
    const s = stats[i];
    if (!isNumeric(c.type) || typeof s.min !== "number" || typeof s.max !== "number" || s.count === 0) return;
    if (s.min === s.max) {
      out.set(i, [{ lo: s.min, hi: s.max, count: s.count }]);
      return;
    }
    const width = (s.max - s.min) / HISTOGRAM_BINS;
    ranges.set(i, { lo: s.min, width });
    const value = `CAST(${ident(c.name)} AS DOUBLE)`;
    exprs.push(
      `histogram(CAST(least(greatest(floor((${value} - ${s.min}) / ${width}), 0), ${HISTOGRAM_BINS - 1}) AS INTEGER)) ` +
        `FILTER (WHERE isfinite(${value})) AS h${i}`,
    );
  });
  if (exprs.length === 0) return out;
  const row = (await con.runAndReadAll(`SELECT ${exprs.join(", ")} FROM t`)).getRowObjectsJS()[0];
  for (const [i, { lo, width }] of ranges) {
    const counts = new Array<number>(HISTOGRAM_BINS).fill(0);
    const entries = (row[`h${i}`] ?? []) as { key: unknown; value: unknown }[];
    for (const e of entries) {
      const bin = num(e.key);
      if (bin !== null && bin >= 0 && bin < HISTOGRAM_BINS) counts[bin] += num(e.value) ?? 0;
    }
    const edge = (b: number) => Number((lo + b * width).toPrecision(12));
    out.set(
      i,
      counts.map((count, b) => ({
        lo: edge(b),
        hi: b === HISTOGRAM_BINS - 1 ? (stats[i].max as number) : edge(b + 1),
        count,
      })),
    );
  }
  return out;
}

async function topValues(
  con: DuckDBConnection,
  columns: SchemaColumn[],
): Promise<Map<number, { value: string; count: number }[]>> {
  const out = new Map<number, { value: string; count: number }[]>();
  const parts: string[] = [];
  columns.forEach((c, i) => {
    if (isNumeric(c.type) || c.type === "other") return;
    const col = ident(c.name);
    parts.push(
      `(SELECT ${i} AS col, CAST(${col} AS VARCHAR) AS v, count(*) AS n FROM t WHERE ${col} IS NOT NULL ` +
        `GROUP BY ${col} ORDER BY n DESC, v LIMIT ${TOP_VALUES})`,
    );
  });
  if (parts.length === 0) return out;
  const rows = (await con.runAndReadAll(parts.join(" UNION ALL "))).getRowObjectsJS();
  for (const r of rows) {
    const i = Number(r.col);
    const list = out.get(i) ?? [];
    list.push({ value: String(r.v), count: num(r.n) ?? 0 });
    out.set(i, list);
  }
  for (const list of out.values()) list.sort((a, b) => b.count - a.count || a.value.localeCompare(b.value));
  return out;
}
