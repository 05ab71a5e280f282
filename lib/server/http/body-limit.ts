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
