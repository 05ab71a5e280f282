/**
 * Request and response schemas of deployments and inference (issue 14): shared by the routes (the
 * OpenAPI document) and the deployments service.
 */
import { z } from "@hono/zod-openapi";
import { DEPLOYMENT_STATES } from "../../db/schema/deployments";
import { pathParam } from "../../http/openapi";

const dateTime = () => z.string().openapi({ format: "date-time" });

export const MAX_PREDICT_INSTANCES = 100;
export const MAX_BATCH_INSTANCES = 10_000;

export const deploymentIdParams = z.object({ deployment_id: pathParam("deployment_id") });

export const deploymentSettingsSchema = z
  .object({
    max_batch_size: z.number().int().min(1).max(4096).optional().openapi({
      description:
        "Most instances one model call runs when concurrent requests are micro-batched (default 256).",
    }),
  })
  .strict()
  .openapi("DeploymentSettings");

export const createDeploymentBodySchema = z
  .object({
    name: z.string().trim().min(1).max(100).openapi({ example: "iris-classifier" }),
    job_id: z.string().min(1).max(64).optional().openapi({
      description: "A succeeded training job or fine-tuning run with a model artifact.",
    }),
    model_version_id: z.string().min(1).max(64).optional().openapi({
      description:
        "A finalized model-registry version with a servable artifact (manifest.json and model files).",
    }),
    settings: deploymentSettingsSchema.optional(),
  })
  .strict()
  .refine((b) => (b.job_id === undefined) !== (b.model_version_id === undefined), {
    message: "Give exactly one of job_id or model_version_id.",
    path: ["job_id"],
  })
  .openapi("CreateDeployment", { example: { name: "iris-classifier", job_id: "job_7kQ2mP" } });
export type CreateDeploymentBody = z.infer<typeof createDeploymentBodySchema>;

export const deployModelVersionBodySchema = z
  .object({
    model_version_id: z
      .string()
      .min(1)
      .max(64)
      .optional()
      .openapi({ description: "A finalized registry model version." }),
    model_id: z.string().min(1).max(64).optional().openapi({
      description: "With `alias`: deploy the version the alias names, and follow the alias from then on.",
    }),
    alias: z
      .string()
      .min(1)
      .max(64)
      .optional()
      .openapi({
        description:
          "With `model_id`: the deployment follows this alias. Moving the alias (PUT /models/{model_id}/aliases/" +
          "{alias}) makes a new revision serving its new version; giving the deployment another model " +
          "(PUT with job_id, model_version_id or from_revision) stops following.",
      }),
    name: z.string().trim().min(1).max(100).optional().openapi({
      description: "Defaults to the model's name and version (`<model>-v<n>`), or alias (`<model>-<alias>`).",
    }),
    settings: deploymentSettingsSchema.optional(),
  })
  .strict()
  .refine((b) => (b.model_version_id !== undefined) !== (b.model_id !== undefined && b.alias !== undefined), {
    message: "Give model_version_id, or model_id with alias.",
    path: ["model_version_id"],
  })
  .refine((b) => (b.model_id === undefined) === (b.alias === undefined), {
    message: "model_id and alias go together.",
    path: ["alias"],
  })
  .openapi("DeployModelVersion", { example: { model_version_id: "mv_3Lr8Ws" } });
export type DeployModelVersionBody = z.infer<typeof deployModelVersionBodySchema>;

export const updateDeploymentBodySchema = z
  .object({
    name: z.string().trim().min(1).max(100).optional(),
    job_id: z.string().min(1).max(64).optional().openapi({
      description: "Serve another succeeded job's artifact (a new revision).",
    }),
    model_version_id: z.string().min(1).max(64).optional().openapi({
      description: "Serve a finalized registry model version (a new revision). Excludes `job_id`.",
    }),
    settings: deploymentSettingsSchema.optional().openapi({ description: "New settings (a new revision)." }),
    from_revision: z
      .number()
      .int()
      .min(1)
      .optional()
      .openapi({
        description:
          "Roll back: a new revision serving that revision's model with its settings (or `settings` when given). " +
          "Excludes `job_id`.",
      }),
  })
  .strict()
  .openapi("UpdateDeployment", { example: { from_revision: 1 } });
export type UpdateDeploymentBody = z.infer<typeof updateDeploymentBodySchema>;

export const deploymentStateSchema = z.enum(DEPLOYMENT_STATES).openapi("DeploymentState", {
  description: "deploying → ready | failed; ready ⇄ paused",
});

export const deploymentRevisionSchema = z
  .object({
    id: z.string(),
    deployment_id: z.string(),
    number: z.number().int(),
    source: z.enum(["job", "model_version"]),
    job_id: z.string().nullable(),
    model_version_id: z.string().nullable(),
    artifact_format: z.string(),
    settings: deploymentSettingsSchema,
    created_at: dateTime(),
  })
  .openapi("DeploymentRevision");
export type DeploymentRevisionView = z.infer<typeof deploymentRevisionSchema>;

export const deploymentSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    state: deploymentStateSchema,
    key_prefix: z
      .string()
      .openapi({ description: "The first characters of the deployment key, for display." }),
    revision: z.number().int().nullable().openapi({ description: "The current revision's number." }),
    job_id: z.string().nullable().openapi({ description: "The job the current revision serves." }),
    model_version_id: z
      .string()
      .nullable()
      .openapi({ description: "The registry model version the current revision serves, if any." }),
    follows: z
      .object({ model_id: z.string(), alias: z.string() })
      .nullable()
      .openapi({ description: "The registry alias this deployment follows, if any." }),
    task: z
      .string()
      .nullable()
      .openapi({
        description:
          "The served model's task (`classification`, `binary_classification`, `regression`, " +
          "`language_model`, …) from its manifest.",
      }),
    settings: deploymentSettingsSchema,
    inference_url: z.string().openapi({ description: "Base path of the inference routes." }),
    created_at: dateTime(),
    updated_at: dateTime(),
  })
  .openapi("Deployment");
export type DeploymentView = z.infer<typeof deploymentSchema>;

export const deploymentWithKeySchema = deploymentSchema
  .extend({
    api_key: z
      .string()
      .nullable()
      .openapi({
        description:
          "The deployment key (`ldk_…`), shown once. Null on an idempotent replay " +
          "(with `Idempotency-Secret-Redacted: true`): rotate the key to get a new one.",
      }),
  })
  .openapi("DeploymentWithKey");

export const deploymentHealthSchema = z
  .object({
    status: z.enum(["ok", "paused", "failed", "deploying"]),
    state: deploymentStateSchema,
    revision: z.number().int().nullable(),
  })
  .openapi("DeploymentHealth");

// Inference ---------------------------------------------------------------------------------------

const instanceSchema = z.unknown().openapi({
  description:
    'One instance: an object keyed by feature column name (tabular), `{<text field>: "…"}` (text), or ' +
    '`{<image field>: "<base64 PNG, JPEG or WebP, or a data: URL>"}` (an image model). ' +
    "GET …/schema gives its JSON Schema.",
});

/** predict as multipart/form-data (image models): every file part is one instance, in order. */
export const predictFormSchema = {
  type: "object" as const,
  description:
    "Image models only: each file part (any field name) is one picture and one instance, in order " +
    `(1–${MAX_PREDICT_INSTANCES}); other fields are ignored.`,
  properties: {
    image: { type: "array" as const, items: { type: "string" as const, format: "binary" } },
  },
};
const outputSchema = z.record(z.string(), z.unknown()).openapi({
  description:
    "Classification: `{label, probabilities}` keyed by class name; regression: `{value}`; " +
    "a language model: the next character's `{label, probabilities}`.",
});

export const predictBodySchema = z
  .object({ inputs: z.array(instanceSchema).min(1).max(MAX_PREDICT_INSTANCES) })
  .strict()
  .openapi("PredictRequest");
export const batchBodySchema = z
  .object({ inputs: z.array(instanceSchema).min(1).max(MAX_BATCH_INSTANCES) })
  .strict()
  .openapi("BatchPredictRequest");

export const predictResponseSchema = z
  .object({
    outputs: z.array(outputSchema).openapi({ description: "One output per input, in input order." }),
    revision: z.number().int().openapi({ description: "The revision that answered." }),
  })
  .openapi("PredictResponse");

export const inferenceSchemaSchema = z
  .object({
    input_schema: z.record(z.string(), z.unknown()).openapi({ description: "JSON Schema of one instance." }),
    output_schema: z.record(z.string(), z.unknown()).openapi({ description: "JSON Schema of one output." }),
    example: z
      .object({ inputs: z.array(z.unknown()) })
      .openapi({ description: "A valid body for POST …/predict." }),
    revision: z.number().int(),
  })
  .openapi("InferenceSchema");

export const inferenceHealthSchema = z
  .object({ status: z.enum(["ok", "paused"]), revision: z.number().int() })
  .openapi("InferenceHealth");
