import { createRoute } from "@hono/zod-openapi";
import { allowJsonBody } from "../../http/body-limit";
import { credentials } from "../../http/credentials";
import { errors, jsonBody, jsonContent, security } from "../../http/openapi";
import {
  deploymentIdParams,
  inferenceSchemaSchema,
  predictBodySchema,
  predictResponseSchema,
} from "./deployments.schemas";
import { PREDICT_JSON_BYTES, unavailable } from "./inference.routes";

/**
 * The owner's routes (web session or personal key; a deployment key is refused with 403, as on
 * every owner route): the studio's console tries a deployment with them, without its key.
 */
const tags = ["Inference"];
const owner = {
  security: security(["api_key", "session"]),
  middleware: [credentials(["api_key", "session"])],
};
const OWNER_NOTE =
  "For the deployment's owner (web session or personal API key; another account gets 404, a deployment " +
  "key 403): the console tries the model with it, without the deployment key. The call is logged in the " +
  "deployment's request log and counted against its rate limit like a call with its key.";

export const predictAsOwner = createRoute({
  method: "post",
  path: "/api/v1/inference/{deployment_id}/predict/session",
  operationId: "predictAsOwner",
  tags,
  summary: "Predict 1–100 instances as the deployment's owner (outputs in input order)",
  description: `The same body and answer as POST …/predict. ${OWNER_NOTE}`,
  ...owner,
  middleware: [...owner.middleware, allowJsonBody(PREDICT_JSON_BYTES)],
  request: { params: deploymentIdParams, body: jsonBody(predictBodySchema) },
  responses: {
    200: jsonContent(predictResponseSchema, "One output per instance, in order"),
    ...errors(400, 401, 403, 404, 413, 422),
    ...unavailable,
  },
});

export const getInferenceSchemaAsOwner = createRoute({
  method: "get",
  path: "/api/v1/inference/{deployment_id}/schema/session",
  operationId: "getInferenceSchemaAsOwner",
  tags,
  summary: "The inference schema (as GET …/schema) for the deployment's owner",
  description: `The same answer as GET …/schema. ${OWNER_NOTE}`,
  ...owner,
  request: { params: deploymentIdParams },
  responses: {
    200: jsonContent(inferenceSchemaSchema, "The schemas and an example"),
    ...errors(401, 403, 404),
    ...unavailable,
  },
});
