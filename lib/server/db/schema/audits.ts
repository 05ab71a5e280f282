import { sql } from "drizzle-orm";
import {
  boolean,
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

/**
 * Audits (issue 16): a workload the user runs today (logged calls to a model or hosted API) and the
 * cheaper candidates trained on it. The audit owns what it creates: each workload's dataset, each
 * candidate's fine-tuning run (a training job) and deployment. Those are referenced by id without a
 * foreign key (deleting the audit deletes them through their own services, blobs included).
 * The share token is stored only as its SHA-256.
 */
export const AUDIT_STATES = ["running", "completed", "failed", "cancelled"] as const;
export type AuditState = (typeof AUDIT_STATES)[number];
export const AUDIT_TASKS = ["classification", "generation"] as const;
export const AUDIT_STEP_STATUSES = ["running", "succeeded", "failed", "skipped"] as const;

/** A candidate's measurement on the workload's held-out calls. */
export interface AuditEvaluation {
  metric: "accuracy" | "levenshtein_similarity";
  quality: number;
  calls: number;
  latency_p50_ms: number;
  latency_p95_ms: number;
  /** Measured per-call latencies (ms), at most 200, sorted. */
  latency_samples: number[];
  mean_cpu_ms: number;
  cost_per_1k: number;
  cost_model: { cpu_second_usd: number; per_call_usd: number };
  /** A few held-out calls with the candidate's answer (shown to others only when inputs are published). */
  examples: { input: string; expected: string; predicted: string }[];
  evaluated_at: string;
}

/** What a workload costs and how fast it answers today, from its logged calls. */
export interface AuditWorkloadStats {
  calls: number;
  training_calls: number;
  holdout_calls: number;
  cost_per_1k: number | null;
  latency_p50_ms: number | null;
  latency_p95_ms: number | null;
  /** Logged latencies (ms), at most 200, sorted. */
  latency_samples: number[];
}

export const audits = pgTable(
  "audits",
  {
    id: text("id").primaryKey(),
    ownerId: text("owner_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    source: text("source").notNull().default(""),
    state: text("state", { enum: AUDIT_STATES }).notNull().default("running"),
    /** Whether the raw inputs of calls may be shown on the shared report. */
    publishInputs: boolean("publish_inputs").notNull().default(false),
    summary: jsonb("summary").$type<Record<string, unknown> | null>(),
    shareTokenHash: text("share_token_hash"),
    sharedAt: tstz("shared_at"),
    completedAt: tstz("completed_at"),
    ...timestamps(),
  },
  (t) => [
    index("audits_owner_created_idx").on(t.ownerId, t.createdAt),
    uniqueIndex("audits_share_token_idx").on(t.shareTokenHash).where(sql`${t.shareTokenHash} is not null`),
  ],
);

export const auditSteps = pgTable(
  "audit_steps",
  {
    id: text("id").primaryKey(),
    auditId: text("audit_id")
      .notNull()
      .references(() => audits.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    status: text("status", { enum: AUDIT_STEP_STATUSES }).notNull(),
    message: text("message"),
    at: createdAt(),
  },
  (t) => [index("audit_steps_audit_idx").on(t.auditId, t.at)],
);

export const auditWorkloads = pgTable(
  "audit_workloads",
  {
    id: text("id").primaryKey(),
    auditId: text("audit_id")
      .notNull()
      .references(() => audits.id, { onDelete: "cascade" }),
    position: integer("position").notNull(),
    name: text("name").notNull(),
    task: text("task", { enum: AUDIT_TASKS }).notNull(),
    model: text("model").notNull(),
    labels: jsonb("labels").$type<string[] | null>(),
    /** Figures of the logged calls, computed once when the audit is published. */
    stats: jsonb("stats").$type<AuditWorkloadStats>().notNull(),
    /** The dataset made from the training calls (created on the first candidate), or null. */
    datasetId: text("dataset_id"),
    createdAt: createdAt(),
  },
  (t) => [index("audit_workloads_audit_idx").on(t.auditId, t.position)],
);

export const auditCalls = pgTable(
  "audit_calls",
  {
    workloadId: text("workload_id")
      .notNull()
      .references(() => auditWorkloads.id, { onDelete: "cascade" }),
    idx: integer("idx").notNull(),
    /** The input as published (text, messages or a feature object). */
    input: jsonb("input").$type<unknown>().notNull(),
    inputText: text("input_text").notNull(),
    output: text("output").notNull(),
    latencyMs: real("latency_ms"),
    cost: real("cost"),
    calledAt: tstz("called_at"),
    holdout: boolean("holdout").notNull(),
  },
  (t) => [primaryKey({ columns: [t.workloadId, t.idx] })],
);

export const auditCandidates = pgTable(
  "audit_candidates",
  {
    id: text("id").primaryKey(),
    auditId: text("audit_id")
      .notNull()
      .references(() => audits.id, { onDelete: "cascade" }),
    workloadId: text("workload_id")
      .notNull()
      .references(() => auditWorkloads.id, { onDelete: "cascade" }),
    recipeId: text("recipe_id").notNull(),
    baseModelId: text("base_model_id").notNull(),
    /** The fine-tuning run (a training job id). */
    runId: text("run_id"),
    /** The run's project (each fine-tuning run gets one). */
    projectId: text("project_id"),
    deploymentId: text("deployment_id"),
    evaluation: jsonb("evaluation").$type<AuditEvaluation | null>(),
    ...timestamps(),
  },
  (t) => [index("audit_candidates_audit_idx").on(t.auditId, t.createdAt)],
);

export type AuditRow = typeof audits.$inferSelect;
export type AuditStepRow = typeof auditSteps.$inferSelect;
export type AuditWorkloadRow = typeof auditWorkloads.$inferSelect;
export type AuditCallRow = typeof auditCalls.$inferSelect;
export type AuditCandidateRow = typeof auditCandidates.$inferSelect;
