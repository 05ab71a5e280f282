import { sql } from "drizzle-orm";
import {
  bigint,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  real,
  text,
  uniqueIndex,
} from "drizzle-orm/pg-core";
import { users } from "./accounts";
import { createdAt, timestamps, tstz } from "./columns";
import type { ArtifactFile } from "./training";

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
    /** The id of the deployment's latest event (deployment_events.seq): a per-deployment counter. */
    lastEventSeq: bigint("last_event_seq", { mode: "number" }).notNull().default(0),
    /** A registry alias the deployment follows: moving it makes a revision serving its new version. */
    followsModelId: text("follows_model_id"),
    followsAlias: text("follows_alias"),
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
    /** What the revision serves: a training job's (or run's) artifact, or a registry model version's. */
    source: text("source", { enum: ["job", "model_version"] })
      .notNull()
      .default("job"),
    jobId: text("job_id"),
    modelVersionId: text("model_version_id"),
    /** The artifact reference copied from the job, so the revision survives changes to it. */
    artifactFormat: text("artifact_format").notNull(),
    artifactFiles: jsonb("artifact_files").$type<ArtifactFile[]>().notNull(),
    artifactManifest: jsonb("artifact_manifest").$type<Record<string, unknown>>().notNull(),
    settings: jsonb("settings").$type<DeploymentSettings>().notNull().default({}),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("deployment_revisions_number_idx").on(t.deploymentId, t.number)],
);

export const DEPLOYMENT_EVENT_KINDS = ["status", "request", "log", "revision"] as const;
export type DeploymentEventKind = (typeof DEPLOYMENT_EVENT_KINDS)[number];

/**
 * A deployment's events (its SSE stream, its request log and its metrics): `seq` counts per
 * deployment (deployments.last_event_seq, advanced under the row lock by each append, so appends
 * commit in seq order and a reader's "seq above my cursor" never skips one). Request events carry
 * their route, status and latency as columns for the metrics' aggregates.
 */
export const deploymentEvents = pgTable(
  "deployment_events",
  {
    deploymentId: text("deployment_id")
      .notNull()
      .references(() => deployments.id, { onDelete: "cascade" }),
    seq: bigint("seq", { mode: "number" }).notNull(),
    kind: text("kind", { enum: DEPLOYMENT_EVENT_KINDS }).notNull(),
    at: tstz("at").notNull().defaultNow(),
    route: text("route"),
    status: integer("status"),
    latencyMs: real("latency_ms"),
    data: jsonb("data").$type<Record<string, unknown>>().notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.deploymentId, t.seq] }),
    index("deployment_events_kind_at_idx").on(t.deploymentId, t.kind, t.at),
  ],
);

export type DeploymentRow = typeof deployments.$inferSelect;
export type DeploymentRevisionRow = typeof deploymentRevisions.$inferSelect;
export type DeploymentEventRow = typeof deploymentEvents.$inferSelect;

/** One call served for a deployment, as the request-logging middleware hands it to the request log. */
export interface RequestRecord {
  deploymentId: string;
  route: string;
  status: number;
  latencyMs: number;
  at: Date;
  requestId: string | null;
  instances: number | null;
  error: string | null;
}

/** A deployment with its current revision, as inference reads them. */
export interface ServingTarget {
  d: DeploymentRow;
  r: DeploymentRevisionRow | null;
}
