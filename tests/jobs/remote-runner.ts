/**
 * A job runner in a process of its own, standing in for a worker on another machine
 * (tests/jobs/remote-wake.test.ts): it runs one job type on the PostgreSQL server in
 * TEST_DATABASE_URL and polls only every ten minutes, so it starts a job at once only when it is woken.
 * Prints "ready" once its runner is started; stops on SIGTERM.
 */
import { z } from "zod";
import { openDb } from "../../lib/server/db/client";
import { defineJobType } from "../../lib/server/jobs/registry";
import { startJobRunner } from "../../lib/server/jobs/runner";

const url = process.env.TEST_DATABASE_URL;
const type = process.env.REMOTE_JOB_TYPE;
if (!url || !type) throw new Error("TEST_DATABASE_URL and REMOTE_JOB_TYPE are needed");

const open = await openDb({ kind: "postgres", url });
defineJobType({
  type,
  payload: z.object({ n: z.number().int() }),
  run: async ({ n }) => ({ double: n * 2, pid: process.pid }),
});
const runner = startJobRunner({
  db: open.db,
  types: [type],
  pollIntervalMs: 600_000,
  recoverIntervalMs: 600_000,
  keepProcessAlive: true,
  log: () => {},
});
console.log("ready");
process.on("SIGTERM", () => {
  void runner
    .stop({ graceMs: 1000 })
    .then(() => open.close())
    .finally(() => process.exit(0));
});
