/**
 * Runs once when the server starts: opens the database (taking the data directory's lock and running
 * migrations), so a second server on the same embedded data directory stops with a clear message
 * instead of losing writes, and migrations never run in the middle of a request.
 */
import { getDb } from "./lib/server/db/client";
import { onServerStarted } from "./lib/server/startup";

try {
  await getDb();
  await onServerStarted();
} catch (err) {
  console.error(`\nLayerline cannot start: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
}
