/**
 * The one server-sent-events writer (training streams now, deployment streams later). A stream first
 * replays what is stored after Last-Event-ID, reading a page only when the client has taken the
 * previous one, then hands its cursor to the live hub, which delivers every later id exactly once:
 * nothing is lost or repeated across the replay/live boundary. Heartbeat comments keep proxies from
 * closing an idle stream; the stream ends after the source's final event (a terminal status), when
 * the client disconnects, or when a client reads too slowly to keep up (it reconnects with
 * Last-Event-ID and resumes from the database).
 */
import type { Db } from "../db/client";
import { TRAINING_STATES } from "../db/schema/training";
import { subscribeTrainingEvents } from "./event-hub";
import { lastTrainingStatusEvent, listTrainingEvents, type StoredTrainingEvent } from "./training-events";

export interface StreamEvent {
  id: number;
  kind: string;
  data: unknown;
}

export interface EventStreamSource<E extends StreamEvent> {
  /** Stored events with an id above `afterId`, oldest first, at most `limit`. */
  read(afterId: number, limit: number): Promise<E[]>;
  /** Live events above `afterId`, each exactly once, in id order; returns the unsubscribe function. */
  subscribe(afterId: number, onEvents: (events: E[]) => void): () => void;
  /**
   * Whether the stream is over once this event has been sent: true (e.g. a terminal status), false
   * (an event that reopens it, e.g. a restart's status), null (no effect).
   */
  ends(event: E): boolean | null;
  /** Whether the stream was already over at `afterId` (a client resuming after the final event). */
  endedAt?(afterId: number): Promise<boolean>;
}

export interface EventStreamOptions {
  lastEventId: number | null;
  /** Interval of `: keep-alive` comments (default 15,000 ms). */
  heartbeatMs?: number;
  /** Aborts the stream (the request's signal: the client went away). */
  signal?: AbortSignal;
}

export const DEFAULT_HEARTBEAT_MS = 15_000;
const REPLAY_PAGE = 500;
/** Bytes queued for a client before reads pause (replay) or the stream is dropped (live). */
const QUEUE_HIGH_WATER = 64 * 1024;
const MAX_QUEUED_BYTES = 8 * 1024 * 1024;

export const SSE_HEADERS = {
  "Content-Type": "text/event-stream; charset=utf-8",
  "Cache-Control": "no-cache",
  "X-Accel-Buffering": "no",
} as const;

/** One event in the wire format. JSON never contains a raw newline, so `data:` is a single line. */
export function formatSseEvent(event: StreamEvent): string {
  return `id: ${event.id}\nevent: ${event.kind}\ndata: ${JSON.stringify(event.data)}\n\n`;
}

/** The resume point sent by a reconnecting client: the `Last-Event-ID` header, else `?last_event_id=`. */
export function lastEventIdFrom(request: Request): number | null {
  const parse = (raw: string | null | undefined): number | null => {
    const value = raw?.trim();
    if (!value || !/^\d{1,15}$/.test(value)) return null;
    return Number(value);
  };
  return (
    parse(request.headers.get("Last-Event-ID")) ??
    parse(new URL(request.url).searchParams.get("last_event_id"))
  );
}

/** A `text/event-stream` response over any event source (see EventStreamSource). */
export function eventStreamResponse<E extends StreamEvent>(
  source: EventStreamSource<E>,
  opts: EventStreamOptions,
): Response {
  const encoder = new TextEncoder();
  const heartbeatMs = opts.heartbeatMs ?? DEFAULT_HEARTBEAT_MS;
  let cursor = opts.lastEventId ?? 0;
  let phase: "start" | "replay" | "live" | "closed" = "start";
  let ended = false;
  let unsubscribe: (() => void) | null = null;
  let heartbeat: ReturnType<typeof setInterval> | null = null;
  let ctrl: ReadableStreamDefaultController<Uint8Array> | null = null;

  const cleanup = () => {
    phase = "closed";
    if (heartbeat) clearInterval(heartbeat);
    heartbeat = null;
    unsubscribe?.();
    unsubscribe = null;
    opts.signal?.removeEventListener("abort", onAbort);
  };
  const finish = () => {
    if (phase === "closed") return;
    cleanup();
    try {
      ctrl?.close();
    } catch {
      // Already closed or cancelled by the client.
    }
  };
  function onAbort() {
    finish();
  }
  const send = (text: string) => {
    if (phase === "closed" || !ctrl) return;
    try {
      ctrl.enqueue(encoder.encode(text));
    } catch {
      cleanup();
    }
  };
  /** Sends events above the cursor; returns false when the stream ended with them. */
  const write = (events: E[]): boolean => {
    let text = "";
    for (const event of events) {
      if (event.id <= cursor) continue;
      cursor = event.id;
      text += formatSseEvent(event);
      const ends = source.ends(event);
      if (ends !== null) ended = ends;
    }
    if (text) send(text);
    return !ended;
  };

  const stream = new ReadableStream<Uint8Array>(
    {
      start(controller) {
        ctrl = controller;
        if (opts.signal?.aborted) {
          finish();
          return;
        }
        opts.signal?.addEventListener("abort", onAbort);
        heartbeat = setInterval(() => send(": keep-alive\n\n"), heartbeatMs);
        heartbeat.unref?.();
      },
      async pull() {
        try {
          if (phase === "start") {
            phase = "replay";
            if (cursor > 0 && source.endedAt) ended = await source.endedAt(cursor);
          }
          if (phase !== "replay") return;
          const page = await source.read(cursor, REPLAY_PAGE);
          if (phase !== "replay") return;
          write(page);
          if (page.length === REPLAY_PAGE) return;
          // Everything stored has been sent: end here, or hand the cursor to the live hub.
          if (ended) {
            finish();
            return;
          }
          phase = "live";
          unsubscribe = source.subscribe(cursor, (events) => {
            if (phase !== "live") return;
            if (!write(events)) finish();
            else if ((ctrl?.desiredSize ?? 0) < -MAX_QUEUED_BYTES) finish();
          });
        } catch (err) {
          console.error("[events] stream read failed:", err instanceof Error ? err.message : err);
          finish();
        }
      },
      cancel() {
        cleanup();
      },
    },
    { highWaterMark: QUEUE_HIGH_WATER, size: (chunk) => chunk.byteLength },
  );
  return new Response(stream, { status: 200, headers: SSE_HEADERS });
}

const TERMINAL = new Set<string>(TRAINING_STATES.filter((s) => !["queued", "running"].includes(s)));

function statusEnds(event: StoredTrainingEvent): boolean | null {
  if (event.kind !== "status") return null;
  return TERMINAL.has(String(event.data.status));
}

/**
 * A training job's event stream: `status`, `metric`, `log`, `checkpoint` and `progress` events with
 * the job's event ids; closed after a terminal status (a restart's later events reopen it for clients
 * replaying from before). The caller has checked access to the job.
 */
export function trainingEventStream(
  db: Db,
  jobId: string,
  opts: { lastEventId: number | null; heartbeatMs?: number; signal?: AbortSignal },
): Response {
  return eventStreamResponse<StoredTrainingEvent>(
    {
      read: (afterId, limit) => listTrainingEvents(db, jobId, afterId, limit),
      subscribe: (afterId, onEvents) => subscribeTrainingEvents(db, jobId, afterId, onEvents),
      ends: statusEnds,
      endedAt: async (afterId) => {
        const last = await lastTrainingStatusEvent(db, jobId, afterId);
        return last ? statusEnds(last) === true : false;
      },
    },
    opts,
  );
}
