/**
 * Editor frame rate while dragging a node, on big diagrams.
 *
 *   npx next build && npx next start -p 3200       (any running built server)
 *   BENCH_BASE_URL=http://localhost:3200 npx tsx bench/editor-fps.ts [sizes…]
 *   BENCH_PROFILE=1 … also writes each drag's CPU profile to bench/out/*.cpuprofile
 *
 * Seeds a user and one project per size (default 500, 1,000 and 5,000 layers: lib/ml's syntheticGraph,
 * its chain wrapped into columns so that the whole diagram fits on screen at once: the worst case)
 * through the API, opens each in Chromium (CHROMIUM_PATH, default /usr/bin/chromium) and counts
 * requestAnimationFrame callbacks while the mouse drags a node for a few seconds, twice: with the
 * whole diagram fitted in view (above 500 layers that is the canvas overview; below, every node in
 * the DOM) and zoomed in to 100% (only what is on screen rendered). Checks through the API that the
 * dragged node really moved, and prints frames per second and frame-time percentiles.
 *
 * Open time: from navigation start until the diagram is fitted and shown, in a fresh browser context
 * (nothing cached), with where the time went: the page's HTML (server), its scripts, the project's
 * data, the diagram. The first page a server renders after it starts also pays the server's own
 * start-up (loading the page's server code): run the bench twice to see both. BENCH_OPENS=n (default
 * 1) opens each project n times, each in a fresh context, and prints every open and the median.
 *
 * Against a baseline in the same run (another build of the app, say main's, on another port):
 *   BENCH_BASELINE_URL=http://localhost:3201 BENCH_OPENS=9 BENCH_BASE_URL=… npx tsx bench/editor-fps.ts 10 5000
 * opens only (no drags), alternating baseline and this build, and prints both medians, their ratio
 * and the page's main-thread work until shown (less sensitive to a busy machine than the clock).
 */
import { randomBytes } from "node:crypto";
import { type Browser, type BrowserContext, type CDPSession, chromium, type Page } from "@playwright/test";
import { syntheticGraph } from "../lib/ml/graph-builder";
import type { ArchitectureGraph } from "../lib/ml/graph-types";

const BASE = (process.env.BENCH_BASE_URL ?? process.env.E2E_BASE_URL ?? "http://localhost:3200").replace(
  /\/$/,
  "",
);
const SIZES = process.argv.slice(2).map(Number).filter(Boolean);
const DRAG_MS = Number(process.env.BENCH_DRAG_MS ?? 4000);
const OPENS = Math.max(1, Number(process.env.BENCH_OPENS ?? 1));

async function signUp(base = BASE): Promise<string> {
  const username = `bench${randomBytes(4).toString("hex")}`;
  const res = await fetch(`${base}/api/auth/signup`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Origin: base },
    body: JSON.stringify({ username, email: `${username}@example.com`, password: "correct horse battery" }),
  });
  if (res.status !== 201) throw new Error(`signup: ${res.status} ${await res.text()}`);
  const cookie = res.headers.getSetCookie().map((c) => c.split(";")[0]);
  return cookie.join("; ");
}

/**
 * Nodes in graph order, top to bottom in columns of `rows` (elkjs's layered layout overflows its
 * stack on a chain thousands of layers deep, and a single column would not fit on any screen).
 */
function wrapInColumns(graph: ArchitectureGraph, rows: number): ArchitectureGraph {
  return {
    ...graph,
    nodes: graph.nodes.map((n, i) => ({
      ...n,
      position: { x: Math.floor(i / rows) * 260, y: (i % rows) * 120 },
    })),
  };
}

async function seed(cookie: string, size: number, base = BASE): Promise<{ id: string; positions: Point[] }> {
  const { graph } = syntheticGraph(size);
  const laid = wrapInColumns(graph, Math.ceil(Math.sqrt(size * 1.3)));
  const res = await fetch(`${base}/api/v1/projects`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Origin: base, Cookie: cookie },
    body: JSON.stringify({ name: `Bench ${size} layers`, graph: laid }),
  });
  if (res.status !== 201) throw new Error(`create: ${res.status} ${await res.text()}`);
  return { id: ((await res.json()) as { id: string }).id, positions: laid.nodes.map((n) => n.position) };
}

interface Measure {
  /** Seconds of main-thread work during the drag, from the DevTools protocol's Performance metrics. */
  script: number;
  styleLayout: number;
  fps: number;
  p50: number;
  p95: number;
  max: number;
  longFrames: number;
  renderedNodes: number;
  /** Drawn as the canvas overview rather than DOM nodes. */
  overview: boolean;
  moves: number;
  /** Which node was dragged (index into the seeded positions). */
  target: number;
}

const sessions = new WeakMap<Page, CDPSession>();

/** Main-thread counters (ScriptDuration, LayoutDuration…) of the DevTools protocol, in seconds. */
async function metrics(page: Page): Promise<Record<string, number>> {
  let cdp = sessions.get(page);
  if (!cdp) {
    cdp = await page.context().newCDPSession(page);
    await cdp.send("Performance.enable");
    sessions.set(page, cdp);
  }
  const { metrics } = await cdp.send("Performance.getMetrics");
  return Object.fromEntries(metrics.map((m) => [m.name, m.value]));
}

type Point = { x: number; y: number };

/** With BENCH_PROFILE=1, each drag's main-thread CPU profile goes to bench/out/ (open it in DevTools). */
const PROFILE = process.env.BENCH_PROFILE === "1";

async function saveProfile(page: Page, name: string): Promise<void> {
  const cdp = sessions.get(page);
  if (!cdp) return;
  const { profile } = await cdp.send("Profiler.stop");
  const { mkdir, writeFile } = await import("node:fs/promises");
  await mkdir("bench/out", { recursive: true });
  await writeFile(`bench/out/${name}.cpuprofile`, JSON.stringify(profile));
}

async function measureDrag(page: Page, positions: readonly Point[], name: string): Promise<Measure> {
  // The node nearest the middle of the canvas, found from the viewport transform and the positions
  // the bench laid out (big diagrams zoomed out are drawn on a canvas: there is no node element).
  const target = await page.evaluate((positions) => {
    const pane = document.querySelector(".react-flow")?.getBoundingClientRect();
    const t = document.querySelector<HTMLElement>(".react-flow__viewport")?.style.transform ?? "";
    const m = /translate\(([-\d.]+)px, ?([-\d.]+)px\) scale\(([\d.]+)\)/.exec(t);
    if (!pane || !m) return null;
    const [tx, ty, zoom] = [Number(m[1]), Number(m[2]), Number(m[3])];
    const cx = pane.left + pane.width / 2;
    const cy = pane.top + pane.height / 2;
    let best: { x: number; y: number; d: number; index: number } | null = null;
    for (const [index, p] of positions.entries()) {
      // The middle of the 200 × 78 node.
      const x = pane.left + tx + (p.x + 100) * zoom;
      const y = pane.top + ty + (p.y + 39) * zoom;
      const d = (x - cx) ** 2 + (y - cy) ** 2;
      if (!best || d < best.d) best = { x, y, d, index };
    }
    return best;
  }, positions);
  if (!target) throw new Error("no node on screen");
  await page.evaluate(() => {
    const w = window as unknown as { __frames: number[]; __run: boolean };
    w.__frames = [];
    w.__run = true;
    const loop = (t: number) => {
      if (!w.__run) return;
      w.__frames.push(t);
      requestAnimationFrame(loop);
    };
    requestAnimationFrame(loop);
  });
  const viewportTransform = () =>
    page.evaluate(() => document.querySelector<HTMLElement>(".react-flow__viewport")?.style.transform);
  const transformBefore = await viewportTransform();
  const before = await metrics(page);
  if (PROFILE) {
    const cdp = sessions.get(page);
    await cdp?.send("Profiler.enable");
    await cdp?.send("Profiler.start");
  }
  await page.mouse.move(target.x, target.y);
  await page.mouse.down();
  const start = Date.now();
  let moves = 0;
  while (Date.now() - start < DRAG_MS) {
    const t = (Date.now() - start) / 1000;
    await page.mouse.move(target.x + Math.sin(t * 3) * 120, target.y + Math.sin(t * 2) * 80);
    moves++;
  }
  await page.mouse.up();
  const after = await metrics(page);
  if (PROFILE) await saveProfile(page, name);
  if ((await viewportTransform()) !== transformBefore)
    throw new Error("the drag missed the node: the canvas panned instead");
  const delta = (k: string) => (after[k] ?? 0) - (before[k] ?? 0);
  const { frames, renderedNodes, overview } = await page.evaluate(() => {
    const w = window as unknown as { __frames: number[]; __run: boolean };
    w.__run = false;
    return {
      frames: w.__frames,
      renderedNodes: document.querySelectorAll(".react-flow__node").length,
      overview: Boolean(document.querySelector("[data-testid=diagram-overview]")),
    };
  });
  const deltas = frames.slice(1).map((t, i) => t - frames[i]);
  const sorted = [...deltas].sort((a, b) => a - b);
  const pct = (p: number) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? 0;
  const seconds = (frames[frames.length - 1] - frames[0]) / 1000;
  return {
    script: delta("ScriptDuration"),
    styleLayout: delta("RecalcStyleDuration") + delta("LayoutDuration"),
    fps: (frames.length - 1) / seconds,
    p50: pct(0.5),
    p95: pct(0.95),
    max: sorted[sorted.length - 1] ?? 0,
    longFrames: deltas.filter((d) => d > 50).length,
    renderedNodes,
    overview,
    moves,
    target: target.index,
  };
}

/** The dragged node must have moved in the saved project (autosave): the drag really edited the diagram. */
async function assertMoved(cookie: string, id: string, index: number, from: Point): Promise<Point> {
  for (let i = 0; i < 40; i++) {
    const res = await fetch(`${BASE}/api/v1/projects/${id}`, { headers: { Cookie: cookie } });
    const project = (await res.json()) as { graph: ArchitectureGraph };
    const now = project.graph.nodes[index].position;
    if (now.x !== from.x || now.y !== from.y) return now;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error("the dragged node did not move in the saved project");
}

/** Milliseconds from navigation start, read in the page once the diagram is shown. */
interface OpenTiming {
  /** The diagram fitted and shown (the canvas stays transparent until then). */
  shown: number;
  /** The page's HTML received (server render). */
  html: number;
  /** The last of the page's first scripts received. */
  scripts: number;
  /** The project's data requested by the page's script (NaN: it came with the page's HTML). */
  requested: number;
  /** The project's data received (NaN: it came with the page's HTML). */
  data: number;
  scriptKb: number;
  /**
   * Milliseconds of the page's main-thread work until shown (the DevTools protocol's TaskDuration),
   * and of it running scripts: the browser's share of the open, less sensitive than the wall clock to
   * a busy machine.
   */
  cpuTask: number;
  cpuScript: number;
}

/** Records when the diagram is first shown, checked every frame from the page's first script on. */
const SHOWN_PROBE = `(() => {
  const check = () => {
    const flow = document.querySelector(".react-flow");
    if (flow && (document.querySelector(".react-flow__node") || document.querySelector("[data-testid=diagram-overview]")) && !flow.classList.contains("opacity-0")) {
      window.__shownAt = performance.now();
      return;
    }
    requestAnimationFrame(check);
  };
  requestAnimationFrame(check);
})();`;

async function newBenchContext(browser: Browser, cookie: string, base = BASE): Promise<BrowserContext> {
  const context = await browser.newContext({ viewport: { width: 1600, height: 1000 } });
  // tsx (esbuild keepNames) wraps named functions in __name(); give the page's evaluations that helper.
  await context.addInitScript("window.__name = (fn) => fn;");
  await context.addInitScript(SHOWN_PROBE);
  const [name, value] = cookie.split(";")[0].split("=");
  await context.addCookies([{ name, value, url: base }]);
  return context;
}

async function openEditor(page: Page, id: string, base = BASE): Promise<OpenTiming> {
  const before = await metrics(page);
  await page.goto(`${base}/projects/${id}`);
  await page.waitForFunction(
    () => (window as unknown as { __shownAt?: number }).__shownAt !== undefined,
    undefined,
    {
      timeout: 180_000,
      polling: 100,
    },
  );
  const after = await metrics(page);
  const cpu = {
    task: (after.TaskDuration ?? 0) - (before.TaskDuration ?? 0),
    script: (after.ScriptDuration ?? 0) - (before.ScriptDuration ?? 0),
  };
  const timing = await page.evaluate((id) => {
    const nav = performance.getEntriesByType("navigation")[0] as PerformanceNavigationTiming;
    const resources = performance.getEntriesByType("resource") as PerformanceResourceTiming[];
    const shown = (window as unknown as { __shownAt: number }).__shownAt;
    const scripts = resources.filter(
      (r) => r.initiatorType === "script" && r.startTime < nav.domContentLoadedEventEnd,
    );
    const data = resources.find((r) => new URL(r.name).pathname === `/api/v1/projects/${id}`);
    return {
      shown,
      html: nav.responseEnd,
      scripts: Math.max(0, ...scripts.map((r) => r.responseEnd)),
      requested: data?.startTime ?? Number.NaN,
      data: data?.responseEnd ?? Number.NaN,
      scriptKb: scripts.reduce((sum, r) => sum + r.encodedBodySize, 0) / 1024,
    };
  }, id);
  return { ...timing, cpuTask: cpu.task * 1000, cpuScript: cpu.script * 1000 };
}

function openRow(t: OpenTiming): string {
  const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
  const data = Number.isNaN(t.data)
    ? "project data in the HTML"
    : `project data requested ${s(t.requested)}, received ${s(t.data)}`;
  return `${s(t.shown)} (HTML ${s(t.html)}, scripts ${s(t.scripts)} [${t.scriptKb.toFixed(0)} kB], ${data}, shown ${s(t.shown)}; main thread ${s(t.cpuTask)}, scripts ${s(t.cpuScript)})`;
}

function row(label: string, m: Measure) {
  return `${label.padEnd(26)} ${m.fps.toFixed(1).padStart(6)} fps   p50 ${m.p50.toFixed(1).padStart(6)} ms   p95 ${m.p95
    .toFixed(1)
    .padStart(
      6,
    )} ms   max ${m.max.toFixed(0).padStart(5)} ms   >50ms ${String(m.longFrames).padStart(3)}   ${m.overview ? "canvas overview" : `${String(m.renderedNodes).padStart(5)} DOM nodes`}   pointer moves ${String(m.moves).padStart(3)}   JS ${m.script.toFixed(1)} s, style+layout ${m.styleLayout.toFixed(1)} s`;
}

const median = (xs: readonly number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/**
 * BENCH_BASELINE_URL: open times only, this server against a baseline server (another build, say
 * the main branch's) in the same run: each size is seeded on both, then opened BENCH_OPENS times on
 * each, alternating baseline and this build, each open in a fresh context. Prints every open, the
 * medians and their ratio.
 */
async function compareOpens(browser: Browser, baseline: string, sizes: readonly number[]): Promise<void> {
  const servers = [
    { label: "baseline", base: baseline },
    { label: "this build", base: BASE },
  ];
  const cookies = await Promise.all(servers.map((s) => signUp(s.base)));
  console.log(`Editor open: ${BASE} against the baseline ${baseline}, ${OPENS} opens each, alternating\n`);
  for (const size of sizes) {
    const ids = await Promise.all(servers.map(async (s, i) => (await seed(cookies[i], size, s.base)).id));
    const opens: OpenTiming[][] = servers.map(() => []);
    // A first open on each, not counted: the server's first render of the page after its start.
    for (const [i, s] of servers.entries()) {
      const context = await newBenchContext(browser, cookies[i], s.base);
      await openEditor(await context.newPage(), ids[i], s.base);
      await context.close();
    }
    for (let n = 0; n < OPENS; n++) {
      for (const [i, s] of servers.entries()) {
        const context = await newBenchContext(browser, cookies[i], s.base);
        opens[i].push(await openEditor(await context.newPage(), ids[i], s.base));
        await context.close();
      }
    }
    const medians = opens.map((o) => median(o.map((t) => t.shown)));
    console.log(`${size} layers:`);
    for (const [i, s] of servers.entries()) {
      const middle = [...opens[i]].sort((a, b) => a.shown - b.shown)[Math.floor(OPENS / 2)];
      console.log(
        `  ${s.label.padEnd(11)} median ${(medians[i] / 1000).toFixed(2)} s   opens ${opens[i].map((o) => (o.shown / 1000).toFixed(2)).join(", ")} s`,
      );
      console.log(`  ${"".padEnd(11)} median open: ${openRow(middle)}`);
    }
    const cpu = opens.map((o) => median(o.map((t) => t.cpuTask)));
    console.log(
      `  ratio this build / baseline: ${(medians[1] / medians[0]).toFixed(2)} (main-thread work: median ${(cpu[0] / 1000).toFixed(2)} s → ${(cpu[1] / 1000).toFixed(2)} s, ratio ${(cpu[1] / cpu[0]).toFixed(2)})\n`,
    );
  }
}

async function main() {
  const sizes = SIZES.length > 0 ? SIZES : [500, 1000, 5000];
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    args: ["--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking"],
  });
  const baseline = process.env.BENCH_BASELINE_URL?.replace(/\/$/, "");
  if (baseline) {
    await compareOpens(browser, baseline, sizes);
    await browser.close();
    return;
  }
  const cookie = await signUp();
  console.log(
    `Editor drag frame rate at ${BASE} (Chromium ${browser.version()}, headless, software rendering)\n`,
  );
  for (const size of sizes) {
    const { id, positions } = await seed(cookie, size);
    // Further opens first (BENCH_OPENS), each in a fresh context and closed once shown; then the one
    // whose diagram is dragged.
    const opens: OpenTiming[] = [];
    for (let i = 1; i < OPENS; i++) {
      const extra = await newBenchContext(browser, cookie);
      opens.push(await openEditor(await extra.newPage(), id));
      await extra.close();
    }
    const context = await newBenchContext(browser, cookie);
    const page = await context.newPage();
    // A project without a preview gets one on open: wait for it, so it does not run during the drags.
    const current = await fetch(`${BASE}/api/v1/projects/${id}`, { headers: { Cookie: cookie } });
    const hasPreview = Boolean(((await current.json()) as { thumbnail_url?: string | null }).thumbnail_url);
    const thumbnail = hasPreview
      ? Promise.resolve(null)
      : page
          .waitForResponse((r) => r.url().endsWith("/thumbnail") && r.request().method() === "POST", {
            timeout: 60_000,
          })
          .catch(() => null);
    const open = await openEditor(page, id);
    opens.push(open);
    await thumbnail;
    const fitted = await measureDrag(page, positions, `editor-${size}-fitted`);
    const moved = [...positions];
    moved[fitted.target] = await assertMoved(cookie, id, fitted.target, positions[fitted.target]);
    // Zoom in to 100% around the middle, where people edit.
    const box = await page.locator(".react-flow__pane").boundingBox();
    if (!box) throw new Error("no canvas");
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    for (let i = 0; i < 40; i++) {
      const zoom = await page.evaluate(() => {
        const t = document.querySelector<HTMLElement>(".react-flow__viewport")?.style.transform ?? "";
        return Number(/scale\(([\d.]+)\)/.exec(t)?.[1] ?? 1);
      });
      if (zoom >= 0.95) break;
      await page.mouse.wheel(0, -200);
      await page
        .locator(".react-flow__viewport")
        .evaluate(() => new Promise((r) => requestAnimationFrame(r)));
    }
    const zoomed = await measureDrag(page, moved, `editor-${size}-zoomed`);
    await assertMoved(cookie, id, zoomed.target, moved[zoomed.target]);
    console.log(`${size} layers: editor open ${openRow(open)}`);
    if (opens.length > 1) {
      const sorted = opens.map((o) => o.shown).sort((a, b) => a - b);
      console.log(
        `  ${opens.length} opens, each in a fresh context: ${opens.map((o) => (o.shown / 1000).toFixed(2)).join(", ")} s; median ${(sorted[Math.floor(sorted.length / 2)] / 1000).toFixed(2)} s`,
      );
    }
    console.log(`  ${row("whole diagram in view", fitted)}`);
    console.log(`  ${row("zoomed in to 100%", zoomed)}\n`);
    await context.close();
  }
  await browser.close();
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
