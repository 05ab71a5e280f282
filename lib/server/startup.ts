import { readBlobStoreConfig } from "./config";
import { getDb, targetFromEnv } from "./db/client";
import "./job-types";
import { ensureInProcessRunner } from "./jobs/runner";
import {
  SANDBOX_OFF_WARNING,
  sandboxEnabled,
  sandboxProblem,
  sandboxRefusal,
} from "./modules/training/executors/sandbox";
import { startTrainingRecovery } from "./modules/training/recovery";

/**
 * The sandbox user programs run in (bubblewrap, SECURITY.md). Off (LAYERLINE_SANDBOX=off): a loud
 * warning. Not working: on a production start (`production`, default NODE_ENV=production) an error
 * the start fails with, naming the package and the opt-out; elsewhere a warning (jobs then fail).
 */
export async function checkSandbox(opts: { production?: boolean } = {}): Promise<void> {
  if (!sandboxEnabled()) {
    console.warn(`\n${SANDBOX_OFF_WARNING}\n`);
    return;
  }
  const problem = await sandboxProblem();
  if (!problem) return;
  if (opts.production ?? process.env.NODE_ENV === "production") throw new Error(sandboxRefusal(problem));
  console.warn(`\nWARNING: ${sandboxRefusal(problem)} Until then training jobs fail.\n`);
}

/**
 * Work done once the server process has its database: background jobs start here. `production`:
 * a start that must refuse without the sandbox (npm start), whatever NODE_ENV says.
 */
export async function onServerStarted(opts: { production?: boolean } = {}): Promise<void> {
  // Object-store settings that cannot work stop the start with a clear message (ConfigError).
  const blobs = readBlobStoreConfig();
  // Several processes (PostgreSQL, a shared bucket) must sign links with one secret: each process
  // would otherwise make its own, and a link handed out by one server would fail on the others.
  if ((process.env.DATABASE_URL || blobs.driver === "s3") && !process.env.LAYERLINE_SECRET)
    console.warn(
      "Layerline: LAYERLINE_SECRET is not set. Set the same long random value on every server and " +
        "worker, or download, upload and stream links signed by one process fail on the others.",
    );
  await checkSandbox(opts);
  // In embedded mode the job runner lives in the server process (PGlite has one owner); with
  // PostgreSQL it runs here too unless LAYERLINE_WORKERS=external hands jobs to `npm run worker`.
  await ensureInProcessRunner();
  startTrainingRecovery(await getDb(), { soleProcess: targetFromEnv().kind !== "postgres" });
}
