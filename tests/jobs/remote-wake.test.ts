/**
 * A worker on another machine starts a job as soon as a server enqueues it: the enqueue NOTIFYs the
 * jobs channel and every runner LISTENs to it (lib/server/jobs/queue.ts, runner.ts). Before, a
 * remote worker found new jobs only on its next poll (once a second by default; here the poll is ten
 * minutes, so only the notification can start the job). PostgreSQL only: the embedded database has
 * one process, whose runners are woken in process.
 */
import { type ChildProcess, spawn } from "node:child_process";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { getDb } from "@/lib/server/db/client";
import { randomBase62 } from "@/lib/server/ids";
import { enqueueJob, getJob } from "@/lib/server/jobs/queue";
import { defineJobType } from "@/lib/server/jobs/registry";
import { startTestApp } from "../helpers";

await startTestApp();
const db = await getDb();
const onPostgres = Boolean(process.env.TEST_DATABASE_URL);
const type = `test.remote-wake.${randomBase62(6)}`;
const doubling = defineJobType({
  type,
  payload: z.object({ n: z.number().int() }),
  run: async () => {
    throw new Error("runs only in the other process");
  },
});

let child: ChildProcess | undefined;
afterAll(async () => {
  if (!child || child.exitCode !== null) return;
  const exited = new Promise((r) => child?.once("exit", r));
  child.kill("SIGTERM");
  await exited;
});

function startRemoteRunner(): Promise<ChildProcess> {
  const proc = spawn(process.execPath, ["--import", "tsx", path.join(__dirname, "remote-runner.ts")], {
    env: { ...process.env, REMOTE_JOB_TYPE: type },
    stdio: ["ignore", "pipe", "inherit"],
  });
  return new Promise((resolve, reject) => {
    let out = "";
    proc.stdout?.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes("ready")) resolve(proc);
    });
    proc.once("exit", (code) => reject(new Error(`the remote runner exited (${code}) before it was ready`)));
  });
}

describe("a worker in another process", () => {
  it.skipIf(!onPostgres)("starts a job enqueued by a server at once, woken by its notification", async () => {
    child = await startRemoteRunner();
    // Two jobs: one may be enqueued before the runner LISTENs (it reads the queue when its LISTEN
    // connects), the second certainly after its first claim, when it is asleep for ten minutes.
    const first = await enqueueJob(db, doubling, { n: 21 }, { ownerId: null });
    const done = async (id: string) => {
      for (;;) {
        const job = await getJob(db, id);
        if (job.state !== "queued" && job.state !== "running") return job;
        await new Promise((r) => setTimeout(r, 50));
      }
    };
    const one = await done(first.id);
    expect(one.state).toBe("succeeded");
    expect(one.result).toEqual({ double: 42, pid: child.pid });
    const second = await enqueueJob(db, doubling, { n: 50 }, { ownerId: null });
    const two = await done(second.id);
    expect(two.state).toBe("succeeded");
    expect(two.result).toEqual({ double: 100, pid: child.pid });
    // As the services enqueue (a training job with its row): inside a transaction, announced at commit.
    const third = await db.transaction((tx) => enqueueJob(tx, doubling, { n: 7 }, { ownerId: null }));
    const three = await done(third.id);
    expect(three.state).toBe("succeeded");
    expect(three.result).toEqual({ double: 14, pid: child.pid });
  });
});
