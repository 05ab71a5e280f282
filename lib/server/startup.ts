import { getDb, targetFromEnv } from "./db/client";
import { ensureInProcessRunner } from "./jobs/runner";
import { startTrainingRecovery } from "./services/training/recovery";

/** Work done once the server process has its database: background jobs start here. */
export async function onServerStarted(): Promise<void> {
  // In embedded mode the job runner lives in the server process (PGlite has one owner); with
  // PostgreSQL it runs here too unless LAYERLINE_WORKERS=external hands jobs to `npm run worker`.
  await ensureInProcessRunner();
  startTrainingRecovery(await getDb(), { soleProcess: targetFromEnv().kind !== "postgres" });
}
