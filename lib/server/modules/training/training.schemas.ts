/**
 * Request and response schemas of the training area (contract §4.6, decisions "Training"): one
 * definition shared by the routes (the OpenAPI document) and the services (their view types).
 *
 * One piece by design (past ~400 lines): every schema of the area's routes lives in one file, the
 * area's half of the OpenAPI document (../shared/STYLE.md, "Server modules").
 */
import { z } from "@hono/zod-openapi";
import { OPTIMIZERS } from "../../../ml/graph-types";
import { TRAINING_RUNTIMES, TRAINING_STATES } from "../../db/schema/training";
import { pathParam } from "../../http/openapi";
import { pageQuerySchema } from "../../http/paging";
import {
  augmentationApiSchema,
  graphApiSchema,
  imageResizeApiSchema,
  jobConfigSchema,
} from "../projects/projects.schemas";

const dateTime = () => z.string().openapi({ format: "date-time" });

/** Largest page of metrics and logs (decisions: up to 10,000). */
export const MAX_SERIES_PAGE = 10_000;
/** Events accepted in one upload request. */
export const MAX_UPLOAD_EVENTS = 1000;

export const trainingStateSchema = z.enum(TRAINING_STATES).openapi("TrainingState", {
  description:
    "queued → running → succeeded | failed | cancelled | timed_out. Restart takes a failed, cancelled or " +
    "timed-out job back to queued (resuming from its last checkpoint).",
});
export const trainingRuntimeSchema = z.enum(TRAINING_RUNTIMES).openapi("TrainingRuntime", {
  description:
    "auto: PyTorch where the worker has it, else TensorFlow.js; pytorch; tfjs; external: your own hardware " +
    "(the service never executes it and learns its progress from uploaded events).",
});

/** Overrides of the project's training configuration; contract ranges. Unknown fields are refused. */
export const jobConfigInputSchema = z
  .object({
    epochs: z.number().int().min(1).max(1000).optional(),
    batch_size: z.number().int().min(1).max(1024).optional(),
    learning_rate: z.number().gt(0).max(1).optional(),
    optimizer: z.enum(OPTIMIZERS).optional(),
    weight_decay: z.number().min(0).max(1).optional(),
    seed: z
      .number()
      .int()
      .min(0)
      .max(2 ** 31 - 1)
      .optional(),
    validation_split: z.number().min(0).max(0.5).optional(),
    augmentation: augmentationApiSchema.optional(),
    resize: imageResizeApiSchema.optional(),
  })
  .strict()
  .openapi("TrainingJobConfigInput", {
    description:
      "Training configuration; omitted fields take the project's values. epochs 1–1000, batch_size 1–1024, " +
      "learning_rate in (0, 1]. augmentation and resize matter for image datasets only: augmentation " +
      "horizontal_flip, crop_padding 0–8 pixels, rotation_degrees 0–30, translate 0–0.25 of the size, " +
      "color_jitter 0–0.5 (RGB); resize stretch (default), crop or pad.",
  });

export const createJobBodySchema = z
  .object({
    project_id: z.string().min(1).max(64),
    version_id: z.string().min(1).max(64).optional().openapi({
      description: "An architecture version of the project; default: the project's current state",
    }),
    dataset_id: z.string().min(1).max(64),
    dataset_version_id: z.string().min(1).max(64).optional().openapi({ description: "Default: current" }),
    name: z.string().trim().min(1).max(200).optional(),
    config: jobConfigInputSchema.optional(),
    runtime: trainingRuntimeSchema.default("auto"),
    strategy: z.string().min(1).max(64).default("single"),
    recipe_id: z.string().min(1).max(64).optional(),
  })
  .strict()
  .openapi("CreateTrainingJob", {
    example: {
      project_id: "prj_4f9Qx2",
      dataset_id: "builtin-iris",
      runtime: "auto",
      config: { epochs: 20, batch_size: 16 },
    },
  });

export const statusChangeSchema = z
  .object({ status: trainingStateSchema, at: dateTime(), reason: z.string().nullable() })
  .openapi("TrainingStatusChange");

export const progressSchema = z
  .object({
    epoch: z.number().int(),
    epochs: z.number().int(),
    step: z.number().int(),
    steps: z.number().int(),
  })
  .openapi("TrainingProgress");

export const artifactFileSchema = z
  .object({ name: z.string(), size_bytes: z.number().int(), sha256: z.string() })
  .openapi("TrainingArtifactFile");

export const trainingJobSchema = z
  .object({
    id: z.string().openapi({ example: "job_3kTq9x" }),
    name: z.string(),
    project_id: z.string(),
    project_name: z.string(),
    version_id: z.string().nullable(),
    dataset_id: z.string(),
    dataset_version_id: z.string(),
    state: trainingStateSchema,
    runtime: trainingRuntimeSchema,
    resolved_runtime: z.enum(["pytorch", "tfjs", "external"]).nullable(),
    strategy: z.string(),
    recipe_id: z.string().nullable(),
    base_model_id: z.string().nullable(),
    base_model_name: z
      .string()
      .nullable()
      .openapi({ description: "A fine-tuning run's base model, by name (null for other jobs)" }),
    config: jobConfigSchema,
    status_history: z.array(statusChangeSchema),
    reason: z.string().nullable(),
    progress: progressSchema.nullable(),
    metrics: z.record(z.string(), z.number()).openapi({ description: "Latest value of each metric" }),
    waiting_for_slot: z.boolean().openapi({
      description: "Queued behind the plan's concurrent_training_jobs limit",
    }),
    cancel_requested: z.boolean(),
    compute_seconds: z.number(),
    credits_charged: z.number(),
    artifact: z
      .object({ format: z.enum(["onnx", "tfjs"]), files: z.array(artifactFileSchema) })
      .nullable()
      .openapi({ description: "The model artifact, once the job succeeded" }),
    restart_count: z.number().int(),
    last_event_id: z.number().int().openapi({
      description:
        "Id of the job's latest event: open the stream with Last-Event-ID set to it to follow only what comes next",
    }),
    created_at: dateTime(),
    updated_at: dateTime(),
    started_at: dateTime().nullable(),
    finished_at: dateTime().nullable(),
  })
  .openapi("TrainingJob");

export const jobIdParams = z.object({ job_id: pathParam("job_id") });
export const checkpointParams = z.object({
  job_id: pathParam("job_id"),
  checkpoint_id: pathParam("checkpoint_id"),
});
export const artifactFileParams = z.object({
  job_id: pathParam("job_id"),
  file_name: z
    .string()
    .regex(/^[A-Za-z0-9][A-Za-z0-9_.-]{0,99}$/)
    .openapi({ param: { name: "file_name", in: "path" }, example: "model.onnx" }),
});

export const listJobsQuerySchema = pageQuerySchema.extend({
  state: trainingStateSchema.optional(),
  project_id: z.string().min(1).max(64).optional(),
  q: z.string().max(200).optional().openapi({ description: "Search in job and project names" }),
});

export const bulkDeleteBodySchema = z
  .object({ ids: z.array(z.string().min(1).max(64)).min(1).max(100) })
  .strict()
  .openapi("BulkDeleteTrainingJobs");
export const bulkDeleteResultSchema = z
  .object({
    deleted: z.array(z.string()),
    not_found: z.array(z.string()),
    active: z.array(z.string()).openapi({ description: "Queued or running jobs: cancel them first" }),
  })
  .openapi("BulkDeleteTrainingJobsResult");

// ---- metrics and logs ----

export const metricPointSchema = z
  .object({
    name: z.string(),
    step: z.number().int(),
    epoch: z.number().int().nullable(),
    value: z.number(),
    timestamp: dateTime(),
  })
  .openapi("MetricPoint");

export const metricsQuerySchema = z.object({
  name: z.string().max(200).optional().openapi({ description: "One series; default all" }),
  from_step: z.coerce.number().int().min(0).optional(),
  to_step: z.coerce.number().int().min(0).optional(),
  page: pageQuerySchema.shape.page,
  limit: z.coerce.number().int().min(1).max(MAX_SERIES_PAGE).default(1000),
  max_points: z.coerce
    .number()
    .int()
    .min(4)
    .max(MAX_SERIES_PAGE)
    .optional()
    .openapi({
      description:
        "Downsample each series on the server to at most this many points, keeping every bucket's first, " +
        "last, minimum and maximum (M4). Paging does not apply then.",
    }),
});

export const metricsPageSchema = z
  .object({
    items: z.array(metricPointSchema),
    total: z.number().int(),
    page: z.number().int(),
    limit: z.number().int(),
    pages: z.number().int(),
    downsampled: z.boolean(),
    last_event_id: z.number().int().openapi({
      description:
        "Every event up to this id is reflected in the answer: open the stream with Last-Event-ID set to it",
    }),
  })
  .openapi("MetricsPage");

export const metricSummarySchema = z
  .object({
    name: z.string(),
    count: z.number().int(),
    last: z.number(),
    min: z.number(),
    max: z.number(),
    mean: z.number(),
    last_step: z.number().int(),
    best_step: z.number().int().openapi({ description: "Step of the best value (min for losses, else max)" }),
  })
  .openapi("MetricSummary");
export const metricsSummaryResponseSchema = z
  .object({ job_id: z.string(), series: z.array(metricSummarySchema) })
  .openapi("MetricsSummary");

export const LOG_LEVELS = ["debug", "info", "warning", "error"] as const;
export const logLineSchema = z
  .object({ id: z.number().int(), timestamp: dateTime(), level: z.enum(LOG_LEVELS), message: z.string() })
  .openapi("TrainingLogLine");
export const logsQuerySchema = z.object({
  level: z.enum(LOG_LEVELS).optional().openapi({ description: "This level and above" }),
  since: z.string().datetime({ offset: true }).optional(),
  q: z.string().max(200).optional().openapi({ description: "Lines containing this text" }),
  page: pageQuerySchema.shape.page,
  limit: z.coerce.number().int().min(1).max(MAX_SERIES_PAGE).default(100),
});
export const logsPageSchema = z
  .object({
    items: z.array(logLineSchema),
    total: z.number().int(),
    page: z.number().int(),
    limit: z.number().int(),
    pages: z.number().int(),
  })
  .openapi("TrainingLogsPage");

// ---- event upload (own hardware, and the managed runtimes' scripts) ----

const eventId = z.string().min(1).max(200).optional().openapi({
  description: "Your id for the event: an event whose id was already stored counts as a duplicate",
});
const finite = () => z.number().refine(Number.isFinite, "must be a finite number");

export const uploadEventSchema = z.discriminatedUnion("kind", [
  z
    .object({
      kind: z.literal("metric"),
      name: z.string().min(1).max(200),
      value: finite(),
      step: z.number().int().min(0),
      epoch: z.number().int().min(0).optional(),
      timestamp: z.string().datetime({ offset: true }).optional(),
      id: eventId,
    })
    .strict(),
  z
    .object({
      kind: z.literal("log"),
      level: z.enum(LOG_LEVELS).default("info"),
      message: z.string().max(10_000),
      timestamp: z.string().datetime({ offset: true }).optional(),
      id: eventId,
    })
    .strict(),
  z
    .object({
      kind: z.literal("status"),
      status: z.enum(["running", "succeeded", "failed"]),
      message: z.string().max(2000).optional(),
      id: eventId,
    })
    .strict(),
  z
    .object({
      kind: z.literal("progress"),
      epoch: z.number().int().min(0),
      epochs: z.number().int().min(1),
      step: z.number().int().min(0),
      steps: z.number().int().min(0),
      id: eventId,
    })
    .strict(),
]);
export type UploadEvent = z.infer<typeof uploadEventSchema>;

export const uploadEventsBodySchema = z
  .object({ events: z.array(uploadEventSchema).min(1).max(MAX_UPLOAD_EVENTS) })
  .strict()
  .openapi("TrainingEventUpload", {
    description:
      "Up to 1,000 events: metric {name, value, step, epoch?, timestamp?, id?}, log {level, message}, " +
      "status {status: running | succeeded | failed, message?} and progress {epoch, epochs, step, steps}.",
  });
export const uploadEventsResultSchema = z
  .object({ accepted: z.number().int(), duplicates: z.number().int() })
  .openapi("TrainingEventUploadResult");

// ---- checkpoints, artifact, tokens ----

export const checkpointSchema = z
  .object({
    id: z.string(),
    job_id: z.string(),
    epoch: z.number().int(),
    step: z.number().int(),
    metrics: z.record(z.string(), z.number()),
    is_best: z.boolean(),
    size_bytes: z.number().int(),
    sha256: z.string(),
    created_at: dateTime(),
  })
  .openapi("TrainingCheckpoint");
export const checkpointListSchema = z
  .object({ items: z.array(checkpointSchema) })
  .openapi("TrainingCheckpointList");

export const checkpointUploadQuerySchema = z.object({
  epoch: z.coerce.number().int().min(0),
  step: z.coerce.number().int().min(0).default(0),
  best: z
    .enum(["true", "false"])
    .default("false")
    .transform((v) => v === "true"),
  metrics: z
    .string()
    .max(8000)
    .optional()
    .openapi({ description: 'JSON object of metric values, e.g. {"val_loss":0.12}' }),
});

export const streamTokenSchema = z
  .object({ token: z.string(), expires_at: dateTime(), stream_url: z.string() })
  .openapi("TrainingStreamToken");
export const uploadTokenSchema = z
  .object({ token: z.string(), expires_at: dateTime().nullable(), upload_url: z.string() })
  .openapi("TrainingUploadToken");

export const streamQuerySchema = z.object({
  token: z.string().optional().openapi({ description: "Stream token (lst_…); or Authorization: Bearer" }),
});

// ---- what the studio asks before starting a job ----

export const datasetFitQuerySchema = z
  .object({
    project_id: z
      .string()
      .min(1)
      .max(64)
      .optional()
      .openapi({ description: "The project's model (or base_model_id)" }),
    base_model_id: z.string().min(1).max(100).optional().openapi({
      description:
        "Instead of a project: a base model to fine-tune (its head resized to each dataset's classes)",
    }),
    version_id: z.string().min(1).max(64).optional(),
  })
  .refine((q) => (q.project_id === undefined) !== (q.base_model_id === undefined), {
    message: "Give exactly one of project_id and base_model_id",
    path: ["project_id"],
  });
const count = () => z.number().int().min(0);
/** A dataset as "Fit to dataset" needs it (lib/ml/fit-dataset.ts's DatasetShape); inline, as it is nullable. */
export const datasetShapeSchema = z.object({
  data: z
    .union([
      z.object({
        kind: z.literal("table"),
        features: count().openapi({ description: "Values per sample after encoding (one-hot columns)" }),
        target: z.union([
          z.object({ kind: z.literal("classes"), count: count() }),
          z.object({ kind: z.literal("value") }),
        ]),
      }),
      z.object({
        kind: z.literal("images"),
        channels: z.union([z.literal(1), z.literal(3)]),
        height: count(),
        width: count(),
        classes: count(),
      }),
      z.object({ kind: z.literal("text"), vocabulary: count() }),
    ])
    .openapi({ description: "What a model sized to this dataset is built for" }),
  target: z.string().nullable(),
  labels: z.array(z.string()).openapi({ description: "Class names when known (at most 20)" }),
  layout: z
    .object({ channels: z.union([z.literal(1), z.literal(3)]), height: count(), width: count() })
    .nullable()
    .openapi({ description: "A table whose features are a picture's pixels: that picture" }),
  picture_size: z
    .object({ height: count(), width: count() })
    .nullable()
    .openapi({ description: "Image datasets: the one size of every picture, or null when sizes differ" }),
});
export const datasetMismatchSchema = z
  .object({
    kind: z.enum(["model", "inputs", "task", "classes", "channels", "size", "vocabulary"]),
    message: z.string(),
    fix: z
      .string()
      .nullable()
      .openapi({ description: "What “Fit to dataset” changes, or null when it cannot" }),
    blocking: z.boolean().openapi({
      description: "Training refuses the dataset until it is resolved (channels and size are converted)",
    }),
  })
  .openapi("TrainingDatasetMismatch");
export const datasetFitSchema = z
  .object({
    dataset_id: z.string(),
    dataset_version_id: z.string().nullable(),
    name: z.string(),
    builtin: z.boolean(),
    task: z.string().nullable(),
    rows: z.number().int().nullable(),
    fits: z.boolean(),
    reason: z.string().nullable().openapi({ description: "Why the dataset does not fit the model" }),
    notes: z.array(z.string()).openapi({
      description:
        "When it fits: what will be done to the data (image datasets: pictures converted to the Input's " +
        "channels, resized to its height × width, unreadable files skipped)",
    }),
    mismatches: z.array(datasetMismatchSchema).openapi({
      description:
        "Projects: every way the model and the dataset disagree (also those that are only converted, " +
        "such as channels and picture size); empty for base models",
    }),
    shape: datasetShapeSchema.nullable().openapi({
      description: "The dataset's shape, to adapt a model to it; null when no model can be sized to it",
    }),
  })
  .openapi("TrainingDatasetFit");
export const datasetFitListSchema = z
  .object({ items: z.array(datasetFitSchema) })
  .openapi("TrainingDatasetFitList");

export const runtimeListSchema = z
  .object({
    items: z.array(
      z.object({
        runtime: z.enum(["pytorch", "tfjs", "external"]),
        available: z.boolean(),
        description: z.string(),
      }),
    ),
    auto: z.enum(["pytorch", "tfjs"]).openapi({ description: "What `auto` picks on this service" }),
  })
  .openapi("TrainingRuntimeList");

export const strategyListSchema = z
  .object({
    items: z.array(
      z.object({
        id: z.string(),
        description: z.string(),
        allowed: z.boolean(),
        available: z.boolean().openapi({ description: "Whether this server can run it today" }),
      }),
    ),
  })
  .openapi("TrainingStrategyList");

export const recipeQuerySchema = z.object({
  project_id: z.string().min(1).max(64).optional().openapi({
    description: "With a project: `fits_project` says whether each recipe's task is the project model's",
  }),
});

export const recipeSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    description: z.string(),
    task: z.enum(["classification", "regression", "image_classification", "language_modeling"]),
    graph: graphApiSchema,
    config: jobConfigSchema,
    dataset_id: z.string().nullable().openapi({
      description: "The built-in dataset the recipe was made for; null: made for your own image ZIP",
    }),
    base_model_id: z.string().nullable().openapi({
      description: "A base model of GET /foundation-catalog made for the same task and data, or null",
    }),
    fits_project: z.boolean().nullable().openapi({
      description: "Whether the recipe's task is the project's (null without project_id)",
    }),
  })
  .openapi("TrainingRecipe");

export const recipeListSchema = z.object({ items: z.array(recipeSchema) }).openapi("TrainingRecipeList");

export const estimateBodySchema = z
  .object({
    project_id: z.string().min(1).max(64).optional().openapi({
      description: "The project whose architecture is estimated (or base_model_id)",
    }),
    base_model_id: z.string().min(1).max(100).optional().openapi({
      description:
        "Instead of a project: a base model of GET /foundation-catalog (a fine-tuning run's architecture, as pretrained)",
    }),
    version_id: z.string().min(1).max(64).optional(),
    dataset_id: z.string().min(1).max(64).optional().openapi({
      description: "Without a dataset there is no sample count: no time or credits, only size and memory",
    }),
    dataset_version_id: z.string().min(1).max(64).optional(),
    config: jobConfigInputSchema.optional(),
    runtime: trainingRuntimeSchema.optional(),
  })
  .strict()
  .refine((b) => (b.project_id === undefined) !== (b.base_model_id === undefined), {
    message: "Give exactly one of project_id and base_model_id",
    path: ["project_id"],
  })
  .openapi("TrainingEstimateRequest", {
    example: { base_model_id: "digits-cnn-0-4", dataset_id: "builtin-digits", config: { epochs: 5 } },
  });

export const estimateSchema = z
  .object({
    params: z.number().int(),
    flops_per_sample: z.number().openapi({ description: "Forward FLOPs of one sample (analyzeGraph)" }),
    training_flops: z.number().openapi({
      description: "epochs × FLOPs/sample × (3 × training samples + validation samples)",
    }),
    train_samples: z.number().int().nullable(),
    validation_samples: z.number().int().nullable(),
    steps_per_epoch: z.number().int().nullable(),
    memory: z
      .object({
        weights_bytes: z.number(),
        gradients_bytes: z.number(),
        optimizer_bytes: z.number().openapi({ description: "Adam/AdamW 2× the weights, RMSprop 1×, SGD 0" }),
        activations_bytes: z.number().openapi({
          description: "Every layer's output × batch size × 4 bytes, × 2 for the backward pass",
        }),
        total_bytes: z.number(),
      })
      .openapi({ description: "float32 training memory for the configured batch size" }),
    runtime: z.enum(["pytorch", "tfjs", "external"]),
    seconds: z.number().nullable().openapi({
      description:
        "Wall time on this service's runner (null for external jobs, without a dataset, or without a calibration)",
    }),
    credits: z.number().nullable().openapi({ description: "seconds ÷ compute seconds per credit" }),
    calibration: z
      .object({
        source: z.enum(["same_shape_jobs", "measured_jobs", "microbenchmark"]).openapi({
          description:
            "same_shape_jobs: your own succeeded jobs of this shape (graph, dataset version, batch size, validation split) measured the seconds per epoch; " +
            "measured_jobs: this service's recent jobs measured the per-epoch upload cost; microbenchmark: the runner's benchmark alone",
        }),
        jobs: z.number().int().openapi({ description: "Succeeded jobs that were compared" }),
        factor: z.number().openapi({
          description: "The estimate ÷ the runner model's seconds (1 unless jobs of the same shape set it)",
        }),
        start_seconds: z.number().openapi({ description: "Sandbox, interpreter and the program's imports" }),
        step_seconds: z.number(),
        epoch_seconds: z.number().openapi({ description: "Checkpoint save, per epoch" }),
        flops_per_second: z
          .number()
          .openapi({ description: "Matrix products (dense, recurrent, attention)" }),
        conv_flops_per_second: z.number().openapi({ description: "Convolutions" }),
        end_seconds: z.number().openapi({ description: "The export after training (ONNX and weights)" }),
        report_seconds: z.number().openapi({
          description:
            "Each epoch's uploads (metrics and checkpoint) through the API, measured by this service's jobs (before it has 3, 400 tiny-MLP steps' worth)",
        }),
      })
      .nullable()
      .openapi({
        description:
          "seconds = start + end + epochs × (steps × step_seconds + validation steps × step_seconds ÷ 2 + epoch_seconds + report_seconds) + other training FLOPs ÷ flops_per_second + convolution FLOPs ÷ conv_flops_per_second; " +
          "the coefficients are measured on the runner by a micro-benchmark (torch: the program's imports, a tiny and a wide MLP, a small CNN, a checkpoint save, an ONNX export) " +
          "and by this service's jobs; with your jobs of the same shape, the median of their seconds, each adjusted for the epochs it had fewer or more at its measured seconds per epoch",
      }),
  })
  .openapi("TrainingEstimate");
