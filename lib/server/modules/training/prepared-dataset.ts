/**
 * The prepared dataset a job's program reads (lib/ml/codegen/README.md, "Prepared dataset"): reading
 * a dataset version, the seeded or explicit train/validation/test split, and writing dataset.json,
 * preprocessing.json and the binary arrays. Shared by tables, text and images.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { TrainingConfig } from "../../../ml/graph-types";
import type { Db } from "../../db/client";
import type { ColumnRole, DatasetSchemaInfo, StoredSplits } from "../../db/schema/datasets";
import type { Preprocessing } from "../../db/schema/training";
import { NotFoundError, ValidationError } from "../../errors";
import { readableDataset, versionOf } from "../datasets/access";
import {
  type BuiltinImageLayout,
  builtinPath,
  builtinVersionData,
  builtinVersionId,
} from "../datasets/builtin";
import { ident, safeEngineMessage, sourceSql, type TableSource, withDuckDb } from "../datasets/duckdb";
import { datasetFile } from "../datasets/ingest";

import { effectiveRoles } from "./dataset-fit";

/** The most values (rows × columns) a job reads into memory. */
export const MAX_MATERIALIZED_VALUES = 50_000_000;
/** Text windows beyond this many are taken with a stride. */
export const MAX_TEXT_WINDOWS = 200_000;
/** The largest text corpus (in characters) a character model is trained on. */
export const MAX_TEXT_CHARACTERS = 20_000_000;

export const PREPARED_DATASET_FORMAT = "layerline-prepared-dataset";

// ---------------------------------------------------------------------------------------------
// Reading the version

export interface ResolvedVersion {
  file: string;
  schema: DatasetSchemaInfo;
  roles: Record<string, ColumnRole>;
  splits: StoredSplits | null;
  image: BuiltinImageLayout | null;
}

export async function resolveVersion(
  db: Db,
  ownerId: string,
  datasetId: string,
  versionId: string,
): Promise<ResolvedVersion> {
  const ref = await readableDataset(db, { id: ownerId }, datasetId);
  if (ref.kind === "builtin") {
    const b = ref.builtin;
    if (versionId !== builtinVersionId(b)) throw new NotFoundError("Dataset version");
    const data = await builtinVersionData(b);
    return {
      file: builtinPath(b),
      schema: data.schema,
      roles: effectiveRoles(data.schema, data.roles, b.target),
      splits: null,
      image: b.image ?? null,
    };
  }
  const v = await versionOf(db, datasetId, versionId);
  return {
    file: await datasetFile(v.blobKey),
    schema: v.schema,
    roles: ref.row.roles,
    splits: v.splits ?? null,
    image: null,
  };
}

/** Column-major values: numbers (NaN when missing) for numeric columns, strings (or null) otherwise. */
export async function readTable(
  v: ResolvedVersion,
  columns: { name: string; as: "number" | "string" }[],
): Promise<{ rows: number; values: (Float64Array | (string | null)[])[] }> {
  const source: TableSource = {
    format: v.schema.format as TableSource["format"],
    file: v.file,
    dialect: v.schema.dialect,
    columns: v.schema.columns,
  };
  const select = columns
    .map((c) =>
      c.as === "number" ? `TRY_CAST(${ident(c.name)} AS DOUBLE)` : `CAST(${ident(c.name)} AS VARCHAR)`,
    )
    .join(", ");
  let raw: unknown[][];
  try {
    raw = await withDuckDb(async (con) => {
      const count = await con.runAndReadAll(`SELECT count(*) FROM ${sourceSql(source)}`);
      const rows = Number(count.getRowsJS()[0]?.[0] ?? 0);
      if (rows * columns.length > MAX_MATERIALIZED_VALUES) {
        throw new ValidationError(
          `The dataset has ${rows} rows × ${columns.length} columns; the managed runtimes read at most ${MAX_MATERIALIZED_VALUES.toLocaleString("en")} values.`,
        );
      }
      const reader = await con.runAndReadAll(`SELECT ${select} FROM ${sourceSql(source)}`);
      return reader.getColumnsJS();
    });
  } catch (err) {
    if (err instanceof ValidationError) throw err;
    throw new ValidationError(`The dataset could not be read: ${safeEngineMessage(err)}`);
  }
  const rows = raw[0]?.length ?? 0;
  const values = columns.map((c, k) => {
    const col = raw[k] ?? [];
    if (c.as === "string") return col.map((x) => (x === null || x === undefined ? null : String(x)));
    const out = new Float64Array(rows);
    for (let i = 0; i < rows; i++) {
      const x = col[i];
      out[i] = typeof x === "number" ? x : typeof x === "bigint" ? Number(x) : Number.NaN;
    }
    return out;
  });
  return { rows, values };
}

// ---------------------------------------------------------------------------------------------
// Splits

/** Seeded pseudo-random numbers in [0, 1) (mulberry32, as in the generated train.mjs). */
export function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function shuffle<T>(items: T[], next: () => number): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(next() * (i + 1));
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

interface RowSplits {
  train: number[];
  validation: number[];
  test: number[];
  method: "explicit" | "random";
}

/** Row indices per split among `kept` rows (file order indices). */
export function splitRows(kept: number[], stored: StoredSplits | null, config: TrainingConfig): RowSplits {
  if (stored) {
    const keep = new Set(kept);
    const only = (rows: number[]) => rows.filter((r) => keep.has(r));
    return {
      train: only(stored.train),
      validation: only(stored.validation ?? []),
      test: only(stored.test ?? []),
      method: "explicit",
    };
  }
  const order = shuffle(kept, random(config.seed));
  const heldOut = Math.floor(order.length * config.validation_split);
  return {
    train: order.slice(heldOut).sort((a, b) => a - b),
    validation: order.slice(0, heldOut).sort((a, b) => a - b),
    test: [],
    method: "random",
  };
}

// ---------------------------------------------------------------------------------------------
// Writing

export type SplitName = "train" | "validation" | "test";
const FILE_SUFFIX: Record<SplitName, string> = { train: "train", validation: "val", test: "test" };

export interface PreparedSplit {
  rows: number;
  x: Float32Array | Int32Array;
  y: Float32Array | Int32Array;
  /** Tables: the row (0-based, file order) of each sample. */
  index?: Int32Array;
}

function writeArray(file: string, values: Float32Array | Int32Array): void {
  if (os.endianness() !== "LE") {
    const view = new DataView(new ArrayBuffer(values.length * 4));
    values.forEach((v, i) => {
      if (values instanceof Int32Array) view.setInt32(i * 4, v, true);
      else view.setFloat32(i * 4, v, true);
    });
    fs.writeFileSync(file, new Uint8Array(view.buffer));
    return;
  }
  fs.writeFileSync(file, new Uint8Array(values.buffer, values.byteOffset, values.byteLength));
}

export function writePrepared(
  dir: string,
  p: Preprocessing,
  xDtype: "float32" | "int32",
  y: { dtype: "float32" | "int32"; shape: number[] },
  splits: Record<SplitName, PreparedSplit>,
): void {
  fs.mkdirSync(dir, { recursive: true });
  const entries: Record<string, { rows: number; x: string; y: string; index?: string }> = {};
  for (const name of ["train", "validation", "test"] as const) {
    const s = splits[name];
    if (name === "test" && s.rows === 0) continue;
    const files = { x: `x_${FILE_SUFFIX[name]}.bin`, y: `y_${FILE_SUFFIX[name]}.bin` };
    writeArray(path.join(dir, files.x), s.x);
    writeArray(path.join(dir, files.y), s.y);
    entries[name] = { rows: s.rows, ...files };
    if (s.index) {
      const index = `i_${FILE_SUFFIX[name]}.bin`;
      writeArray(path.join(dir, index), s.index);
      entries[name].index = index;
    }
  }
  const info = {
    format: PREPARED_DATASET_FORMAT,
    version: 1,
    task: p.task,
    x: { dtype: xDtype, shape: p.input_shape },
    y,
    labels: p.labels,
    features: p.input_features,
    splits: entries,
  };
  fs.writeFileSync(path.join(dir, "dataset.json"), `${JSON.stringify(info, null, 2)}\n`);
  fs.writeFileSync(path.join(dir, "preprocessing.json"), `${JSON.stringify(p, null, 2)}\n`);
}
