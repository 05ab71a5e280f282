import type { MiddlewareHandler } from "hono";
import { PayloadTooLargeError } from "../errors";
import type { AppEnv } from "./env";
import { problemResponse } from "./problem";

/**
 * Refuses request bodies above `maxBytes` without buffering them: a declared Content-Length above the
 * limit is refused before reading; a chunked body is counted as it streams through to the route, and
 * the stream fails with a 413 error the moment it passes the limit.
 */
export function streamingBodyLimit(maxBytes: number, message: string): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const raw = c.req.raw;
    if (!raw.body) return next();
    const declared = raw.headers.get("content-length");
    if (declared !== null) {
      if (Number(declared) > maxBytes) throw new PayloadTooLargeError(message);
      return next(); // the runtime enforces Content-Length itself
    }
    let seen = 0;
    let exceeded = false;
    const counter = new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        seen += chunk.byteLength;
        if (seen > maxBytes) {
          exceeded = true;
          controller.error(new PayloadTooLargeError(message));
        } else controller.enqueue(chunk);
      },
    });
    c.req.raw = new Request(raw, { body: raw.body.pipeThrough(counter), duplex: "half" } as RequestInit);
    await next();
    // Whatever the route made of its failed read (a parse error, say), the cause was the size.
    if (exceeded) c.res = problemResponse(c, 413, message);
  };
}

/**
 * JSON request bodies are capped before they are parsed: JSON_BODY_LIMIT_BYTES (1 MiB by default)
 * for every route whose body is JSON, the unauthenticated sign-in included. A route that needs more
 * (a project's graph, a batch of instances) raises its own cap with `allowJsonBody` in its middleware.
 * A declared Content-Length above the cap is refused before a byte of the body is read; a chunked
 * body is counted as the route reads it and refused the moment it passes the cap. Only bodies sent
 * as JSON are capped here: the validators parse nothing else as JSON (uploads have their own limits).
 */
export const DEFAULT_JSON_BODY_LIMIT_BYTES = 1024 * 1024;

export function jsonBodyLimitBytes(env: NodeJS.ProcessEnv = process.env): number {
  const configured = Number(env.JSON_BODY_LIMIT_BYTES);
  return Number.isSafeInteger(configured) && configured > 0 ? configured : DEFAULT_JSON_BODY_LIMIT_BYTES;
}

/** The cap a route raised for its request (keyed by the request's context). */
const raisedCaps = new WeakMap<object, number>();

/** The media types Hono's JSON validator parses (`application/json`, `application/*+json`). */
export function isJsonRequest(contentType: string | null): boolean {
  const essence = contentType?.split(";")[0]?.trim() ?? "";
  return /^application\/([\w.-]+\+)?json$/i.test(essence);
}

function formatBytes(n: number): string {
  return n >= 1024 * 1024 && n % (1024 * 1024) === 0 ? `${n / (1024 * 1024)} MiB` : `${n} bytes`;
}

/** Route middleware: this route's JSON bodies may be up to `maxBytes` (instead of the default cap). */
export function allowJsonBody(maxBytes: number): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    raisedCaps.set(c, maxBytes);
    await next();
  };
}

/** App middleware: the JSON body cap described above. */
export function jsonBodyLimit(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const raw = c.req.raw;
    if (!raw.body || !isJsonRequest(raw.headers.get("content-type"))) return next();
    const defaultCap = jsonBodyLimitBytes();
    const capOf = () => raisedCaps.get(c) ?? defaultCap;
    const message = () => `The JSON body is larger than this route's limit of ${formatBytes(capOf())}.`;
    const declaredHeader = raw.headers.get("content-length");
    const declared = declaredHeader === null ? null : Number(declaredHeader);
    const source = raw.body;
    let reader: ReadableStreamDefaultReader<Uint8Array> | null = null;
    let seen = 0;
    let exceeded = false;
    const refuse = (controller: ReadableStreamDefaultController<Uint8Array>) => {
      exceeded = true;
      void (reader ?? source).cancel().catch(() => {});
      controller.error(new PayloadTooLargeError(message()));
    };
    // The cap is read when the route starts reading (after its own middleware may have raised it).
    const limited = new ReadableStream<Uint8Array>(
      {
        async pull(controller) {
          const cap = capOf();
          if (declared !== null && !(declared <= cap)) return refuse(controller);
          reader ??= source.getReader();
          const { done, value } = await reader.read();
          if (done) return controller.close();
          seen += value.byteLength;
          if (seen > cap) return refuse(controller);
          controller.enqueue(value);
        },
        cancel(reason) {
          return (reader ?? source).cancel(reason);
        },
      },
      // Nothing is pulled before the route reads: a default high-water mark of 1 would read a chunk now.
      { highWaterMark: 0 },
    );
    c.req.raw = new Request(raw, { body: limited, duplex: "half" } as RequestInit);
    await next();
    // Whatever the route made of its failed read (a parse error, say), the cause was the size.
    if (exceeded) c.res = problemResponse(c, 413, message());
  };
}
