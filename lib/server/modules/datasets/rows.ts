import type { z } from "@hono/zod-openapi";
import type { Db } from "../../db/client";
import type { DatasetSchemaInfo, SchemaColumn } from "../../db/schema/datasets";
import { NotFoundError, ValidationError } from "../../errors";
import { currentVersionOf, readableDataset, type Viewer, versionOf } from "./access";
import { builtinPath, builtinVersionData, builtinVersionId } from "./builtin";
import { MAX_ROWS_PER_PAGE, MAX_VALUES_PER_COLUMN_PAGE, type rowsPageSchema } from "./datasets.schemas";
import { cellValue, ident, lit, safeEngineMessage, sourceSql, type TableSource, withDuckDb } from "./duckdb";
import { listImageZip } from "./image-zip";
import { datasetFile } from "./ingest";
import { readLines } from "./profile-text";
import { cachedRowFile, lineStart } from "./row-cache";

/**
 * GET /datasets/{id}/rows: one page of a version's rows, in file order, at any offset, read on the
 * server so that a client never needs the whole file. Tables (CSV, TSV, JSON Lines, Parquet) are read
 * with DuckDB (`LIMIT … OFFSET …`, insertion order preserved); large text-format tables from their
 * Parquet copy once it exists (see row-cache.ts); plain text one line per row; image ZIPs one image per
 * row (its path and class), in archive order.
 */

export interface RowsQuery {
  offset: number;
  limit: number;
  /** Column names (repeated or comma-separated); all columns when empty. */
  columns?: string[];
  version_id?: string;
}

export type RowsPageView = z.infer<typeof rowsPageSchema>;

interface ResolvedVersion {
  datasetId: string;
  versionId: string;
  file: string;
  schema: DatasetSchemaInfo;
  rowCount: number;
  sizeBytes: number;
  /** Whether a Parquet copy may be kept for this version (not for built-ins, which are small). */
  cacheable: boolean;
  /** Image ZIPs: the images that could not be decoded (not rows). */
  corrupt?: string[];
}

async function resolveVersion(
  db: Db,
  viewer: Viewer,
  datasetId: string,
  versionId?: string,
): Promise<ResolvedVersion> {
  const ref = await readableDataset(db, viewer, datasetId);
  if (ref.kind === "builtin") {
    const b = ref.builtin;
    if (versionId && versionId !== builtinVersionId(b)) throw new NotFoundError("Dataset version");
    const data = await builtinVersionData(b);
    return {
      datasetId: b.id,
      versionId: builtinVersionId(b),
      file: builtinPath(b),
      schema: data.schema,
      rowCount: data.profile.row_count,
      sizeBytes: data.sizeBytes,
      cacheable: false,
    };
  }
  const v = versionId ? await versionOf(db, datasetId, versionId) : await currentVersionOf(db, ref.row);
  return {
    datasetId,
    versionId: v.id,
    file: await datasetFile(v.blobKey),
    schema: v.schema,
    rowCount: v.rowCount ?? v.profile.row_count,
    sizeBytes: v.sizeBytes,
    cacheable: true,
    corrupt: v.profile.images?.corrupt ?? [],
  };
}

/**
 * The columns asked for, in the order asked, without repeats. A value that is exactly a column's name
 * is that column (names may contain commas); other values are comma-separated lists of names.
 */
export function selectColumns(schema: DatasetSchemaInfo, requested: string[] | undefined): SchemaColumn[] {
  if (!requested || requested.length === 0) return schema.columns;
  const byName = new Map(schema.columns.map((c) => [c.name, c]));
  const names: string[] = [];
  for (const value of requested) {
    if (byName.has(value)) names.push(value);
    else names.push(...value.split(",").map((n) => n.trim()));
  }
  const unknown = [...new Set(names.filter((n) => !byName.has(n)))];
  if (unknown.length > 0) {
    const list = unknown
      .slice(0, 5)
      .map((n) => `“${n.slice(0, 60)}”`)
      .join(", ");
    const detail = `Unknown column${unknown.length > 1 ? "s" : ""}: ${list}.`;
    throw new ValidationError(detail, [{ path: "query.columns", message: detail }]);
  }
  return [...new Set(names)].map((n) => byName.get(n) as SchemaColumn);
}

/** The largest page for this many columns: MAX_ROWS_PER_PAGE, or more for a single column. */
export function maxPageRows(columnCount: number): number {
  return columnCount === 1 ? MAX_VALUES_PER_COLUMN_PAGE : MAX_ROWS_PER_PAGE;
}

async function tablePage(
  v: ResolvedVersion,
  columns: SchemaColumn[],
  offset: number,
  limit: number,
): Promise<unknown[][]> {
  const source: TableSource = {
    format: v.schema.format as TableSource["format"],
    file: v.file,
    dialect: v.schema.dialect,
    columns: v.schema.columns,
  };
  const cached = v.cacheable
    ? cachedRowFile({ versionId: v.versionId, source, sizeBytes: v.sizeBytes })
    : null;
  const from = cached ? `read_parquet(${lit(cached)})` : sourceSql(source);
  const select = columns.map((c) => ident(c.name)).join(", ");
  try {
    // One thread: with insertion order preserved, a deep OFFSET into a CSV is faster single-threaded.
    return await withDuckDb(
      async (con) => {
        const reader = await con.runAndReadAll(
          `SELECT ${select} FROM ${from} LIMIT ${Math.trunc(limit)} OFFSET ${Math.trunc(offset)}`,
        );
        const js = reader.getRowsJS();
        const json = reader.getRowsJson();
        return js.map((row, i) => row.map((value, k) => cellValue(value, json[i]?.[k])));
      },
      { threads: 1 },
    );
  } catch (err) {
    throw new ValidationError(`The file could not be read: ${safeEngineMessage(err)}`);
  }
}

async function textPage(
  v: ResolvedVersion,
  columns: SchemaColumn[],
  offset: number,
  limit: number,
): Promise<unknown[][]> {
  const start = await lineStart(v.versionId, v.file, v.sizeBytes, offset);
  const rows: unknown[][] = [];
  let line = start.line;
  for await (const text of readLines(v.file, start.byte)) {
    if (line >= offset) {
      rows.push(columns.map(() => text));
      if (rows.length >= limit) break;
    }
    line += 1;
  }
  return rows;
}

async function zipPage(
  v: ResolvedVersion,
  columns: SchemaColumn[],
  offset: number,
  limit: number,
): Promise<{ rows: unknown[][]; total: number }> {
  const images = (await listImageZip(v.file, v.corrupt)).entries;
  const rows = images
    .slice(offset, offset + limit)
    .map((img) => columns.map((c) => (c.name === "label" ? img.label : img.path)));
  return { rows, total: images.length };
}

export async function readDatasetRows(
  db: Db,
  viewer: Viewer,
  datasetId: string,
  query: RowsQuery,
): Promise<RowsPageView> {
  const v = await resolveVersion(db, viewer, datasetId, query.version_id);
  const columns = selectColumns(v.schema, query.columns);
  const max = maxPageRows(columns.length);
  if (query.limit > max) {
    const detail =
      columns.length === 1
        ? `At most ${max} values of one column per page.`
        : `At most ${max} rows per page (up to ${MAX_VALUES_PER_COLUMN_PAGE} when \`columns\` names a single column).`;
    throw new ValidationError(detail, [{ path: "query.limit", message: detail }]);
  }
  const { offset, limit } = query;
  let total = v.rowCount;
  let rows: unknown[][] = [];
  if (v.schema.format === "image_zip") {
    const page = await zipPage(v, columns, offset, limit);
    rows = page.rows;
    total = page.total;
  } else if (offset < total) {
    rows =
      v.schema.format === "text"
        ? await textPage(v, columns, offset, limit)
        : await tablePage(v, columns, offset, limit);
  }
  const end = offset + rows.length;
  return {
    dataset_id: v.datasetId,
    version_id: v.versionId,
    format: v.schema.format,
    columns,
    offset,
    limit,
    total,
    next_offset: rows.length > 0 && end < total ? end : null,
    rows,
  };
}
