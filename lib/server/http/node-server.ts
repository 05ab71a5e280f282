/**
 * The Node.js HTTP server in front of the Hono app, as scripts/server.ts runs it (with Next.js for
 * every other path) and scripts/serve-api.ts (the API alone).
 *
 * Early answers. A request can be answered before its body is read: a refused credential, a body
 * declared larger than the route's cap, an unknown route. Its unread body is still on the
 * connection, in front of whatever the client sends next on it. So that a keep-alive client never
 * loses a request it sent after an early answer:
 * - a body declared (Content-Length) up to EARLY_ANSWER_DRAIN_BYTES is read to its end and
 *   dropped once the answer has gone out, and the connection stays open for the next request;
 * - a larger body, or one of unknown length (chunked), gets its answer with `Connection: close`:
 *   the client sends its next request on a new connection. The server half-closes after the answer
 *   and keeps reading (and dropping) what the client still sends until the client closes (or
 *   EARLY_ANSWER_LINGER_MS passes), so that bytes still in flight never meet a closed socket, whose
 *   reset would destroy the answer before the client read it.
 */
import http from "node:http";
import type { Socket } from "node:net";
import { getRequestListener } from "@hono/node-server";

type Fetch = (request: Request) => Response | Promise<Response>;
type NodeHandler = (req: http.IncomingMessage, res: http.ServerResponse) => unknown;

/** Largest unread body drained after an early answer on a connection kept alive. */
export const EARLY_ANSWER_DRAIN_BYTES = 1024 * 1024;
/** Longest the server waits for the rest of a body after an early answer. */
const EARLY_ANSWER_DRAIN_MS = 10_000;
/** Longest a connection closed after an early answer keeps taking in the client's bytes. */
const EARLY_ANSWER_LINGER_MS = 2_000;

/** Paths the Hono app serves directly. */
export function isApiPath(url: string): boolean {
  return (
    url.startsWith("/api/") ||
    url === "/api" ||
    url.startsWith("/v1/") ||
    url === "/health" ||
    url.startsWith("/health?")
  );
}

function hasBody(req: http.IncomingMessage): boolean {
  return req.headers["content-length"] !== undefined || req.headers["transfer-encoding"] !== undefined;
}

/** Reads the rest of a request's body and drops it (whoever was reading it is done: the answer went out). */
function drainBody(req: http.IncomingMessage): void {
  if (req.readableEnded || req.destroyed) return;
  const timer = setTimeout(() => req.socket.destroy(), EARLY_ANSWER_DRAIN_MS);
  timer.unref();
  const done = () => clearTimeout(timer);
  req.once("end", done);
  req.once("close", done);
  // The app's body reader stops reading when its queue is full; nobody will read that queue again.
  req.removeAllListeners("data");
  req.on("data", () => {});
  req.resume();
}

/** Half-closes after the answer and takes in the client's remaining bytes before closing. */
function lingeringClose(socket: Socket): void {
  if (socket.destroyed) return;
  const timer = setTimeout(() => socket.destroy(), EARLY_ANSWER_LINGER_MS);
  timer.unref();
  socket.once("close", () => clearTimeout(timer));
  socket.once("end", () => socket.destroy()); // the client closed its side: nothing more to take in
  socket.end();
}

/**
 * Watches a request with a body for an answer that goes out before the body has arrived: decides,
 * as the answer's headers are written, whether the connection is kept (the body is drained after
 * the answer) or closed cleanly (`Connection: close`, then a lingering close).
 */
function guardEarlyAnswer(req: http.IncomingMessage, res: http.ServerResponse): void {
  if (!hasBody(req)) return;
  // A body reader that stops early cancels the body (a size over the route's cap, a failed
  // upload), and cancelling destroys the request with its connection, under the answer about to
  // be written. While the connection is up, reading stops instead: the answer then drains the
  // rest or closes the connection, as above. (A connection that is gone is destroyed as usual.)
  const socket = req.socket;
  const destroy = req.destroy;
  req.destroy = function (this: http.IncomingMessage, error?: Error) {
    // Ended (Node destroys a request once it has been read), answered, or its connection gone.
    if (req.readableEnded || res.writableFinished || socket.destroyed) return destroy.call(this, error);
    // (Node's stream helpers detach the socket first, to spare it: the request still reads from it.)
    req.socket = socket;
    req.removeAllListeners("data");
    req.pause();
    return this;
  };
  const writeHead = res.writeHead;
  res.writeHead = function (this: http.ServerResponse, ...args: unknown[]) {
    res.writeHead = writeHead;
    if (!req.complete) {
      const declared = Number(req.headers["content-length"]);
      const drainable =
        req.headers["transfer-encoding"] === undefined &&
        Number.isFinite(declared) &&
        declared <= EARLY_ANSWER_DRAIN_BYTES;
      if (!drainable) {
        res.setHeader("Connection", "close");
        const destroySoon = socket.destroySoon;
        // Node's server closes a `Connection: close` connection with destroySoon once the answer
        // is written; with body bytes still coming, close it the lingering way instead.
        socket.destroySoon = function (this: Socket) {
          socket.destroySoon = destroySoon;
          if (req.readableEnded) destroySoon.call(socket);
          else lingeringClose(socket);
        };
      }
    }
    return (writeHead as (...a: unknown[]) => http.ServerResponse).apply(this, args);
  } as typeof res.writeHead;
  res.once("finish", () => drainBody(req));
}

/**
 * A server for the app: API paths go to `fetch`; every other path to `handleOther` (the studio's
 * pages), or to the app too when there is none.
 */
export function createAppServer(fetch: Fetch, handleOther?: NodeHandler): http.Server {
  // The adapter's own clean-up of unread bodies gives up after 500 ms by destroying the socket,
  // under a client that already sent its next request: the early answers above replace it.
  const handleApi = getRequestListener(fetch, { autoCleanupIncoming: false });
  const server = http.createServer((req, res) => {
    if (!handleOther || isApiPath(req.url ?? "/")) {
      guardEarlyAnswer(req, res);
      void handleApi(req, res);
    } else void handleOther(req, res);
  });
  // Keep-alive connections outlive load balancers' idle timeouts (Node's default is 5 s).
  server.keepAliveTimeout = 65_000;
  return server;
}
