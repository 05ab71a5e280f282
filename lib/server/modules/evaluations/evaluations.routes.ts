import { createRoute, z } from "@hono/zod-openapi";
import { credentials } from "../../http/credentials";
import { errors, jsonBody, jsonContent, security } from "../../http/openapi";
import { jobIdParams } from "../training/training.schemas";
import {
  createEvaluationBodySchema,
  evaluationIdParams,
  evaluationListSchema,
  evaluationSampleParams,
  evaluationSchema,
} from "./evaluations.schemas";

const tags = ["Evaluations"];
const userCreds = ["api_key", "session"] as const;
const auth = { security: security([...userCreds]), middleware: [credentials([...userCreds])] };

export const createEvaluation = createRoute({
  method: "post",
  path: "/api/v1/training/evaluations",
  operationId: "createEvaluation",
  tags,
  summary: "Evaluate a job's model on a dataset version and split",
  description:
    "Queues an evaluation of the job's model artifact (the files a deployment serves, through the manifest's " +
    "preprocessing) on a split of a dataset version: by default the job's own dataset and version, and its " +
    "test split when the version has one, else validation. Classification gives accuracy, per-class " +
    "precision/recall/F1, a confusion matrix and ROC curves; regression MSE, MAE and R²; character language " +
    "models the next-character loss, perplexity (exp of the loss) and accuracy. The job must have succeeded " +
    "with an artifact (else 409); asking for a test split the version does not have is a 422. A dataset " +
    "that does not fit the model (missing columns, a table for a text model) ends the evaluation `failed` " +
    "with the reason. Poll GET …/evaluations/{evaluation_id} until it is succeeded or failed.",
  ...auth,
  request: { body: jsonBody(createEvaluationBodySchema) },
  responses: {
    202: {
      ...jsonContent(evaluationSchema, "The queued evaluation"),
      headers: { Location: { description: "The evaluation's URL", schema: { type: "string" as const } } },
    },
    ...errors(400, 401, 403, 404, 409, 422),
  },
});

export const getEvaluation = createRoute({
  method: "get",
  path: "/api/v1/training/evaluations/{evaluation_id}",
  operationId: "getEvaluation",
  tags,
  summary: "Get an evaluation (its state, metrics and result)",
  ...auth,
  request: { params: evaluationIdParams },
  responses: { 200: jsonContent(evaluationSchema, "The evaluation"), ...errors(401, 403, 404) },
});

export const listJobEvaluations = createRoute({
  method: "get",
  path: "/api/v1/training/jobs/{job_id}/evaluations",
  operationId: "listJobEvaluations",
  tags,
  summary: "List a job's evaluations (newest first, at most 100)",
  ...auth,
  request: { params: jobIdParams },
  responses: {
    200: jsonContent(evaluationListSchema, "The job's evaluations"),
    ...errors(401, 403, 404),
  },
});

export const getEvaluationSampleImage = createRoute({
  method: "get",
  path: "/api/v1/training/evaluations/{evaluation_id}/samples/{sample}/image",
  operationId: "getEvaluationSampleImage",
  tags,
  summary: "The thumbnail of a misclassified picture of an image evaluation",
  description:
    "Image evaluations list misclassified pictures in `result.samples`; this is sample n's picture from the " +
    "evaluated dataset version, scaled to fit 128×128, as PNG. 404 when the evaluation has no such sample.",
  ...auth,
  request: { params: evaluationSampleParams },
  responses: {
    200: {
      description: "The picture, scaled to fit 128×128",
      content: { "image/png": { schema: z.string().openapi({ format: "binary" }) } },
    },
    ...errors(401, 403, 404),
  },
});
