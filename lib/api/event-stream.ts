import { resumeUrl } from "@/lib/training-ui/stream-events";

/**
 * The one reconnecting reader of the studio's live streams (a training job's, a deployment's), in
 * plain TypeScript (useEventStream is its React binding).
 */
export type StreamStatus = "idle" | "connecting" | "live" | "reconnecting" | "ended";

/** An event as the streams number them: the id is what a reconnection resumes after. */
export interface NumberedEvent {
  id: number;
}

/** What one connection session (one run of the effect) does with what arrives. */
export interface StreamSession<E> {
  /** Writes a batch of events (in order) into the cache. */
  apply: (events: E[]) => void;
  /** Called once when the stream stops (after the last batch). */
  stop?: () => void;
}

export interface EventStreamOptions<E extends NumberedEvent> {
  /** A fresh stream URL (its token is short-lived, so one is asked for on every (re)connection). */
  streamUrl: () => Promise<string | null>;
  /** The event types to listen to. */
  kinds: readonly string[];
  /** Reads one message; null when it is not one of ours (it is then ignored). */
  parse: (type: string, lastEventId: string, data: string) => E | null;
  /** Where to start when nothing was applied yet: the newest id the page's history already holds. */
  startAfter: () => number | null;
  /** A session per run: its state (timers, samples) lives as long as the stream. */
  session: () => StreamSession<E>;
  /** Events are applied in batches, at most this often (a replay is thousands of them). */
  flushMs: number;
  /**
   * Whether the server closes the stream after this event (the error that follows then ends it for
   * good); null leaves the verdict of earlier events standing.
   */
  isLast?: (event: E) => boolean | null;
  /** Each time the stream opens. */
  onOpen?: () => void;
  /**
   * Called before each reconnection: the stream closed (or could not open) before its last event.
   * The thing followed may have ended before the stream opened (a job that failed at once: its
   * terminal event is older than the cursor), so a caller re-reads it here.
   */
  onRetry?: () => void;
}

/** The highest event id applied: kept by the caller across runs. */
export interface Cursor {
  current: number | null;
}

/**
 * Server-sent events written through `session().apply`, with no polling, until the returned stop is
 * called. The stream token is short-lived: on an error the stream is reopened with a fresh URL,
 * resuming after the last event applied (`last_event_id`, the Last-Event-ID of the URL), with a
 * growing pause between attempts (0.5 s doubling up to 15 s); events at or below that id (a replay)
 * are skipped. After an event `isLast` accepts, the stream ends instead. `options` is read at each
 * use, so the caller's newest callbacks are the ones called.
 */
export function followEventStream<E extends NumberedEvent>(
  options: () => EventStreamOptions<E>,
  lastId: Cursor,
  setStatus: (status: StreamStatus) => void,
  EventSourceImpl: typeof EventSource = EventSource,
): () => void {
  const session = options().session();
  let source: EventSource | null = null;
  let stopped = false;
  let retry: ReturnType<typeof setTimeout> | null = null;
  let flushTimer: ReturnType<typeof setTimeout> | null = null;
  let failures = 0;
  let ended = false;
  const buffer: E[] = [];

  const flush = () => {
    flushTimer = null;
    if (buffer.length === 0) return;
    session.apply(buffer.splice(0));
  };
  const onMessage = (e: MessageEvent<string>) => {
    const opts = options();
    const event = opts.parse(e.type, e.lastEventId, e.data);
    if (!event || (lastId.current !== null && event.id <= lastId.current)) return;
    lastId.current = event.id;
    failures = 0;
    ended = opts.isLast?.(event) ?? ended;
    buffer.push(event);
    flushTimer ??= setTimeout(flush, opts.flushMs);
  };

  const open = async () => {
    setStatus(failures === 0 && lastId.current === null ? "connecting" : "reconnecting");
    // The history already holds everything up to its cursor: follow from there, not from the start.
    if (lastId.current === null) lastId.current = options().startAfter();
    try {
      const url = await options().streamUrl();
      if (stopped || !url) return;
      const es = new EventSourceImpl(resumeUrl(url, lastId.current));
      source = es;
      for (const kind of options().kinds) es.addEventListener(kind, onMessage as EventListener);
      es.onopen = () => {
        setStatus("live");
        options().onOpen?.();
      };
      es.onerror = () => {
        // The server closes the stream after its last event; otherwise the token may have expired
        // (EventSource would retry with it): reopen with a fresh one, from the last id.
        es.close();
        if (source === es) source = null;
        if (stopped) return;
        if (ended) {
          flush();
          setStatus("ended");
          return;
        }
        scheduleRetry();
      };
    } catch {
      if (!stopped) scheduleRetry();
    }
  };
  const scheduleRetry = () => {
    failures += 1;
    setStatus("reconnecting");
    options().onRetry?.();
    retry = setTimeout(open, Math.min(15_000, 500 * 2 ** Math.min(failures, 5)));
  };

  void open();
  return () => {
    stopped = true;
    source?.close();
    if (retry) clearTimeout(retry);
    if (flushTimer) clearTimeout(flushTimer);
    flush();
    session.stop?.();
  };
}
