/**
 * The one reader of server-sent events read from a fetch response (used where an EventSource cannot
 * be: a POST, a personal key in a header, Node): an incremental parser that follows the HTML
 * event-stream rules (`event:`, `data:` lines joined by newlines, `id:`, comments, CRLF/LF/CR line
 * ends even when a CRLF is split across chunks, a message dispatched at a blank line), `readSse` that
 * feeds it a response body, and `parseEventStream` for Layerline's numbered JSON events. The SDK and
 * the studio (its chat) both use it.
 */

/** One message as the stream carried it (`data` is the raw text; `id` the last id seen, if any). */
export interface SseMessage {
  event: string;
  data: string;
  id: string | null;
}

export interface SseParser {
  /** Feeds decoded text; returns the messages completed by it. */
  push(text: string): SseMessage[];
  /** The end of the stream: a message without its closing blank line is dropped, as browsers do. */
  end(): SseMessage[];
}

export function createSseParser(): SseParser {
  let buffer = "";
  let event = "";
  let data: string[] = [];
  let id: string | null = null;
  /** A CR at the end of one chunk may be the first half of a CRLF split across chunks. */
  let pendingCr = false;

  const line = (text: string, out: SseMessage[]) => {
    if (text === "") {
      if (data.length > 0) out.push({ event: event || "message", data: data.join("\n"), id });
      event = "";
      data = [];
      return;
    }
    if (text.startsWith(":")) return;
    const colon = text.indexOf(":");
    const field = colon === -1 ? text : text.slice(0, colon);
    let value = colon === -1 ? "" : text.slice(colon + 1);
    if (value.startsWith(" ")) value = value.slice(1);
    if (field === "event") event = value;
    else if (field === "data") data.push(value);
    else if (field === "id" && !value.includes("\0")) id = value;
  };

  return {
    push(text) {
      const out: SseMessage[] = [];
      let chunk = text;
      if (pendingCr && chunk.startsWith("\n")) chunk = chunk.slice(1);
      pendingCr = false;
      buffer += chunk;
      let start = 0;
      for (let i = 0; i < buffer.length; i++) {
        const c = buffer[i];
        if (c !== "\n" && c !== "\r") continue;
        line(buffer.slice(start, i), out);
        if (c === "\r") {
          if (i + 1 === buffer.length) pendingCr = true;
          else if (buffer[i + 1] === "\n") i++;
        }
        start = i + 1;
      }
      buffer = buffer.slice(start);
      return out;
    },
    end() {
      buffer = "";
      data = [];
      event = "";
      return [];
    },
  };
}

/**
 * The messages of a `text/event-stream` body, in order, to its end. When `signal` aborts, the read
 * stops and the generator throws its reason (watched here, not only through the fetch: see
 * fetchUnlessAborted). The body is cancelled when the caller stops early.
 */
export async function* readEventStream(
  body: ReadableStream<Uint8Array>,
  signal?: AbortSignal | null,
): AsyncGenerator<SseMessage> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  const parser = createSseParser();
  const onAbort = () => {
    reader.cancel(signal?.reason).catch(() => {});
  };
  signal?.addEventListener("abort", onAbort, { once: true });
  try {
    for (;;) {
      signal?.throwIfAborted();
      const { done, value } = await reader.read();
      signal?.throwIfAborted();
      if (done) break;
      yield* parser.push(decoder.decode(value, { stream: true }));
    }
    yield* parser.push(decoder.decode());
    parser.end();
  } finally {
    signal?.removeEventListener("abort", onAbort);
    await reader.cancel().catch(() => {});
  }
}

/**
 * Reads a `text/event-stream` body to its end (or until `signal` aborts: then it returns quietly),
 * calling `onMessage` for each message in order.
 */
export async function readSse(
  body: ReadableStream<Uint8Array>,
  onMessage: (message: SseMessage) => void,
  signal?: AbortSignal,
): Promise<void> {
  try {
    for await (const m of readEventStream(body, signal)) onMessage(m);
  } catch (err) {
    if (signal?.aborted) return;
    throw err;
  }
}

/** A server-sent event with its numeric id (Layerline streams number every event). */
export interface ServerEvent<T = unknown> {
  id: number;
  event: string;
  data: T;
}

/**
 * Layerline's numbered events from a text/event-stream body: messages whose id is a number, their
 * data parsed as JSON (kept as text when it is not JSON). When `signal` aborts, the generator throws
 * its reason.
 */
export async function* parseEventStream(
  body: ReadableStream<Uint8Array>,
  signal?: AbortSignal | null,
): AsyncGenerator<ServerEvent> {
  for await (const m of readEventStream(body, signal)) {
    if (m.id === null || !/^\d+$/.test(m.id)) continue;
    let parsed: unknown = m.data;
    try {
      parsed = JSON.parse(m.data);
    } catch {
      parsed = m.data;
    }
    yield { id: Number(m.id), event: m.event, data: parsed };
  }
}
