"use client";

import { useEffect, useRef, useState } from "react";
import {
  type EventStreamOptions,
  followEventStream,
  type NumberedEvent,
  type StreamStatus,
} from "./event-stream";

export type { EventStreamOptions, StreamSession, StreamStatus } from "./event-stream";

/**
 * A live stream (followEventStream) while `enabled`: "idle" until it first opens, "ended" once it
 * stops after having run. The last event id is kept across runs (a job restarting, a page
 * re-enabling the stream), so that a new run resumes where the previous one stopped; a new `key`
 * names another stream.
 */
export function useEventStream<E extends NumberedEvent>(
  key: string,
  enabled: boolean,
  options: EventStreamOptions<E>,
): StreamStatus {
  const [status, setStatus] = useState<StreamStatus>("idle");
  const lastId = useRef<number | null>(null);
  /** The caller's latest callbacks: they close over its props, the connection does not restart. */
  const latest = useRef(options);
  latest.current = options;

  // biome-ignore lint/correctness/useExhaustiveDependencies: `key` names the stream; a new one restarts it.
  useEffect(() => {
    if (!enabled) {
      setStatus((s) => (s === "idle" ? s : "ended"));
      return;
    }
    return followEventStream(() => latest.current, lastId, setStatus);
  }, [enabled, key]);

  return status;
}
