/**
 * A streamed response written by a producer as it goes (the streaming prediction session and the
 * OpenAI-compatible streams). `produce` writes text chunks; awaiting `write` waits while the client
 * is not reading (more than 64 KiB queued), so a slow reader slows the producer instead of
 * filling memory. Its signal fires when the client goes away (the body is cancelled, or the
 * request's own signal aborts), so the producer stops working for nobody. The body ends when
 * `produce` settles; a producer reports its own errors in its format before settling (a rejection
 * only ends the stream).
 */
export type StreamWrite = (text: string) => Promise<void>;
export type StreamProducer = (write: StreamWrite, signal: AbortSignal) => Promise<void>;

const HIGH_WATER_BYTES = 64 * 1024;

export function pushStreamResponse(
  produce: StreamProducer,
  opts: { headers: Record<string, string>; requestSignal?: AbortSignal },
): Response {
  const encoder = new TextEncoder();
  const abort = new AbortController();
  const onRequestAbort = () => abort.abort();
  let closed = false;
  let waiting: (() => void)[] = [];
  const wakeAll = () => {
    const list = waiting;
    waiting = [];
    for (const wake of list) wake();
  };
  abort.signal.addEventListener("abort", wakeAll);
  const stream = new ReadableStream<Uint8Array>(
    {
      start(controller) {
        if (opts.requestSignal?.aborted) abort.abort();
        opts.requestSignal?.addEventListener("abort", onRequestAbort);
        const write: StreamWrite = async (text) => {
          if (closed || abort.signal.aborted) return;
          try {
            controller.enqueue(encoder.encode(text));
          } catch {
            abort.abort();
            return;
          }
          if ((controller.desiredSize ?? 1) > 0) return;
          await new Promise<void>((resolve) => waiting.push(resolve));
        };
        produce(write, abort.signal)
          .catch((err) => {
            if (!abort.signal.aborted)
              console.error("[stream] producer failed:", err instanceof Error ? err.message : err);
          })
          .finally(() => {
            opts.requestSignal?.removeEventListener("abort", onRequestAbort);
            if (closed) return;
            closed = true;
            try {
              controller.close();
            } catch {
              // Already cancelled by the client.
            }
          });
      },
      pull() {
        wakeAll();
      },
      cancel() {
        closed = true;
        abort.abort();
        opts.requestSignal?.removeEventListener("abort", onRequestAbort);
      },
    },
    { highWaterMark: HIGH_WATER_BYTES, size: (chunk) => chunk.byteLength },
  );
  return new Response(stream, { status: 200, headers: opts.headers });
}
