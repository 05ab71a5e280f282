/**
 * A deployment's event stream (decisions "Deployments and inference"): `status`, `request`, `log`
 * and `revision` events, each payload checked before it reaches the query cache.
 */
import { z } from "zod";

export const deploymentEventSchemas = {
  status: z.object({ state: z.string(), previous: z.string().nullable().optional() }),
  request: z.object({
    at: z.string(),
    route: z.string(),
    status: z.number(),
    latency_ms: z.number(),
    instances: z.number().nullable().optional(),
    request_id: z.string().nullable().optional(),
    error: z.string().nullable().optional(),
    /** The calls this line stands for, when a busy second's lines are a sample (default 1). */
    weight: z.number().positive().optional(),
  }),
  log: z.object({ message: z.string(), level: z.string().optional(), at: z.string().optional() }),
  revision: z.object({ number: z.number() }).passthrough(),
} as const;

export type DeploymentEventKind = keyof typeof deploymentEventSchemas;
export const DEPLOYMENT_EVENT_KINDS = Object.keys(deploymentEventSchemas) as DeploymentEventKind[];

export type DeploymentEvent = {
  [K in DeploymentEventKind]: { kind: K; id: number; data: z.infer<(typeof deploymentEventSchemas)[K]> };
}[DeploymentEventKind];

export type RequestEvent = Extract<DeploymentEvent, { kind: "request" }>;

/** An SSE message as a typed deployment event, or null when it is not one. */
export function parseDeploymentEvent(
  kind: string,
  lastEventId: string,
  data: string,
): DeploymentEvent | null {
  if (!(kind in deploymentEventSchemas)) return null;
  const id = Number(lastEventId);
  if (!Number.isSafeInteger(id)) return null;
  let json: unknown;
  try {
    json = JSON.parse(data);
  } catch {
    return null;
  }
  const parsed = deploymentEventSchemas[kind as DeploymentEventKind].safeParse(json);
  if (!parsed.success) return null;
  return { kind, id, data: parsed.data } as DeploymentEvent;
}
