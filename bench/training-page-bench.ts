/**
 * The job page's first paint with a 1,000,000-point series, against a 1,000-point baseline measured
 * in the same run, and own-hardware ingestion through the whole HTTP stack.
 *
 *   npx next build && PORT=3200 npx next start -p 3200      (any running built server)
 *   BENCH_BASE_URL=http://localhost:3200 npx tsx bench/training-page-bench.ts [points]
 *
 * Seeds a user, a project and two external jobs through the API; uploads each job's `loss` series
 * with its upload token in requests of 1,000 events (timed: events/s end to end), marks the jobs
 * succeeded, then opens each job page in Chromium (CHROMIUM_PATH, default /usr/bin/chromium) several
 * times and reports the time from navigation start until the loss chart has drawn its line.
 */
import { randomBytes } from "node:crypto";
import { chromium } from "@playwright/test";

const BASE = (process.env.BENCH_BASE_URL ?? "http://localhost:3200").replace(/\/$/, "");
const POINTS = Number(process.argv[2] ?? 1_000_000);
const BASELINE_POINTS = 1000;
const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const BATCH = 1000;

async function json(res: Response) {
  const text = await res.text();
  if (!res.ok) throw new Error(`${res.status} ${text}`);
  return text ? JSON.parse(text) : null;
}

async function signUp() {
  const username = `bench${randomBytes(4).toString("hex")}`;
  const res = await fetch(`${BASE}/api/auth/signup`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Origin: BASE },
    body: JSON.stringify({ username, email: `${username}@example.com`, password: "correct horse battery" }),
  });
  await json(res.clone());
  return res.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
}

function client(cookie: string) {
  return async (method: string, path: string, body?: unknown) =>
    json(
      await fetch(`${BASE}${path}`, {
        method,
        headers: { "Content-Type": "application/json", Origin: BASE, Cookie: cookie },
        body: body === undefined ? undefined : JSON.stringify(body),
      }),
    );
}

async function seedJob(call: ReturnType<typeof client>, projectId: string, points: number) {
  const job = await call("POST", "/api/v1/training/jobs", {
    project_id: projectId,
    dataset_id: "builtin-iris",
    runtime: "external",
    name: `${points.toLocaleString("en")} points`,
  });
  const { token } = await call("POST", `/api/v1/training/jobs/${job.id}/stream-token`);
  const upload = async (events: unknown[]) =>
    json(
      await fetch(`${BASE}/api/v1/training/jobs/${job.id}/metrics/events`, {
        method: "POST",
        headers: { "Content-Type": "application/json", Authorization: `Bearer ${token}` },
        body: JSON.stringify({ events }),
      }),
    );
  const started = performance.now();
  for (let from = 1; from <= points; from += BATCH) {
    const events = [];
    for (let step = from; step < Math.min(from + BATCH, points + 1); step++) {
      // A noisy decaying loss, like a real run's.
      const value = 2 / Math.sqrt(step) + 0.05 * Math.sin(step / 7) + 0.01 * ((step * 7919) % 13);
      events.push({ kind: "metric", name: "loss", value, step });
    }
    await upload(events);
  }
  const seconds = (performance.now() - started) / 1000;
  await upload([{ kind: "status", status: "succeeded" }]);
  return { id: job.id as string, eventsPerSecond: points / seconds, seconds };
}

async function firstPaint(cookie: string, jobId: string, runs: number): Promise<number[]> {
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--no-first-run",
    ],
  });
  const url = new URL(BASE);
  const times: number[] = [];
  try {
    for (let i = 0; i < runs; i++) {
      const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
      await context.addCookies(
        cookie.split("; ").map((pair) => {
          const [name, ...rest] = pair.split("=");
          return { name, value: rest.join("="), domain: url.hostname, path: "/" };
        }),
      );
      const page = await context.newPage();
      await page.goto(`${BASE}/training/${jobId}`, { waitUntil: "commit" });
      await page
        .locator('[data-testid="metric-chart"] .recharts-line-curve')
        .first()
        .waitFor({ state: "attached", timeout: 60_000 });
      times.push(await page.evaluate(() => performance.now()));
      await context.close();
    }
  } finally {
    await browser.close();
  }
  return times;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function main() {
  const cookie = await signUp();
  const call = client(cookie);
  const project = await call("POST", "/api/v1/projects", { name: "Page bench", template: "mlp-classifier" });
  const small = await seedJob(call, project.id, BASELINE_POINTS);
  const big = await seedJob(call, project.id, POINTS);
  console.log(
    `ingestion through HTTP (upload token, 1,000 events a request): ${Math.round(big.eventsPerSecond).toLocaleString("en")} events/s (${POINTS.toLocaleString("en")} events in ${big.seconds.toFixed(1)} s)`,
  );
  // Warm the server's routes and the browser's caches once.
  await firstPaint(cookie, small.id, 1);
  const base = await firstPaint(cookie, small.id, RUNS);
  const heavy = await firstPaint(cookie, big.id, RUNS);
  const fmt = (xs: number[]) =>
    `median ${median(xs).toFixed(0)} ms (min ${Math.min(...xs).toFixed(0)}, max ${Math.max(...xs).toFixed(0)})`;
  console.log(`job page, loss chart drawn, ${BASELINE_POINTS.toLocaleString("en")} points: ${fmt(base)}`);
  console.log(`job page, loss chart drawn, ${POINTS.toLocaleString("en")} points: ${fmt(heavy)}`);
  console.log(`ratio: ${(median(heavy) / median(base)).toFixed(2)}×`);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
