/**
 * Fine-tuning runs (POST/GET /training/foundation-runs, contract §4.6): a training job that starts
 * from a base model: of the catalog, a registry model version or a hub model. Request and response schemas shared by the routes and the service.
 */
import { z } from "@hono/zod-openapi";
import { pathParam } from "../../http/openapi";
import { baseModelSourceSchema } from "../catalog/catalog.schemas";
import { jobConfigInputSchema, trainingJobSchema } from "./training.schemas";

export const LR_SCHEDULES = ["constant", "cosine", "linear"] as const;
export const FINE_TUNE_RUNTIMES = ["auto", "pytorch"] as const;

export const freezeSchema = z
  .union(
    [
      z.enum(["none", "base"]),
      z.array(z.string().min(1).max(64)).min(1).max(100).openapi({ description: "Layer (node) ids" }),
    ],
    { error: "freeze must be none, base, or a list of layer ids." },
  )
  .openapi("FineTuneFreeze", {
    description:
      "none: train every layer; base: train only the head (every other layer keeps the base weights); " +
      "or the ids of the layers to freeze.",
  });

export const lrScheduleSchema = z.enum(LR_SCHEDULES).openapi("LearningRateSchedule", {
  description:
    "Learning rate per optimizer step: constant, cosine (decays to 0) or linear (decays to 0), after an " +
    "optional linear warm-up.",
});

export const createFoundationRunBodySchema = z
  .object({
    base_model_id: z
      .string()
      .min(1)
      .max(100)
      .openapi({
        description:
          "The base model: a model of GET /foundation-catalog, one of your registry model versions (mv_…), " +
          "or a hub model you can see (hub_…). A registry version or hub model qualifies when it carries " +
          "PyTorch weights (weights.pt, exported by every job trained on the PyTorch runtime).",
      }),
    dataset_id: z.string().min(1).max(64),
    dataset_version_id: z.string().min(1).max(64).optional().openapi({ description: "Default: current" }),
    recipe_id: z.string().min(1).max(64).optional().openapi({
      description: "A training recipe (GET /training/recipes) of the base model's task: its configuration",
    }),
    config: jobConfigInputSchema.optional().openapi({
      description: "Overrides of the configuration (the base model's, then the recipe's)",
    }),
    freeze: freezeSchema.default("none"),
    lr_schedule: lrScheduleSchema.default("cosine"),
    warmup_epochs: z.number().min(0).max(100).default(0),
    name: z.string().trim().min(1).max(200).optional(),
    runtime: z
      .enum(FINE_TUNE_RUNTIMES, {
        error: () =>
          "Fine-tuning runs start from PyTorch weights and need the PyTorch runtime: use auto or pytorch (tfjs and external cannot fine-tune).",
      })
      .default("auto")
      .openapi({ description: "auto or pytorch: fine-tuning needs PyTorch on this service's workers" }),
    strategy: z.string().min(1).max(64).default("single"),
  })
  .strict()
  .openapi("CreateFoundationRun", {
    example: {
      base_model_id: "digits-cnn-0-4",
      dataset_id: "builtin-digits",
      freeze: "base",
      config: { epochs: 5 },
    },
  });

export const fineTuneSettingsSchema = z
  .object({
    freeze: freezeSchema,
    lr_schedule: lrScheduleSchema,
    warmup_epochs: z.number(),
    replaced_layers: z.array(z.string()).openapi({
      description: "Head layers started afresh because the dataset's labels differ from the base model's",
    }),
    base_labels: z.array(z.string()).nullable(),
    labels: z.array(z.string()).nullable().openapi({
      description: "The run's class names as known when it was created (the dataset's, from its profile)",
    }),
    vocabulary_size: z.number().int().nullable().openapi({
      description:
        "Language models: the base vocabulary the text is encoded with (characters outside it are dropped)",
    }),
    base_weights_sha256: z.string(),
  })
  .openapi("FineTuneSettings");

export const foundationRunSchema = trainingJobSchema
  .extend({
    base_model: z.object({
      id: z.string(),
      name: z.string(),
      task: z.string(),
      source: baseModelSourceSchema,
    }),
    fine_tune: fineTuneSettingsSchema,
    job_url: z.string().openapi({ description: "The same run as a training job (metrics, logs, stream…)" }),
  })
  .openapi("FoundationRun", {
    description:
      "A fine-tuning run: a training job (same id, states, metrics, logs, checkpoints, stream and artifact) " +
      "that started from a base model's weights.",
  });

export const runIdParams = z.object({ run_id: pathParam("run_id") });
