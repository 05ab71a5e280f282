import type { z } from "@hono/zod-openapi";
import type { DatasetSchemaInfo } from "../../db/schema/datasets";
import type { DatasetRow, VersionRow } from "./access";
import {
  BUILTIN_CREATED_AT,
  type BuiltinDataset,
  type BuiltinVersionData,
  builtinVersionId,
} from "./builtin";
import type { datasetSchema, splitsSummarySchema, versionSchema } from "./datasets.schemas";

/** API representations of datasets and versions: inferred from their response schemas. */
export type DatasetView = z.infer<typeof datasetSchema>;
export type SplitsSummary = z.infer<typeof splitsSummarySchema>;
export type VersionView = z.infer<typeof versionSchema>;

export function storedDatasetView(
  row: DatasetRow,
  ownerUsername: string,
  viewerId: string | null,
  current: { schema: DatasetSchemaInfo; rowCount: number | null } | null,
): DatasetView {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    builtin: false,
    read_only: row.ownerId !== viewerId,
    owner: { id: row.ownerId, username: ownerUsername },
    visibility: row.visibility,
    format: row.format,
    task: row.task,
    roles: row.roles,
    size_bytes: row.sizeBytes,
    row_count: current?.rowCount ?? null,
    columns: current?.schema.columns ?? [],
    current_version_id: row.currentVersionId,
    version_count: row.lastVersionNumber,
    license: null,
    source: null,
    image_layout: null,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

export function builtinDatasetView(b: BuiltinDataset, data: BuiltinVersionData): DatasetView {
  return {
    id: b.id,
    name: b.name,
    description: b.description,
    builtin: true,
    read_only: true,
    owner: null,
    visibility: "public",
    format: b.format,
    task: b.task,
    roles: data.roles,
    size_bytes: data.sizeBytes,
    row_count: data.profile.row_count,
    columns: data.schema.columns,
    current_version_id: builtinVersionId(b),
    version_count: 1,
    license: b.license,
    source: b.source,
    image_layout: b.image ?? null,
    created_at: BUILTIN_CREATED_AT,
    updated_at: BUILTIN_CREATED_AT,
  };
}

export function splitsSummary(v: VersionRow["splits"]): SplitsSummary | null {
  if (!v) return null;
  return {
    kind: v.kind,
    train: v.train.length,
    validation: v.validation.length,
    test: v.test.length,
    created_at: v.created_at,
  };
}

export function storedVersionView(
  v: VersionRow,
  currentVersionId: string | null,
  creator: { id: string; username: string } | null,
  withProfile: boolean,
): VersionView {
  return {
    id: v.id,
    dataset_id: v.datasetId,
    number: v.number,
    is_current: v.id === currentVersionId,
    file_name: v.fileName,
    content_hash: v.contentHash,
    size_bytes: v.sizeBytes,
    row_count: v.rowCount,
    schema: v.schema,
    ...(withProfile ? { profile: v.profile } : {}),
    pii_report: v.piiReport ?? null,
    splits: splitsSummary(v.splits),
    created_by: creator,
    created_at: v.createdAt.toISOString(),
  };
}

export function builtinVersionView(
  b: BuiltinDataset,
  data: BuiltinVersionData,
  withProfile: boolean,
): VersionView {
  return {
    id: builtinVersionId(b),
    dataset_id: b.id,
    number: 1,
    is_current: true,
    file_name: b.file,
    content_hash: data.contentHash,
    size_bytes: data.sizeBytes,
    row_count: data.profile.row_count,
    schema: data.schema,
    ...(withProfile ? { profile: data.profile } : {}),
    pii_report: null,
    splits: null,
    created_by: null,
    created_at: BUILTIN_CREATED_AT,
  };
}
