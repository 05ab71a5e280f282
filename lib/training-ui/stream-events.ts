/**
 * The training event stream (decisions "Training"): the payload of each SSE event kind, checked
 * before it reaches the query cache, and the URL a stream resumes from.
 */
import { z } from "zod";

const state = z.enum(["queued", "running", "succeeded", "failed", "cancelled", "timed_out"]);

export const streamEventSchemas = {
  status: z.object({ status: state, at: z.string(), reason: z.string().nullable().optional() }),
  metric: z.object({
    name: z.string(),
    step: z.number(),
    epoch: z.number().nullable().optional(),
    value: z.number(),
    timestamp: z.string().optional(),
  }),
  log: z.object({
    timestamp: z.string(),
    level: z.enum(["debug", "info", "warning", "error"]),
    message: z.string(),
  }),
  checkpoint: z.object({
    id: z.string(),
    epoch: z.number(),
    step: z.number(),
    metrics: z.record(z.string(), z.number()).optional(),
  }),
  progress: z.object({ epoch: z.number(), epochs: z.number(), step: z.number(), steps: z.number() }),
} as const;

export type StreamEventKind = keyof typeof streamEventSchemas;
export const STREAM_EVENT_KINDS = Object.keys(streamEventSchemas) as StreamEventKind[];

export type StreamEvent = {
  [K in StreamEventKind]: { kind: K; id: number; data: z.infer<(typeof streamEventSchemas)[K]> };
}[StreamEventKind];

/** An SSE message (`event:`, `id:`, `data:`) as a typed event, or null when it is not one. */
export function parseStreamEvent(kind: string, lastEventId: string, data: string): StreamEvent | null {
  if (!(kind in streamEventSchemas)) return null;
  const id = Number(lastEventId);
  if (!Number.isSafeInteger(id)) return null;
  let json: unknown;
  try {
    json = JSON.parse(data);
  } catch {
    return null;
  }
  const parsed = streamEventSchemas[kind as StreamEventKind].safeParse(json);
  if (!parsed.success) return null;
  return { kind, id, data: parsed.data } as StreamEvent;
}

/** The stream URL to reopen with a fresh token, resuming after the last event seen. */
export function resumeUrl(streamUrl: string, lastEventId: number | null): string {
  if (lastEventId === null) return streamUrl;
  const url = new URL(streamUrl, "http://placeholder.invalid");
  url.searchParams.set("last_event_id", String(lastEventId));
  const absolute = /^[a-z][a-z0-9+.-]*:/i.test(streamUrl);
  return absolute ? url.toString() : `${url.pathname}${url.search}${url.hash}`;
}

/** Terminal states: the server closes the stream after one of these. */
export function isTerminal(status: z.infer<typeof state>): boolean {
  return status !== "queued" && status !== "running";
}
