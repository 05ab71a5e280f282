/**
 * The production server (`npm start`; `npm run studio` builds first): one Node.js process, one port.
 * The API (`/api/*`), the OpenAI-compatible routes (`/v1/*`) and `/health` go straight to the Hono app;
 * every other request (the studio's pages and assets) goes to Next.js's request handler. Next's own
 * route handlers for those paths stay in the build (they forward to the same app), but requests no
 * longer pay for Next's request pipeline on the way: see bench/serving-bench.ts and the README.
 *
 *   PORT (default 3000), HOSTNAME (default 0.0.0.0), DATA_DIR / DATABASE_URL as for the app.
 *
 * `npm start` runs it with a 32 MB young generation (--max-semi-space-size=32, Node's default is
 * 16 MB): half as many minor collections, each a pause of a few milliseconds for whichever call is
 * in flight. Measured in bench/serving-bench.ts: single-call predict p99 over HTTP 1.66 ms against
 * 2.26 ms with the default (README, "Benchmarks").
 */
import path from "node:path";
import { fileURLToPath } from "node:url";
import next from "next";
import { getApp } from "../lib/server/app";
import { closeDb, getDb } from "../lib/server/db/client";
import { createAppServer } from "../lib/server/http/node-server";
import { onServerStarted } from "../lib/server/startup";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const port = Number(process.env.PORT ?? 3000);
const hostname = process.env.HOSTNAME ?? "0.0.0.0";

async function main(): Promise<void> {
  try {
    // The database first (its lock, its migrations), then background work, as Next's start-up hook
    // does; both are once per process, whichever runs first.
    await getDb();
    // The production server: no start without the sandbox user programs run in. `npm run studio`
    // (one user's own machine) starts anyway with a warning, and training jobs fail with the reason
    // until bubblewrap is installed (or LAYERLINE_SANDBOX=off is set on purpose).
    await onServerStarted({ production: process.env.LAYERLINE_LOCAL_STUDIO !== "1" });
  } catch (err) {
    console.error(`\nLayerline cannot start: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  }
  const studio = next({ dev: false, dir: root, hostname, port });
  const handlePage = studio.getRequestHandler();
  await studio.prepare();
  // API paths to the app, the others to Next; keep-alive connections that survive early answers
  // (lib/server/http/node-server.ts).
  const server = createAppServer(getApp().fetch, (req, res) => handlePage(req, res));
  server.listen(port, hostname, () => {
    console.log(
      `Layerline is listening on http://${hostname === "0.0.0.0" ? "localhost" : hostname}:${port}`,
    );
  });
  const stop = () => {
    // Then the database's close hooks write what is still batched (request-log lines, key usage).
    server.close(() => void closeDb().finally(() => process.exit(0)));
    setTimeout(() => process.exit(0), 10_000).unref();
  };
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
}

await main();
