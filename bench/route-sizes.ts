/**
 * The JavaScript each App Router page loads before it can run (its first load), from a production
 * build's own records, and what is in it.
 *
 *   npx next build                       (or `npx next build --analyze` for the modules, see below)
 *   npx tsx bench/route-sizes.ts [--json bench/out/sizes.json] [--compare bench/out/before.json]
 *                                [--modules /projects/[id],/projects/[id]/code] [--top 15]
 *
 * Per route: the first-load JavaScript (every chunk the page's HTML loads: the framework, the root
 * and studio layouts, the page), raw and gzip (each chunk gzipped on its own, as it is served), how
 * much of it every page shares, and the page's own part. Read from `.next/diagnostics/
 * route-bundle-stats.json`, which Next 16 writes on every build (Turbopack); older layouts
 * (`app-build-manifest.json` + `build-manifest.json`, webpack) are read when it is absent.
 *
 * With `--json` the figures are saved; `--compare` prints them against a saved run with ratios.
 *
 * Modules: after `next build --analyze`, Next keeps its bundle analysis (`.next/diagnostics/analyze`);
 * for each route of `--modules` (default: the editor, `/projects/[id]`) this prints the packages
 * and files that make up its first load, its largest first-load chunks with their modules, and what
 * it loads later, on demand (each lazily loaded chunk group with the import that starts it). The
 * analysis compiles the app once more on its own, so its chunk names and splits differ slightly from
 * the build's; its byte counts are uncompressed and per module.
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { gzipSync } from "node:zlib";

const ROOT = process.cwd();
// The build directory: `.next`, or NEXT_DIST_DIR as next.config.js reads it (side-by-side builds).
const NEXT = path.join(ROOT, process.env.NEXT_DIST_DIR || ".next");

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

interface RouteSize {
  route: string;
  raw: number;
  gzip: number;
  /** The part not shared by every page: the page's own code and what only some pages share. */
  ownRaw: number;
  ownGzip: number;
  chunks: string[];
}

interface SizesFile {
  builtAt: string;
  buildId: string;
  shared: { raw: number; gzip: number };
  routes: RouteSize[];
}

const gzipCache = new Map<string, { raw: number; gzip: number }>();

function chunkSize(rel: string): { raw: number; gzip: number } {
  const cached = gzipCache.get(rel);
  if (cached) return cached;
  const file = path.join(ROOT, rel);
  const data = readFileSync(file);
  const size = { raw: data.length, gzip: gzipSync(data).length };
  gzipCache.set(rel, size);
  return size;
}

/** Route → the chunk files (paths relative to the project, `.next/static/chunks/…`) of its first load. */
function firstLoadChunks(): Map<string, string[]> {
  const stats = path.join(NEXT, "diagnostics/route-bundle-stats.json");
  if (existsSync(stats)) {
    const rows = JSON.parse(readFileSync(stats, "utf8")) as {
      route: string;
      firstLoadChunkPaths: string[];
    }[];
    return new Map(rows.map((r) => [r.route, r.firstLoadChunkPaths.filter((p) => p.endsWith(".js"))]));
  }
  // Next 13–15 with webpack: the app pages' own files, plus the files every page loads.
  const appManifest = path.join(NEXT, "app-build-manifest.json");
  if (!existsSync(appManifest)) {
    throw new Error("no build records in .next: run `npx next build` first");
  }
  const app = JSON.parse(readFileSync(appManifest, "utf8")) as { pages: Record<string, string[]> };
  const build = JSON.parse(readFileSync(path.join(NEXT, "build-manifest.json"), "utf8")) as {
    rootMainFiles?: string[];
    polyfillFiles?: string[];
  };
  const root = build.rootMainFiles ?? [];
  const routes = new Map<string, string[]>();
  for (const [entry, files] of Object.entries(app.pages)) {
    if (!entry.endsWith("/page")) continue;
    // "/(studio)/projects/[id]/page" → "/projects/[id]"
    const route = entry.replace(/\/page$/, "").replace(/\/\([^/]+\)/g, "") || "/";
    const js = [...new Set([...root, ...files])].filter((f) => f.endsWith(".js"));
    routes.set(
      route,
      js.map((f) => path.relative(ROOT, path.join(NEXT, f))),
    );
  }
  return routes;
}

function measure(): SizesFile {
  const routes = firstLoadChunks();
  const all = [...routes.values()];
  const sharedChunks = all.length ? all.reduce((acc, c) => acc.filter((x) => c.includes(x))) : [];
  const shared = sharedChunks
    .map(chunkSize)
    .reduce((a, b) => ({ raw: a.raw + b.raw, gzip: a.gzip + b.gzip }), {
      raw: 0,
      gzip: 0,
    });
  const rows: RouteSize[] = [];
  for (const [route, chunks] of routes) {
    let raw = 0;
    let gzip = 0;
    let ownRaw = 0;
    let ownGzip = 0;
    for (const c of chunks) {
      const s = chunkSize(c);
      raw += s.raw;
      gzip += s.gzip;
      if (!sharedChunks.includes(c)) {
        ownRaw += s.raw;
        ownGzip += s.gzip;
      }
    }
    rows.push({ route, raw, gzip, ownRaw, ownGzip, chunks });
  }
  rows.sort((a, b) => a.route.localeCompare(b.route));
  const buildIdFile = path.join(NEXT, "BUILD_ID");
  return {
    builtAt: statSync(buildIdFile).mtime.toISOString(),
    buildId: readFileSync(buildIdFile, "utf8").trim(),
    shared,
    routes: rows,
  };
}

const kb = (n: number) => `${(n / 1024).toFixed(1)} kB`;
const pad = (s: string, n: number) => s.padStart(n);

function printSizes(sizes: SizesFile): void {
  console.log(`First-load JavaScript per route (build ${sizes.buildId}, ${sizes.builtAt})`);
  console.log(
    `shared by every page: ${kb(sizes.shared.raw)} raw, ${kb(sizes.shared.gzip)} gzip (framework, root layout)\n`,
  );
  console.log(
    `${"route".padEnd(34)}${pad("raw", 12)}${pad("gzip", 12)}${pad("own raw", 12)}${pad("own gzip", 12)}${pad("chunks", 8)}`,
  );
  for (const r of sizes.routes) {
    console.log(
      `${r.route.padEnd(34)}${pad(kb(r.raw), 12)}${pad(kb(r.gzip), 12)}${pad(kb(r.ownRaw), 12)}${pad(kb(r.ownGzip), 12)}${pad(String(r.chunks.length), 8)}`,
    );
  }
}

function printComparison(before: SizesFile, after: SizesFile): void {
  console.log(`\nBefore (build ${before.buildId}, ${before.builtAt}) → after (build ${after.buildId})\n`);
  console.log(
    `${"route".padEnd(34)}${pad("gzip before", 13)}${pad("after", 11)}${pad("ratio", 8)}${pad("raw before", 13)}${pad("after", 11)}${pad("ratio", 8)}`,
  );
  const old = new Map(before.routes.map((r) => [r.route, r]));
  for (const r of after.routes) {
    const b = old.get(r.route);
    if (!b) {
      console.log(`${r.route.padEnd(34)}${pad("new", 13)}${pad(kb(r.gzip), 11)}`);
      continue;
    }
    console.log(
      `${r.route.padEnd(34)}${pad(kb(b.gzip), 13)}${pad(kb(r.gzip), 11)}${pad((r.gzip / b.gzip).toFixed(2), 8)}${pad(kb(b.raw), 13)}${pad(kb(r.raw), 11)}${pad((r.raw / b.raw).toFixed(2), 8)}`,
    );
  }
}

// ---------------------------------------------------------------------------------------------------
// Modules, from `next build --analyze` (read through `next analyze export`, JSON Lines).

interface Group {
  type: "group";
  kind: string;
  trigger_module_ident: string | null;
  outputs: string[];
}
interface Part {
  type: "part";
  filename: string;
  source_path: string;
  size: number;
}

/** `[project]/node_modules/@xyflow/react/dist/…` → `@xyflow/react`; `[project]/components/editor/x.tsx` → itself. */
function owner(source: string): string {
  const p = source.replace(/^\[project\]\//, "");
  const m = /^node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(p);
  return m ? m[1] : p;
}

/** `[project]/node_modules/next/dist/compiled/react-dom/cjs/x.js` → `next/…/x.js`; project files as they are. */
function shortPath(source: string): string {
  const p = source.replace(/^\[project\]\//, "");
  const m = /^node_modules\/((?:@[^/]+\/)?[^/]+)\/(?:.*\/)?([^/]+)$/.exec(p);
  return m ? `${m[1]}/…/${m[2]}` : p;
}

function shortIdent(ident: string): string {
  return ident.replace(/^\[project\]\//, "").replace(/ \[.*$/, "");
}

function printModules(route: string, top: number): void {
  let out: string;
  try {
    out = execFileSync(process.execPath, [nextBin(), "analyze", "export", "--route", route], {
      cwd: ROOT,
      maxBuffer: 1 << 30,
      encoding: "utf8",
      stdio: ["ignore", "pipe", "pipe"],
    });
  } catch (err) {
    console.log(`  (no analysis for ${route}: ${(err as Error).message.split("\n")[0]})`);
    return;
  }
  const groups: Group[] = [];
  const parts: Part[] = [];
  for (const line of out.split("\n")) {
    if (!line) continue;
    const rec = JSON.parse(line) as { type: string };
    if (rec.type === "group") groups.push(rec as Group);
    else if (rec.type === "part") parts.push(rec as Part);
  }
  const isClientJs = (f: string) => f.startsWith("[client-fs]") && f.endsWith(".js");
  const first = new Set<string>();
  for (const g of groups) {
    if (g.kind === "bootstrap" || g.kind === "render_dependent")
      for (const o of g.outputs) if (isClientJs(o)) first.add(o);
  }
  const seen = new Set<string>();
  const byOwner = new Map<string, number>();
  const byChunk = new Map<string, Map<string, number>>();
  const partsOf = new Map<string, Part[]>();
  for (const p of parts) {
    const key = `${p.filename}\0${p.source_path}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const list = partsOf.get(p.filename) ?? [];
    list.push(p);
    partsOf.set(p.filename, list);
    if (!first.has(p.filename)) continue;
    byOwner.set(owner(p.source_path), (byOwner.get(owner(p.source_path)) ?? 0) + p.size);
    const chunk = byChunk.get(p.filename) ?? new Map<string, number>();
    chunk.set(p.source_path, (chunk.get(p.source_path) ?? 0) + p.size);
    byChunk.set(p.filename, chunk);
  }
  const total = [...byOwner.values()].reduce((a, b) => a + b, 0);
  console.log(`\n${route}: first load ${kb(total)} (analysis, uncompressed), by package or file:`);
  for (const [name, size] of [...byOwner].sort((a, b) => b[1] - a[1]).slice(0, top)) {
    console.log(`  ${pad(kb(size), 10)}  ${name}`);
  }
  console.log(`  largest first-load chunks:`);
  const chunks = [...byChunk].map(([f, m]) => ({ f, m, size: [...m.values()].reduce((a, b) => a + b, 0) }));
  for (const c of chunks.sort((a, b) => b.size - a.size).slice(0, 5)) {
    const mods = [...c.m].sort((a, b) => b[1] - a[1]).slice(0, 6);
    console.log(
      `  ${pad(kb(c.size), 10)}  ${path.basename(c.f)}: ${mods.map(([s, n]) => `${shortPath(s)} ${kb(n)}`).join(", ")}`,
    );
  }
  // The server's side: the code a request for this page loads into the server (its server
  // components and the server render of its client components), apart from what it imports on demand.
  const asyncServer = new Set<string>();
  for (const g of groups) {
    if (g.kind === "async")
      for (const o of g.outputs) if (o.startsWith("[output]/.next/server/")) asyncServer.add(o);
  }
  const server = new Map<string, number>();
  for (const [file, list] of partsOf) {
    if (!file.startsWith("[output]/.next/server/chunks/") || asyncServer.has(file)) continue;
    for (const p of list) {
      // Packages by name, project files by folder (lib/server/modules/hub, components/editor…).
      const o = owner(p.source_path);
      const key = o.includes("/")
        ? o
            .split("/")
            .slice(0, o.startsWith("lib/server/") ? 4 : 2)
            .join("/")
        : o;
      server.set(key, (server.get(key) ?? 0) + p.size);
    }
  }
  const serverTotal = [...server.values()].reduce((a, b) => a + b, 0);
  console.log(`  server render: ${kb(serverTotal)} of server code loaded for this page, largest:`);
  console.log(
    `    ${[...server]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([m, n]) => `${m} ${kb(n)}`)
      .join(", ")}`,
  );
  // What the page loads later, on demand: each async group's chunks not already in the first load.
  const lazy: { trigger: string; size: number; main: string }[] = [];
  for (const g of groups) {
    if (g.kind !== "async" || !g.trigger_module_ident?.includes("[app-client]")) continue;
    const files = g.outputs.filter((o) => isClientJs(o) && !first.has(o));
    let size = 0;
    const mods = new Map<string, number>();
    for (const f of files) {
      for (const p of partsOf.get(f) ?? []) {
        size += p.size;
        mods.set(owner(p.source_path), (mods.get(owner(p.source_path)) ?? 0) + p.size);
      }
    }
    if (size === 0) continue;
    const main = [...mods]
      .sort((a, b) => b[1] - a[1])
      .slice(0, 3)
      .map(([m, n]) => `${m} ${kb(n)}`)
      .join(", ");
    lazy.push({ trigger: shortIdent(g.trigger_module_ident), size, main });
  }
  if (lazy.length) {
    console.log(`  loaded on demand (import() / next/dynamic):`);
    for (const l of lazy.sort((a, b) => b.size - a.size).slice(0, top)) {
      console.log(`  ${pad(kb(l.size), 10)}  ${l.trigger} → ${l.main}`);
    }
  }
}

function nextBin(): string {
  return path.join(ROOT, "node_modules/next/dist/bin/next");
}

/** When the newest analysis was made, if there is one. */
function analysisTime(): Date | null {
  const dir = path.join(NEXT, "diagnostics/analyze/history");
  if (!existsSync(dir)) return null;
  const times = readdirSync(dir)
    .map((d) => path.join(dir, d, "metadata.json"))
    .filter((f) => existsSync(f))
    .map((f) => new Date((JSON.parse(readFileSync(f, "utf8")) as { createdAt: string }).createdAt));
  return times.length ? new Date(Math.max(...times.map((t) => t.getTime()))) : null;
}

function main(): void {
  const sizes = measure();
  printSizes(sizes);
  const save = arg("--json");
  if (save) {
    mkdirSync(path.dirname(save), { recursive: true });
    writeFileSync(save, `${JSON.stringify(sizes, null, 2)}\n`);
    console.log(`\nsaved to ${save}`);
  }
  const compare = arg("--compare");
  if (compare) printComparison(JSON.parse(readFileSync(compare, "utf8")) as SizesFile, sizes);
  const analysed = analysisTime();
  if (analysed) {
    // A plain build after an analysed one keeps the old analysis: say so.
    if (analysed.getTime() < new Date(sizes.builtAt).getTime() - 10 * 60_000) {
      console.log(`\n(the module analysis is from ${analysed.toISOString()}, older than this build)`);
    }
    const top = Number(arg("--top") ?? 15);
    for (const route of (arg("--modules") ?? "/projects/[id]").split(",")) printModules(route.trim(), top);
  } else {
    console.log("\n(modules: build with `npx next build --analyze` to see what each route's chunks hold)");
  }
}

main();
