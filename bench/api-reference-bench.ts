/**
 * The API reference (`/docs/api`): how long until its navigation and its first operation show, in
 * Chromium, against a plain studio page (the sign-in page) measured in the same run.
 *
 *   NEXT_DIST_DIR=.next-b npx next build && NEXT_DIST_DIR=.next-b PORT=3200 npm start   (any built server)
 *   BENCH_BASE_URL=http://localhost:3200 npx tsx bench/api-reference-bench.ts
 *
 * Each run opens a fresh browser context (an empty cache: a first visit), then the reference again
 * in the same context (a return visit, with what the server let the browser cache). Times are from
 * navigation start until the browser paints: the first tag in a navigation (navigation), the first
 * operation of the first tag's heading (first operation), and the interactive reference's first
 * "Test Request" button (interactive), and on the plain page its "Sign in" button, each measured in
 * the page the same way. BENCH_RUNS (default 5) runs, medians, with the ratio to the plain page. CHROMIUM_PATH (default /usr/bin/chromium). Also checks that the
 * hosted-only buttons ("Ask AI", "Open API Client") are absent (exit code 1 otherwise) and counts
 * the requests for the OpenAPI document (one expected).
 */
import { type Browser, chromium, type Page } from "@playwright/test";

const BASE = (process.env.BENCH_BASE_URL ?? "http://localhost:3200").replace(/\/$/, "");
const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const DOCUMENT = "/api/v1/openapi.json";

interface OpenApi {
  tags?: { name: string }[];
  paths: Record<string, Record<string, { summary?: string; tags?: string[] }>>;
}

interface First {
  tag: string;
  summary: string;
}

type Mark = "navigation" | "operation" | "interactive";
const MARKS: Mark[] = ["navigation", "operation", "interactive"];

interface Visit extends Record<Mark, number> {
  documentRequests: number;
  hostedButtons: number;
}

/** The first tag (in the document's tag order) that has operations, and its first operation's summary. */
async function firstOperation(): Promise<First> {
  const doc = (await (await fetch(`${BASE}${DOCUMENT}`)).json()) as OpenApi;
  const ops = Object.values(doc.paths).flatMap((item) => Object.values(item));
  for (const { name } of doc.tags ?? []) {
    const op = ops.find((o) => o.tags?.includes(name) && o.summary);
    if (op?.summary) return { tag: name, summary: op.summary };
  }
  throw new Error("The document has no tagged operation with a summary.");
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

/** What a mark waits for: an element matching `selector` whose text is `text` (or matches `pattern`). */
interface Watch {
  name: string;
  selector: string;
  text?: string;
  pattern?: string;
}

/**
 * Runs in the page before its own scripts: on every animation frame (just before the browser
 * paints) it looks for each watched element and records when it is first shown (a box of its own,
 * not hidden), by the page's clock from navigation start. A frame that a long script delays is
 * recorded late, when it is painted. The plain page is measured the same way.
 */
function watchFirstPaint(watches: Watch[]) {
  const times: Record<string, number> = {};
  (window as unknown as { __paintTimes: Record<string, number> }).__paintTimes = times;
  const shown = (e: Element) => {
    const r = e.getBoundingClientRect();
    return r.width > 0 && r.height > 0 && getComputedStyle(e).visibility !== "hidden";
  };
  const matches = (w: Watch, e: Element) => {
    const t = e.textContent?.trim() ?? "";
    return w.text !== undefined ? t === w.text : new RegExp(w.pattern ?? "").test(t);
  };
  const tick = () => {
    const now = performance.now();
    for (const w of watches) {
      if (times[w.name] !== undefined) continue;
      for (const e of document.querySelectorAll(w.selector))
        if (matches(w, e) && shown(e)) {
          times[w.name] = now;
          break;
        }
    }
    if (Object.keys(times).length < watches.length) requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
}

/** Opens `path` and returns the paint time of each watched element. */
async function paintTimes(page: Page, path: string, watches: Watch[]): Promise<Record<string, number>> {
  // As source text (a transpiler's name helper, if any, defined for the page).
  await page.addInitScript({
    content: `var __name = (f) => f; (${watchFirstPaint.toString()})(${JSON.stringify(watches)});`,
  });
  await page.goto(`${BASE}${path}`, { waitUntil: "commit" });
  const handle = await page.waitForFunction(
    (n) => {
      const t = (window as unknown as { __paintTimes?: Record<string, number> }).__paintTimes;
      return t && Object.keys(t).length === n ? t : null;
    },
    watches.length,
    { timeout: 120_000, polling: 100 },
  );
  return (await handle.jsonValue()) as Record<string, number>;
}

async function visitReference(page: Page, first: First): Promise<Visit> {
  let documentRequests = 0;
  page.on("request", (r) => {
    if (new URL(r.url()).pathname === DOCUMENT) documentRequests++;
  });
  const times = (await paintTimes(page, "/docs/api", [
    { name: "navigation", selector: "nav *, [role=navigation] *", text: first.tag },
    { name: "operation", selector: "h1, h2, h3, h4, h5, h6, [role=heading]", text: first.summary },
    { name: "interactive", selector: "button", pattern: "^Test Request" },
  ])) as Record<Mark, number>;
  const hostedButtons =
    (await page.getByText("Ask AI").count()) + (await page.getByText("Open API Client").count());
  return { ...times, documentRequests, hostedButtons };
}

/** The plain page: navigation start until its sign-in button is painted. */
async function visitPlain(page: Page): Promise<number> {
  const t = await paintTimes(page, "/login", [{ name: "button", selector: "button", text: "Sign in" }]);
  return t.button;
}

async function main() {
  const first = await firstOperation();
  const browser: Browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
  });
  const plain: number[] = [];
  const cold: Visit[] = [];
  const warm: Visit[] = [];
  try {
    // One warm-up of each page (the server's first answer of each route is not measured).
    const ctx = await browser.newContext();
    await visitPlain(await ctx.newPage());
    await visitReference(await ctx.newPage(), first);
    await ctx.close();
    for (let i = 0; i < RUNS; i++) {
      const run = await browser.newContext();
      plain.push(await visitPlain(await run.newPage()));
      cold.push(await visitReference(await run.newPage(), first));
      warm.push(await visitReference(await run.newPage(), first));
      await run.close();
    }
  } finally {
    await browser.close();
  }
  const base = median(plain);
  const fmt = (ms: number) => `${(ms / 1000).toFixed(2)} s (${(ms / base).toFixed(1)}×)`;
  const row = (label: string, visits: Visit[]) =>
    `${label.padEnd(26)} ${MARKS.map((m) => `${m} ${fmt(median(visits.map((v) => v[m])))}`).join(", ")}; ` +
    `document requests ${Math.max(...visits.map((v) => v.documentRequests))}`;
  console.log(`API reference at ${BASE}/docs/api, ${RUNS} runs (medians; × the plain page)`);
  console.log(`first tag “${first.tag}”, first operation “${first.summary}”`);
  console.log(`${"plain page (/login)".padEnd(26)} ${(base / 1000).toFixed(2)} s`);
  console.log(row("reference, first visit", cold));
  console.log(row("reference, return visit", warm));
  const hosted = Math.max(...cold.map((v) => v.hostedButtons));
  console.log(`hosted-only buttons shown: ${hosted}`);
  if (hosted > 0) process.exitCode = 1;
}

await main();
