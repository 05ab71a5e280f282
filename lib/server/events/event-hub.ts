/**
 * Live delivery of training events: one hub per job per process, shared by every subscriber of that
 * job (200 stream clients on one job cost one database reader, not 200). The database is the source of
 * truth; a hub only remembers how far it has read. It reads everything after its cursor when woken:
 * - at once when this process appended events to the job (training-events.ts tells it);
 * - on PostgreSQL, when another process appended (LISTEN on the channel that the append's transaction
 *   notifies at commit), and after the listening connection (re)connects;
 * - by the poll: every POLL_MS one query per database reads the id counters of all jobs with a hub
 *   here, and wakes the hubs whose counter moved, so a missed notification delays an event but never
 *   loses it (and idle jobs cost no reads).
 * Appends of one job commit in id order (see training-events.ts), so reading "ids above the cursor"
 * never skips an event that commits later.
 */
import { inArray } from "drizzle-orm";
import type { Db } from "../db/client";
import { trainingJobs } from "../db/schema/training";
import { listenChannel } from "./pg-listen";
import {
  listTrainingEvents,
  onTrainingEventsAppended,
  type StoredTrainingEvent,
  TRAINING_EVENTS_CHANNEL,
} from "./training-events";

/** Interval of the fallback poll of job id counters. */
export const POLL_MS = 750;
/** Events read per query. */
const READ_BATCH = 1000;

type OnEvents = (events: StoredTrainingEvent[]) => void;

interface Subscriber {
  /** Highest id delivered to (or already held by) this subscriber. */
  cursor: number;
  onEvents: OnEvents;
}

class JobHub {
  /** Highest id read by the hub; null until its first read. */
  private cursor: number | null = null;
  readonly subscribers = new Set<Subscriber>();
  private pumping = false;
  private dirty = false;
  private failing = false;
  /** The job's id counter when the poll last saw it. */
  counterSeen: number | null = null;
  reads = 0;

  constructor(
    private readonly db: Db,
    private readonly jobId: string,
  ) {}

  add(sub: Subscriber): void {
    this.subscribers.add(sub);
    this.wake();
  }

  wake(): void {
    this.dirty = true;
    if (!this.pumping) void this.pump();
  }

  private async pump(): Promise<void> {
    this.pumping = true;
    try {
      while (this.dirty && this.subscribers.size > 0) {
        this.dirty = false;
        await this.catchUpLateSubscribers();
        await this.readNew();
      }
      this.failing = false;
    } catch (err) {
      // The next wake (at the latest the poll's) retries from the same cursors.
      this.counterSeen = null;
      if (!this.failing)
        console.error(`[events] reading job ${this.jobId} failed:`, err instanceof Error ? err.message : err);
      this.failing = true;
    } finally {
      this.pumping = false;
    }
  }

  private async read(afterId: number): Promise<StoredTrainingEvent[]> {
    this.reads += 1;
    return listTrainingEvents(this.db, this.jobId, afterId, READ_BATCH);
  }

  /** A subscriber that joined behind the hub reads its own gap once, then shares the hub's reads. */
  private async catchUpLateSubscribers(): Promise<void> {
    if (this.cursor === null) {
      let highest = 0;
      for (const sub of this.subscribers) highest = Math.max(highest, sub.cursor);
      this.cursor = highest;
    }
    for (const sub of this.subscribers) {
      while (this.subscribers.has(sub) && sub.cursor < this.cursor) {
        const events = await this.read(sub.cursor);
        deliver(sub, events);
        if (events.length < READ_BATCH) break;
      }
    }
  }

  private async readNew(): Promise<void> {
    for (;;) {
      const events = await this.read(this.cursor ?? 0);
      if (events.length === 0) return;
      this.cursor = events[events.length - 1].id;
      for (const sub of [...this.subscribers]) if (this.subscribers.has(sub)) deliver(sub, events);
      if (events.length < READ_BATCH) return;
    }
  }
}

function deliver(sub: Subscriber, events: StoredTrainingEvent[]): void {
  const fresh = events.filter((e) => e.id > sub.cursor);
  if (fresh.length === 0) return;
  sub.cursor = fresh[fresh.length - 1].id;
  try {
    sub.onEvents(fresh);
  } catch (err) {
    console.error("[events] subscriber failed:", err instanceof Error ? err.message : err);
  }
}

/** The hubs of one database in this process, and its poll. */
class DbHubs {
  readonly hubs = new Map<string, JobHub>();
  private timer: ReturnType<typeof setInterval> | null = null;
  private polling = false;
  private unlisten: (() => void) | null = null;

  constructor(private readonly db: Db) {}

  /** Polls, and on PostgreSQL listens for other processes' appends, while it has hubs. */
  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => void this.poll(), POLL_MS);
    this.timer.unref?.();
    this.unlisten = listenChannel(this.db, TRAINING_EVENTS_CHANNEL, {
      onOther: (jobId) => this.hubs.get(jobId)?.wake(),
      onConnect: () => this.wakeAll(),
    });
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    this.unlisten?.();
    this.unlisten = null;
  }

  wakeAll(): void {
    for (const hub of this.hubs.values()) hub.wake();
  }

  private async poll(): Promise<void> {
    if (this.polling || this.hubs.size === 0) return;
    this.polling = true;
    try {
      const counters = await this.db
        .select({ id: trainingJobs.id, lastId: trainingJobs.lastEventId })
        .from(trainingJobs)
        .where(inArray(trainingJobs.id, [...this.hubs.keys()]));
      for (const { id, lastId } of counters) {
        const hub = this.hubs.get(id);
        if (!hub || hub.counterSeen === lastId) continue;
        hub.counterSeen = lastId;
        hub.wake();
      }
    } catch (err) {
      // Retried at the next tick; the hubs' own reads report their failures.
      void err;
    } finally {
      this.polling = false;
    }
  }
}

interface HubState {
  byDb: Map<Db, DbHubs>;
  unhookAppends?: () => void;
}

const globalState = globalThis as unknown as { __layerlineTrainingHubs?: HubState };

function state(): HubState {
  if (!globalState.__layerlineTrainingHubs) {
    globalState.__layerlineTrainingHubs = { byDb: new Map() };
  }
  const s = globalState.__layerlineTrainingHubs;
  // Appends in this process wake the job's hub at once.
  s.unhookAppends ??= onTrainingEventsAppended((db, jobId) => s.byDb.get(db)?.hubs.get(jobId)?.wake());
  return s;
}

/**
 * Calls `onEvents` with every event of the job whose id is above `afterId`, in id order, each exactly
 * once, as they are stored (including those already stored above `afterId`; a subscriber far behind
 * should replay from the database first, as the SSE writer does). Returns the unsubscribe function;
 * the job's hub stops when its last subscriber leaves.
 */
export function subscribeTrainingEvents(
  db: Db,
  jobId: string,
  afterId: number,
  onEvents: OnEvents,
): () => void {
  const s = state();
  let dbHubs = s.byDb.get(db);
  if (!dbHubs) {
    dbHubs = new DbHubs(db);
    s.byDb.set(db, dbHubs);
  }
  let hub = dbHubs.hubs.get(jobId);
  if (!hub) {
    hub = new JobHub(db, jobId);
    dbHubs.hubs.set(jobId, hub);
    dbHubs.start();
  }
  const sub: Subscriber = { cursor: afterId, onEvents };
  hub.add(sub);
  const owner = hub;
  const ownerHubs = dbHubs;
  return () => {
    owner.subscribers.delete(sub);
    if (owner.subscribers.size > 0) return;
    if (ownerHubs.hubs.get(jobId) === owner) ownerHubs.hubs.delete(jobId);
    if (ownerHubs.hubs.size === 0) {
      ownerHubs.stop();
      if (s.byDb.get(db) === ownerHubs) s.byDb.delete(db);
    }
  };
}

/** Hubs, subscribers and database reads of live hubs in this process (tests and benchmarks). */
export function trainingHubStats(): { hubs: number; subscribers: number; reads: number } {
  let hubs = 0;
  let subscribers = 0;
  let reads = 0;
  for (const dbHubs of state().byDb.values()) {
    for (const hub of dbHubs.hubs.values()) {
      hubs += 1;
      subscribers += hub.subscribers.size;
      reads += hub.reads;
    }
  }
  return { hubs, subscribers, reads };
}
