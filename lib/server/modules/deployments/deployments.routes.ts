import { createRoute, z } from "@hono/zod-openapi";
import { credentials } from "../../http/credentials";
import { idempotency } from "../../http/idempotency";
import { errors, idempotencyKeyHeaders, jsonBody, jsonContent, security } from "../../http/openapi";
import { pagedSchema, pageQuerySchema } from "../../http/paging";
import {
  createDeploymentBodySchema,
  deployModelVersionBodySchema,
  deploymentHealthSchema,
  deploymentIdParams,
  deploymentRevisionSchema,
  deploymentSchema,
  deploymentWithKeySchema,
  updateDeploymentBodySchema,
} from "./deployments.schemas";

const tags = ["Deployments"];
const userCreds = ["api_key", "session"] as const;
const auth = { security: security([...userCreds]), middleware: [credentials([...userCreds])] };
const params = { params: deploymentIdParams };

/** A replay never repeats the one-time key (contract §4.14 rule 5). */
const redactKey = (body: unknown) =>
  body && typeof body === "object" && "api_key" in body ? { ...body, api_key: null } : null;

export const createDeployment = createRoute({
  method: "post",
  path: "/api/v1/deployments",
  operationId: "createDeployment",
  tags,
  summary: "Deploy a succeeded training job's model",
  description:
    "Serves the model artifact of a succeeded training job or fine-tuning run, or of a finalized registry " +
    "model version (else 409). The model is loaded before the deployment is created, so it is warm for " +
    "its first call; a model that cannot be loaded is refused with 409 and nothing is created. Give " +
    "exactly one of `job_id` or `model_version_id`. The response carries " +
    "the deployment key (`api_key`, " +
    "`ldk_…`) once. Honors `Idempotency-Key`: a replay answers the stored deployment with " +
    "`api_key: null` and `Idempotency-Secret-Redacted: true` (rotate the key to get a new one).",
  security: security([...userCreds]),
  middleware: [credentials([...userCreds]), idempotency({ redact: redactKey })],
  request: {
    headers: idempotencyKeyHeaders,
    body: jsonBody(createDeploymentBodySchema),
  },
  responses: {
    201: {
      ...jsonContent(deploymentWithKeySchema, "The deployment, with its key shown once"),
      headers: {
        Location: { description: "The deployment's URL", schema: { type: "string" as const } },
        "Idempotency-Replayed": {
          description: "`true` on a replay of a stored response",
          schema: { type: "string" as const },
        },
        "Idempotency-Secret-Redacted": {
          description: "`true` when the replay's one-time key was removed",
          schema: { type: "string" as const },
        },
      },
    },
    ...errors(400, 401, 403, 404, 409, 422),
  },
});

export const deployModelVersion = createRoute({
  method: "post",
  path: "/api/v1/deployments/from-model-version",
  operationId: "deployModelVersion",
  tags,
  summary: "Deploy a model version in one call",
  description:
    "Serves a finalized registry model version (409 while it is pending or when it carries no servable " +
    "artifact). The name defaults to the model's name and version (`<model>-v<n>`). The response carries " +
    "the deployment key once; honors `Idempotency-Key` like `POST /deployments` (a replay has " +
    "`api_key: null` and `Idempotency-Secret-Redacted: true`).",
  security: security([...userCreds]),
  middleware: [credentials([...userCreds]), idempotency({ redact: redactKey })],
  request: {
    headers: idempotencyKeyHeaders,
    body: jsonBody(deployModelVersionBodySchema),
  },
  responses: {
    201: {
      ...jsonContent(deploymentWithKeySchema, "The deployment, with its key shown once"),
      headers: {
        Location: { description: "The deployment's URL", schema: { type: "string" as const } },
        "Idempotency-Secret-Redacted": {
          description: "`true` when the replay's one-time key was removed",
          schema: { type: "string" as const },
        },
      },
    },
    ...errors(400, 401, 403, 404, 409, 422),
  },
});

export const listDeployments = createRoute({
  method: "get",
  path: "/api/v1/deployments",
  operationId: "listDeployments",
  tags,
  summary: "List your deployments (newest first, paged)",
  ...auth,
  request: { query: pageQuerySchema },
  responses: {
    200: jsonContent(pagedSchema(deploymentSchema, "DeploymentPage"), "A page of deployments"),
    ...errors(401, 403, 422),
  },
});

export const getDeployment = createRoute({
  method: "get",
  path: "/api/v1/deployments/{deployment_id}",
  operationId: "getDeployment",
  tags,
  summary: "Get a deployment",
  ...auth,
  request: params,
  responses: { 200: jsonContent(deploymentSchema, "The deployment"), ...errors(401, 403, 404) },
});

export const updateDeployment = createRoute({
  method: "put",
  path: "/api/v1/deployments/{deployment_id}",
  operationId: "updateDeployment",
  tags,
  summary: "Rename a deployment, or serve another job or settings (a new revision)",
  description:
    "A new `job_id` or new `settings` make a new revision, served from the next request on; a new " +
    "name alone does not. The job must have succeeded with an artifact (else 409).",
  ...auth,
  request: { ...params, body: jsonBody(updateDeploymentBodySchema) },
  responses: {
    200: jsonContent(deploymentSchema, "The updated deployment"),
    ...errors(400, 401, 403, 404, 409, 422),
  },
});

export const deleteDeployment = createRoute({
  method: "delete",
  path: "/api/v1/deployments/{deployment_id}",
  operationId: "deleteDeployment",
  tags,
  summary: "Delete a deployment (its key stops working)",
  ...auth,
  request: params,
  responses: { 204: { description: "Deleted" }, ...errors(401, 403, 404) },
});

export const rotateDeploymentKey = createRoute({
  method: "post",
  path: "/api/v1/deployments/{deployment_id}/rotate-key",
  operationId: "rotateDeploymentKey",
  tags,
  summary: "Rotate the deployment key; the new key is shown once",
  description:
    "There is no grace period: the old key stops working at once on the server that rotated it, and " +
    "within a quarter of a second on every other server process (each reuses a key check for at most " +
    "250 ms).",
  ...auth,
  request: params,
  responses: {
    200: jsonContent(deploymentWithKeySchema, "The deployment with its new key, shown once"),
    ...errors(401, 403, 404),
  },
});

export const pauseDeployment = createRoute({
  method: "post",
  path: "/api/v1/deployments/{deployment_id}/pause",
  operationId: "pauseDeployment",
  tags,
  summary: "Pause (inference answers 503 with Retry-After until resumed)",
  description:
    "Takes effect at once on the server that paused it and within a quarter of a second on every other " +
    "server process.",
  ...auth,
  request: params,
  responses: { 200: jsonContent(deploymentSchema, "The paused deployment"), ...errors(401, 403, 404, 409) },
});

export const resumeDeployment = createRoute({
  method: "post",
  path: "/api/v1/deployments/{deployment_id}/resume",
  operationId: "resumeDeployment",
  tags,
  summary: "Resume a paused deployment",
  ...auth,
  request: params,
  responses: { 200: jsonContent(deploymentSchema, "The resumed deployment"), ...errors(401, 403, 404, 409) },
});

export const listDeploymentRevisions = createRoute({
  method: "get",
  path: "/api/v1/deployments/{deployment_id}/revisions",
  operationId: "listDeploymentRevisions",
  tags,
  summary: "List revisions, newest first",
  ...auth,
  request: params,
  responses: {
    200: jsonContent(z.array(deploymentRevisionSchema), "The revisions, newest first"),
    ...errors(401, 403, 404),
  },
});

export const getDeploymentHealth = createRoute({
  method: "get",
  path: "/api/v1/deployments/{deployment_id}/health",
  operationId: "getDeploymentHealth",
  tags,
  summary: "Health of a deployment",
  ...auth,
  request: params,
  responses: {
    200: jsonContent(deploymentHealthSchema, "The deployment's health"),
    ...errors(401, 403, 404),
  },
});
