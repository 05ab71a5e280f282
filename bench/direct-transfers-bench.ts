/**
 * Direct transfers on S3 (run by hand: `npx tsx bench/direct-transfers-bench.ts`; BENCH_MB sets the
 * file size, default 64, BENCH_ROUNDS the downloads per phase, default 5).
 *
 * Starts an S3-compatible test server (tests/helpers/s3-server.ts, in this process) and the API
 * (scripts/serve-api.ts, a child process with BLOB_STORE=s3) twice on one data directory: first with
 * S3_PRESIGNED_DOWNLOADS=false (the baseline: bytes streamed through the API), then with presigned
 * transfers on. Each phase downloads one hub file through its signed link (following the redirect
 * when there is one) and uploads one registry artifact (through the API's URL, then with
 * `direct_upload`), and reports per transfer: bytes through the API's sockets (response or request
 * bodies), the API process's CPU time (from /proc), and the client's wall time. Ratios are against
 * the baseline of the same run. The test server is a JavaScript process on the same two cores as
 * the API, so wall times say little about a real bucket; bytes and API CPU are the point.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { startS3Server } from "../tests/helpers/s3-server";

const MB = 1024 * 1024;
const SIZE = Number(process.env.BENCH_MB ?? 64) * MB;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const PORT = 38000 + Math.floor(Math.random() * 1000);
const BASE = `http://127.0.0.1:${PORT}`;

/** User + system CPU seconds of a process so far (Linux /proc). */
function cpuSeconds(pid: number): number {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
  const ticks = Number(fields[11]) + Number(fields[12]); // utime, stime
  return ticks / 100;
}

async function startApi(env: Record<string, string>): Promise<ChildProcess> {
  const child = spawn(process.execPath, ["--import", "tsx", "scripts/serve-api.ts"], {
    env: { ...process.env, ...env, PORT: String(PORT), HOSTNAME: "127.0.0.1" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  await new Promise<void>((resolve, reject) => {
    let out = "";
    const onData = (d: Buffer) => {
      out += d.toString();
      if (out.includes("is listening")) resolve();
    };
    child.stdout?.on("data", onData);
    child.stderr?.on("data", (d: Buffer) => {
      out += d.toString();
    });
    child.on("exit", (code) => reject(new Error(`the API exited (${code}):\n${out}`)));
  });
  return child;
}

async function stopApi(child: ChildProcess): Promise<void> {
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.kill("SIGTERM");
  await exited;
}

async function json(res: Response): Promise<Record<string, unknown>> {
  const body = (await res.json()) as Record<string, unknown>;
  if (!res.ok) throw new Error(`${res.status} ${JSON.stringify(body)}`);
  return body;
}

async function account(): Promise<string> {
  const name = `bench${randomBytes(4).toString("hex")}`;
  const signup = await fetch(`${BASE}/api/auth/signup`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ email: `${name}@example.com`, username: name, password: "correct horse battery" }),
  });
  await json(signup);
  const cookie = (signup.headers.get("set-cookie") ?? "").split(";")[0];
  const key = await fetch(`${BASE}/api/v1/users/me/api-keys`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Cookie: cookie, Origin: BASE },
    body: JSON.stringify({ name: "bench" }),
  });
  return (await json(key)).key as string;
}

interface Measure {
  apiBytes: number;
  apiCpu: number;
  wall: number;
}

async function measure(pid: number, fn: () => Promise<number>): Promise<Measure> {
  const cpu = cpuSeconds(pid);
  const t = performance.now();
  const apiBytes = await fn();
  return { apiBytes, apiCpu: cpuSeconds(pid) - cpu, wall: (performance.now() - t) / 1000 };
}

async function phase(
  direct: boolean,
  data: Uint8Array<ArrayBuffer>,
): Promise<{ download: Measure; upload: Measure }> {
  const api = await startApi({
    S3_PRESIGNED_DOWNLOADS: String(direct),
    S3_PRESIGNED_UPLOADS: String(direct),
  });
  const pid = api.pid ?? 0;
  try {
    const key = await account();
    const auth = { Authorization: `Bearer ${key}` };
    const model = await json(
      await fetch(`${BASE}/api/v1/hub/models`, {
        method: "POST",
        headers: { ...auth, "Content-Type": "application/json" },
        body: JSON.stringify({ name: `Bench ${direct}` }),
      }),
    );
    const file = await json(
      await fetch(`${BASE}/api/v1/hub/models/${model.id}/files?path=weights.bin`, {
        method: "POST",
        headers: { ...auth, "Content-Type": "application/octet-stream" },
        body: data,
      }),
    );
    await json(
      await fetch(`${BASE}/api/v1/hub/models/${model.id}/finalize`, { method: "POST", headers: auth }),
    );
    const digest = createHash("sha256").update(data).digest("hex");

    const download: Measure = await measure(pid, async () => {
      let through = 0;
      for (let i = 0; i < ROUNDS; i++) {
        const link = await json(
          await fetch(`${BASE}/api/v1/hub/models/${model.id}/download`, {
            method: "POST",
            headers: { ...auth, "Content-Type": "application/json" },
            body: JSON.stringify({ file_id: file.id }),
          }),
        );
        const first = await fetch(`${BASE}${link.url}`, { redirect: "manual" });
        const body = new Uint8Array(await first.arrayBuffer());
        through += body.byteLength;
        const bytes =
          first.status === 302
            ? new Uint8Array(await (await fetch(first.headers.get("location") ?? "")).arrayBuffer())
            : body;
        if (createHash("sha256").update(bytes).digest("hex") !== digest) throw new Error("wrong bytes");
      }
      return through / ROUNDS;
    });
    download.apiCpu /= ROUNDS;
    download.wall /= ROUNDS;

    const version = await json(
      await fetch(`${BASE}/api/v1/models`, {
        method: "POST",
        headers: { ...auth, "Content-Type": "application/json" },
        body: JSON.stringify({ name: `bench-${direct}` }),
      }),
    ).then(async (m) =>
      json(
        await fetch(`${BASE}/api/v1/models/${m.id}/versions`, {
          method: "POST",
          headers: { ...auth, "Content-Type": "application/json" },
          body: "{}",
        }),
      ),
    );
    const upload = await measure(pid, async () => {
      const init = await json(
        await fetch(`${BASE}/api/v1/model-versions/${version.id}/artifacts:initiate`, {
          method: "POST",
          headers: { ...auth, "Content-Type": "application/json" },
          body: JSON.stringify({
            name: "weights.bin",
            size_bytes: data.byteLength,
            sha256: digest,
            direct_upload: direct,
          }),
        }),
      );
      const target = init.upload as { url: string; headers: Record<string, string>; direct: boolean };
      const put = await fetch(target.url, { method: "PUT", headers: target.headers, body: data });
      await put.arrayBuffer();
      if (!put.ok) throw new Error(`PUT ${put.status}`);
      await json(
        await fetch(`${BASE}/api/v1/model-versions/${version.id}/artifacts/${init.artifact_id}/complete`, {
          method: "POST",
          headers: auth,
        }),
      );
      return target.direct ? 0 : data.byteLength;
    });
    return { download, upload };
  } finally {
    await stopApi(api);
  }
}

async function main(): Promise<void> {
  const s3 = await startS3Server();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "layerline-direct-bench-"));
  Object.assign(process.env, s3.env, {
    DATA_DIR: dataDir,
    BLOB_CACHE_DIR: path.join(dataDir, "cache"),
    DEFAULT_PLAN: "team",
    RATE_LIMIT_PER_MINUTE: "100000",
  });
  delete process.env.DATABASE_URL;
  try {
    const data = new Uint8Array(randomBytes(SIZE));
    const through = await phase(false, data);
    const direct = await phase(true, data);
    const mb = (n: number) => `${(n / MB).toFixed(1)} MB`;
    const row = (what: string, base: Measure, d: Measure) =>
      console.log(
        `${what.padEnd(22)} API bytes ${mb(base.apiBytes).padStart(8)} → ${mb(d.apiBytes).padStart(8)}   ` +
          `API CPU ${base.apiCpu.toFixed(2)} s → ${d.apiCpu.toFixed(2)} s (×${(d.apiCpu / base.apiCpu).toFixed(2)})   ` +
          `client wall ${base.wall.toFixed(2)} s → ${d.wall.toFixed(2)} s (×${(d.wall / base.wall).toFixed(2)})`,
      );
    console.log(`${SIZE / MB} MB file; through the API (baseline) → direct to the bucket`);
    row(`download (×${ROUNDS}, per file)`, through.download, direct.download);
    row("registry upload", through.upload, direct.upload);
    console.log(
      "(a direct upload's complete reads the object back once to check its SHA-256: API CPU above)",
    );
  } finally {
    await s3.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
