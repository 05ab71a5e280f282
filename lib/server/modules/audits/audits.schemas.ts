/**
 * Audits (contract §4.11, decisions "Audits"): request and response schemas shared by the routes
 * and the service.
 */
import { z } from "@hono/zod-openapi";
import { AUDIT_STATES, AUDIT_STEP_STATUSES, AUDIT_TASKS } from "../../db/schema/audits";
import { pathParam } from "../../http/openapi";
import { pagedSchema, pageQuerySchema } from "../../http/paging";

export const MAX_CALLS_PER_WORKLOAD = 20_000;
export const MAX_WORKLOADS = 20;

const chatMessage = z.object({ role: z.string().min(1).max(32), content: z.string().max(100_000) });

export const callInputSchema = z
  .union([z.string().max(100_000), z.array(chatMessage).min(1).max(200), z.record(z.string(), z.unknown())])
  .openapi("AuditCallInput", { description: "Text, chat messages or a feature object" });

export const auditCallSchema = z
  .object({
    input: callInputSchema,
    output: z.string().max(100_000),
    latency_ms: z.number().min(0).max(86_400_000).nullable().optional(),
    cost: z.number().min(0).max(1_000_000).nullable().optional(),
    timestamp: z.string().datetime({ offset: true }).nullable().optional(),
    holdout: z.boolean().optional().openapi({
      description: "Held out for evaluation; default: a seeded 20% of the workload's calls",
    }),
  })
  .strict()
  .openapi("AuditCall");

export const taskSchema = z.enum(AUDIT_TASKS).openapi("AuditTask", {
  description: "classification (a small set of distinct outputs) or generation (free text)",
});

export const createWorkloadSchema = z
  .object({
    name: z.string().trim().min(1).max(120),
    task: taskSchema,
    model: z.string().trim().min(1).max(200).openapi({ description: "The model or hosted API called today" }),
    calls: z.array(auditCallSchema).min(2).max(MAX_CALLS_PER_WORKLOAD),
  })
  .strict();

export const createAuditBodySchema = z
  .object({
    name: z.string().trim().min(1).max(200),
    source: z
      .string()
      .trim()
      .max(500)
      .default("")
      .openapi({ description: "Where the calls came from, e.g. a file name" }),
    publish_inputs: z.boolean().default(false).openapi({
      description: "Whether the shared report may show the calls' raw inputs (default: never)",
    }),
    workloads: z.array(createWorkloadSchema).min(1).max(MAX_WORKLOADS),
  })
  .strict()
  .openapi("CreateAudit", {
    example: {
      name: "Support triage",
      source: "calls.jsonl",
      publish_inputs: false,
      workloads: [
        {
          name: "gpt-4o-mini-classification",
          task: "classification",
          model: "gpt-4o-mini",
          calls: [
            { input: "I was charged twice", output: "billing", latency_ms: 620, cost: 0.00021 },
            { input: "The app crashes on start", output: "bug", latency_ms: 710, cost: 0.00023 },
          ],
        },
      ],
    },
  });

export const stepBodySchema = z
  .object({
    name: z.string().trim().min(1).max(120),
    status: z.enum(AUDIT_STEP_STATUSES),
    message: z.string().max(2000).optional(),
  })
  .strict()
  .openapi("CreateAuditStep");

export const completeBodySchema = z
  .object({
    summary: z.record(z.string(), z.unknown()).openapi({ description: "The CLI's summary (free-form JSON)" }),
    outcome: z.enum(["completed", "failed"]).default("completed"),
  })
  .strict()
  .openapi("CompleteAudit");

export const createCandidateBodySchema = z
  .object({
    recipe_id: z.string().min(1).max(64),
    base_model_id: z.string().min(1).max(100),
    config: z
      .object({
        epochs: z.number().int().min(1).max(1000).optional(),
        batch_size: z.number().int().min(1).max(1024).optional(),
        learning_rate: z.number().gt(0).max(1).optional(),
        seed: z
          .number()
          .int()
          .min(0)
          .max(2 ** 31 - 1)
          .optional(),
      })
      .strict()
      .optional()
      .openapi({ description: "Overrides of the run's configuration (the base model's, then the recipe's)" }),
  })
  .strict()
  .openapi("CreateAuditCandidate");

export const auditIdParams = z.object({ audit_id: pathParam("audit_id") });
export const workloadParams = z.object({
  audit_id: pathParam("audit_id"),
  workload_id: pathParam("workload_id"),
});
export const candidateParams = z.object({
  audit_id: pathParam("audit_id"),
  candidate_id: pathParam("candidate_id"),
});
export const tokenParams = z.object({ token: pathParam("token", { max: 128 }) });
export const listAuditsQuerySchema = pageQuerySchema;

export const currentSchema = z
  .object({
    calls: z.number().int(),
    cost_per_1k: z
      .number()
      .nullable()
      .openapi({ description: "Mean logged cost × 1,000 (null when not logged)" }),
    latency_p50_ms: z.number().nullable(),
    latency_p95_ms: z.number().nullable(),
  })
  .openapi("AuditCurrentStats");

export const stepSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    status: z.enum(AUDIT_STEP_STATUSES),
    message: z.string().nullable(),
    at: z.string(),
  })
  .openapi("AuditStep");

export const workloadSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    task: taskSchema,
    model: z.string(),
    labels: z.array(z.string()).nullable(),
    training_calls: z.number().int(),
    holdout_calls: z.number().int(),
    dataset_id: z.string().nullable(),
    current: currentSchema,
  })
  .openapi("AuditWorkload");

export const auditSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    source: z.string(),
    state: z.enum(AUDIT_STATES),
    publish_inputs: z.boolean(),
    shared: z.boolean(),
    summary: z.record(z.string(), z.unknown()).nullable(),
    workloads: z.array(workloadSchema),
    steps: z.array(stepSchema),
    candidate_count: z.number().int(),
    best_savings_percent: z
      .number()
      .nullable()
      .openapi({ description: "Best candidate's savings over all workloads" }),
    created_at: z.string(),
    updated_at: z.string(),
    completed_at: z.string().nullable(),
  })
  .openapi("Audit");

export const auditPageSchema = pagedSchema(auditSchema, "AuditPage");

export const evaluationSchema = z
  .object({
    metric: z.enum(["accuracy", "levenshtein_similarity"]),
    quality: z.number().openapi({ description: "Agreement with the logged outputs on held-out calls, 0–1" }),
    calls: z.number().int(),
    latency_p50_ms: z.number(),
    latency_p95_ms: z.number(),
    latency_samples: z.array(z.number()),
    mean_cpu_ms: z.number(),
    cost_per_1k: z.number().openapi({ description: "Estimated USD per 1,000 calls (see the cost model)" }),
    cost_model: z.object({ cpu_second_usd: z.number(), per_call_usd: z.number() }),
    examples: z.array(z.object({ input: z.string(), expected: z.string(), predicted: z.string() })),
    evaluated_at: z.string(),
  })
  .openapi("AuditCandidateEvaluation");

export const CANDIDATE_STATES = ["training", "trained", "evaluated", "failed", "cancelled"] as const;

export const candidateSchema = z
  .object({
    id: z.string(),
    audit_id: z.string(),
    workload_id: z.string(),
    recipe_id: z.string(),
    base_model_id: z.string(),
    state: z.enum(CANDIDATE_STATES),
    run: z
      .object({ id: z.string(), state: z.string(), reason: z.string().nullable(), url: z.string() })
      .nullable()
      .openapi({ description: "The fine-tuning run (a training job)" }),
    deployment_id: z.string().nullable(),
    evaluation: evaluationSchema.nullable(),
    savings: z.object({ per_1k: z.number().nullable(), percent: z.number().nullable() }),
    created_at: z.string(),
  })
  .openapi("AuditCandidate");

export const candidateListSchema = z
  .object({ items: z.array(candidateSchema) })
  .openapi("AuditCandidateList");

export const datasetResultSchema = z
  .object({ dataset_id: z.string(), rows: z.number().int(), created: z.boolean() })
  .openapi("AuditWorkloadDataset");

export const cancelResultSchema = z
  .object({
    state: z.enum(AUDIT_STATES),
    cancelled_jobs: z.array(z.string()),
    paused_deployments: z.array(z.string()),
  })
  .openapi("AuditCancelResult");

export const shareResultSchema = z
  .object({ token: z.string(), url: z.string(), api_url: z.string() })
  .openapi("AuditShare");

export const deployResultSchema = z
  .object({
    candidate: candidateSchema,
    deployment_id: z.string(),
    api_key: z.string().openapi({ description: "The deployment key, shown once" }),
  })
  .openapi("AuditCandidateDeployment");

const reportCandidateSchema = z.object({
  id: z.string(),
  recipe_id: z.string(),
  base_model_id: z.string(),
  state: z.enum(CANDIDATE_STATES),
  run_id: z.string().nullable().openapi({ description: "null on a shared report" }),
  quality: z.number().nullable(),
  metric: z.string().nullable(),
  latency_p50_ms: z.number().nullable(),
  latency_p95_ms: z.number().nullable(),
  latency_samples: z.array(z.number()),
  cost_per_1k: z.number().nullable(),
  savings: z.object({ per_1k: z.number().nullable(), percent: z.number().nullable() }),
  examples: z.array(z.object({ input: z.string(), expected: z.string(), predicted: z.string() })),
});

export const reportSchema = z
  .object({
    audit: z.object({
      id: z.string(),
      name: z.string(),
      source: z.string(),
      state: z.enum(AUDIT_STATES),
      created_at: z.string(),
      completed_at: z.string().nullable(),
      summary: z.record(z.string(), z.unknown()).nullable(),
    }),
    steps: z.array(stepSchema),
    workloads: z.array(
      z.object({
        id: z.string(),
        name: z.string(),
        task: taskSchema,
        model: z.string(),
        labels: z.array(z.string()).nullable(),
        current: currentSchema,
        current_latency_samples: z.array(z.number()),
        candidates: z.array(reportCandidateSchema),
        best_candidate_id: z.string().nullable(),
        best_savings: z.object({ per_1k: z.number().nullable(), percent: z.number().nullable() }),
      }),
    ),
    totals: z.object({
      calls: z.number().int(),
      current_cost_per_1k: z.number().nullable(),
      best_cost_per_1k: z.number().nullable(),
      savings_percent: z.number().nullable(),
    }),
    quality_metrics: z.object({
      classification: z.literal("accuracy"),
      generation: z.literal("levenshtein_similarity"),
    }),
    cost_model: z.string().openapi({ description: "How a candidate's cost is estimated, in words" }),
    inputs_published: z.boolean(),
  })
  .openapi("AuditReport");
