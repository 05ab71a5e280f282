/**
 * Training events through a real database (PGlite in memory, or TEST_DATABASE_URL): storage, the live
 * hub, the SSE writer, and the metrics/logs queries.
 */
import { eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { type Db, getDb, openDb } from "@/lib/server/db/client";
import { users } from "@/lib/server/db/schema/accounts";
import { trainingEvents, trainingJobs } from "@/lib/server/db/schema/training";
import { subscribeTrainingEvents, trainingHubStats } from "@/lib/server/events/event-hub";
import { lastEventIdFrom, trainingEventStream } from "@/lib/server/events/sse";
import {
  appendTrainingEvents,
  listTrainingEvents,
  type NewTrainingEvent,
} from "@/lib/server/events/training-events";
import { newId } from "@/lib/server/ids";
import { downsampleM4 } from "@/lib/server/modules/training/downsample";
import { metricsSummary, queryLogs, queryMetrics } from "@/lib/server/modules/training/metrics";
import { startTestApp, uniqueName } from "../helpers";

let db: Db;
let ownerId: string;

beforeAll(async () => {
  await startTestApp();
  db = await getDb();
  ownerId = newId("usr");
  const username = uniqueName();
  await db
    .insert(users)
    .values({ id: ownerId, email: `${username}@example.com`, username, passwordHash: "x" });
});

async function newJob(): Promise<string> {
  const id = newId("job");
  await db.insert(trainingJobs).values({
    id,
    ownerId,
    projectId: "prj_test",
    projectName: "Test project",
    name: "Test job",
    graph: { nodes: [], edges: [] },
    config: {} as (typeof trainingJobs.$inferInsert)["config"],
    datasetId: "ds_test",
    datasetVersionId: "dsv_test",
    runtime: "external",
  });
  return id;
}

const metric = (name: string, step: number, value: number, clientId?: string): NewTrainingEvent => ({
  kind: "metric",
  data: { name, step, epoch: 0, value, timestamp: new Date(Date.UTC(2025, 0, 1, 0, 0, step)).toISOString() },
  clientId,
});
const status = (s: string): NewTrainingEvent => ({
  kind: "status",
  data: { status: s, at: new Date().toISOString(), reason: null },
});

// ---- SSE reading ----

interface SseMessage {
  id?: number;
  event?: string;
  data?: Record<string, unknown>;
  comment?: string;
}

/** Reads a text/event-stream body message by message. */
class SseReader {
  private readonly reader: ReadableStreamDefaultReader<Uint8Array>;
  private readonly decoder = new TextDecoder();
  private buffer = "";
  done = false;

  constructor(res: Response) {
    if (!res.body) throw new Error("no body");
    this.reader = res.body.getReader();
  }

  /** The next message, or null when the stream has ended. Fails after `timeoutMs`. */
  async next(timeoutMs = 5000): Promise<SseMessage | null> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const end = this.buffer.indexOf("\n\n");
      if (end >= 0) {
        const block = this.buffer.slice(0, end);
        this.buffer = this.buffer.slice(end + 2);
        return parseBlock(block);
      }
      if (this.done) return null;
      const left = deadline - Date.now();
      if (left <= 0) throw new Error("timed out waiting for an SSE message");
      let timer: ReturnType<typeof setTimeout> | undefined;
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error("timed out waiting for an SSE message")), left);
      });
      const chunk = await Promise.race([this.reader.read(), timeout]).finally(() => clearTimeout(timer));
      if (chunk.done) this.done = true;
      else this.buffer += this.decoder.decode(chunk.value, { stream: true });
    }
  }

  /** The next `count` events (comments skipped). */
  async events(count: number, timeoutMs = 5000): Promise<SseMessage[]> {
    const out: SseMessage[] = [];
    while (out.length < count) {
      const m = await this.next(timeoutMs);
      if (!m) throw new Error(`stream ended after ${out.length} of ${count} events`);
      if (m.event) out.push(m);
    }
    return out;
  }

  /** Events until the stream ends. */
  async rest(timeoutMs = 5000): Promise<SseMessage[]> {
    const out: SseMessage[] = [];
    for (;;) {
      const m = await this.next(timeoutMs);
      if (!m) return out;
      if (m.event) out.push(m);
    }
  }

  cancel(): Promise<void> {
    return this.reader.cancel();
  }
}

function parseBlock(block: string): SseMessage {
  const m: SseMessage = {};
  for (const line of block.split("\n")) {
    if (line.startsWith(":")) m.comment = line.slice(1).trim();
    else if (line.startsWith("id: ")) m.id = Number(line.slice(4));
    else if (line.startsWith("event: ")) m.event = line.slice(7);
    else if (line.startsWith("data: ")) m.data = JSON.parse(line.slice(6));
  }
  return m;
}

async function waitFor(check: () => boolean, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error("condition not met in time");
    await new Promise((r) => setTimeout(r, 10));
  }
}

// ---- storage ----

describe("appendTrainingEvents", () => {
  it("stores events with increasing ids and counts repeated client ids as duplicates", async () => {
    const job = await newJob();
    const first = await appendTrainingEvents(db, job, [
      metric("loss", 0, 1, "a"),
      metric("loss", 1, 0.9, "b"),
      metric("loss", 2, 0.8, "a"),
      metric("loss", 3, 0.7),
    ]);
    expect(first).toEqual({ accepted: 3, duplicates: 1, lastId: 3 });
    const second = await appendTrainingEvents(db, job, [
      metric("loss", 0, 5, "a"),
      metric("loss", 4, 0.6, "c"),
    ]);
    expect(second.accepted).toBe(1);
    expect(second.duplicates).toBe(1);
    const stored = await listTrainingEvents(db, job, 0, 100);
    expect(stored.map((e) => e.data.step)).toEqual([0, 1, 3, 4]);
    expect(stored[0].data.value).toBe(1);
    const ids = stored.map((e) => e.id);
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    expect(new Set(ids).size).toBe(ids.length);
    // Columns come from the data when not given; `at` from data.timestamp.
    const [row] = await db
      .select()
      .from(trainingEvents)
      .where(sql`${trainingEvents.jobId} = ${job} and ${trainingEvents.clientId} = 'c'`);
    expect(row).toMatchObject({ name: "loss", step: 4, epoch: 0, value: 0.6 });
    expect(row.at.toISOString()).toBe("2025-01-01T00:00:04.000Z");
    expect(await listTrainingEvents(db, job, ids[1], 1)).toEqual([stored[2]]);
  });

  it("numbers each job's events from 1", async () => {
    const [a, b] = [await newJob(), await newJob()];
    await appendTrainingEvents(db, a, [status("queued"), status("running")]);
    await appendTrainingEvents(db, b, [status("queued")]);
    expect((await listTrainingEvents(db, a, 0, 10)).map((e) => e.id)).toEqual([1, 2]);
    expect((await listTrainingEvents(db, b, 0, 10)).map((e) => e.id)).toEqual([1]);
  });

  it("gives concurrent appends unique ids, increasing in each request's order", async () => {
    const job = await newJob();
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, r) =>
        appendTrainingEvents(
          db,
          job,
          Array.from({ length: 5 }, (_, i) => metric(`r${r}`, i, i, `${r}-${i}`)),
        ),
      ),
    );
    expect(results.every((r) => r.accepted === 5 && r.duplicates === 0)).toBe(true);
    const stored = await listTrainingEvents(db, job, 0, 1000);
    expect(stored.map((e) => e.id)).toEqual(Array.from({ length: 100 }, (_, i) => i + 1));
    for (let r = 0; r < 20; r++) {
      const mine = stored.filter((e) => e.data.name === `r${r}`);
      expect(mine.map((e) => e.data.step)).toEqual([0, 1, 2, 3, 4]);
      expect(mine[4].id - mine[0].id).toBe(4);
      expect(results[r].lastId).toBe(mine[4].id);
    }
  });

  it("refuses an unknown job", async () => {
    await expect(appendTrainingEvents(db, "job_missing", [status("running")])).rejects.toThrow(/not found/);
  });
});

// ---- SSE ----

describe("trainingEventStream", () => {
  it("answers text/event-stream and parses Last-Event-ID", async () => {
    const job = await newJob();
    const controller = new AbortController();
    const res = trainingEventStream(db, job, { lastEventId: null, signal: controller.signal });
    expect(res.headers.get("content-type")).toMatch(/^text\/event-stream/);
    expect(res.headers.get("cache-control")).toBe("no-cache");
    expect(res.headers.get("x-accel-buffering")).toBe("no");
    controller.abort();
    expect(await new SseReader(res).rest()).toEqual([]);
    const req = (url: string, headers?: Record<string, string>) => new Request(url, { headers });
    expect(lastEventIdFrom(req("http://x/s", { "Last-Event-ID": " 42 " }))).toBe(42);
    expect(lastEventIdFrom(req("http://x/s?last_event_id=7"))).toBe(7);
    expect(lastEventIdFrom(req("http://x/s?last_event_id=7", { "Last-Event-ID": "9" }))).toBe(9);
    expect(lastEventIdFrom(req("http://x/s?last_event_id=-1"))).toBeNull();
    expect(lastEventIdFrom(req("http://x/s", { "Last-Event-ID": "abc" }))).toBeNull();
  });

  it("replays after Last-Event-ID, then delivers live events, nothing lost or repeated", async () => {
    const job = await newJob();
    await appendTrainingEvents(
      db,
      job,
      Array.from({ length: 1200 }, (_, i) => metric("loss", i, 1 / (i + 1))),
    );
    const res = trainingEventStream(db, job, { lastEventId: 2 });
    const reader = new SseReader(res);
    // Appends race the replay/live boundary: some land while the replay is being read.
    const writers = (async () => {
      for (let i = 0; i < 30; i++) {
        await appendTrainingEvents(db, job, [metric("acc", i, i / 30), metric("acc2", i, i / 30)]);
        if (i % 5 === 0) await new Promise((r) => setTimeout(r, 5));
      }
    })();
    const received = await reader.events(1200 - 2 + 60);
    await writers;
    expect(received.map((m) => m.id)).toEqual(Array.from({ length: 1258 }, (_, i) => i + 3));
    expect(received[0]).toMatchObject({ event: "metric", data: { name: "loss", step: 2 } });
    expect(received[received.length - 1].data).toMatchObject({ name: "acc2", step: 29 });
    // Live after the replay: one more event arrives, then a terminal status ends the stream.
    await appendTrainingEvents(db, job, [
      { kind: "log", data: { level: "info", message: "done", timestamp: "" } },
    ]);
    expect((await reader.events(1))[0]).toMatchObject({ id: 1261, event: "log" });
    await appendTrainingEvents(db, job, [status("succeeded"), metric("late", 0, 0)]);
    expect(await reader.rest()).toEqual([
      expect.objectContaining({
        id: 1262,
        event: "status",
        data: expect.objectContaining({ status: "succeeded" }),
      }),
      expect.objectContaining({ id: 1263, event: "metric" }),
    ]);
    await waitFor(() => trainingHubStats().subscribers === 0);
  });

  it("shares one reader per job between many subscribers", async () => {
    const job = await newJob();
    const readers = Array.from(
      { length: 50 },
      () => new SseReader(trainingEventStream(db, job, { lastEventId: null })),
    );
    await appendTrainingEvents(db, job, [status("running")]);
    for (const r of readers) expect((await r.events(1))[0]).toMatchObject({ id: 1, event: "status" });
    const stats = trainingHubStats();
    expect(stats.hubs).toBe(1);
    expect(stats.subscribers).toBe(50);
    const readsBefore = stats.reads;
    await appendTrainingEvents(db, job, [metric("loss", 1, 1)]);
    for (const r of readers) expect((await r.events(1))[0]).toMatchObject({ id: 2 });
    // One append wakes one hub read (plus at most a poll or two), not one per subscriber.
    expect(trainingHubStats().reads - readsBefore).toBeLessThan(5);
    await appendTrainingEvents(db, job, [status("cancelled")]);
    for (const r of readers) expect(await r.rest()).toHaveLength(1);
    await waitFor(() => trainingHubStats().hubs === 0);
  });

  it("closes after a terminal status, also when replaying or resuming after it", async () => {
    const job = await newJob();
    await appendTrainingEvents(db, job, [status("running"), metric("loss", 0, 1), status("failed")]);
    const all = await new SseReader(trainingEventStream(db, job, { lastEventId: null })).rest();
    expect(all.map((m) => m.event)).toEqual(["status", "metric", "status"]);
    expect(await new SseReader(trainingEventStream(db, job, { lastEventId: 3 })).rest()).toEqual([]);
    // A restart reopens the stream: a replay from before the failure goes on past it.
    await appendTrainingEvents(db, job, [status("queued"), status("running")]);
    const controller = new AbortController();
    const reader = new SseReader(trainingEventStream(db, job, { lastEventId: 1, signal: controller.signal }));
    expect((await reader.events(4)).map((m) => m.id)).toEqual([2, 3, 4, 5]);
    await appendTrainingEvents(db, job, [status("timed_out")]);
    expect((await reader.rest()).map((m) => m.data?.status)).toEqual(["timed_out"]);
  });

  it("sends heartbeats", async () => {
    const job = await newJob();
    const controller = new AbortController();
    const reader = new SseReader(
      trainingEventStream(db, job, { lastEventId: null, heartbeatMs: 20, signal: controller.signal }),
    );
    const m = await reader.next(2000);
    expect(m?.comment).toBe("keep-alive");
    controller.abort();
    await waitFor(() => trainingHubStats().subscribers === 0);
    expect(await reader.rest()).toEqual([]);
  });

  it("delivers events that no append of this process announced (polling fallback)", async () => {
    const job = await newJob();
    const received: number[] = [];
    const unsubscribe = subscribeTrainingEvents(db, job, 0, (events) =>
      received.push(...events.map((e) => e.id)),
    );
    await waitFor(() => trainingHubStats().reads > 0);
    // Another process's append whose notification never arrived: counter and row, and no wake here.
    await db.transaction(async (tx) => {
      await tx.update(trainingJobs).set({ lastEventId: 1 }).where(eq(trainingJobs.id, job));
      await tx
        .insert(trainingEvents)
        .values({ jobId: job, seq: 1, kind: "log", data: { message: "direct" } });
    });
    await waitFor(() => received.length === 1, 3000);
    expect(received).toEqual([1]);
    unsubscribe();
  });

  it.skipIf(!process.env.TEST_DATABASE_URL)(
    "wakes at once on another process's append (PostgreSQL LISTEN/NOTIFY)",
    async () => {
      const other = await openDb({ kind: "postgres", url: process.env.TEST_DATABASE_URL ?? "" });
      try {
        const job = await newJob();
        const received = new Map<number, number>();
        const unsubscribe = subscribeTrainingEvents(db, job, 0, (events) => {
          for (const e of events) received.set(e.id, Date.now());
        });
        await new Promise((r) => setTimeout(r, 200));
        const delays: number[] = [];
        for (let i = 1; i <= 5; i++) {
          const sent = Date.now();
          await appendTrainingEvents(other.db, job, [metric("loss", i, i)]);
          await waitFor(() => received.has(i), 3000);
          delays.push((received.get(i) ?? 0) - sent);
          await new Promise((r) => setTimeout(r, 100));
        }
        unsubscribe();
        // The poll alone (every 750 ms) would leave some of these waiting far longer.
        expect(Math.max(...delays)).toBeLessThan(300);
      } finally {
        await other.close();
      }
    },
  );

  it("drops its subscription when the client disconnects", async () => {
    const job = await newJob();
    await appendTrainingEvents(db, job, [status("running")]);
    const reader = new SseReader(trainingEventStream(db, job, { lastEventId: null }));
    await reader.events(1);
    await waitFor(() => trainingHubStats().subscribers === 1);
    await reader.cancel();
    await waitFor(() => trainingHubStats().subscribers === 0 && trainingHubStats().hubs === 0);
  });
});

// ---- metrics and logs ----

describe("metrics", () => {
  it("pages and filters points", async () => {
    const job = await newJob();
    const events: NewTrainingEvent[] = [];
    for (let step = 0; step < 250; step++)
      events.push(metric("loss", step, 1 / (step + 1)), metric("acc", step, step / 250));
    await appendTrainingEvents(db, job, events);
    await appendTrainingEvents(db, job, [{ kind: "log", data: { level: "info", message: "not a metric" } }]);

    const all = await queryMetrics(db, job, { page: 1, limit: 100 });
    expect(all).toMatchObject({ total: 500, page: 1, limit: 100, pages: 5, downsampled: false });
    expect(all.items[0]).toEqual({
      name: "acc",
      step: 0,
      epoch: 0,
      value: 0,
      timestamp: "2025-01-01T00:00:00.000Z",
    });
    const last = await queryMetrics(db, job, { page: 5, limit: 100 });
    expect(last.items.at(-1)).toMatchObject({ name: "loss", step: 249 });

    const loss = await queryMetrics(db, job, { name: "loss", from_step: 10, to_step: 19, page: 2, limit: 4 });
    expect(loss).toMatchObject({ total: 10, pages: 3 });
    expect(loss.items.map((p) => p.step)).toEqual([14, 15, 16, 17]);
    expect(loss.items.every((p) => p.name === "loss")).toBe(true);

    expect((await queryMetrics(db, job, { name: "nope", page: 1, limit: 10 })).items).toEqual([]);
  });

  it("downsamples 200,000 points in SQL to at most max_points per series, as downsampleM4 does", async () => {
    const job = await newJob();
    const n = 200_000;
    const value = (g: number) => ((g * 7919) % 10007) / 100;
    // Bulk fixture straight into the table (appendTrainingEvents is measured in the benchmark).
    await db.execute(sql`
      insert into training_events (job_id, seq, kind, data, name, step, epoch, value)
      select ${job}, case when s.name = 'loss' then g else g + ${n} end, 'metric', '{}'::jsonb, s.name, g, 0,
        case when s.name = 'loss' and g = 123457 then -5 when s.name = 'loss' and g = 7 then 500
             else ((g * 7919) % 10007) / 100.0 end
      from generate_series(1, ${n}) g, (values ('loss'), ('acc')) s(name)
      where s.name = 'loss' or g <= 2000`);
    const maxPoints = 1000;
    const page = await queryMetrics(db, job, { page: 1, limit: 1000, max_points: maxPoints });
    expect(page.downsampled).toBe(true);
    const loss = page.items.filter((p) => p.name === "loss");
    const acc = page.items.filter((p) => p.name === "acc");
    expect(loss.length).toBeLessThanOrEqual(maxPoints);
    expect(loss.length).toBeGreaterThan(maxPoints / 2);
    expect(acc.length).toBeLessThanOrEqual(maxPoints);
    expect(page.total).toBe(page.items.length);
    expect(loss.some((p) => p.value === -5 && p.step === 123457)).toBe(true);
    expect(loss.some((p) => p.value === 500 && p.step === 7)).toBe(true);
    expect(loss[0].step).toBe(1);
    expect(loss.at(-1)?.step).toBe(n);
    for (let i = 1; i < loss.length; i++) expect(loss[i].step).toBeGreaterThan(loss[i - 1].step);

    const points = Array.from({ length: n }, (_, i) => {
      const g = i + 1;
      return { step: g, value: g === 123457 ? -5 : g === 7 ? 500 : value(g) };
    });
    expect(loss.map((p) => p.step)).toEqual(downsampleM4(points, maxPoints).map((p) => p.step));

    // A step window is downsampled on its own range; a series that fits is returned whole.
    const window = await queryMetrics(db, job, {
      name: "acc",
      from_step: 1000,
      to_step: 1499,
      page: 1,
      limit: 10,
      max_points: 500,
    });
    expect(window.items.map((p) => p.step)).toEqual(Array.from({ length: 500 }, (_, i) => 1000 + i));
  });

  it("downsamples a long series from the rollups kept at ingestion, with its extremes", async () => {
    const job = await newJob();
    const n = 60_000;
    const value = (step: number) => (step === 31_337 ? -9 : step === 12 ? 900 : 1 / Math.sqrt(step));
    for (let from = 1; from <= n; from += 1000) {
      await appendTrainingEvents(
        db,
        job,
        Array.from({ length: 1000 }, (_, i) => ({
          kind: "metric" as const,
          data: { name: "loss", step: from + i, value: value(from + i) },
        })),
      );
    }
    await appendTrainingEvents(db, job, [
      { kind: "metric", data: { name: "val_loss", step: 5, value: 0.5 } },
    ]);
    const page = await queryMetrics(db, job, { page: 1, limit: 1000, max_points: 2000 });
    const loss = page.items.filter((p) => p.name === "loss");
    expect(loss.length).toBeLessThanOrEqual(2000);
    expect(loss.length).toBeGreaterThan(400);
    expect(loss[0].step).toBe(1);
    expect(loss.at(-1)?.step).toBe(n);
    expect(loss.find((p) => p.step === 31_337)?.value).toBe(-9);
    expect(loss.find((p) => p.step === 12)?.value).toBe(900);
    for (let i = 1; i < loss.length; i++) expect(loss[i].step).toBeGreaterThan(loss[i - 1].step);
    // The short series beside it is answered whole, the exact way.
    expect(page.items.filter((p) => p.name === "val_loss").map((p) => p.value)).toEqual([0.5]);

    // A restarted run reports some steps again, one of them lower than anything before.
    await appendTrainingEvents(db, job, [
      { kind: "metric", data: { name: "loss", step: 40_000, value: -20 } },
    ]);
    const after = await queryMetrics(db, job, { name: "loss", page: 1, limit: 1000, max_points: 2000 });
    expect(after.items.some((p) => p.step === 40_000 && p.value === -20)).toBe(true);
    expect(after.items.some((p) => p.step === 31_337 && p.value === -9)).toBe(true);
  });

  it("summarises each series", async () => {
    const job = await newJob();
    await appendTrainingEvents(db, job, [
      metric("val_loss", 0, 0.9),
      metric("val_loss", 1, 0.4),
      metric("val_loss", 2, 0.5),
      metric("accuracy", 0, 0.5),
      metric("accuracy", 1, 0.8),
      metric("accuracy", 2, 0.8),
      metric("accuracy", 3, 0.7),
    ]);
    const summary = await metricsSummary(db, job);
    expect(summary).toEqual({
      job_id: job,
      series: [
        {
          name: "accuracy",
          count: 4,
          last: 0.7,
          min: 0.5,
          max: 0.8,
          mean: expect.closeTo(0.7, 10),
          last_step: 3,
          best_step: 1,
        },
        {
          name: "val_loss",
          count: 3,
          last: 0.5,
          min: 0.4,
          max: 0.9,
          mean: expect.closeTo(0.6, 10),
          last_step: 2,
          best_step: 1,
        },
      ],
    });
    expect((await metricsSummary(db, await newJob())).series).toEqual([]);
  });
});

describe("logs", () => {
  it("filters by level and above, time and text, oldest first", async () => {
    const job = await newJob();
    const log = (level: string, message: string, minute: number): NewTrainingEvent => ({
      kind: "log",
      data: { level, message, timestamp: new Date(Date.UTC(2025, 0, 1, 0, minute)).toISOString() },
    });
    await appendTrainingEvents(db, job, [
      log("debug", "loading data", 0),
      log("info", "epoch 1 done", 1),
      log("warning", "Loss is 100% NaN", 2),
      log("error", "CUDA out of memory", 3),
      log("info", "epoch 2 done", 4),
      metric("loss", 0, 1),
    ]);
    const all = await queryLogs(db, job, { page: 1, limit: 100 });
    expect(all.total).toBe(5);
    expect(all.items[0]).toEqual({
      id: 1,
      timestamp: "2025-01-01T00:00:00.000Z",
      level: "debug",
      message: "loading data",
    });
    expect(all.items.map((l) => l.id)).toEqual([1, 2, 3, 4, 5]);

    const warn = await queryLogs(db, job, { level: "warning", page: 1, limit: 100 });
    expect(warn.items.map((l) => l.level)).toEqual(["warning", "error"]);
    const info = await queryLogs(db, job, { level: "info", page: 1, limit: 100 });
    expect(info.total).toBe(4);

    const since = await queryLogs(db, job, { since: "2025-01-01T00:03:00Z", page: 1, limit: 100 });
    expect(since.items.map((l) => l.message)).toEqual(["CUDA out of memory", "epoch 2 done"]);
    const offset = await queryLogs(db, job, { since: "2025-01-01T01:02:00+01:00", page: 1, limit: 100 });
    expect(offset.total).toBe(3);

    expect((await queryLogs(db, job, { q: "EPOCH", page: 1, limit: 100 })).total).toBe(2);
    expect((await queryLogs(db, job, { q: "100%", page: 1, limit: 100 })).items[0].level).toBe("warning");
    expect((await queryLogs(db, job, { q: "1_", page: 1, limit: 100 })).total).toBe(0);

    const paged = await queryLogs(db, job, { page: 2, limit: 2 });
    expect(paged).toMatchObject({ total: 5, page: 2, limit: 2, pages: 3 });
    expect(paged.items.map((l) => l.id)).toEqual([3, 4]);
  });
});
