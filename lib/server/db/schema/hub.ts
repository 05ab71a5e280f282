import { and, eq, or, type SQL, sql } from "drizzle-orm";
import {
  type AnyPgColumn,
  bigint,
  boolean,
  check,
  customType,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  uniqueIndex,
} from "drizzle-orm/pg-core";
import type { ArchitectureGraph, TrainingConfig } from "../../../ml/graph-types";
import { users } from "./accounts";
import { createdAt, timestamps, tstz } from "./columns";

/**
 * The hub (issue 15): public (or, on paid plans, private) models with their files, versions, stars
 * and reviews. A model is created as a `draft`, receives its files, and is `published` by finalize;
 * drafts and private models are seen by their owner only. `search` is a stored generated tsvector
 * over name (weight A), tags and task (B), description (C) and model card (D), GIN-indexed: the same
 * on PGlite and PostgreSQL, and never out of step with the columns it is computed from.
 */
export const HUB_VISIBILITIES = ["public", "private"] as const;
export type HubVisibility = (typeof HUB_VISIBILITIES)[number];
export const HUB_STATES = ["draft", "published"] as const;
export type HubState = (typeof HUB_STATES)[number];

const tsvector = customType<{ data: string }>({ dataType: () => "tsvector" });

/** Figures a model was measured with (from its training job's metrics or an evaluation). */
export interface HubEvaluation {
  metrics: Record<string, number>;
  dataset: string | null;
  split: string | null;
  /** Image models: a few pictures with their predictions (at most 6 thumbnails of 64×64). */
  samples?: { image: string; actual: string; predicted: string; confidence: number }[];
}

/** A file as recorded in a version's snapshot. */
export interface HubFileSnapshot {
  path: string;
  size_bytes: number;
  sha256: string;
  blob_key: string;
  content_type: string;
}

export const hubModels = pgTable(
  "hub_models",
  {
    id: text("id").primaryKey(),
    ownerId: text("owner_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** URL name, unique per owner (`/hub/<username>/<slug>`). */
    slug: text("slug").notNull(),
    name: text("name").notNull(),
    description: text("description").notNull().default(""),
    task: text("task"),
    framework: text("framework"),
    license: text("license"),
    tags: jsonb("tags").$type<string[]>().notNull().default([]),
    category: text("category"),
    /** The model card, markdown (rendered and sanitised by modules/hub/model-card.ts). */
    card: text("card").notNull().default(""),
    visibility: text("visibility", { enum: HUB_VISIBILITIES }).notNull().default("public"),
    state: text("state", { enum: HUB_STATES }).notNull().default("draft"),
    architecture: jsonb("architecture").$type<ArchitectureGraph | null>(),
    trainingConfig: jsonb("training_config").$type<TrainingConfig | null>(),
    evaluation: jsonb("evaluation").$type<HubEvaluation | null>(),
    /** The model this one was forked from (null when the parent was deleted, or for an original). */
    parentId: text("parent_id").references((): AnyPgColumn => hubModels.id, { onDelete: "set null" }),
    /** The base model a fine-tune started from (a catalog id or free text). */
    baseModel: text("base_model"),
    sourceJobId: text("source_job_id"),
    downloads: bigint("downloads", { mode: "number" }).notNull().default(0),
    stars: integer("stars").notNull().default(0),
    featured: boolean("featured").notNull().default(false),
    publishedAt: tstz("published_at"),
    search: tsvector("search")
      .notNull()
      .generatedAlwaysAs(
        (): SQL => sql`setweight(to_tsvector('english'::regconfig, "name"), 'A')
 || setweight(to_tsvector('english'::regconfig, "tags"), 'B')
 || setweight(to_tsvector('english'::regconfig, coalesce("task", '')), 'B')
 || setweight(to_tsvector('english'::regconfig, "description"), 'C')
 || setweight(to_tsvector('english'::regconfig, "card"), 'D')`,
      ),
    ...timestamps(),
  },
  (t) => [
    uniqueIndex("hub_models_owner_slug_idx").on(t.ownerId, t.slug),
    index("hub_models_search_idx").using("gin", t.search),
    index("hub_models_tags_idx").using("gin", t.tags),
    index("hub_models_listed_updated_idx").on(t.state, t.visibility, t.updatedAt),
    index("hub_models_listed_downloads_idx").on(t.state, t.visibility, t.downloads),
    index("hub_models_listed_stars_idx").on(t.state, t.visibility, t.stars),
    index("hub_models_parent_idx").on(t.parentId),
    check("hub_models_visibility_check", sql`${t.visibility} in ('public', 'private')`),
    check("hub_models_state_check", sql`${t.state} in ('draft', 'published')`),
  ],
);

export const hubModelFiles = pgTable(
  "hub_model_files",
  {
    id: text("id").primaryKey(),
    modelId: text("model_id")
      .notNull()
      .references(() => hubModels.id, { onDelete: "cascade" }),
    path: text("path").notNull(),
    sizeBytes: bigint("size_bytes", { mode: "number" }).notNull(),
    sha256: text("sha256").notNull(),
    /** Blob `hub/<id>`; a fork's files share their parent's blobs (removed when none refers to them). */
    blobKey: text("blob_key").notNull(),
    contentType: text("content_type").notNull(),
    ...timestamps(),
  },
  (t) => [
    uniqueIndex("hub_model_files_path_idx").on(t.modelId, t.path),
    index("hub_model_files_blob_idx").on(t.blobKey),
  ],
);

export const hubModelVersions = pgTable(
  "hub_model_versions",
  {
    id: text("id").primaryKey(),
    modelId: text("model_id")
      .notNull()
      .references(() => hubModels.id, { onDelete: "cascade" }),
    version: text("version").notNull(),
    notes: text("notes").notNull().default(""),
    files: jsonb("files").$type<HubFileSnapshot[]>().notNull(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("hub_model_versions_version_idx").on(t.modelId, t.version)],
);

/** One row per (user, model); trending counts the rows created in the last 7 days. */
export const hubStars = pgTable(
  "hub_stars",
  {
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    modelId: text("model_id")
      .notNull()
      .references(() => hubModels.id, { onDelete: "cascade" }),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.modelId] }),
    index("hub_stars_model_created_idx").on(t.modelId, t.createdAt),
    index("hub_stars_created_idx").on(t.createdAt),
  ],
);

/** One review per user per model, never by the model's owner; optionally tied to an evaluation. */
export const hubReviews = pgTable(
  "hub_reviews",
  {
    id: text("id").primaryKey(),
    modelId: text("model_id")
      .notNull()
      .references(() => hubModels.id, { onDelete: "cascade" }),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    rating: integer("rating").notNull(),
    text: text("text").notNull().default(""),
    evaluationId: text("evaluation_id"),
    /** The evaluation's figures, copied when the review was written (shown beside it). */
    evaluationMetrics: jsonb("evaluation_metrics").$type<Record<string, number> | null>(),
    ...timestamps(),
  },
  (t) => [
    uniqueIndex("hub_reviews_model_user_idx").on(t.modelId, t.userId),
    index("hub_reviews_model_created_idx").on(t.modelId, t.createdAt),
    check("hub_reviews_rating_check", sql`${t.rating} between 1 and 5`),
  ],
);

export type HubModelRow = typeof hubModels.$inferSelect;
export type HubModelFileRow = typeof hubModelFiles.$inferSelect;
export type HubModelVersionRow = typeof hubModelVersions.$inferSelect;
export type HubReviewRow = typeof hubReviews.$inferSelect;

/**
 * Signed download links that have fetched content (modules/hub/signed-links.ts): a link counts one
 * download however often it is replayed. Rows outlive their link's expiry by a day, then go.
 */
export const hubLinkDownloads = pgTable(
  "hub_link_downloads",
  {
    nonceHash: text("nonce_hash").primaryKey(),
    modelId: text("model_id")
      .notNull()
      .references(() => hubModels.id, { onDelete: "cascade" }),
    expiresAt: tstz("expires_at").notNull(),
  },
  (t) => [index("hub_link_downloads_expires_idx").on(t.expiresAt)],
);

// Who may see a hub model: a published public model is seen by everyone; a draft or a private
// model only by its owner (to anyone else it does not exist: 404). The rule lives with the table so
// that every module reading hub models (hub, and catalog resolving a hub model as a base model)
// applies the same one.

/** The condition "the caller may see this model" (viewerId null for signed-out callers). */
export function hubModelVisibleTo(viewerId: string | null): SQL {
  const listed = and(eq(hubModels.state, "published"), eq(hubModels.visibility, "public")) as SQL;
  return viewerId ? (or(listed, eq(hubModels.ownerId, viewerId)) as SQL) : listed;
}

export function isHubModelVisible(row: HubModelRow, viewerId: string | null): boolean {
  return (row.state === "published" && row.visibility === "public") || row.ownerId === viewerId;
}
