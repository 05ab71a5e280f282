import { sql } from "drizzle-orm";
import {
  type AnyPgColumn,
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

/**
 * The model registry (contract §4.10, issue 15): an owner's model entries, their numbered versions
 * (pushed from a training job or fine-tuning run, or bare and filled by artifact uploads), the
 * versions' artifact files (blob `registry/<artifact id>.<upload>`), and named aliases that point at
 * one version each. A version is `pending` until finalized, then `ready` and immutable.
 */
export const MODEL_VERSION_STATES = ["pending", "ready"] as const;
export type ModelVersionState = (typeof MODEL_VERSION_STATES)[number];
export const MODEL_VERSION_SOURCES = ["job", "run", "bare"] as const;
export type ModelVersionSource = (typeof MODEL_VERSION_SOURCES)[number];
export const MODEL_ARTIFACT_STATES = ["pending", "complete"] as const;
export type ModelArtifactState = (typeof MODEL_ARTIFACT_STATES)[number];

export const registeredModels = pgTable(
  "registered_models",
  {
    id: text("id").primaryKey(),
    ownerId: text("owner_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    description: text("description").notNull().default(""),
    /** Free-form task (e.g. a task contract key such as `tabular-classification`), or null. */
    task: text("task"),
    tags: jsonb("tags").$type<string[]>().notNull().default([]),
    /** Highest version number given out: pushes take the next one under this row's lock. */
    lastVersionNumber: integer("last_version_number").notNull().default(0),
    ...timestamps(),
  },
  (t) => [
    uniqueIndex("registered_models_owner_name_idx").on(t.ownerId, t.name),
    index("registered_models_owner_updated_idx").on(t.ownerId, t.updatedAt),
  ],
);

export const modelVersions = pgTable(
  "model_versions",
  {
    id: text("id").primaryKey(),
    modelId: text("model_id")
      .notNull()
      .references((): AnyPgColumn => registeredModels.id, { onDelete: "cascade" }),
    /** 1, 2, 3… per model. */
    number: integer("number").notNull(),
    state: text("state", { enum: MODEL_VERSION_STATES }).notNull().default("pending"),
    source: text("source", { enum: MODEL_VERSION_SOURCES }).notNull(),
    /** The training job or fine-tuning run it was pushed from (no foreign key: the version outlives it). */
    jobId: text("job_id"),
    taskContractKey: text("task_contract_key"),
    taskContractVersion: integer("task_contract_version"),
    description: text("description").notNull().default(""),
    /** Copied from the job's manifest (or a bare version's manifest.json) metrics. */
    metrics: jsonb("metrics").$type<Record<string, number>>().notNull().default({}),
    /** `onnx` | `tfjs` when the artifacts hold a servable model, and its parsed manifest.json. */
    artifactFormat: text("artifact_format"),
    artifactManifest: jsonb("artifact_manifest").$type<Record<string, unknown> | null>(),
    finalizedAt: tstz("finalized_at"),
    ...timestamps(),
  },
  (t) => [
    uniqueIndex("model_versions_model_number_idx").on(t.modelId, t.number),
    index("model_versions_job_idx").on(t.jobId),
    check("model_versions_state_check", sql`${t.state} in ('pending', 'ready')`),
    check("model_versions_source_check", sql`${t.source} in ('job', 'run', 'bare')`),
  ],
);

export const modelArtifacts = pgTable(
  "model_artifacts",
  {
    id: text("id").primaryKey(),
    versionId: text("version_id")
      .notNull()
      .references(() => modelVersions.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    /** What the client declared at initiate; `complete` checks the received bytes against them. */
    sizeBytes: bigint("size_bytes", { mode: "number" }).notNull(),
    sha256: text("sha256").notNull(),
    contentType: text("content_type").notNull(),
    state: text("state", { enum: MODEL_ARTIFACT_STATES }).notNull().default("pending"),
    /** The received bytes (null until an upload finished) with their measured size and SHA-256. */
    blobKey: text("blob_key"),
    receivedSize: bigint("received_size", { mode: "number" }),
    receivedSha256: text("received_sha256"),
    completedAt: tstz("completed_at"),
    ...timestamps(),
  },
  (t) => [
    uniqueIndex("model_artifacts_version_name_idx").on(t.versionId, t.name),
    check("model_artifacts_state_check", sql`${t.state} in ('pending', 'complete')`),
  ],
);

/** One row per (model, alias): moving an alias is one upsert of this row. */
export const modelAliases = pgTable(
  "model_aliases",
  {
    modelId: text("model_id")
      .notNull()
      .references(() => registeredModels.id, { onDelete: "cascade" }),
    alias: text("alias").notNull(),
    versionId: text("version_id")
      .notNull()
      .references(() => modelVersions.id, { onDelete: "cascade" }),
    createdAt: createdAt(),
    updatedAt: tstz("updated_at").notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.modelId, t.alias] }), index("model_aliases_version_idx").on(t.versionId)],
);

export type RegisteredModelRow = typeof registeredModels.$inferSelect;
export type ModelVersionRow = typeof modelVersions.$inferSelect;
export type ModelArtifactRow = typeof modelArtifacts.$inferSelect;
export type ModelAliasRow = typeof modelAliases.$inferSelect;
