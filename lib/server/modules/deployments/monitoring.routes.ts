import { createRoute, z } from "@hono/zod-openapi";
import { credentials } from "../../http/credentials";
import { errors, jsonContent, security } from "../../http/openapi";
import { deploymentIdParams } from "./deployments.schemas";
import {
  deploymentLogsSchema,
  deploymentMetricsSchema,
  deploymentStreamQuerySchema,
  deploymentStreamTokenSchema,
  logsQuerySchema,
  metricsQuerySchema,
} from "./monitoring.schemas";

const tags = ["Deployments"];
const userCreds = ["api_key", "session"] as const;
const auth = { security: security([...userCreds]), middleware: [credentials([...userCreds])] };

export const getDeploymentMetrics = createRoute({
  method: "get",
  path: "/api/v1/deployments/{deployment_id}/metrics",
  operationId: "getDeploymentMetrics",
  tags,
  summary: "Requests, errors and latency percentiles over a time window",
  description:
    "Computed from the request log of the deployment's inference and OpenAI-compatible calls. Latency is " +
    "measured inside the server, from the request's arrival to its response headers. Calls are logged " +
    "once their second has ended; a busy second keeps a uniform sample of each outcome's calls " +
    "(REQUEST_LOG_LINES_PER_SECOND lines), each line weighted by the calls it stands for, so counts " +
    "and percentiles still count every call.",
  ...auth,
  request: { params: deploymentIdParams, query: metricsQuerySchema },
  responses: {
    200: jsonContent(deploymentMetricsSchema, "The metrics"),
    ...errors(401, 403, 404, 422),
  },
});

export const getDeploymentLogs = createRoute({
  method: "get",
  path: "/api/v1/deployments/{deployment_id}/logs",
  operationId: "getDeploymentLogs",
  tags,
  summary: "The request log, newest first",
  description:
    "The deployment's inference and OpenAI-compatible calls (route, status, latency, instances, request " +
    "id, the error's detail): every call, except in a second with more calls of one outcome (2xx, 4xx, " +
    "5xx) than REQUEST_LOG_LINES_PER_SECOND, which keeps a uniform sample whose `weight` says how many " +
    "calls each line stands for; and the deployment's log lines (e.g. key rotations). `limit` up " +
    "to 1,000; page backwards with `before`.",
  ...auth,
  request: { params: deploymentIdParams, query: logsQuerySchema },
  responses: {
    200: jsonContent(deploymentLogsSchema, "Log entries, newest first"),
    ...errors(401, 403, 404, 422),
  },
});

export const createDeploymentStreamAccessToken = createRoute({
  method: "post",
  path: "/api/v1/deployments/{deployment_id}/stream-access-token",
  operationId: "createDeploymentStreamAccessToken",
  tags,
  summary: "Mint a token for the deployment's event stream",
  description:
    "The token (`lst_…`) opens this deployment's stream within 5 minutes; `stream_url` carries it.",
  ...auth,
  request: { params: deploymentIdParams },
  responses: {
    201: jsonContent(deploymentStreamTokenSchema, "The stream token"),
    ...errors(401, 403, 404),
  },
});

export const streamDeployment = createRoute({
  method: "get",
  path: "/api/v1/deployments/{deployment_id}/stream",
  operationId: "streamDeployment",
  tags,
  summary: "The deployment's events as server-sent events (stream token)",
  description:
    "Events `status` `{state, previous}`, `request` `{at, route, status, latency_ms, instances, request_id, " +
    "error}`, `log` `{level, message}` and `revision` (the new revision), each with an increasing `id`. " +
    "Everything after `Last-Event-ID` (header, or `last_event_id`) is sent first, then live events; a " +
    "`: keep-alive` comment at least every 15 s. Deleting the deployment ends the stream with a `status` " +
    'event `{state: "deleted"}`.',
  security: security(["stream_token"]),
  middleware: [credentials(["stream_token"])],
  request: { params: deploymentIdParams, query: deploymentStreamQuerySchema },
  responses: {
    200: { description: "The event stream", content: { "text/event-stream": { schema: z.string() } } },
    ...errors(401, 403, 404),
  },
});
