import { type AnyPgColumn, index, integer, jsonb, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import type { ArchitectureGraph, TrainingConfig } from "../../../ml/graph-types";
import { users } from "./accounts";
import { createdAt, timestamps, tstz } from "./columns";

/**
 * Projects (contract §4.2) and their architecture versions (§4.3). A project's `graph` and
 * `training_config` are its current, autosaved state; versions are immutable snapshots of them.
 */
export const projects = pgTable(
  "projects",
  {
    id: text("id").primaryKey(),
    ownerId: text("owner_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    description: text("description").notNull().default(""),
    graph: jsonb("graph").$type<ArchitectureGraph>().notNull(),
    trainingConfig: jsonb("training_config").$type<TrainingConfig>().notNull(),
    /** The version most recently saved or restored (null when none, or when it was deleted). */
    currentVersionId: text("current_version_id").references((): AnyPgColumn => projectVersions.id, {
      onDelete: "set null",
    }),
    /** Highest version number ever given out: numbers are never reused, even after a delete. */
    lastVersionNumber: integer("last_version_number").notNull().default(0),
    /** Blob key (`thumbnails/<project id>`, see storage/blob-store.ts), its sniffed type and size. */
    thumbnailKey: text("thumbnail_key"),
    thumbnailMime: text("thumbnail_mime"),
    thumbnailSize: integer("thumbnail_size"),
    /** `public`: listed on the owner's profile and readable by anyone; `private` (default): the owner's. */
    visibility: text("visibility", { enum: ["private", "public"] })
      .notNull()
      .default("private"),
    ...timestamps(),
  },
  (t) => [index("projects_owner_updated_idx").on(t.ownerId, t.updatedAt)],
);

export const projectVersions = pgTable(
  "project_versions",
  {
    id: text("id").primaryKey(),
    projectId: text("project_id")
      .notNull()
      .references((): AnyPgColumn => projects.id, { onDelete: "cascade" }),
    /** 1, 2, 3… per project. */
    number: integer("number").notNull(),
    message: text("message"),
    graph: jsonb("graph").$type<ArchitectureGraph>().notNull(),
    trainingConfig: jsonb("training_config").$type<TrainingConfig>().notNull(),
    createdBy: text("created_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("project_versions_project_number_idx").on(t.projectId, t.number)],
);

/** Share links: only the SHA-256 of the token is stored; the link is shown once, at creation. */
export const projectShares = pgTable(
  "project_shares",
  {
    id: text("id").primaryKey(),
    projectId: text("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
    tokenHash: text("token_hash").notNull(),
    accessCount: integer("access_count").notNull().default(0),
    lastAccessedAt: tstz("last_accessed_at"),
    revokedAt: tstz("revoked_at"),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("project_shares_token_hash_idx").on(t.tokenHash),
    index("project_shares_project_idx").on(t.projectId),
  ],
);
