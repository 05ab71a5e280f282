/**
 * Serves only the API (the Hono app: `/api/*`, `/v1/*`, `/health`) on one port, without the studio and
 * without a `next build`: for the Python SDK's tests (scripts/test-python.sh) and other clients that
 * need a real server quickly. Background work (the job runner, training recovery) starts as in
 * scripts/server.ts.
 *
 *   PORT (default 3000), HOSTNAME (default 127.0.0.1), DATA_DIR / DATABASE_URL as for the app.
 *
 * Prints `Layerline API is listening on http://HOST:PORT` once it accepts requests.
 */
import type { AddressInfo } from "node:net";
import { getApp } from "../lib/server/app";
import { getDb } from "../lib/server/db/client";
import { createAppServer } from "../lib/server/http/node-server";
import { onServerStarted } from "../lib/server/startup";

const port = Number(process.env.PORT ?? 3000);
const hostname = process.env.HOSTNAME ?? "127.0.0.1";

async function main(): Promise<void> {
  // Training programs started by the in-process runner upload their events to this server.
  process.env.LAYERLINE_INTERNAL_URL ??= `http://127.0.0.1:${port}`;
  try {
    await getDb();
    await onServerStarted();
  } catch (err) {
    console.error(`\nLayerline cannot start: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  }
  const server = createAppServer(getApp().fetch);
  server.listen(port, hostname, () => {
    const { port: bound } = server.address() as AddressInfo;
    console.log(`Layerline API is listening on http://${hostname}:${bound}`);
  });
  const stop = () => {
    server.close(() => process.exit(0));
    setTimeout(() => process.exit(0), 5_000).unref();
  };
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
}

await main();
