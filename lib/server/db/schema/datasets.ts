import { sql } from "drizzle-orm";
import {
  bigint,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  uniqueIndex,
} from "drizzle-orm/pg-core";
import { users } from "./accounts";
import { createdAt, timestamps, tstz } from "./columns";
import { projects } from "./projects";

// The shapes stored in this area's jsonb columns (also returned by the API): services and routes
// import them from here, so that the database layer imports nothing above db/.
export const COLUMN_ROLES = ["feature", "target", "id", "text", "image", "ignored"] as const;
export type ColumnRole = (typeof COLUMN_ROLES)[number];

export type DatasetTask = "classification" | "regression" | "image_classification" | "language_modeling";

/** Inferred column type (DuckDB's type, simplified). */
export type ColumnType = "integer" | "float" | "boolean" | "string" | "date" | "datetime" | "other";

export interface SchemaColumn {
  name: string;
  type: ColumnType;
  /** The engine's own type name, e.g. BIGINT, DOUBLE, VARCHAR. */
  source_type: string;
}

export interface CsvDialect {
  delimiter: string;
  quote: string | null;
  escape: string | null;
  has_header: boolean;
  /** Lines before the header (or the first row) that are not part of the table. */
  skip_rows?: number;
  /** Column types were detected from every row (a sample had guessed wrong). */
  full_sample?: boolean;
}

export interface DatasetSchemaInfo {
  format: "csv" | "tsv" | "jsonl" | "json" | "parquet" | "image_zip" | "text";
  columns: SchemaColumn[];
  /** CSV/TSV only: the dialect sniffed by DuckDB. */
  dialect?: CsvDialect;
  /** Image ZIPs: one folder per class. */
  classes?: string[];
}

export interface HistogramBin {
  lo: number;
  hi: number;
  count: number;
}

export interface ColumnProfile {
  name: string;
  type: ColumnType;
  /** Non-missing values. */
  count: number;
  missing: number;
  distinct: number;
  min?: number | string | null;
  max?: number | string | null;
  mean?: number | null;
  std?: number | null;
  /** Numbers: 20 equal-width bins from min to max. */
  histogram?: HistogramBin[];
  /** Strings and booleans: the 10 most frequent values. */
  top_values?: { value: string; count: number }[];
}

export interface ImageSample {
  path: string;
  label: string;
  width: number;
  height: number;
  /** A small PNG as a data URL (only for the first samples). */
  thumbnail?: string;
}

export interface ImageProfile {
  classes: { name: string; count: number }[];
  sizes: { width: number; height: number; count: number }[];
  width: { min: number; max: number };
  height: { min: number; max: number };
  formats: { format: string; count: number }[];
  channels: { channels: number; count: number }[];
  samples: ImageSample[];
  /** Image files that could not be decoded (left out of the counts). */
  skipped: number;
  /** How the archive is laid out (see modules/datasets/image-zip.ts); absent in profiles made before. */
  layout?: "classes" | "wrapped" | "splits";
  /** The paths of the images that could not be decoded, skipped (every one). */
  corrupt?: string[];
  /** With train/, validation/ (or val/) and test/ folders: the images in each. */
  splits?: { train: number; validation: number; test: number };
}

export interface TextProfile {
  lines: number;
  characters: number;
  words: number;
  distinct_characters: number;
  top_words: { value: string; count: number }[];
}

export interface DatasetProfile {
  row_count: number;
  columns: ColumnProfile[];
  images?: ImageProfile;
  text?: TextProfile;
  /** Milliseconds the profiling took. */
  duration_ms: number;
}

export const PII_KINDS = [
  "email",
  "phone",
  "payment_card",
  "iban",
  "national_id",
  "ip_address",
  "person_name",
] as const;
export type PiiKind = (typeof PII_KINDS)[number];

export interface PiiFinding {
  column: string;
  kind: PiiKind;
  /** Cells in which this kind was found. */
  count: number;
  /** Up to 3 distinct masked examples. */
  examples: string[];
}

export interface PiiReport {
  task_id: string | null;
  scanned_at: string;
  rows_scanned: number;
  cells_scanned: number;
  has_pii: boolean;
  findings: PiiFinding[];
  /** Per column, per kind: the number of cells. */
  columns: Record<string, Partial<Record<PiiKind, number>>>;
}

export interface StoredSplits {
  kind: "explicit";
  train: number[];
  validation: number[];
  test: number[];
  created_at: string;
  created_by: string | null;
}

/**
 * Datasets (contract §4.5). A dataset is a named, owned container of immutable versions; each version
 * is one uploaded file (blob `datasets/<version id>`), profiled once when it is created. Built-in
 * datasets ship in the repository (data/builtin/) and have no rows here.
 */
export const DATASET_FORMATS = ["csv", "tsv", "jsonl", "json", "parquet", "image_zip", "text"] as const;
export type DatasetFormat = (typeof DATASET_FORMATS)[number];
export const DATASET_VISIBILITIES = ["private", "public"] as const;
export type DatasetVisibility = (typeof DATASET_VISIBILITIES)[number];

export const datasets = pgTable(
  "datasets",
  {
    id: text("id").primaryKey(),
    ownerId: text("owner_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    description: text("description").notNull().default(""),
    visibility: text("visibility", { enum: DATASET_VISIBILITIES }).notNull().default("private"),
    format: text("format", { enum: DATASET_FORMATS }).notNull(),
    /** classification | regression | image_classification | language_modeling, or null when unknown. */
    task: text("task"),
    roles: jsonb("roles").$type<Record<string, ColumnRole>>().notNull().default({}),
    /** The newest version (no foreign key: versions reference datasets). */
    currentVersionId: text("current_version_id"),
    /** Sum of the sizes of all versions: what the dataset counts against the owner's storage quota. */
    sizeBytes: bigint("size_bytes", { mode: "number" }).notNull().default(0),
    lastVersionNumber: integer("last_version_number").notNull().default(0),
    ...timestamps(),
  },
  (t) => [
    index("datasets_owner_updated_idx").on(t.ownerId, t.updatedAt),
    index("datasets_visibility_idx").on(t.visibility),
    check("datasets_visibility_check", sql`${t.visibility} in ('private', 'public')`),
  ],
);

export const datasetVersions = pgTable(
  "dataset_versions",
  {
    id: text("id").primaryKey(),
    datasetId: text("dataset_id")
      .notNull()
      .references(() => datasets.id, { onDelete: "cascade" }),
    /** 1, 2, 3… per dataset. */
    number: integer("number").notNull(),
    /** SHA-256 of the file, hex. */
    contentHash: text("content_hash").notNull(),
    /** Blob key (`datasets/<version id>`, see storage/blob-store.ts). */
    blobKey: text("blob_key").notNull(),
    /** The uploaded file's name (for downloads). */
    fileName: text("file_name").notNull(),
    sizeBytes: bigint("size_bytes", { mode: "number" }).notNull(),
    rowCount: bigint("row_count", { mode: "number" }),
    schema: jsonb("schema").$type<DatasetSchemaInfo>().notNull(),
    profile: jsonb("profile").$type<DatasetProfile>().notNull(),
    piiReport: jsonb("pii_report").$type<PiiReport>(),
    splits: jsonb("splits").$type<StoredSplits>(),
    createdBy: text("created_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("dataset_versions_number_idx").on(t.datasetId, t.number),
    uniqueIndex("dataset_versions_hash_idx").on(t.datasetId, t.contentHash),
  ],
);

/**
 * Single-use download links minted by GET /datasets/{id}/meta. Only the SHA-256 of the nonce is stored;
 * a download marks it used with `UPDATE … WHERE used_at IS NULL RETURNING`, so exactly one of many
 * concurrent uses succeeds.
 */
export const datasetDownloadNonces = pgTable(
  "dataset_download_nonces",
  {
    nonceHash: text("nonce_hash").primaryKey(),
    datasetId: text("dataset_id").notNull(),
    versionId: text("version_id").notNull(),
    expiresAt: tstz("expires_at").notNull(),
    usedAt: tstz("used_at"),
    createdAt: createdAt(),
  },
  (t) => [index("dataset_download_nonces_expires_idx").on(t.expiresAt)],
);

/**
 * Datasets linked to a project: either an uploaded dataset (`dataset_id`, removed with it) or a
 * built-in one (`builtin_id`, e.g. `builtin-iris`). `dataset_ref` is whichever of the two is set.
 */
export const projectDatasets = pgTable(
  "project_datasets",
  {
    projectId: text("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
    datasetRef: text("dataset_ref").notNull(),
    datasetId: text("dataset_id").references(() => datasets.id, { onDelete: "cascade" }),
    builtinId: text("builtin_id"),
    linkedBy: text("linked_by").references(() => users.id, { onDelete: "set null" }),
    linkedAt: tstz("linked_at").notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.projectId, t.datasetRef] }),
    index("project_datasets_dataset_idx").on(t.datasetId),
    check(
      "project_datasets_one_ref_check",
      sql`(${t.datasetId} is not null and ${t.builtinId} is null and ${t.datasetRef} = ${t.datasetId})
        or (${t.datasetId} is null and ${t.builtinId} is not null and ${t.datasetRef} = ${t.builtinId})`,
    ),
  ],
);
