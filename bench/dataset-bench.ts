/**
 * Dataset benchmark (run by hand: `npx tsx bench/dataset-bench.ts`). Prints:
 *   1. the time to detect and profile a generated 1,000,000-row CSV (DuckDB);
 *   2. a multipart upload of a large generated CSV (DATASET_BENCH_MB, default 200) to an in-process app:
 *      throughput (MB/s) end to end and for the streaming part, and peak RSS above idle, both while
 *      the file streams to disk and over the whole request (which includes profiling);
 *   3. paging through that upload (GET /datasets/{id}/rows): the first page, a page at the end read from
 *      the file, the background Parquet copy (time, peak RSS above idle), the same page and a page of
 *      100,000 values of one column read from the copy.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { eq } from "drizzle-orm";

const MB = 1024 * 1024;
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "dataset-bench-"));
process.env.BLOB_DIR = path.join(tmp, "blobs");
process.env.RATE_LIMIT_PER_MINUTE = "100000";

const { createApp } = await import("../lib/server/app");
const { openDb, setDb, closeDb } = await import("../lib/server/db/client");
const { users } = await import("../lib/server/db/schema");
const { detectFormat } = await import("../lib/server/modules/datasets/detect-format");
const { profileFile } = await import("../lib/server/modules/datasets/profile");

const CITIES = ["Oslo", "Lima", "Pune", "Kyiv", "Rome", "Nice", "Perth", "Cork", "Accra", "Quito"];

/** Writes rows of a mixed-type CSV until `rows` rows or `bytes` bytes are written. */
async function writeCsv(
  file: string,
  limit: { rows?: number; bytes?: number },
): Promise<{ rows: number; bytes: number }> {
  const out = fs.createWriteStream(file);
  let bytes = 0;
  let rows = 0;
  const header = "id,age,income,score,city,segment,signup_date,active\n";
  out.write(header);
  bytes += header.length;
  let buf = "";
  for (;;) {
    if (limit.rows !== undefined && rows >= limit.rows) break;
    const i = rows;
    const row = `${i},${18 + ((i * 7) % 60)},${((i * 7919) % 100000) + 0.25},${((i * 31) % 1000) / 1000},${CITIES[i % 10]},s${i % 37},2024-${String((i % 12) + 1).padStart(2, "0")}-${String((i % 28) + 1).padStart(2, "0")},${i % 3 === 0}\n`;
    // At most `bytes` (rows are ASCII): a 500 MB file is exactly at the cap, not one row over it.
    if (limit.bytes !== undefined && bytes + buf.length + row.length > limit.bytes) break;
    buf += row;
    rows += 1;
    if (buf.length > MB) {
      bytes += buf.length;
      if (!out.write(buf)) await new Promise<void>((r) => out.once("drain", () => r()));
      buf = "";
    }
  }
  bytes += buf.length;
  out.write(buf);
  await new Promise<void>((resolve) => out.end(resolve));
  return { rows, bytes: fs.statSync(file).size };
}

function fmt(n: number, digits = 1): string {
  return n.toFixed(digits);
}

async function benchProfile(): Promise<void> {
  const file = path.join(tmp, "million.csv");
  const { rows, bytes } = await writeCsv(file, { rows: 1_000_000 });
  const t0 = performance.now();
  const detected = await detectFormat(file, "million.csv");
  const t1 = performance.now();
  const { profile } = await profileFile(file, detected);
  const t2 = performance.now();
  console.log(
    `profile: ${rows.toLocaleString("en")} rows, ${fmt(bytes / MB)} MB, ${profile.columns.length} columns: ` +
      `detect ${fmt(t1 - t0, 0)} ms + profile ${fmt(t2 - t1, 0)} ms = ${fmt((t2 - t0) / 1000, 2)} s`,
  );
  fs.rmSync(file);
}

/** RSS samples every 20 ms; also records when the stored file reached its full size. */
function sampler(blobDir: string, fileBytes: number) {
  let peak = 0;
  let peakWhileStreaming = 0;
  let streamedAt: number | null = null;
  const started = performance.now();
  const stored = () => {
    const dir = path.join(blobDir, "datasets");
    if (!fs.existsSync(dir)) return 0;
    let total = 0;
    for (const f of fs.readdirSync(dir))
      total = Math.max(total, fs.statSync(path.join(dir, f), { throwIfNoEntry: false })?.size ?? 0);
    return total;
  };
  const timer = setInterval(() => {
    const rss = process.memoryUsage().rss;
    peak = Math.max(peak, rss);
    if (streamedAt === null) {
      peakWhileStreaming = Math.max(peakWhileStreaming, rss);
      if (stored() >= fileBytes) streamedAt = performance.now() - started;
    }
  }, 20);
  return {
    stop: () => {
      clearInterval(timer);
      return { peak, peakWhileStreaming, streamedMs: streamedAt };
    },
  };
}

async function benchUpload(): Promise<void> {
  const targetMb = Number(process.env.DATASET_BENCH_MB ?? 200);
  const file = path.join(tmp, "large.csv");
  const { rows, bytes } = await writeCsv(file, { bytes: targetMb * MB });

  setDb(await openDb({ kind: "pglite-memory" }));
  const app = createApp();
  const signup = await app.request("/api/auth/signup", {
    method: "POST",
    headers: { "Content-Type": "application/json", Host: "localhost" },
    body: JSON.stringify({
      email: "bench@example.com",
      username: "bench",
      password: "correct horse battery",
    }),
  });
  const cookie = (signup.headers.get("set-cookie") ?? "").split(";")[0];
  const keyRes = await app.request("/api/v1/users/me/api-keys", {
    method: "POST",
    headers: {
      "Content-Type": "application/json",
      Cookie: cookie,
      Origin: "http://localhost",
      Host: "localhost",
    },
    body: JSON.stringify({ name: "bench" }),
  });
  const { key } = (await keyRes.json()) as { key: string };
  const { getDb } = await import("../lib/server/db/client");
  await (await getDb()).update(users).set({ plan: "pro" }).where(eq(users.username, "bench")); // 500 MB per file

  const boundary = "----layerline-bench";
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="name"\r\n\r\nBench\r\n` +
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="large.csv"\r\nContent-Type: text/csv\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  async function* body() {
    yield head;
    for await (const chunk of fs.createReadStream(file, { highWaterMark: 256 * 1024 })) yield chunk as Buffer;
    yield tail;
  }

  if (!global.gc)
    console.log(
      "note: without NODE_OPTIONS=--expose-gc the idle RSS still holds the generated file's garbage, " +
        "so 'above idle' figures read low",
    );
  global.gc?.();
  await new Promise((r) => setTimeout(r, 200));
  const idle = process.memoryUsage().rss;
  const s = sampler(process.env.BLOB_DIR as string, bytes);
  const t0 = performance.now();
  const res = await app.request("/api/v1/datasets/", {
    method: "POST",
    headers: {
      Authorization: `Bearer ${key}`,
      "Content-Type": `multipart/form-data; boundary=${boundary}`,
      "Content-Length": String(head.length + bytes + tail.length),
      Host: "localhost",
    },
    body: Readable.toWeb(Readable.from(body())) as ReadableStream<Uint8Array>,
    duplex: "half",
  } as RequestInit);
  const json = (await res.json()) as {
    dataset?: { id: string };
    version?: { id: string; row_count: number; profile: { duration_ms: number } };
    detail?: string;
  };
  const total = performance.now() - t0;
  const { peak, peakWhileStreaming, streamedMs } = s.stop();
  if (res.status !== 201 || !json.version) throw new Error(`upload failed: ${res.status} ${json.detail}`);
  const mb = bytes / MB;
  console.log(
    `upload: ${fmt(mb)} MB (${rows.toLocaleString("en")} rows) in ${fmt(total / 1000, 2)} s end to end ` +
      `= ${fmt(mb / (total / 1000))} MB/s (includes profiling: ${fmt(json.version.profile.duration_ms / 1000, 2)} s)`,
  );
  if (streamedMs !== null)
    console.log(
      `upload: file streamed to disk (hashed, counted) after ${fmt(streamedMs / 1000, 2)} s = ${fmt(mb / (streamedMs / 1000))} MB/s`,
    );
  console.log(
    `upload: peak RSS above idle (${fmt(idle / MB, 0)} MB): ${fmt((peakWhileStreaming - idle) / MB)} MB while streaming, ` +
      `${fmt((peak - idle) / MB)} MB over the whole request (DuckDB profiling included)`,
  );
  if (json.dataset) await benchRows(app, key, json.dataset.id, json.version.id, json.version.row_count);
  const { flushUsage } = await import("../lib/server/modules/account/usage-recorder");
  await flushUsage(await getDb());
  await closeDb();
}

async function benchRows(
  app: ReturnType<typeof createApp>,
  key: string,
  datasetId: string,
  versionId: string,
  rowCount: number,
): Promise<void> {
  const { rowCacheSettled } = await import("../lib/server/modules/datasets/row-cache");
  const page = async (query: string) => {
    const t0 = performance.now();
    const res = await app.request(`/api/v1/datasets/${datasetId}/rows?${query}`, {
      headers: { Authorization: `Bearer ${key}`, Host: "localhost" },
    });
    const body = (await res.json()) as { rows?: unknown[][]; detail?: string };
    if (res.status !== 200 || !body.rows) throw new Error(`rows failed: ${res.status} ${body.detail}`);
    return { ms: performance.now() - t0, rows: body.rows.length };
  };
  const last = Math.max(0, rowCount - 1000);
  const first = await page("offset=0&limit=1000");
  console.log(`rows: first page (1000 rows) in ${fmt(first.ms, 0)} ms`);
  global.gc?.();
  const idle = process.memoryUsage().rss;
  let peak = idle;
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 20);
  const t0 = performance.now();
  const fromFile = await page(`offset=${last}&limit=1000`);
  console.log(
    `rows: last page (offset ${last.toLocaleString("en")}) read from the file in ${fmt(fromFile.ms, 0)} ms`,
  );
  await rowCacheSettled(versionId);
  clearInterval(timer);
  console.log(
    `rows: Parquet copy ready ${fmt((performance.now() - t0) / 1000, 2)} s after the first request; ` +
      `peak RSS above idle (${fmt(idle / MB, 0)} MB) meanwhile: ${fmt((peak - idle) / MB)} MB`,
  );
  const fromCache = await page(`offset=${last}&limit=1000`);
  const mid = await page(`offset=${Math.floor(rowCount / 2)}&limit=1000`);
  const labels = await page(`offset=${Math.max(0, rowCount - 100_000)}&limit=100000&columns=city`);
  console.log(
    `rows: from the copy: last page ${fmt(fromCache.ms, 0)} ms, middle page ${fmt(mid.ms, 0)} ms, ` +
      `${labels.rows.toLocaleString("en")} values of one column ${fmt(labels.ms, 0)} ms`,
  );
}

try {
  // The upload first, so that its idle RSS is not inflated by memory the profiling run left behind.
  await benchUpload();
  await benchProfile();
} finally {
  fs.rmSync(tmp, { recursive: true, force: true });
}
