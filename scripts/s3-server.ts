/**
 * A standalone S3-compatible server for the local cluster (scripts/cluster.sh): the test helper's
 * s3rver (tests/helpers/s3-server.ts, with its AbortMultipartUpload / ListMultipartUploads and
 * presigned-URL checks) on a free loopback port, one bucket, kept running until SIGINT/SIGTERM.
 *
 *   S3_ENV_FILE   where to write the settings a Layerline process reads (BLOB_STORE=s3, S3_*, AWS_*),
 *                 one `NAME=value` a line (default: printed only)
 *   S3_BUCKET     the bucket (default layerline)
 *
 * Its directory is a new temporary one, removed on a clean stop.
 */
import fs from "node:fs/promises";
import { startS3Server } from "../tests/helpers/s3-server";

const s3 = await startS3Server({ bucket: process.env.S3_BUCKET || "layerline" });
const lines = Object.entries({ ...s3.env, S3_DIRECTORY: s3.directory }).map(([k, v]) => `${k}=${v}`);
if (process.env.S3_ENV_FILE) await fs.writeFile(process.env.S3_ENV_FILE, `${lines.join("\n")}\n`);
console.log(`S3-compatible server on ${s3.endpoint}, bucket ${s3.bucket}, directory ${s3.directory}`);
let stopping = false;
const stop = () => {
  if (stopping) process.exit(1);
  stopping = true;
  void s3.close().finally(() => process.exit(0));
};
process.on("SIGINT", stop);
process.on("SIGTERM", stop);
