/**
 * Schemas of the base-model catalog (GET /foundation-catalog, contract §4.6): one definition shared
 * by the routes (the OpenAPI document) and the service (lib/server/modules/catalog/views.ts).
 */
import { z } from "@hono/zod-openapi";
import { pathParam } from "../../http/openapi";
import { pagedSchema, pageQuerySchema } from "../../http/paging";
import { graphApiSchema, jobConfigSchema } from "../projects/projects.schemas";

export const BASE_MODEL_TASKS = [
  "classification",
  "regression",
  "image_classification",
  "language_modeling",
] as const;

export const baseModelTaskSchema = z.enum(BASE_MODEL_TASKS).openapi("BaseModelTask");

export const catalogQuerySchema = pageQuerySchema.extend({
  task: baseModelTaskSchema.optional().openapi({ description: "Only base models for this task" }),
  source: z
    .enum(["catalog", "registry"])
    .default("catalog")
    .openapi({
      description:
        "`catalog`: the curated base models. `registry`: your finalized registry model versions that carry " +
        "PyTorch weights (weights.pt) and their architecture, newest first (hub models are reached by id).",
    }),
});

export const baseModelParams = z.object({
  base_model_id: pathParam("base_model_id", {
    example: "digits-cnn-0-4",
    description:
      "A catalog id, one of your registry model versions (mv_…) or a hub model you can see (hub_…)",
  }),
});

const metricsSchema = z
  .record(z.string(), z.number())
  .openapi({ example: { accuracy: 0.9646, loss: 0.1752 } });

export const baseModelSourceSchema = z
  .discriminatedUnion("kind", [
    z.object({ kind: z.literal("catalog") }),
    z.object({
      kind: z.literal("model_version"),
      registry_model_id: z.string(),
      registry_model_name: z.string(),
      version: z.number().int(),
    }),
    z.object({ kind: z.literal("hub_model"), hub_model_id: z.string(), owner: z.string() }),
  ])
  .openapi("BaseModelSource", {
    description:
      "Where the base model comes from: the curated catalog, one of your registry model versions, or a hub model",
  });

export const baseModelSchema = z
  .object({
    id: z.string().openapi({ example: "digits-cnn-0-4" }),
    source: baseModelSourceSchema,
    name: z.string(),
    task: baseModelTaskSchema,
    description: z.string(),
    architecture: graphApiSchema.openapi({
      description: "The model's graph: open it in the editor, or start a fine-tuning run from it",
    }),
    config: jobConfigSchema.openapi({ description: "The training configuration it was pretrained with" }),
    parameter_count: z.number().int().openapi({ description: "Trainable parameters" }),
    input: z.string().openapi({ description: "What the model takes, in words" }),
    output: z.string().openapi({ description: "What the model gives, in words" }),
    features: z
      .array(z.string())
      .nullable()
      .openapi({ description: "Input feature names in the order the model reads them (tables, images)" }),
    labels: z
      .array(z.string())
      .nullable()
      .openapi({ description: "Class names in output order (classifiers), else null" }),
    num_labels: z.number().int().nullable(),
    vocab: z
      .array(z.string())
      .nullable()
      .openapi({ description: "Character vocabulary in index order (language models), else null" }),
    vocab_size: z.number().int().nullable(),
    head: z.array(z.string()).openapi({
      description: "Node ids of the head: a fine-tuning run replaces them when its labels differ",
    }),
    license: z.string().openapi({ description: "Licence of the weights and of the training data" }),
    training_data: z.object({
      dataset_id: z.string().openapi({ description: "The built-in dataset it was pretrained on" }),
      description: z.string(),
      attribution: z.string(),
      rows: z.number().int().openapi({ description: "Rows (text: windows) used, all splits" }),
    }),
    evaluation: z
      .object({
        split: z.string().openapi({ description: "What the figures were measured on" }),
        rows: z.number().int(),
        metrics: metricsSchema.openapi({
          description: "Measured on held-out data: accuracy and loss; language models also perplexity",
        }),
        best_epoch: z.number().int().nullable(),
        validation: z
          .object({ rows: z.number().int(), metrics: metricsSchema })
          .nullable()
          .openapi({ description: "The validation split that chose the epoch, and its figures" }),
      })
      .openapi("BaseModelEvaluation"),
    weights: z
      .object({
        format: z.enum(["pytorch_state_dict"]),
        bytes: z.number().int(),
        sha256: z.string().openapi({ description: "Lower-case hex SHA-256 of the weights file" }),
      })
      .openapi("BaseModelWeights"),
    built_with: z.object({ script: z.string(), seed: z.number().int(), torch: z.string() }),
  })
  .openapi("BaseModel");

export const baseModelListSchema = pagedSchema(baseModelSchema, "BaseModelList");

export type BaseModelView = z.infer<typeof baseModelSchema>;
export type CatalogQuery = z.infer<typeof catalogQuerySchema>;
