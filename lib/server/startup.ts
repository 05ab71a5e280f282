import { ensureInProcessRunner } from "./jobs/runner";

/** Work done once the server process has its database: background jobs start here. */
export async function onServerStarted(): Promise<void> {
  // In embedded mode the job runner lives in the server process (PGlite has one owner); with
  // PostgreSQL it runs here too unless LAYERLINE_WORKERS=external hands jobs to `npm run worker`.
  await ensureInProcessRunner();
}
