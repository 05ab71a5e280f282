/**
 * Server-sent events read from a fetch response (an EventSource cannot POST): an incremental parser
 * that follows the HTML event-stream rules (`event:`, `data:` lines joined by newlines, `id:`,
 * comments, CRLF/LF/CR line ends, a message dispatched at a blank line), and a reader that feeds it
 * a response body.
 */

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
 * Reads a `text/event-stream` response body to its end (or until `signal` aborts), calling
 * `onMessage` for each message in order.
 */
export async function readSse(
  body: ReadableStream<Uint8Array>,
  onMessage: (message: SseMessage) => void,
  signal?: AbortSignal,
): Promise<void> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  const parser = createSseParser();
  const onAbort = () => void reader.cancel().catch(() => {});
  signal?.addEventListener("abort", onAbort, { once: true });
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      for (const m of parser.push(decoder.decode(value, { stream: true }))) onMessage(m);
    }
    for (const m of parser.push(decoder.decode())) onMessage(m);
    parser.end();
  } finally {
    signal?.removeEventListener("abort", onAbort);
    reader.releaseLock();
  }
}
