/**
 * Runs a command against a throwaway S3-compatible server (tests/helpers/s3-server.ts):
 *
 *   npx tsx tests/helpers/with-s3.ts npx vitest run tests/api/datasets.test.ts
 *
 * The command gets BLOB_STORE=s3 and the S3_* / AWS_* settings of the server, and a fresh
 * BLOB_CACHE_DIR; the server and its directories are removed afterwards. The exit code is the command's.
 */
import { spawn } from "node:child_process";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { startS3Server } from "./s3-server";

async function main(): Promise<number> {
  const [command, ...args] = process.argv.slice(2);
  if (!command) {
    console.error("usage: tsx tests/helpers/with-s3.ts <command> [args…]");
    return 2;
  }
  const s3 = await startS3Server();
  const cache = await fs.mkdtemp(path.join(os.tmpdir(), "layerline-blob-cache-"));
  try {
    const child = spawn(command, args, {
      stdio: "inherit",
      env: { ...process.env, ...s3.env, BLOB_CACHE_DIR: cache },
    });
    const forward = (signal: NodeJS.Signals) => child.kill(signal);
    process.on("SIGINT", forward);
    process.on("SIGTERM", forward);
    return await new Promise<number>((resolve) => {
      child.on("exit", (code, signal) => resolve(code ?? (signal ? 1 : 0)));
      child.on("error", (err) => {
        console.error(err.message);
        resolve(127);
      });
    });
  } finally {
    await s3.close();
    await fs.rm(cache, { recursive: true, force: true });
  }
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
