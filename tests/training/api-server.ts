/**
 * A test harness: the real Hono app, job runner and training recovery in one Node.js process, the
 * way the studio's server runs them, without Next.js (which takes a build). Used by tests that must
 * kill and restart a server. Environment: PORT, DATA_DIR (or DATABASE_URL), BLOB_DIR.
 */
import { serve } from "@hono/node-server";
import { getApp } from "../../lib/server/app";
import { getDb } from "../../lib/server/db/client";
import { onServerStarted } from "../../lib/server/startup";

const port = Number(process.env.PORT ?? 0);
process.env.LAYERLINE_INTERNAL_URL ??= `http://127.0.0.1:${port}`;

await getDb();
await onServerStarted();
const app = getApp();
serve({ fetch: app.fetch, port, hostname: "127.0.0.1" }, (info) => {
  console.info(`listening on ${info.port}`);
});
