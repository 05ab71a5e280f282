import { createRoute } from "@hono/zod-openapi";
import { allowJsonBody } from "../../http/body-limit";
import { credentials } from "../../http/credentials";
import { errors, jsonBody, jsonContent, security } from "../../http/openapi";
import { MAX_IMAGE_INSTANCE_BYTES } from "../serving/image-instances";
import {
  batchBodySchema,
  deploymentIdParams,
  inferenceHealthSchema,
  inferenceSchemaSchema,
  predictBodySchema,
  predictFormSchema,
  predictResponseSchema,
} from "./deployments.schemas";
import { picturesForm } from "./inference-form";

const tags = ["Inference"];
/** Deployment key only: a personal key or session is refused here (403), contract §5 rule 1. */
/**
 * JSON body caps (http/body-limit.ts): 100 instances of a wide tabular or flattened-image input
 * (784 numbers is about 8 KB as JSON) fit in 8 MiB; a batch of 10,000 of them in 96 MiB.
 */
export const PREDICT_JSON_BYTES = 8 * 1024 * 1024;
const BATCH_JSON_BYTES = 96 * 1024 * 1024;
const auth = { security: security(["deployment_key"]), middleware: [credentials(["deployment_key"])] };
const params = { params: deploymentIdParams };
export const unavailable = {
  503: {
    description: "The deployment is paused (or not ready); see Retry-After",
    headers: { "Retry-After": { description: "Seconds to wait", schema: { type: "integer" as const } } },
    content: {
      "application/problem+json": { schema: errors(503)[503].content["application/problem+json"].schema },
    },
  },
};

export const predict = createRoute({
  method: "post",
  path: "/api/v1/inference/{deployment_id}/predict",
  operationId: "predict",
  tags,
  summary: "Predict 1–100 instances (outputs in input order)",
  description:
    "A tabular instance is an object keyed by feature column name; a language model's instance is its " +
    'text (`{<text field>: "…"}`), answered with the next character\'s label and probabilities; an image ' +
    'model\'s instance is a picture, `{<image field>: "<base64>"}` or a `data:` URL (PNG, JPEG, WebP or GIF, ' +
    `at most ${MAX_IMAGE_INSTANCE_BYTES / 1024 / 1024} MB), decoded and normalised as in training. An image model also ` +
    "takes the pictures as files in a multipart/form-data body (one instance per file, in order). " +
    "An instance that does not fit the schema (GET …/schema), or a picture that cannot be decoded, is a 422 " +
    "naming the instance index and field. Every field of a tabular instance is required: missing or blank fields " +
    "are one 422 naming each of every instance; `null` is accepted only where the schema allows it (the model " +
    "fills it in with the training value its description gives). " +
    "Only this deployment's key is accepted; another deployment's key is a 403 (the owner tries the model " +
    "without it: POST …/predict/session).",
  ...auth,
  middleware: [...auth.middleware, allowJsonBody(PREDICT_JSON_BYTES), picturesForm(PREDICT_JSON_BYTES)],
  request: {
    ...params,
    body: {
      required: true,
      content: {
        "application/json": { schema: predictBodySchema },
        "multipart/form-data": { schema: predictFormSchema },
      },
    },
  },
  responses: {
    200: jsonContent(predictResponseSchema, "One output per instance, in order"),
    ...errors(400, 401, 403, 404, 413, 415, 422),
    ...unavailable,
  },
});

export const batchPredict = createRoute({
  method: "post",
  path: "/api/v1/inference/{deployment_id}/batch",
  operationId: "batchPredict",
  tags,
  summary: "Predict up to 10,000 instances (outputs in input order)",
  ...auth,
  middleware: [...auth.middleware, allowJsonBody(BATCH_JSON_BYTES)],
  request: { ...params, body: jsonBody(batchBodySchema) },
  responses: {
    200: jsonContent(predictResponseSchema, "One output per instance, in order"),
    ...errors(400, 401, 403, 404, 413, 422),
    ...unavailable,
  },
});

export const getInferenceSchema = createRoute({
  method: "get",
  path: "/api/v1/inference/{deployment_id}/schema",
  operationId: "getInferenceSchema",
  tags,
  summary: "JSON Schemas of one instance and one output, with an example predict body",
  ...auth,
  request: params,
  responses: {
    200: jsonContent(inferenceSchemaSchema, "The schemas and an example"),
    ...errors(401, 403, 404),
    ...unavailable,
  },
});

export const getInferenceHealth = createRoute({
  method: "get",
  path: "/api/v1/inference/{deployment_id}/health",
  operationId: "getInferenceHealth",
  tags,
  summary: "Whether the deployment serves (its model loaded)",
  ...auth,
  request: params,
  responses: {
    200: jsonContent(inferenceHealthSchema, "Serving"),
    ...errors(401, 403, 404),
    ...unavailable,
  },
});
