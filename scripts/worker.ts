/**
 * A separate job worker (`npm run worker`), for deployments on PostgreSQL: run as many as needed beside
 * the server and set LAYERLINE_WORKERS=external on the server so that it runs no jobs itself.
 *
 *   DATABASE_URL=postgres://… npm run worker
 *   LAYERLINE_JOB_CONCURRENCY   short jobs at a time in this process (default 2)
 *   LAYERLINE_TRAINING_CONCURRENCY   training jobs at a time in this process (default 2)
 *   LAYERLINE_WORKER_GRACE_MS   on SIGINT/SIGTERM, how long running jobs may finish before they are
 *                               interrupted and queued again (default 30000); a second signal exits at once
 */
import "../lib/server/job-types";
import { readBlobStoreConfig } from "../lib/server/config";
import { closeDb, openDb, setDb, targetFromEnv } from "../lib/server/db/client";
import { registeredJobTypes } from "../lib/server/jobs/registry";
import { defaultWorkerId, startRunnerLanes } from "../lib/server/jobs/runner";
import { startTrainingRecovery } from "../lib/server/modules/training/recovery";
import { checkSandbox } from "../lib/server/startup";

function nonNegativeInt(value: string | undefined, fallback: number): number {
  const n = Number(value);
  return Number.isInteger(n) && n >= 0 ? n : fallback;
}

async function main(): Promise<void> {
  try {
    // A worker runs users' programs: no start without their sandbox (LAYERLINE_SANDBOX=off to opt out).
    readBlobStoreConfig(); // object-store settings that cannot work: a clear message, no start
    await checkSandbox({ production: true });
  } catch (err) {
    console.error(`\nLayerline cannot start: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  }
  const target = targetFromEnv();
  if (target.kind !== "postgres") {
    console.error(
      "The worker needs PostgreSQL: set DATABASE_URL. The embedded database (PGlite) can be opened by one " +
        "process only, so in embedded mode the server runs the jobs itself.",
    );
    process.exit(2);
  }
  const open = await openDb(target);
  setDb(open);
  startTrainingRecovery(open.db, { soleProcess: false });
  const types = registeredJobTypes();
  const runner = startRunnerLanes({
    db: open.db,
    workerId: defaultWorkerId("worker"),
    keepProcessAlive: true,
  });
  console.info(
    `[jobs] worker ${runner.workerId} started: ${types.length} job type(s)${types.length ? ` (${types.join(", ")})` : ""}`,
  );

  let stopping = false;
  const shutdown = (signal: string) => {
    if (stopping) {
      console.error(`[jobs] ${signal} again: exiting now; running jobs will be recovered by another worker`);
      process.exit(1);
    }
    stopping = true;
    const graceMs = nonNegativeInt(process.env.LAYERLINE_WORKER_GRACE_MS, 30_000);
    console.info(`[jobs] ${signal}: finishing running jobs (up to ${graceMs} ms)…`);
    runner
      .stop({ graceMs })
      .then(() => closeDb())
      .then(() => {
        console.info("[jobs] worker stopped");
        process.exit(0);
      })
      .catch((err: unknown) => {
        console.error("[jobs] worker shutdown failed", err);
        process.exit(1);
      });
  };
  process.on("SIGINT", () => shutdown("SIGINT"));
  process.on("SIGTERM", () => shutdown("SIGTERM"));
}

main().catch((err: unknown) => {
  console.error("[jobs] worker failed to start:", err instanceof Error ? err.message : err);
  process.exit(1);
});
