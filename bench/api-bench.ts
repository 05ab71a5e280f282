/**
 * API platform benchmark (run by hand: `npx tsx bench/api-bench.ts`, after `npm run build`).
 * Prints: cold start of the production server (spawn → /health 200), and requests/second of
 * GET /api/v1/users/me/credits through the whole stack (Next.js → Hono → credentials → rate limit →
 * service → PGlite) against a bare Hono handler on node:http doing the same credits query on PGlite.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { serve } from "@hono/node-server";
import autocannon from "autocannon";
import { Hono } from "hono";
import { openDb } from "../lib/server/db/client";
import { users } from "../lib/server/db/schema";
import { creditBalance, grantCredits } from "../lib/server/modules/account/credits";

const DURATION = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);

async function waitFor(url: string, timeoutMs: number): Promise<number> {
  const t0 = performance.now();
  while (performance.now() - t0 < timeoutMs) {
    try {
      const r = await fetch(url);
      if (r.ok) return performance.now() - t0;
    } catch {
      /* not up yet */
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`${url} did not come up`);
}

async function load(url: string, headers: Record<string, string>) {
  const result = await autocannon({ url, headers, duration: DURATION, connections: CONNECTIONS });
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx,
  };
}

async function benchFullStack() {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "layerline-bench-"));
  const port = 3300;
  const t0 = performance.now();
  const server = spawn("npx", ["next", "start", "-p", String(port)], {
    env: {
      ...process.env,
      DATA_DIR: dataDir,
      NEXT_TELEMETRY_DISABLED: "1",
      RATE_LIMIT_PER_MINUTE: "100000000",
    },
    stdio: "ignore",
    detached: true,
  });
  try {
    await waitFor(`http://localhost:${port}/health`, 60_000);
    const coldStartMs = performance.now() - t0;
    const base = `http://localhost:${port}`;
    const signup = await fetch(`${base}/api/auth/signup`, {
      method: "POST",
      headers: { "Content-Type": "application/json", Origin: base },
      body: JSON.stringify({ email: "bench@example.com", username: "bench", password: "bench-password" }),
    });
    const cookie = (signup.headers.get("set-cookie") ?? "").split(";")[0];
    const keyRes = await fetch(`${base}/api/v1/users/me/api-keys`, {
      method: "POST",
      headers: { "Content-Type": "application/json", Origin: base, Cookie: cookie },
      body: JSON.stringify({ name: "bench" }),
    });
    const { key } = (await keyRes.json()) as { key: string };
    await load(`${base}/api/v1/users/me/credits`, { Authorization: `Bearer ${key}` }); // warm-up
    const full = await load(`${base}/api/v1/users/me/credits`, { Authorization: `Bearer ${key}` });
    return { coldStartMs, full };
  } finally {
    if (server.pid) process.kill(-server.pid, "SIGTERM");
    await new Promise((r) => setTimeout(r, 500));
    rmSync(dataDir, { recursive: true, force: true });
  }
}

async function benchBareHono() {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "layerline-bench-bare-"));
  const open = await openDb({ kind: "pglite", dir: dataDir });
  await open.db
    .insert(users)
    .values({ id: "usr_bench", email: "b@example.com", username: "b", passwordHash: "x" });
  await grantCredits(open.db, "usr_bench", 100, "Welcome credits");
  const app = new Hono().get("/credits", async (c) =>
    c.json({ balance: await creditBalance(open.db, "usr_bench") }),
  );
  const server = serve({ fetch: app.fetch, port: 3301 });
  try {
    await load("http://localhost:3301/credits", {});
    return await load("http://localhost:3301/credits", {});
  } finally {
    server.close();
    await open.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const { coldStartMs, full } = await benchFullStack();
const bare = await benchBareHono();
console.log(`cold start (spawn → /health 200): ${(coldStartMs / 1000).toFixed(2)} s`);
console.log(
  `GET /api/v1/users/me/credits, full stack: ${full.rps.toFixed(0)} req/s (p50 ${full.p50} ms, p99 ${full.p99} ms, non-2xx ${full.non2xx})`,
);
console.log(
  `bare Hono handler, same query:       ${bare.rps.toFixed(0)} req/s (p50 ${bare.p50} ms, p99 ${bare.p99} ms)`,
);
console.log(
  `ratio full/bare: ${(full.rps / bare.rps).toFixed(2)} (${CONNECTIONS} connections, ${DURATION} s each)`,
);
process.exit(0);
