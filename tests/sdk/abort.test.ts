/**
 * Aborting a followed stream ends it promptly over real fetch, even after a garbage collection:
 * Node's fetch may drop the link from the caller's signal to the Request built on it once that
 * Request is collected (nodejs/undici#3644), which left `layerline train` deaf to Ctrl-C. A plain
 * HTTP server sends one event and then holds the connection open, as a queued job's stream does.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Layerline } from "@/sdk/src/client";

setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as () => void;

let server: Server;
let baseUrl = "";
let openStreams = 0;

beforeAll(async () => {
  server = createServer((req, res) => {
    if (req.url?.endsWith("/stream-access-token")) {
      res.writeHead(200, { "Content-Type": "application/json" });
      res.end(JSON.stringify({ stream_url: "/held-stream", expires_at: new Date().toISOString() }));
      return;
    }
    if (req.url === "/held-stream") {
      openStreams++;
      req.socket.on("close", () => openStreams--);
      res.writeHead(200, { "Content-Type": "text/event-stream" });
      res.write('id: 1\nevent: status\ndata: {"status":"queued"}\n\n');
      return; // held open: no more events
    }
    if (req.url === "/held-json") {
      return; // never answers
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

/** Settles within `ms` or says it did not. */
function within<T>(promise: Promise<T>, ms: number): Promise<T | "still pending"> {
  return Promise.race([
    promise,
    new Promise<"still pending">((r) => setTimeout(() => r("still pending"), ms)),
  ]);
}

describe("aborting", () => {
  it("ends a followed stream held open by the server, after a garbage collection, and closes it", async () => {
    const client = new Layerline({ baseUrl, apiKey: "lk_test" });
    for (let round = 0; round < 5; round++) {
      const controller = new AbortController();
      const seen: string[] = [];
      const following = client
        .followJob("job_held", {
          signal: controller.signal,
          onEvent: (e) => seen.push(e.event),
        })
        .then(
          () => "finished",
          (err: unknown) => (err instanceof Error ? err.message : String(err)),
        );
      await expect.poll(() => seen).toEqual(["status"]);
      gc();
      await new Promise((r) => setTimeout(r, 20));
      gc();
      controller.abort(new Error("interrupted"));
      expect(await within(following, 2_000)).toBe("interrupted");
      await expect.poll(() => openStreams).toBe(0);
    }
  });

  it("ends a raw request the server never answers", async () => {
    const client = new Layerline({ baseUrl, apiKey: "lk_test" });
    const controller = new AbortController();
    const pending = client.request("/held-json", { signal: controller.signal }).then(
      () => "answered",
      (err: unknown) => (err instanceof Error ? err.message : String(err)),
    );
    await new Promise((r) => setTimeout(r, 50));
    gc();
    controller.abort(new Error("stopped"));
    expect(await within(pending, 2_000)).toBe("stopped");
  });
});
