import { sql } from "drizzle-orm";
import { check, index, integer, jsonb, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import type { ArtifactFile } from "../../services/training/types";
import { users } from "./accounts";
import { createdAt, timestamps } from "./columns";

/**
 * Deployments (issue 14): a served model behind its own key (`ldk_…`, stored as a SHA-256 hash
 * like personal keys, shown once). Every change of model or settings makes a revision; the
 * deployment points at its current one.
 */
export const DEPLOYMENT_STATES = ["deploying", "ready", "failed", "paused"] as const;
export type DeploymentState = (typeof DEPLOYMENT_STATES)[number];

export interface DeploymentSettings {
  /** Largest number of instances one model call runs (micro-batching). */
  max_batch_size?: number;
}

export const deployments = pgTable(
  "deployments",
  {
    id: text("id").primaryKey(),
    ownerId: text("owner_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    state: text("state", { enum: DEPLOYMENT_STATES }).notNull().default("deploying"),
    currentRevisionId: text("current_revision_id"),
    keyHash: text("key_hash").notNull(),
    keyPrefix: text("key_prefix").notNull(),
    ...timestamps(),
  },
  (t) => [
    index("deployments_owner_created_idx").on(t.ownerId, t.createdAt),
    uniqueIndex("deployments_key_hash_idx").on(t.keyHash),
    check("deployments_state_check", sql`${t.state} in ('deploying', 'ready', 'failed', 'paused')`),
  ],
);

export const deploymentRevisions = pgTable(
  "deployment_revisions",
  {
    id: text("id").primaryKey(),
    deploymentId: text("deployment_id")
      .notNull()
      .references(() => deployments.id, { onDelete: "cascade" }),
    number: integer("number").notNull(),
    /** What the revision serves: a training job's artifact (later also a model version). */
    source: text("source", { enum: ["job"] })
      .notNull()
      .default("job"),
    jobId: text("job_id"),
    /** The artifact reference copied from the job, so the revision survives changes to it. */
    artifactFormat: text("artifact_format").notNull(),
    artifactFiles: jsonb("artifact_files").$type<ArtifactFile[]>().notNull(),
    artifactManifest: jsonb("artifact_manifest").$type<Record<string, unknown>>().notNull(),
    settings: jsonb("settings").$type<DeploymentSettings>().notNull().default({}),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("deployment_revisions_number_idx").on(t.deploymentId, t.number)],
);

export type DeploymentRow = typeof deployments.$inferSelect;
export type DeploymentRevisionRow = typeof deploymentRevisions.$inferSelect;
