import { describe, expect, it } from "vitest";
import { createSseParser, parseEventStream, readSse, type SseMessage } from "../../sdk/src/sse";

describe("createSseParser", () => {
  it("parses events, multi-line data, ids and comments", () => {
    const p = createSseParser();
    const out = p.push(': hello\nevent: output\nid: 3\ndata: {"a":1}\n\ndata: one\ndata: two\n\n');
    expect(out).toEqual([
      { event: "output", data: '{"a":1}', id: "3" },
      { event: "message", data: "one\ntwo", id: "3" },
    ]);
  });

  it("keeps partial lines across chunks, including a CRLF split in two", () => {
    const p = createSseParser();
    expect(p.push("event: out")).toEqual([]);
    expect(p.push("put\r")).toEqual([]);
    expect(p.push("\ndata: x\r\n\r")).toEqual([{ event: "output", data: "x", id: null }]);
    expect(p.push("\nevent: done\rdata: {}\r\r")).toEqual([{ event: "done", data: "{}", id: null }]);
  });

  it("ignores an event without data and drops an unterminated one at the end", () => {
    const p = createSseParser();
    expect(p.push("event: ping\n\n")).toEqual([]);
    expect(p.push("data: half")).toEqual([]);
    expect(p.end()).toEqual([]);
  });

  it("keeps one leading space only and takes a field without a colon as empty", () => {
    const p = createSseParser();
    expect(p.push("data:  two spaces\ndata\n\n")).toEqual([
      { event: "message", data: " two spaces\n", id: null },
    ]);
  });
});

describe("readSse", () => {
  it("reads a body split anywhere, even inside a multi-byte character", async () => {
    const bytes = new TextEncoder().encode('event: output\ndata: {"t":"é"}\n\nevent: done\ndata: {}\n\n');
    const split = bytes.indexOf(0xc3) + 1;
    const body = new ReadableStream<Uint8Array>({
      start(c) {
        c.enqueue(bytes.slice(0, split));
        c.enqueue(bytes.slice(split));
        c.close();
      },
    });
    const got: SseMessage[] = [];
    await readSse(body, (m) => got.push(m));
    expect(got.map((m) => [m.event, m.data])).toEqual([
      ["output", '{"t":"é"}'],
      ["done", "{}"],
    ]);
  });

  it("stops when aborted", async () => {
    const controller = new AbortController();
    const body = new ReadableStream<Uint8Array>({
      start(c) {
        c.enqueue(new TextEncoder().encode("data: 1\n\n"));
      },
    });
    const got: SseMessage[] = [];
    const done = readSse(
      body,
      (m) => {
        got.push(m);
        controller.abort();
      },
      controller.signal,
    );
    await expect(done).resolves.toBeUndefined();
    expect(got).toHaveLength(1);
  });
});

function bodyOf(...chunks: string[]): ReadableStream<Uint8Array> {
  return new ReadableStream<Uint8Array>({
    start(c) {
      for (const chunk of chunks) c.enqueue(new TextEncoder().encode(chunk));
      c.close();
    },
  });
}

describe("parseEventStream", () => {
  it("yields numbered events with JSON data (text when not JSON) and skips unnumbered ones", async () => {
    const body = bodyOf(
      'data: {"skipped":true}\n\n',
      'id: 7\revent: metric\r\ndata: {"value":',
      "0.5}\r",
      "\n\r\n: keep-alive\n\nid: 8\ndata: plain\n\n",
    );
    const got: unknown[] = [];
    for await (const e of parseEventStream(body)) got.push(e);
    expect(got).toEqual([
      { id: 7, event: "metric", data: { value: 0.5 } },
      { id: 8, event: "message", data: "plain" },
    ]);
  });

  it("throws the abort reason when the signal aborts", async () => {
    const controller = new AbortController();
    const body = new ReadableStream<Uint8Array>({
      start(c) {
        c.enqueue(new TextEncoder().encode("id: 1\ndata: 1\n\n"));
      },
    });
    const seen: number[] = [];
    const run = (async () => {
      for await (const e of parseEventStream(body, controller.signal)) {
        seen.push(e.id);
        controller.abort(new Error("stopped"));
      }
    })();
    await expect(run).rejects.toThrow("stopped");
    expect(seen).toEqual([1]);
  });
});
