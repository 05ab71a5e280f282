import type { z } from "@hono/zod-openapi";
import sharp from "sharp";
import type { Db } from "../../db/client";
import type { DatasetProfile, DatasetSchemaInfo, ImageSample } from "../../db/schema/datasets";
import { NotFoundError } from "../../errors";
import { currentVersionOf, readableDataset, type Viewer, versionOf } from "./access";
import { type BuiltinImageLayout, builtinPath, builtinVersionData, builtinVersionId } from "./builtin";
import type { previewSchema } from "./datasets.schemas";
import { sourceSql, type TableFormat, toJsonValue, withDuckDb } from "./duckdb";
import { withDatasetFile } from "./ingest";
import { readLines } from "./profile-text";

/**
 * GET /datasets/{id}/preview: the first rows of a version (read directly from the file, cheap even
 * for large files) plus the profile stored when the version was created. Image datasets come with
 * PNG thumbnails; the 8×8 digits built-in renders each row as an image.
 */

export interface PreviewImage extends ImageSample {
  row: number;
}

export type PreviewView = z.infer<typeof previewSchema>;

async function tableRows(
  file: string,
  schema: DatasetSchemaInfo,
  n: number,
): Promise<Record<string, unknown>[]> {
  const format = schema.format as TableFormat;
  return withDuckDb(async (con) => {
    const reader = await con.runAndReadAll(
      `SELECT * FROM ${sourceSql({ format, file, dialect: schema.dialect, columns: schema.columns })} LIMIT ${n}`,
    );
    return reader.getRowObjectsJS().map((r) => toJsonValue(r) as Record<string, unknown>);
  });
}

async function textRows(file: string, n: number): Promise<Record<string, unknown>[]> {
  const rows: Record<string, unknown>[] = [];
  if (n === 0) return rows;
  for await (const line of readLines(file)) {
    rows.push({ text: line });
    if (rows.length >= n) break;
  }
  return rows;
}

async function rowsOf(
  file: string,
  schema: DatasetSchemaInfo,
  profile: DatasetProfile,
  n: number,
): Promise<{ rows: Record<string, unknown>[]; images: PreviewImage[] }> {
  switch (schema.format) {
    case "text":
      return { rows: await textRows(file, n), images: [] };
    case "image_zip": {
      const samples = (profile.images?.samples ?? []).slice(0, n);
      return {
        rows: samples.map((s) => ({ image: s.path, label: s.label, width: s.width, height: s.height })),
        images: samples.map((s, row) => ({ ...s, row })),
      };
    }
    default:
      return { rows: await tableRows(file, schema, n), images: [] };
  }
}

/** Renders a row of pixel columns (e.g. digits' pixel_0_0 … pixel_7_7, 0–16) as a PNG data URL. */
export async function pixelRowThumbnail(
  row: Record<string, unknown>,
  layout: BuiltinImageLayout,
  scale = 4,
): Promise<string> {
  const raw = Buffer.alloc(layout.width * layout.height);
  for (let r = 0; r < layout.height; r++) {
    for (let c = 0; c < layout.width; c++) {
      const name = layout.pixel_column_pattern.replace("{row}", String(r)).replace("{col}", String(c));
      const v = Number(row[name] ?? 0);
      // Dark ink on white, like the scans.
      raw[r * layout.width + c] =
        255 - Math.round((Math.max(0, Math.min(layout.max_value, v)) / layout.max_value) * 255);
    }
  }
  const png = await sharp(raw, { raw: { width: layout.width, height: layout.height, channels: 1 } })
    .resize(layout.width * scale, layout.height * scale, { kernel: "nearest" })
    .toColourspace("b-w")
    .png()
    .toBuffer();
  return `data:image/png;base64,${png.toString("base64")}`;
}

export async function previewDataset(
  db: Db,
  viewer: Viewer,
  datasetId: string,
  n: number,
  versionId?: string,
): Promise<PreviewView> {
  const ref = await readableDataset(db, viewer, datasetId);
  if (ref.kind === "builtin") {
    const b = ref.builtin;
    if (versionId && versionId !== builtinVersionId(b)) throw new NotFoundError("Dataset version");
    const data = await builtinVersionData(b);
    const { rows, images } = await rowsOf(builtinPath(b), data.schema, data.profile, n);
    const layout = b.image;
    const rendered: PreviewImage[] = layout
      ? await Promise.all(
          rows.map(async (row, i) => ({
            row: i,
            path: `row-${i}`,
            label: String(row[b.target ?? ""] ?? ""),
            width: layout.width,
            height: layout.height,
            thumbnail: await pixelRowThumbnail(row, layout),
          })),
        )
      : images;
    return {
      dataset_id: b.id,
      version_id: builtinVersionId(b),
      format: b.format,
      columns: data.schema.columns,
      rows,
      row_count: data.profile.row_count,
      profile: data.profile,
      images: rendered,
    };
  }
  const version = versionId ? await versionOf(db, datasetId, versionId) : await currentVersionOf(db, ref.row);
  const { rows, images } = await withDatasetFile(version.blobKey, (file) =>
    rowsOf(file, version.schema, version.profile, n),
  );
  return {
    dataset_id: datasetId,
    version_id: version.id,
    format: version.schema.format,
    columns: version.schema.columns,
    rows,
    row_count: version.rowCount ?? version.profile.row_count,
    profile: version.profile,
    images,
  };
}
