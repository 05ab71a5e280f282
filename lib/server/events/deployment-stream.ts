/**
 * A deployment's event stream (`status`, `request`, `log`, `revision`) over the one SSE writer
 * (sse.ts). Live delivery: appends made by this process wake the stream at once; on PostgreSQL,
 * appends by other server processes wake it through LISTEN (pg-listen.ts); and every POLL_MS the
 * stream reads the deployment's event counter (one primary-key lookup), so a notification that never
 * came delays events by at most that. Deleting the deployment ends the stream with a `status` event
 * `{state: "deleted"}`.
 */
import type { Db } from "../db/client";
import {
  DEPLOYMENT_EVENTS_CHANNEL,
  lastDeploymentEventSeq,
  listDeploymentEvents,
  onDeploymentEventsAppended,
  type StoredDeploymentEvent,
} from "./deployment-events";
import { listenChannel } from "./pg-listen";
import { eventStreamResponse } from "./sse";

export const DEPLOYMENT_STREAM_POLL_MS = 1000;
const READ_BATCH = 500;

function deletedEvent(after: number): StoredDeploymentEvent {
  return { id: after + 1, kind: "status", data: { state: "deleted" } };
}

/** Calls `onEvents` with the deployment's events after `afterId` as they are stored; returns the unsubscribe. */
export function subscribeDeploymentEvents(
  db: Db,
  deploymentId: string,
  afterId: number,
  onEvents: (events: StoredDeploymentEvent[]) => void,
): () => void {
  let cursor = afterId;
  let closed = false;
  let reading = false;
  let again = false;

  const read = async () => {
    if (closed) return;
    if (reading) {
      again = true;
      return;
    }
    reading = true;
    try {
      do {
        again = false;
        const last = await lastDeploymentEventSeq(db, deploymentId);
        if (closed) return;
        if (last === null) {
          onEvents([deletedEvent(cursor)]);
          return;
        }
        while (!closed && last > cursor) {
          const events = await listDeploymentEvents(db, deploymentId, cursor, READ_BATCH);
          if (events.length === 0 || closed) break;
          cursor = events[events.length - 1].id;
          onEvents(events);
        }
      } while (again && !closed);
    } catch (err) {
      // The next tick retries from the same cursor.
      void err;
    } finally {
      reading = false;
    }
  };

  const timer = setInterval(() => void read(), DEPLOYMENT_STREAM_POLL_MS);
  timer.unref?.();
  const unhook = onDeploymentEventsAppended((appendedTo, id) => {
    if (appendedTo === db && id === deploymentId) void read();
  });
  const unlisten = listenChannel(db, DEPLOYMENT_EVENTS_CHANNEL, {
    onOther: (id) => {
      if (id === deploymentId) void read();
    },
    onConnect: () => void read(),
  });
  void read();
  return () => {
    closed = true;
    clearInterval(timer);
    unhook();
    unlisten();
  };
}

/** The caller has checked that the stream token is this deployment's. */
export function deploymentEventStream(
  db: Db,
  deploymentId: string,
  opts: { lastEventId: number | null; heartbeatMs?: number; signal?: AbortSignal },
): Response {
  return eventStreamResponse<StoredDeploymentEvent>(
    {
      read: (afterId, limit) => listDeploymentEvents(db, deploymentId, afterId, limit),
      subscribe: (afterId, onEvents) => subscribeDeploymentEvents(db, deploymentId, afterId, onEvents),
      ends: (event) => (event.kind === "status" && event.data.state === "deleted" ? true : null),
    },
    opts,
  );
}
