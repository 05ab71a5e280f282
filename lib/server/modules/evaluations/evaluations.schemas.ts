/**
 * Request and response schemas of evaluations (issue 13): shared by the routes (the OpenAPI
 * document) and the evaluations service (its view type).
 */
import { z } from "@hono/zod-openapi";
import { EVALUATION_SPLITS, EVALUATION_STATES } from "../../db/schema/evaluations";
import { pathParam } from "../../http/openapi";

const dateTime = () => z.string().openapi({ format: "date-time" });

export const evaluationSplitSchema = z.enum(EVALUATION_SPLITS).openapi("EvaluationSplit", {
  description: "The rows evaluated: a split of the dataset version (as the job used it), or all of them.",
});
export const evaluationStateSchema = z.enum(EVALUATION_STATES).openapi("EvaluationState", {
  description: "queued → running → succeeded | failed",
});

export const createEvaluationBodySchema = z
  .object({
    job_id: z.string().min(1).max(64).openapi({
      example: "job_3kTq9x",
      description: "A training job, or a fine-tuning run (a run's id is its job's id)",
    }),
    dataset_id: z.string().min(1).max(64).optional().openapi({
      description: "Default: the dataset the job trained on.",
    }),
    dataset_version_id: z.string().min(1).max(64).optional().openapi({
      description:
        "Default: the job's version when the dataset is the job's, else the dataset's current version.",
    }),
    split: evaluationSplitSchema.optional().openapi({
      description: "Default: test when the version has a test split, else validation.",
    }),
  })
  .strict()
  .openapi("CreateEvaluation", { example: { job_id: "job_7kQ2mP", split: "validation" } });

const classMetricsSchema = z
  .object({
    label: z.string(),
    precision: z.number(),
    recall: z.number(),
    f1: z.number(),
    support: z.number().int(),
  })
  .openapi("EvaluationClassMetrics");

const rocCurveSchema = z
  .object({
    label: z.string().openapi({ description: "The positive class (one-vs-rest)" }),
    auc: z.number(),
    points: z
      .array(z.object({ fpr: z.number(), tpr: z.number() }))
      .openapi({ description: "At most 200 points" }),
  })
  .openapi("EvaluationRocCurve");

const evaluationSampleSchema = z
  .object({
    path: z.string().openapi({ description: "The picture's path in the dataset's ZIP" }),
    actual: z.string(),
    predicted: z.string(),
    confidence: z.number().openapi({ description: "The model's probability of the predicted class" }),
  })
  .openapi("EvaluationSample");

export const evaluationResultSchema = z
  .discriminatedUnion("kind", [
    z.object({
      kind: z.literal("classification"),
      rows: z.number().int(),
      labels: z.array(z.string()),
      confusion_matrix: z.array(z.array(z.number().int())).openapi({
        description: "confusion_matrix[i][j]: rows of true class labels[i] predicted as labels[j]",
      }),
      per_class: z.array(classMetricsSchema),
      roc: z.array(rocCurveSchema).openapi({
        description: "Binary: the positive class only; otherwise one curve per class (one-vs-rest)",
      }),
      samples: z
        .array(evaluationSampleSchema)
        .optional()
        .openapi({
          description:
            "Image models: misclassified pictures, the most confident first: at most 8 per confusion-matrix " +
            "cell and 400 in all. GET …/evaluations/{evaluation_id}/samples/{sample}/image gives sample n's " +
            "thumbnail (n counts from 0 in this list).",
        }),
    }),
    z.object({
      kind: z.literal("regression"),
      rows: z.number().int(),
      target: z.string().nullable(),
      points: z
        .array(z.object({ actual: z.number(), predicted: z.number() }))
        .optional()
        .openapi({ description: "At most 500 (actual, predicted) pairs, evenly spaced by row" }),
    }),
    z.object({
      kind: z.literal("language_modeling"),
      rows: z
        .number()
        .int()
        .openapi({ description: "Windows evaluated, each predicting the next character" }),
      characters: z.number().int(),
      unknown_characters: z.number().int().openapi({
        description: "Characters outside the model's vocabulary (skipped, as serving skips them)",
      }),
      vocabulary_size: z.number().int(),
      sequence_length: z.number().int(),
    }),
  ])
  .openapi("EvaluationResult");

export const evaluationSchema = z
  .object({
    id: z.string().openapi({ example: "eval_9xK2m" }),
    job_id: z.string(),
    dataset_id: z.string(),
    dataset_version_id: z.string(),
    split: evaluationSplitSchema,
    state: evaluationStateSchema,
    reason: z.string().nullable(),
    metrics: z.record(z.string(), z.number()).openapi({
      description:
        "Classification: accuracy, macro_precision, macro_recall, macro_f1, roc_auc (binary: of the positive " +
        "class; else the mean one-vs-rest AUC). Regression: mse, rmse, mae, r2. Language models: loss " +
        "(mean next-character cross-entropy, natural log), perplexity (exp(loss)), bits_per_character, " +
        "accuracy (next character). Every kind: rows; classification on another dataset also " +
        "rows_with_unknown_class (rows of a class the model cannot output, counted as errors); image models " +
        "unreadable_images when pictures the decoder refuses were skipped.",
    }),
    result: evaluationResultSchema.nullable(),
    created_at: dateTime(),
    started_at: dateTime().nullable(),
    finished_at: dateTime().nullable(),
  })
  .openapi("Evaluation");

export const evaluationListSchema = z.object({ items: z.array(evaluationSchema) }).openapi("EvaluationList");

export const evaluationIdParams = z.object({ evaluation_id: pathParam("evaluation_id") });

export const evaluationSampleParams = z.object({
  evaluation_id: pathParam("evaluation_id"),
  sample: z
    .string()
    .regex(/^\d{1,5}$/)
    .openapi({
      param: { name: "sample", in: "path", description: "The sample's index in result.samples" },
      example: "0",
    }),
});

export type EvaluationView = z.infer<typeof evaluationSchema>;
export type CreateEvaluationInput = z.infer<typeof createEvaluationBodySchema>;
