/**
 * A deployment's event log (the SSE stream, the request log and the metrics read it). Appends take
 * the deployment row's lock to advance its counter, so the events of one deployment commit in seq
 * order across every server process: a reader that asks for "seq above my cursor" never skips an
 * event that commits later. Appends in this process wake this process's streams at once; on
 * PostgreSQL every append also notifies DEPLOYMENT_EVENTS_CHANNEL at commit, which wakes the streams
 * of other processes; and the streams poll, so a lost notification delays an event, never loses it.
 */
import { and, asc, eq, gt, inArray, sql } from "drizzle-orm";
import type { Db } from "../db/client";
import {
  type DeploymentEventKind,
  type DeploymentEventRow,
  deploymentEvents,
  deployments,
} from "../db/schema";
import { notifyPayload, postgresClientOf } from "./pg-listen";

/** What a transaction or the database can run (appends join the caller's transaction). */
type Executor = Pick<Db, "select" | "insert" | "update" | "execute">;

export interface NewDeploymentEvent {
  kind: DeploymentEventKind;
  at?: Date;
  data: Record<string, unknown>;
  /** Request events: their route, status and latency, also kept as columns for the metrics. */
  route?: string;
  status?: number;
  latencyMs?: number;
}

export interface StoredDeploymentEvent {
  id: number;
  kind: DeploymentEventKind;
  data: Record<string, unknown>;
}

/** PostgreSQL channel notified at commit by every append: `<origin> <deployment id>` (pg-listen.ts). */
export const DEPLOYMENT_EVENTS_CHANNEL = "layerline_deployment_events";

/** `pg_notify(…)` of an append through `db` on PostgreSQL; nothing on PGlite (one process). */
function notifySql(db: Db, deploymentId: string) {
  return postgresClientOf(db)
    ? sql`pg_notify(${DEPLOYMENT_EVENTS_CHANNEL}, ${notifyPayload(db, deploymentId)})`
    : sql`null`;
}

type Listener = (db: Db, deploymentId: string) => void;
const globalListeners = globalThis as unknown as { __layerlineDeploymentEventListeners?: Set<Listener> };
if (!globalListeners.__layerlineDeploymentEventListeners)
  globalListeners.__layerlineDeploymentEventListeners = new Set<Listener>();
const listeners = globalListeners.__layerlineDeploymentEventListeners;

/** Called after events of a deployment were appended by this process (through `db`). */
export function onDeploymentEventsAppended(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

function notify(db: Db, deploymentId: string): void {
  for (const l of listeners) {
    try {
      l(db, deploymentId);
    } catch (err) {
      console.error("[deployment-events] listener failed:", err instanceof Error ? err.message : err);
    }
  }
}

/**
 * Appends events to one deployment (inside `tx` when given). Returns nothing when the deployment
 * no longer exists (a request that finished after its deployment was deleted).
 */
export async function appendDeploymentEvents(
  db: Db,
  deploymentId: string,
  events: readonly NewDeploymentEvent[],
  tx?: Executor,
): Promise<void> {
  if (events.length === 0) return;
  const run = async (ex: Executor) => {
    const [row] = await ex
      .update(deployments)
      .set({ lastEventSeq: sql`${deployments.lastEventSeq} + ${events.length}` })
      .where(eq(deployments.id, deploymentId))
      .returning({ last: deployments.lastEventSeq, notified: notifySql(db, deploymentId) });
    if (!row) return false;
    const first = row.last - events.length + 1;
    await ex.insert(deploymentEvents).values(
      events.map((e, i) => ({
        deploymentId,
        seq: first + i,
        kind: e.kind,
        at: e.at ?? new Date(),
        route: e.route ?? null,
        status: e.status ?? null,
        latencyMs: e.latencyMs ?? null,
        data: e.data,
      })),
    );
    return true;
  };
  const appended = tx ? await run(tx) : await appendInOneStatement(db, deploymentId, events);
  // Inside a caller's transaction the events are visible at its commit; a wake before it only
  // costs an empty read, and the poll delivers them after.
  if (appended) queueMicrotask(() => notify(db, deploymentId));
}

/**
 * The same append as one statement (its own transaction): the counter's row lock is held until the
 * events are in, as in the transaction above, at the cost of one round trip instead of four. On the
 * embedded database, which runs on the server's thread, that is what keeps request-log writes from
 * holding up requests (bench/serving-bench.ts).
 */
async function appendInOneStatement(
  db: Db,
  deploymentId: string,
  events: readonly NewDeploymentEvent[],
): Promise<boolean> {
  const rows = JSON.stringify(
    events.map((e, i) => ({
      i: i + 1,
      kind: e.kind,
      at: (e.at ?? new Date()).toISOString(),
      route: e.route ?? null,
      status: e.status ?? null,
      latency_ms: e.latencyMs ?? null,
      data: e.data,
    })),
  );
  const result: unknown = await db.execute(sql`
    with counter as (
      update ${deployments} set last_event_seq = last_event_seq + ${events.length}
      where id = ${deploymentId}
      returning last_event_seq - ${events.length} as base, ${notifySql(db, deploymentId)} as notified
    ), inserted as (
      insert into ${deploymentEvents} (deployment_id, seq, kind, at, route, status, latency_ms, data)
      select ${deploymentId}, counter.base + e.i, e.kind, e.at, e.route, e.status, e.latency_ms, e.data
      from counter, jsonb_to_recordset(${rows}::jsonb)
        as e(i int, kind text, at timestamptz, route text, status int, latency_ms real, data jsonb)
      returning 1
    )
    select count(*)::int as n from inserted`);
  const [row] = (Array.isArray(result) ? result : (result as { rows: unknown[] }).rows) as { n: number }[];
  return Number(row?.n ?? 0) > 0;
}

function stored(row: DeploymentEventRow): StoredDeploymentEvent {
  return { id: row.seq, kind: row.kind, data: row.data };
}

/** Events after `afterSeq`, oldest first (optionally of some kinds only). */
export async function listDeploymentEvents(
  db: Db,
  deploymentId: string,
  afterSeq: number,
  limit: number,
  kinds?: readonly DeploymentEventKind[],
): Promise<StoredDeploymentEvent[]> {
  const rows = await db
    .select()
    .from(deploymentEvents)
    .where(
      and(
        eq(deploymentEvents.deploymentId, deploymentId),
        gt(deploymentEvents.seq, afterSeq),
        kinds ? inArray(deploymentEvents.kind, [...kinds]) : undefined,
      ),
    )
    .orderBy(asc(deploymentEvents.seq))
    .limit(limit);
  return rows.map(stored);
}

/** The deployment's event counter (the id of its latest event), or null when it does not exist. */
export async function lastDeploymentEventSeq(db: Db, deploymentId: string): Promise<number | null> {
  const [row] = await db
    .select({ last: deployments.lastEventSeq })
    .from(deployments)
    .where(eq(deployments.id, deploymentId))
    .limit(1);
  return row ? row.last : null;
}
