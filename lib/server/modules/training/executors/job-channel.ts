/**
 * A sandboxed job's only way out: a Unix socket in its own directory, served by a small HTTP proxy
 * in the worker. It forwards requests under `/api/v1/training/jobs/<this job>/` (the upload-token
 * routes: events, checkpoints, the artifact…) to the API with the job's upload token, which the proxy
 * adds (the token never enters the sandbox), bodies streamed both ways. Anything else is a 403.
 */

import fsp from "node:fs/promises";
import http from "node:http";
import https from "node:https";
import type { Socket } from "node:net";
import { giveToProgram } from "./sandbox";

export interface JobChannel {
  /** The socket's path, for the program: `--api unix:<path>`. */
  socketPath: string;
  close(): Promise<void>;
}

/** Headers passed from the program to the API (the rest, Authorization included, are dropped). */
const FORWARDED = ["content-type", "content-length", "content-encoding", "accept", "idempotency-key"];
const METHODS = new Set(["GET", "POST", "PUT", "PATCH"]);

function refuse(res: http.ServerResponse, status: number, detail: string): void {
  const body = JSON.stringify({ type: "about:blank", title: "Forbidden", status, detail });
  res.writeHead(status, {
    "Content-Type": "application/problem+json",
    "Content-Length": Buffer.byteLength(body),
  });
  res.end(body);
}

export async function openJobChannel(opts: {
  socketPath: string;
  jobId: string;
  apiBaseUrl: string;
  uploadToken: string;
}): Promise<JobChannel> {
  const base = new URL(opts.apiBaseUrl.replace(/\/+$/, ""));
  const client = base.protocol === "https:" ? https : http;
  const basePath = base.pathname.replace(/\/+$/, "");
  const prefix = `/api/v1/training/jobs/${encodeURIComponent(opts.jobId)}/`;
  const sockets = new Set<Socket>();

  const server = http.createServer((req, res) => {
    const raw = req.url ?? "";
    // Origin-form only; the path as the URL parser resolves it (dot segments, %2e included).
    const url = raw.startsWith("/") && !raw.startsWith("//") ? new URL(raw, "http://job.invalid") : null;
    if (!url?.pathname.startsWith(prefix) || !METHODS.has(req.method ?? "")) {
      req.resume();
      return refuse(res, 403, "This channel reaches its own training job's upload routes only.");
    }
    const headers: http.OutgoingHttpHeaders = { authorization: `Bearer ${opts.uploadToken}` };
    for (const name of FORWARDED) {
      const value = req.headers[name];
      if (value !== undefined) headers[name] = value;
    }
    if (req.headers["transfer-encoding"]) headers["transfer-encoding"] = "chunked";
    const upstream = client.request(
      {
        protocol: base.protocol,
        hostname: base.hostname,
        port: base.port || undefined,
        method: req.method,
        path: `${basePath}${url.pathname}${url.search}`,
        headers,
        timeout: 120_000,
      },
      (answer) => {
        const out: http.OutgoingHttpHeaders = {};
        for (const [name, value] of Object.entries(answer.headers)) {
          if (value !== undefined && !["connection", "keep-alive", "set-cookie"].includes(name))
            out[name] = value;
        }
        res.writeHead(answer.statusCode ?? 502, out);
        answer.pipe(res);
      },
    );
    upstream.on("timeout", () => upstream.destroy(new Error("the API did not answer in time")));
    upstream.on("error", () => {
      if (!res.headersSent) refuse(res, 502, "The API could not be reached.");
      else res.destroy();
    });
    req.pipe(upstream);
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await fsp.rm(opts.socketPath, { force: true });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(opts.socketPath, () => {
      server.off("error", reject);
      resolve();
    });
  });
  await giveToProgram(opts.socketPath);
  return {
    socketPath: opts.socketPath,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => {
          void fsp.rm(opts.socketPath, { force: true }).finally(resolve);
        });
      }),
  };
}
