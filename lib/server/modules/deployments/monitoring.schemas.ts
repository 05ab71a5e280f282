/** Schemas of a deployment's metrics, logs and event stream (issue 14). */
import { z } from "@hono/zod-openapi";
import { METRIC_WINDOWS } from "./monitoring";

const dateTime = () => z.string().openapi({ format: "date-time" });
const windows = Object.keys(METRIC_WINDOWS) as [
  keyof typeof METRIC_WINDOWS,
  ...(keyof typeof METRIC_WINDOWS)[],
];

export const MAX_DEPLOYMENT_LOG_LIMIT = 1000;

export const metricsQuerySchema = z.object({
  window: z
    .enum(windows)
    .default("1h")
    .openapi({ description: "1h (1-minute buckets), 24h (15-minute buckets) or 7d (3-hour buckets)" }),
});

const latency = () => z.number().nullable().openapi({ description: "Milliseconds; null with no requests" });
const metricValues = {
  requests: z.number().int(),
  errors: z
    .number()
    .int()
    .openapi({ description: "Responses with a 5xx status (including 503 while paused)" }),
  client_errors: z.number().int().openapi({ description: "Responses with a 4xx status" }),
  p50_ms: latency(),
  p95_ms: latency(),
  p99_ms: latency(),
};

export const deploymentMetricsSchema = z
  .object({
    window: z.enum(windows),
    bucket_seconds: z.number().int(),
    totals: z.object(metricValues),
    series: z.array(z.object({ at: dateTime(), ...metricValues })).openapi({
      description: "One point per bucket that saw requests, oldest first",
    }),
  })
  .openapi("DeploymentMetrics");

export const logsQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(MAX_DEPLOYMENT_LOG_LIMIT).default(100),
  before: z.coerce
    .number()
    .int()
    .min(1)
    .optional()
    .openapi({ description: "Entries older than this id (the previous page's `next_before`)" }),
  status: z
    .enum(["ok", "error"])
    .optional()
    .openapi({ description: "Only requests that succeeded (< 400) or failed (≥ 400)" }),
});

export const deploymentLogEntrySchema = z
  .object({
    id: z.number().int().openapi({ description: "The event id (also its id on the event stream)" }),
    at: dateTime(),
    kind: z.enum(["request", "log"]),
    route: z.string().nullable().openapi({ description: "predict, batch, schema, health, or a /v1 path" }),
    status: z.number().int().nullable(),
    latency_ms: z.number().nullable(),
    instances: z.number().int().nullable(),
    request_id: z.string().nullable(),
    error: z.string().nullable().openapi({ description: "The error's detail for a failed request" }),
    message: z.string().nullable().openapi({ description: "A log line's text" }),
    weight: z
      .number()
      .int()
      .min(1)
      .nullable()
      .openapi({
        description:
          "How many calls this request line stands for: 1, or more when its second had more calls of its " +
          "outcome than the log keeps (a uniform sample); null for a log line",
      }),
  })
  .openapi("DeploymentLogEntry");

export const deploymentLogsSchema = z
  .object({
    items: z.array(deploymentLogEntrySchema).openapi({ description: "Newest first" }),
    next_before: z.number().int().nullable().openapi({ description: "Pass as `before` for older entries" }),
  })
  .openapi("DeploymentLogs");

export const deploymentStreamTokenSchema = z
  .object({ token: z.string(), expires_at: dateTime(), stream_url: z.string() })
  .openapi("DeploymentStreamToken");

export const deploymentStreamQuerySchema = z.object({
  token: z.string().optional().openapi({ description: "Stream token (lst_…); or Authorization: Bearer" }),
  last_event_id: z.coerce.number().int().min(0).optional().openapi({ description: "Resume after this id" }),
});
