/**
 * Shapes stored in the dataset tables' jsonb columns and returned by the API. Types only: the
 * database schema imports them, so this module must stay free of runtime dependencies.
 */
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
  format: "csv" | "tsv" | "jsonl" | "parquet" | "image_zip" | "text";
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
