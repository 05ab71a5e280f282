/**
 * A request answered before its body is read (a personal key on `/v1/chat/completions` is refused
 * with a 403 before the body is parsed) must not cost the connection: the server reads the rest of
 * the body (up to a bound) and keeps the connection alive, so the well-formed requests a keep-alive
 * client sends next on the same socket are answered. A body above the bound gets its answer with
 * `Connection: close` and a clean close, and the client's next request goes out on a new connection.
 * The real HTTP server (as scripts/server.ts runs it) and undici keep-alive clients.
 */
import { once } from "node:events";
import net, { type AddressInfo } from "node:net";
import { Readable } from "node:stream";
import { Pool } from "undici";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAppServer, EARLY_ANSWER_DRAIN_BYTES } from "../../lib/server/http/node-server";
import { signUpWithKey, startTestApp } from "../helpers";

const app = await startTestApp();
const server = createAppServer(app.fetch);
let origin = "";
let personalKey = "";

beforeAll(async () => {
  personalKey = (await signUpWithKey(app)).key;
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

/** A chat request of about `bytes` bytes (a long message), well-formed. */
function chatBody(bytes: number): string {
  return JSON.stringify({ model: "m", messages: [{ role: "user", content: "x".repeat(bytes) }] });
}

interface Outcome {
  status?: number;
  body?: string;
  connection?: string;
  socketError?: string;
}

async function send(pool: Pool, path: string, method: "GET" | "POST", body?: string): Promise<Outcome> {
  try {
    const res = await pool.request({
      path,
      method,
      headers: {
        Host: "localhost",
        Authorization: `Bearer ${personalKey}`,
        ...(body === undefined ? {} : { "Content-Type": "application/json" }),
      },
      body,
    });
    const text = await res.body.text();
    const connection = res.headers.connection;
    return {
      status: res.statusCode,
      body: text,
      connection: typeof connection === "string" ? connection : undefined,
    };
  } catch (err) {
    const code = (err as { code?: string }).code ?? (err as Error).name;
    return { socketError: `${code}: ${(err as Error).message}` };
  }
}

/**
 * A chat request of about `bytes` bytes whose body is held back after its first 16 KB until the
 * answer has arrived: the server answers before it has read the body. With `declare` the body's
 * Content-Length is sent; without, the body goes chunked (a length the server cannot know).
 */
async function sendHeld(pool: Pool, bytes: number, declare: boolean): Promise<Outcome> {
  const body = Buffer.from(chatBody(bytes));
  let answered = () => {};
  const answer = new Promise<void>((resolve) => {
    answered = resolve;
  });
  const held = Readable.from(
    (async function* () {
      yield body.subarray(0, 16 * 1024);
      await Promise.race([answer, new Promise((resolve) => setTimeout(resolve, 5_000))]);
      yield body.subarray(16 * 1024);
    })(),
  );
  try {
    const res = await pool.request({
      path: "/v1/chat/completions",
      method: "POST",
      headers: {
        Host: "localhost",
        Authorization: `Bearer ${personalKey}`,
        "Content-Type": "application/json",
        ...(declare ? { "Content-Length": String(body.length) } : {}),
      },
      body: held,
    });
    answered();
    const text = await res.body.text();
    const connection = res.headers.connection;
    return {
      status: res.statusCode,
      body: text,
      connection: typeof connection === "string" ? connection : undefined,
    };
  } catch (err) {
    answered();
    const code = (err as { code?: string }).code ?? (err as Error).name;
    return { socketError: `${code}: ${(err as Error).message}` };
  }
}

/** Reads HTTP/1.1 responses (with a Content-Length) off a raw socket, one at a time. */
function responseReader(socket: net.Socket) {
  let buffered = Buffer.alloc(0);
  let wake: (() => void) | null = null;
  let failure: Error | null = null;
  socket.on("data", (chunk: Buffer) => {
    buffered = Buffer.concat([buffered, chunk]);
    wake?.();
  });
  const fail = (err: Error) => {
    failure = err;
    wake?.();
  };
  socket.on("error", fail);
  socket.on("close", () => fail(new Error("the server closed the connection")));
  return {
    async next(): Promise<{ status: number; headers: Record<string, string>; body: string }> {
      for (;;) {
        const end = buffered.indexOf("\r\n\r\n");
        if (end >= 0) {
          const [statusLine, ...lines] = buffered.subarray(0, end).toString("latin1").split("\r\n");
          const headers: Record<string, string> = {};
          for (const line of lines) {
            const at = line.indexOf(":");
            headers[line.slice(0, at).trim().toLowerCase()] = line.slice(at + 1).trim();
          }
          const length = Number(headers["content-length"] ?? 0);
          if (buffered.length >= end + 4 + length) {
            const body = buffered.subarray(end + 4, end + 4 + length).toString("utf8");
            buffered = buffered.subarray(end + 4 + length);
            return { status: Number(statusLine.split(" ")[1]), headers, body };
          }
        }
        if (failure) throw failure;
        await new Promise<void>((resolve) => {
          wake = resolve;
        });
        wake = null;
      }
    },
  };
}

describe("early answers over keep-alive connections", () => {
  it("answers every request of 6 concurrent keep-alive clients mixing early-refused 200 KB bodies with good requests", async () => {
    const big = chatBody(200 * 1024);
    const outcomes: { kind: "refused" | "list" | "create"; outcome: Outcome }[] = [];
    const clients = Array.from({ length: 6 }, async (_, c) => {
      // One connection per client: every request after an early answer goes out on the same socket.
      const pool = new Pool(origin, { connections: 1, pipelining: 1 });
      try {
        for (let i = 0; i < 50; i++) {
          if ((i + c) % 2 === 0) {
            outcomes.push({
              kind: "refused",
              outcome: await send(pool, "/v1/chat/completions", "POST", big),
            });
          } else if ((i + c) % 4 === 1) {
            // A well-formed request whose body the route reads to its end.
            const body = JSON.stringify({ name: `Client ${c} #${i}` });
            outcomes.push({ kind: "create", outcome: await send(pool, "/api/v1/projects", "POST", body) });
          } else {
            outcomes.push({ kind: "list", outcome: await send(pool, "/api/v1/projects", "GET") });
          }
        }
      } finally {
        await pool.close();
      }
    });
    await Promise.all(clients);
    expect(outcomes).toHaveLength(300);
    expect(outcomes.filter((o) => o.outcome.socketError).map((o) => o.outcome.socketError)).toEqual([]);
    for (const { kind, outcome } of outcomes) {
      const json = JSON.parse(outcome.body ?? "{}");
      if (kind === "refused") {
        expect(outcome.status).toBe(403);
        expect(json.error.type).toBe("permission_error");
      } else if (kind === "create") {
        expect(outcome.status).toBe(201);
        expect(json.name).toMatch(/^Client \d #\d+$/);
      } else {
        expect(outcome.status).toBe(200);
        expect(Array.isArray(json.items)).toBe(true);
      }
    }
  }, 120_000);

  it("closes cleanly after an early answer to a body above the bound; the next request succeeds on a new connection", async () => {
    const pool = new Pool(origin, { connections: 1, pipelining: 1 });
    const connects: number[] = [];
    pool.on("connect", () => connects.push(Date.now()));
    try {
      for (let round = 0; round < 3; round++) {
        const refused = await sendHeld(pool, EARLY_ANSWER_DRAIN_BYTES + 512 * 1024, true);
        expect(refused.socketError).toBeUndefined();
        expect(refused.status).toBe(403);
        expect(refused.connection).toBe("close");
        const next = await send(pool, "/api/v1/projects", "GET");
        expect(next.socketError).toBeUndefined();
        expect(next.status).toBe(200);
      }
      // Each refusal above the bound closed its connection; the good request after it opened a new one.
      expect(connects.length).toBe(4);
    } finally {
      await pool.close();
    }
  });

  it("closes cleanly after an early answer to a body of unknown length (chunked)", async () => {
    const pool = new Pool(origin, { connections: 1, pipelining: 1 });
    try {
      for (let round = 0; round < 3; round++) {
        const refused = await sendHeld(pool, 64 * 1024, false);
        expect(refused.socketError).toBeUndefined();
        expect(refused.status).toBe(403);
        expect(refused.connection).toBe("close");
        const next = await send(pool, "/api/v1/projects", "GET");
        expect(next.socketError).toBeUndefined();
        expect(next.status).toBe(200);
      }
    } finally {
      await pool.close();
    }
  });

  it("keeps the connection after a body within the bound: one connection for the whole exchange", async () => {
    const pool = new Pool(origin, { connections: 1, pipelining: 1 });
    let connects = 0;
    pool.on("connect", () => {
      connects += 1;
    });
    try {
      for (let i = 0; i < 5; i++) {
        const refused = await send(pool, "/v1/chat/completions", "POST", chatBody(200 * 1024));
        expect(refused.socketError).toBeUndefined();
        expect(refused.status).toBe(403);
        expect(refused.connection).not.toBe("close");
        expect((await send(pool, "/api/v1/projects", "GET")).status).toBe(200);
      }
      expect(connects).toBe(1);
    } finally {
      await pool.close();
    }
  });
  it("drains a body within the bound held back until after the answer, then answers the next request on the same socket", async () => {
    // A raw connection: undici itself drops a connection whose answer came before its body was sent.
    const { port } = server.address() as AddressInfo;
    const socket = net.connect(port, "127.0.0.1");
    await once(socket, "connect");
    const responses = responseReader(socket);
    try {
      for (let round = 0; round < 3; round++) {
        const body = Buffer.from(chatBody(200 * 1024));
        socket.write(
          "POST /v1/chat/completions HTTP/1.1\r\nHost: localhost\r\n" +
            `Authorization: Bearer ${personalKey}\r\nContent-Type: application/json\r\n` +
            `Content-Length: ${body.length}\r\n\r\n`,
        );
        socket.write(body.subarray(0, 16 * 1024));
        const refused = await responses.next();
        expect(refused.status).toBe(403);
        expect(refused.headers.connection).not.toBe("close");
        // The rest of the body, then the next request right behind it on the same connection.
        socket.write(body.subarray(16 * 1024));
        socket.write(
          `GET /api/v1/projects HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${personalKey}\r\n\r\n`,
        );
        const next = await responses.next();
        expect(next.status).toBe(200);
        expect(Array.isArray(JSON.parse(next.body).items)).toBe(true);
      }
    } finally {
      socket.destroy();
    }
  });
  it("answers a chunked body that passes the route's cap with a 413 and a clean close; the next request succeeds", async () => {
    const pool = new Pool(origin, { connections: 1, pipelining: 1 });
    const big = Buffer.from(JSON.stringify({ project_id: "x".repeat(1536 * 1024) }));
    try {
      for (let round = 0; round < 3; round++) {
        const res = await pool.request({
          path: "/api/v1/training/jobs",
          method: "POST",
          headers: {
            Host: "localhost",
            Authorization: `Bearer ${personalKey}`,
            "Content-Type": "application/json",
          },
          body: Readable.from(
            (async function* () {
              for (let at = 0; at < big.length; at += 64 * 1024) yield big.subarray(at, at + 64 * 1024);
            })(),
          ),
        });
        const problem = JSON.parse(await res.body.text());
        expect(res.statusCode).toBe(413);
        expect(problem.detail).toContain("1 MiB");
        expect(res.headers.connection).toBe("close");
        const next = await send(pool, "/api/v1/projects", "GET");
        expect(next.socketError).toBeUndefined();
        expect(next.status).toBe(200);
      }
    } finally {
      await pool.close();
    }
  });
});
