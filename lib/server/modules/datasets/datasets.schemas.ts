import { z } from "@hono/zod-openapi";
import { DATASET_FORMATS, DATASET_VISIBILITIES } from "../../db/schema";
import { COLUMN_ROLES, PII_KINDS } from "../../db/schema/datasets";
import { pathParam } from "../../http/openapi";
import { pageQuerySchema, skipLimitQuerySchema } from "../../http/paging";

/**
 * Request and response schemas of the dataset routes (the OpenAPI components), and the limits the
 * dataset services and the routes share.
 *
 * One piece by design (past ~400 lines): every schema of the area's routes lives in one file, the
 * area's half of the OpenAPI document (../shared/STYLE.md, "Server modules").
 */

export const MAX_PREVIEW_ROWS = 100;
export const MAX_ROWS_PER_PAGE = 1000;
/** A page of one column (e.g. every class label, for splits) may be longer. */
export const MAX_VALUES_PER_COLUMN_PAGE = 100_000;
export const DEFAULT_ROWS_PER_PAGE = 100;

const isoDate = () => z.string().openapi({ format: "date-time" });

export const datasetIdParams = z.object({
  dataset_id: pathParam("dataset_id", { example: "builtin-iris" }),
});

export const versionParams = datasetIdParams.extend({
  version_id: pathParam("version_id"),
});

export const taskIdParams = z.object({
  task_id: pathParam("task_id"),
});

export const projectIdParams = z.object({
  project_id: pathParam("project_id"),
});

export const projectDatasetParams = projectIdParams.extend({
  dataset_id: datasetIdParams.shape.dataset_id,
});

const formatSchema = z.enum(DATASET_FORMATS);
const roleSchema = z.enum(COLUMN_ROLES);
const taskSchema = z.string().nullable().openapi({
  description: "classification, regression, image_classification or language_modeling; null when unknown",
});

export const schemaColumnSchema = z
  .object({
    name: z.string(),
    type: z.enum(["integer", "float", "boolean", "string", "date", "datetime", "other"]),
    source_type: z.string().openapi({ description: "The engine's type, e.g. BIGINT, DOUBLE, VARCHAR" }),
  })
  .openapi("DatasetColumn");

export const datasetSchemaInfoSchema = z
  .object({
    format: formatSchema,
    columns: z.array(schemaColumnSchema),
    dialect: z
      .object({
        delimiter: z.string(),
        quote: z.string().nullable(),
        escape: z.string().nullable(),
        has_header: z.boolean(),
        full_sample: z.boolean().optional(),
      })
      .optional(),
    classes: z.array(z.string()).optional(),
  })
  .openapi("DatasetSchema");

const imageSampleSchema = z.object({
  path: z.string(),
  label: z.string(),
  width: z.number().int(),
  height: z.number().int(),
  thumbnail: z.string().optional().openapi({ description: "PNG data URL" }),
});

export const columnProfileSchema = z
  .object({
    name: z.string(),
    type: schemaColumnSchema.shape.type,
    count: z.number().int(),
    missing: z.number().int(),
    distinct: z.number().int(),
    min: z.union([z.number(), z.string()]).nullable().optional(),
    max: z.union([z.number(), z.string()]).nullable().optional(),
    mean: z.number().nullable().optional(),
    std: z.number().nullable().optional(),
    histogram: z.array(z.object({ lo: z.number(), hi: z.number(), count: z.number().int() })).optional(),
    top_values: z.array(z.object({ value: z.string(), count: z.number().int() })).optional(),
  })
  .openapi("DatasetColumnProfile");

export const profileSchema = z
  .object({
    row_count: z.number().int(),
    columns: z.array(columnProfileSchema),
    images: z
      .object({
        classes: z.array(z.object({ name: z.string(), count: z.number().int() })),
        sizes: z.array(
          z.object({ width: z.number().int(), height: z.number().int(), count: z.number().int() }),
        ),
        width: z.object({ min: z.number(), max: z.number() }),
        height: z.object({ min: z.number(), max: z.number() }),
        formats: z.array(z.object({ format: z.string(), count: z.number().int() })),
        channels: z.array(z.object({ channels: z.number().int(), count: z.number().int() })),
        samples: z.array(imageSampleSchema),
        skipped: z.number().int().openapi({ description: "Image files that could not be decoded, skipped" }),
        layout: z
          .enum(["classes", "wrapped", "splits"])
          .optional()
          .openapi({
            description:
              "classes: one folder per class; wrapped: the same inside one top folder; splits: train/, " +
              "validation/ (or val/) and test/ folders of class folders, which become the version's explicit split",
          }),
        corrupt: z
          .array(z.string())
          .optional()
          .openapi({ description: "Paths of the images that could not be decoded (all of them), skipped" }),
        splits: z
          .object({ train: z.number().int(), validation: z.number().int(), test: z.number().int() })
          .optional()
          .openapi({ description: "Images in each split folder (splits layout)" }),
      })
      .optional(),
    text: z
      .object({
        lines: z.number().int(),
        characters: z.number().int(),
        words: z.number().int(),
        distinct_characters: z.number().int(),
        top_words: z.array(z.object({ value: z.string(), count: z.number().int() })),
      })
      .optional(),
    duration_ms: z.number(),
  })
  .openapi("DatasetProfile");

export const piiReportSchema = z
  .object({
    task_id: z.string().nullable(),
    scanned_at: isoDate(),
    rows_scanned: z.number().int(),
    cells_scanned: z.number().int(),
    has_pii: z.boolean(),
    findings: z.array(
      z.object({
        column: z.string(),
        kind: z.enum(PII_KINDS),
        count: z.number().int().openapi({ description: "Cells with this kind of value" }),
        examples: z.array(z.string()).openapi({ description: "Up to 3 masked examples" }),
      }),
    ),
    columns: z.record(z.string(), z.partialRecord(z.enum(PII_KINDS), z.number().int())),
  })
  .openapi("PiiReport");

export const splitsSummarySchema = z
  .object({
    kind: z.literal("explicit"),
    train: z.number().int(),
    validation: z.number().int(),
    test: z.number().int(),
    created_at: isoDate(),
  })
  .openapi("DatasetSplitsSummary");

const userRefSchema = z.object({ id: z.string(), username: z.string() });

export const datasetSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    description: z.string(),
    builtin: z.boolean(),
    read_only: z.boolean().openapi({ description: "True when the caller cannot change it" }),
    owner: userRefSchema.nullable(),
    visibility: z.enum(DATASET_VISIBILITIES),
    format: formatSchema,
    task: taskSchema,
    roles: z.record(z.string(), roleSchema),
    size_bytes: z.number().int().openapi({ description: "All versions together" }),
    row_count: z.number().int().nullable(),
    columns: z.array(schemaColumnSchema),
    current_version_id: z.string().nullable(),
    version_count: z.number().int(),
    license: z.string().nullable(),
    source: z.string().nullable(),
    image_layout: z
      .object({
        width: z.number().int(),
        height: z.number().int(),
        channels: z.literal(1),
        pixel_column_pattern: z.string(),
        max_value: z.number(),
      })
      .nullable()
      .openapi({ description: "Table datasets whose rows are images (e.g. builtin-digits)" }),
    created_at: isoDate(),
    updated_at: isoDate(),
  })
  .openapi("Dataset");

export const versionSchema = z
  .object({
    id: z.string(),
    dataset_id: z.string(),
    number: z.number().int(),
    is_current: z.boolean(),
    file_name: z.string(),
    content_hash: z.string().openapi({ description: "SHA-256 of the file, hex" }),
    size_bytes: z.number().int(),
    row_count: z.number().int().nullable(),
    schema: datasetSchemaInfoSchema,
    profile: profileSchema.optional().openapi({ description: "Only when one version is read" }),
    pii_report: piiReportSchema.nullable(),
    splits: splitsSummarySchema.nullable(),
    created_by: userRefSchema.nullable(),
    created_at: isoDate(),
  })
  .openapi("DatasetVersion");

export const uploadResultSchema = z
  .object({
    dataset: datasetSchema,
    version: versionSchema,
    created: z.boolean().openapi({ description: "False when identical content was already a version" }),
  })
  .openapi("DatasetUploadResult");

export const uploadFormSchema = {
  type: "object" as const,
  required: ["file"],
  properties: {
    file: {
      type: "string" as const,
      format: "binary",
      description:
        "CSV, TSV, JSON Lines, Parquet, plain text, or a ZIP of images (PNG, JPEG, WebP, GIF, TIFF, AVIF; any " +
        "size and mode): one folder per class (`cats/1.png`), optionally inside one top folder, or top-level " +
        "`train/`, `validation/` (or `val/`) and `test/` folders of class folders, which become the version's " +
        "explicit split. Images that cannot be decoded are listed in the profile (`images.corrupt`) and skipped.",
    },
    name: { type: "string" as const, maxLength: 120, description: "Defaults to the file name" },
    description: { type: "string" as const, maxLength: 2000 },
    dataset_id: { type: "string" as const, description: "Add the file as a new version of this dataset" },
  },
};

export const previewQuerySchema = z.object({
  rows: z.coerce
    .number()
    .int()
    .min(0)
    .max(MAX_PREVIEW_ROWS)
    .default(20)
    .openapi({ description: `Rows to return (0–${MAX_PREVIEW_ROWS})` }),
  version_id: z.string().max(64).optional().openapi({ description: "Default: the current version" }),
});

export const previewSchema = z
  .object({
    dataset_id: z.string(),
    version_id: z.string(),
    format: formatSchema,
    columns: z.array(schemaColumnSchema),
    rows: z.array(z.record(z.string(), z.unknown())),
    row_count: z.number().int(),
    profile: profileSchema,
    images: z.array(imageSampleSchema.extend({ row: z.number().int() })),
  })
  .openapi("DatasetPreview");

export const rowsQuerySchema = z.object({
  offset: z.coerce
    .number()
    .int()
    .min(0)
    .default(0)
    .openapi({ description: "0-based index of the first row, in file order. Beyond the last row: no rows" }),
  limit: z.coerce
    .number()
    .int()
    .min(1)
    .max(MAX_VALUES_PER_COLUMN_PAGE)
    .default(DEFAULT_ROWS_PER_PAGE)
    .openapi({
      description:
        `Rows per page: 1–${MAX_ROWS_PER_PAGE} (default ${DEFAULT_ROWS_PER_PAGE}); up to ` +
        `${MAX_VALUES_PER_COLUMN_PAGE} when \`columns\` names a single column (e.g. every class label for a split)`,
    }),
  columns: z
    .union([z.string().max(10_000), z.array(z.string().max(10_000)).max(1000)])
    .optional()
    .transform((v) => (v === undefined ? undefined : Array.isArray(v) ? v : [v]))
    .openapi({
      description:
        "Only these columns, in this order: repeat the parameter or separate names with commas (a value " +
        "that is exactly a column's name is that column). Default: every column",
      example: "species",
    }),
  version_id: z.string().max(64).optional().openapi({ description: "Default: the current version" }),
});

export const rowsPageSchema = z
  .object({
    dataset_id: z.string(),
    version_id: z.string(),
    format: formatSchema,
    columns: z.array(schemaColumnSchema).openapi({ description: "The columns of each row, in order" }),
    offset: z.number().int(),
    limit: z.number().int(),
    total: z.number().int().openapi({ description: "Rows in the version" }),
    next_offset: z
      .number()
      .int()
      .nullable()
      .openapi({ description: "The offset of the next page; null after the last row" }),
    rows: z.array(z.array(z.unknown())).openapi({
      description:
        "One array of cells per row, in the order of `columns`. Numbers, booleans and strings as they are " +
        "(64-bit integers beyond 2^53 as strings); dates and times as ISO strings (e.g. 2024-01-02); " +
        "nested values as JSON; a missing value is null. Plain text: one line per row; image ZIPs: the " +
        "image's path in the archive and its class",
    }),
  })
  .openapi("DatasetRowsPage");

export const browseQuerySchema = skipLimitQuerySchema.extend({
  q: z.string().trim().max(200).optional().openapi({ description: "Text in the name or description" }),
  format: formatSchema.optional(),
  task: z.string().max(40).optional(),
  include_builtin: z
    .enum(["true", "false"])
    .default("true")
    .transform((v) => v === "true")
    .openapi({ description: "Include the built-in datasets (default true)" }),
  mine: z
    .enum(["true", "false"])
    .default("false")
    .transform((v) => v === "true")
    .openapi({ description: "Only the caller's own datasets" }),
});

export const updateDatasetBodySchema = z
  .object({
    name: z.string().trim().min(1).max(120).optional(),
    description: z.string().max(2000).optional(),
    visibility: z.enum(DATASET_VISIBILITIES).optional(),
  })
  .strict()
  .openapi("UpdateDatasetRequest");

export const rolesBodySchema = z
  .object({
    roles: z.record(z.string(), roleSchema.nullable()).openapi({
      description: "Column → role; null removes a column's role. Columns not named keep their role.",
      example: { sepal_length_cm: "feature", species: "target" },
    }),
  })
  .openapi("SetDatasetRolesRequest");

export const rolesResultSchema = z
  .object({ dataset_id: z.string(), roles: z.record(z.string(), roleSchema), task: taskSchema })
  .openapi("DatasetRoles");

export const metaSchema = datasetSchema
  .extend({
    version_id: z.string(),
    file_name: z.string(),
    content_hash: z.string(),
    download_url: z
      .string()
      .openapi({ description: "Signed, single-use, valid 5 minutes; needs no credential" }),
    download_expires_at: isoDate(),
  })
  .openapi("DatasetMeta");

export const downloadQuerySchema = z.object({
  version_id: z.string().max(64).optional().openapi({ description: "Default: the current version" }),
  expires: z.string().max(20).optional().openapi({ description: "Signed link: expiry (Unix seconds)" }),
  nonce: z.string().max(100).optional().openapi({ description: "Signed link: single-use nonce" }),
  sig: z.string().max(100).optional().openapi({ description: "Signed link: HMAC signature" }),
});

export const versionsQuerySchema = pageQuerySchema;

export const fromUrlBodySchema = z
  .object({
    url: z.string().max(2048).openapi({ example: "https://example.com/data.csv" }),
    name: z.string().trim().min(1).max(120),
    description: z.string().max(2000).optional(),
  })
  .openapi("CreateDatasetFromUrlRequest");

export const taskSchemaOut = z
  .object({
    id: z.string(),
    kind: z.enum(["fetch_url", "pii_scan"]),
    state: z.enum(["queued", "running", "succeeded", "failed", "cancelled"]),
    progress: z.number().openapi({ description: "0..1" }),
    message: z.string().nullable(),
    dataset_id: z.string().nullable(),
    version_id: z.string().nullable(),
    error: z.string().nullable(),
    created_at: isoDate(),
    finished_at: isoDate().nullable(),
  })
  .openapi("DatasetTask");

export const taskAcceptedSchema = taskSchemaOut
  .extend({ task_id: z.string().openapi({ description: "Poll GET /datasets/tasks/{task_id}" }) })
  .openapi("DatasetTaskAccepted");

export const splitsBodySchema = z
  .object({
    splits: z
      .object({
        train: z.array(z.number().int()).optional(),
        validation: z.array(z.number().int()).optional(),
        test: z.array(z.number().int()).optional(),
      })
      .strict()
      .openapi({ description: "0-based row indices, in file order; disjoint; train required" }),
  })
  .openapi("SetExplicitSplitsRequest");

export const splitsResultSchema = splitsSummarySchema
  .extend({
    dataset_id: z.string(),
    version_id: z.string(),
    row_count: z.number().int(),
    unassigned: z.number().int(),
  })
  .openapi("DatasetSplits");

export const storageBreakdownSchema = z
  .object({
    datasets: z.number().int().openapi({ description: "Every version of every dataset you own" }),
    checkpoints: z.number().int().openapi({ description: "Training checkpoints kept by your jobs" }),
    artifacts: z.number().int().openapi({ description: "Model files uploaded by your training jobs" }),
    hub: z.number().int().openapi({ description: "Files of your hub models and their versions" }),
    registry: z.number().int().openapi({ description: "Artifacts of your registry model versions" }),
  })
  .openapi("StorageBreakdown", { description: "Bytes stored, by kind; they add up to `used_bytes`" });

export const quotaSchema = z
  .object({
    used_bytes: z.number().int().openapi({
      description: "Every byte you store: datasets, checkpoints, artifacts, hub and registry files",
    }),
    limit_bytes: z.number().int().openapi({ description: "Your plan's storage quota" }),
    per_file_limit_bytes: z.number().int().openapi({ description: "Largest dataset file you may upload" }),
    remaining_bytes: z.number().int(),
    breakdown: storageBreakdownSchema,
  })
  .openapi("StorageQuota", {
    description:
      "One storage quota covers every byte you store; an upload that would pass it is refused with 402 " +
      "(`type` ending with `storage-quota`, with `used_bytes`, `limit_bytes` and `requested_bytes`).",
  });

export const linkBodySchema = z
  .object({ dataset_id: z.string().min(1).max(64) })
  .openapi("LinkProjectDatasetRequest");

export const linkedDatasetSchema = datasetSchema.extend({ linked_at: isoDate() }).openapi("LinkedDataset");

export const projectLinksQuerySchema = skipLimitQuerySchema;
