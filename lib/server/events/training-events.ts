/**
 * Storage of a training job's events (decisions "Training"): one table, one per-job increasing id
 * (`seq`, the stream's `id:`), reserved from `training_jobs.last_event_id`. Every writer goes through
 * `appendTrainingEvents`: the counter UPDATE locks the job row until the transaction commits, so the
 * appends of one job are serialised across processes and commit in id order. A reader that sees id N
 * has therefore seen every id below N that will ever exist (ids of duplicates are skipped, never filled
 * later), which is what lets the live hub read "everything after my cursor" without losing events.
 */
import { and, asc, desc, eq, gt, lte, sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { type TrainingEventKind, trainingEvents, trainingJobs } from "../db/schema/training";
import { NotFoundError } from "../errors";
import { type MetricPointRow, mergeRollups, rollUp } from "./metric-rollups";
import { notifyPayload } from "./pg-listen";

export interface NewTrainingEvent {
  kind: TrainingEventKind;
  /** The payload sent to stream clients (shapes in decisions "Training"). */
  data: Record<string, unknown>;
  /** Metrics: series name (default `data.name`). Logs: level (default `data.level`). */
  name?: string | null;
  /** Default `data.step` / `data.epoch` / `data.value` when they are numbers. */
  step?: number | null;
  epoch?: number | null;
  value?: number | null;
  /** The uploader's event id: an id already stored for the job makes the event a duplicate. */
  clientId?: string | null;
  /** When the event happened (default `data.timestamp` when it is a valid time, else now). */
  at?: Date;
}

export interface StoredTrainingEvent {
  id: number;
  kind: TrainingEventKind;
  data: Record<string, unknown>;
}

export interface AppendResult {
  accepted: number;
  duplicates: number;
  /** The job's id counter after this append (the highest id reserved so far). */
  lastId: number;
}

/**
 * PostgreSQL channel notified at commit whenever events are appended, with the payload
 * `<origin> <job id>` (see pg-listen.ts).
 */
export const TRAINING_EVENTS_CHANNEL = "layerline_training_events";

/** Rows per INSERT statement. */
const INSERT_BATCH = 1000;

type AppendListener = (db: Db, jobId: string) => void;
const local = globalThis as unknown as { __layerlineTrainingAppendListeners?: Set<AppendListener> };

function appendListeners(): Set<AppendListener> {
  local.__layerlineTrainingAppendListeners ??= new Set();
  return local.__layerlineTrainingAppendListeners;
}

/**
 * Calls `listener` after every append in this process has committed (the live hub uses it to wake
 * its readers at once). Returns an unsubscribe function.
 */
export function onTrainingEventsAppended(listener: AppendListener): () => void {
  appendListeners().add(listener);
  return () => appendListeners().delete(listener);
}

function numberOr(explicit: number | null | undefined, fallback: unknown): number | null {
  if (explicit !== undefined) return explicit;
  return typeof fallback === "number" && Number.isFinite(fallback) ? fallback : null;
}

function stringOr(explicit: string | null | undefined, fallback: unknown): string | null {
  if (explicit !== undefined) return explicit;
  return typeof fallback === "string" ? fallback : null;
}

function eventTime(event: NewTrainingEvent, now: Date): Date {
  if (event.at) return event.at;
  const ts = event.data.timestamp;
  if (typeof ts === "string") {
    const parsed = new Date(ts);
    if (!Number.isNaN(parsed.getTime())) return parsed;
  }
  return now;
}

/** Keeps the first event of each client id within the request; events without one are all kept. */
function uniqueWithinRequest(events: NewTrainingEvent[]): NewTrainingEvent[] {
  const seen = new Set<string>();
  return events.filter((e) => {
    if (e.clientId === null || e.clientId === undefined) return true;
    if (seen.has(e.clientId)) return false;
    seen.add(e.clientId);
    return true;
  });
}

/**
 * Stores events in one transaction, ids increasing in input order. An event whose client id is already
 * stored for the job (or repeated within `events`) is a duplicate and is not stored; its reserved id is
 * simply skipped. NotFoundError when the job does not exist.
 */
export async function appendTrainingEvents(
  db: Db,
  jobId: string,
  events: NewTrainingEvent[],
): Promise<AppendResult> {
  const candidates = uniqueWithinRequest(events);
  if (candidates.length === 0) {
    const [job] = await db
      .select({ lastId: trainingJobs.lastEventId })
      .from(trainingJobs)
      .where(eq(trainingJobs.id, jobId));
    if (!job) throw new NotFoundError("Training job");
    return { accepted: 0, duplicates: events.length, lastId: job.lastId };
  }
  const now = new Date();
  const result = await db.transaction(async (tx) => {
    // Reserves the ids and locks the job row until commit; the notification is delivered at commit.
    const [reserved] = await tx
      .update(trainingJobs)
      .set({ lastEventId: sql`${trainingJobs.lastEventId} + ${candidates.length}` })
      .where(eq(trainingJobs.id, jobId))
      .returning({
        lastId: trainingJobs.lastEventId,
        notified: sql<string>`pg_notify(${TRAINING_EVENTS_CHANNEL}, ${notifyPayload(db, jobId)})`,
      });
    if (!reserved) throw new NotFoundError("Training job");
    const first = reserved.lastId - candidates.length + 1;
    let accepted = 0;
    for (let start = 0; start < candidates.length; start += INSERT_BATCH) {
      const rows = candidates.slice(start, start + INSERT_BATCH).map((e, i) => ({
        jobId,
        seq: first + start + i,
        kind: e.kind,
        data: e.data,
        name: stringOr(e.name, e.kind === "log" ? e.data.level : e.data.name),
        step: numberOr(e.step, e.data.step),
        epoch: numberOr(e.epoch, e.data.epoch),
        value: numberOr(e.value, e.data.value),
        clientId: e.clientId ?? null,
        at: eventTime(e, now),
      }));
      let stored = rows;
      if (rows.every((row) => row.clientId === null)) {
        // Nothing can conflict: the ids were just reserved.
        await tx.insert(trainingEvents).values(rows);
      } else {
        const inserted = await tx
          .insert(trainingEvents)
          .values(rows)
          .onConflictDoNothing({ target: [trainingEvents.jobId, trainingEvents.clientId] })
          .returning({ seq: trainingEvents.seq });
        const kept = new Set(inserted.map((i) => i.seq));
        stored = rows.filter((row) => kept.has(row.seq));
      }
      accepted += stored.length;
      const metrics: MetricPointRow[] = [];
      for (const row of stored) {
        if (row.kind === "metric" && row.name !== null && row.step !== null && row.value !== null)
          metrics.push({ name: row.name, step: row.step, value: row.value, epoch: row.epoch, at: row.at });
      }
      if (metrics.length > 0) await mergeRollups(tx as unknown as Db, rollUp(jobId, metrics));
    }
    return { accepted, duplicates: events.length - accepted, lastId: reserved.lastId };
  });
  for (const listener of appendListeners()) {
    try {
      listener(db, jobId);
    } catch (err) {
      console.error("[training-events] append listener failed:", err instanceof Error ? err.message : err);
    }
  }
  return result;
}

/** Events of a job with an id above `afterId`, oldest first, at most `limit`. */
export async function listTrainingEvents(
  db: Db,
  jobId: string,
  afterId: number,
  limit: number,
): Promise<StoredTrainingEvent[]> {
  return db
    .select({ id: trainingEvents.seq, kind: trainingEvents.kind, data: trainingEvents.data })
    .from(trainingEvents)
    .where(and(eq(trainingEvents.jobId, jobId), gt(trainingEvents.seq, afterId)))
    .orderBy(asc(trainingEvents.seq))
    .limit(limit);
}

/** The job's latest `status` event with an id at or below `atOrBeforeId`, or null. */
export async function lastTrainingStatusEvent(
  db: Db,
  jobId: string,
  atOrBeforeId: number,
): Promise<StoredTrainingEvent | null> {
  const [row] = await db
    .select({ id: trainingEvents.seq, kind: trainingEvents.kind, data: trainingEvents.data })
    .from(trainingEvents)
    .where(
      and(
        eq(trainingEvents.jobId, jobId),
        eq(trainingEvents.kind, "status"),
        lte(trainingEvents.seq, atOrBeforeId),
      ),
    )
    .orderBy(desc(trainingEvents.seq))
    .limit(1);
  return row ?? null;
}
