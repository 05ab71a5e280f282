import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { type Cursor, type EventStreamOptions, followEventStream, type StreamStatus } from "./event-stream";

/** An EventSource stand-in driven by the test: open, deliver numbered messages, fail. */
class FakeSource {
  static all: FakeSource[] = [];
  onopen: (() => void) | null = null;
  onerror: (() => void) | null = null;
  closed = false;
  private listeners = new Map<string, (e: MessageEvent<string>) => void>();
  constructor(readonly url: string) {
    FakeSource.all.push(this);
  }
  addEventListener(type: string, listener: (e: MessageEvent<string>) => void) {
    this.listeners.set(type, listener);
  }
  close() {
    this.closed = true;
  }
  open() {
    this.onopen?.();
  }
  send(type: string, id: number, data: unknown) {
    this.listeners.get(type)?.({
      type,
      lastEventId: String(id),
      data: JSON.stringify(data),
    } as MessageEvent<string>);
  }
  fail() {
    this.onerror?.();
  }
}

interface Ev {
  id: number;
  kind: string;
  done: boolean;
}

function setup(overrides: Partial<EventStreamOptions<Ev>> = {}) {
  const applied: number[][] = [];
  const statuses: StreamStatus[] = [];
  let tokens = 0;
  const opts: EventStreamOptions<Ev> = {
    streamUrl: async () => `/stream?token=t${++tokens}`,
    kinds: ["tick", "status"],
    parse: (type, lastEventId, data) => ({
      id: Number(lastEventId),
      kind: type,
      done: JSON.parse(data).done === true,
    }),
    startAfter: () => 10,
    session: () => ({ apply: (events) => applied.push(events.map((e) => e.id)) }),
    flushMs: 200,
    isLast: (e) => (e.kind === "status" ? e.done : null),
    ...overrides,
  };
  const cursor: Cursor = { current: null };
  const stop = followEventStream(
    () => opts,
    cursor,
    (s) => statuses.push(s),
    FakeSource as unknown as typeof EventSource,
  );
  return { applied, statuses, cursor, stop };
}

describe("followEventStream", () => {
  beforeEach(() => {
    FakeSource.all = [];
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("starts after the history's cursor, applies events in batches and skips replays", async () => {
    const { applied, statuses, cursor, stop } = setup();
    await vi.advanceTimersByTimeAsync(0);
    const es = FakeSource.all[0];
    expect(es.url).toContain("last_event_id=10");
    es.open();
    es.send("tick", 9, {});
    es.send("tick", 11, {});
    es.send("tick", 12, {});
    es.send("tick", 12, {});
    es.send("not-listened", 13, {});
    expect(applied).toEqual([]);
    await vi.advanceTimersByTimeAsync(200);
    expect(applied).toEqual([[11, 12]]);
    expect(cursor.current).toBe(12);
    expect(statuses).toEqual(["connecting", "live"]);
    stop();
    expect(es.closed).toBe(true);
  });

  it("asks the caller to re-read what it follows before each reconnection (it may have ended already)", async () => {
    let retries = 0;
    const { statuses, stop } = setup({ onRetry: () => retries++ });
    await vi.advanceTimersByTimeAsync(0);
    // A job that ended before the stream opened: the server closes at once, nothing new to send.
    FakeSource.all[0].fail();
    expect(statuses.at(-1)).toBe("reconnecting");
    expect(retries).toBe(1);
    stop();
  });

  it("reconnects after an error with a fresh URL, resuming after the last event, with a growing pause", async () => {
    const { applied, statuses, stop } = setup();
    await vi.advanceTimersByTimeAsync(0);
    FakeSource.all[0].open();
    FakeSource.all[0].send("tick", 11, {});
    FakeSource.all[0].fail();
    expect(statuses.at(-1)).toBe("reconnecting");
    await vi.advanceTimersByTimeAsync(999);
    expect(FakeSource.all).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(FakeSource.all).toHaveLength(2);
    const second = FakeSource.all[1];
    expect(second.url).toContain("token=t2");
    expect(second.url).toContain("last_event_id=11");
    second.fail();
    await vi.advanceTimersByTimeAsync(1999);
    expect(FakeSource.all).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(1);
    expect(FakeSource.all).toHaveLength(3);
    FakeSource.all[2].open();
    FakeSource.all[2].send("tick", 11, {});
    FakeSource.all[2].send("tick", 14, {});
    await vi.advanceTimersByTimeAsync(200);
    expect(applied).toEqual([[11], [14]]);
    expect(statuses.at(-1)).toBe("live");
    stop();
  });

  it("ends after the last event instead of reconnecting, applying what it held", async () => {
    const { applied, statuses } = setup();
    await vi.advanceTimersByTimeAsync(0);
    const es = FakeSource.all[0];
    es.open();
    es.send("tick", 11, {});
    es.send("status", 12, { done: true });
    es.fail();
    expect(applied).toEqual([[11, 12]]);
    expect(statuses.at(-1)).toBe("ended");
    await vi.advanceTimersByTimeAsync(30_000);
    expect(FakeSource.all).toHaveLength(1);
  });

  it("applies what is buffered and stops the session when stopped", async () => {
    const stopped: string[] = [];
    const applied: number[][] = [];
    const { stop } = setup({
      session: () => ({
        apply: (events) => applied.push(events.map((e) => e.id)),
        stop: () => stopped.push("x"),
      }),
    });
    await vi.advanceTimersByTimeAsync(0);
    FakeSource.all[0].send("tick", 11, {});
    stop();
    expect(applied).toEqual([[11]]);
    expect(stopped).toEqual(["x"]);
  });
});
