// No import cycles in lib/server and no upward import: resolves every import (value, type, dynamic and
// re-export, with the `@/` alias) of every file under lib/server through the TypeScript compiler, then
// - finds the strongly connected components and fails on any, printing its files;
// - fails on any import from a ground-floor file (http/, events/, jobs/, storage/, db/, errors.ts,
//   ids.ts, config.ts, plans.ts, secrets.ts) into modules/, and on any import from one module into a
//   module of its own rank or higher in AREA_ORDER, printing each (file -> import) pair. A module that
//   must be reached from below registers a hook at start (../shared/STYLE.md, "Server modules");
// - fails on a folder of modules/ that AREA_ORDER does not name.
// Usage: npm run check:cycles
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import ts from "typescript";

const root = path.resolve(import.meta.dirname, "..");
const scope = path.join(root, "lib/server");

function walk(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) walk(full, out);
    else if (/\.tsx?$/.test(name) && !name.endsWith(".d.ts")) out.push(full);
  }
  return out;
}

const configFile = ts.readConfigFile(path.join(root, "tsconfig.json"), ts.sys.readFile);
const { options } = ts.parseJsonConfigFileContent(configFile.config, ts.sys, root);
const host = ts.createCompilerHost(options);
const files = walk(scope).sort();
const rel = (file: string) => path.relative(root, file);

const edges = new Map<string, Set<string>>();
for (const file of files) {
  const info = ts.preProcessFile(readFileSync(file, "utf8"), true, true);
  const targets = new Set<string>();
  for (const ref of info.importedFiles) {
    const resolved = ts.resolveModuleName(ref.fileName, file, options, host).resolvedModule;
    if (!resolved || resolved.isExternalLibraryImport) continue;
    const target = path.resolve(resolved.resolvedFileName);
    if (target.startsWith(scope + path.sep) && target !== file) targets.add(target);
  }
  edges.set(file, targets);
}

// Tarjan's strongly connected components.
let counter = 0;
const index = new Map<string, number>();
const low = new Map<string, number>();
const stack: string[] = [];
const onStack = new Set<string>();
const components: string[][] = [];
function connect(v: string): void {
  index.set(v, counter);
  low.set(v, counter++);
  stack.push(v);
  onStack.add(v);
  for (const w of edges.get(v) ?? []) {
    if (!index.has(w)) {
      connect(w);
      low.set(v, Math.min(low.get(v) ?? 0, low.get(w) ?? 0));
    } else if (onStack.has(w)) low.set(v, Math.min(low.get(v) ?? 0, index.get(w) ?? 0));
  }
  if (low.get(v) === index.get(v)) {
    const component: string[] = [];
    let w: string | undefined;
    do {
      w = stack.pop();
      if (w === undefined) break;
      onStack.delete(w);
      component.push(rel(w));
    } while (w !== v);
    if (component.length > 1) components.push(component.sort());
  }
}
for (const file of files) if (!index.has(file)) connect(file);

for (const component of components.sort((a, b) => b.length - a.length)) {
  console.log(`import cycle (${component.length} files):`);
  for (const file of component) console.log(`  ${file}`);
}
console.log(`${files.length} files in lib/server, ${components.length} import cycle(s)`);

// The layer rule: the ground floor knows no module, and a module imports only modules to its left
// in AREA_ORDER (areas of one rank know nothing of each other).
const GROUND_DIRS = ["http", "events", "jobs", "storage", "db"];
const GROUND_FILES = ["errors.ts", "ids.ts", "config.ts", "plans.ts", "secrets.ts"];
export const AREA_ORDER: string[][] = [
  ["account"],
  ["projects"],
  ["datasets", "codegen", "catalog"],
  ["training"],
  ["serving"],
  ["evaluations"],
  ["registry"],
  ["deployments", "hub"],
  ["audits"],
];
const rank = new Map(AREA_ORDER.flatMap((areas, i) => areas.map((area) => [area, i] as const)));
const under = (file: string, dir: string) => file.startsWith(path.join(scope, dir) + path.sep);
const isGround = (file: string) =>
  GROUND_DIRS.some((dir) => under(file, dir)) || GROUND_FILES.some((name) => file === path.join(scope, name));
const areaOf = (file: string): string | null => {
  const r = path.relative(path.join(scope, "modules"), file);
  return r.startsWith("..") ? null : r.split(path.sep)[0];
};

const upward: string[] = [];
const strays: string[] = [];
for (const [file, targets] of edges) {
  const from = areaOf(file);
  if (from !== null && !rank.has(from)) strays.push(rel(file));
  for (const target of targets) {
    const to = areaOf(target);
    if (to === null) continue;
    if (isGround(file)) upward.push(`${rel(file)} -> ${rel(target)} (the ground floor knows no module)`);
    else if (from !== null && from !== to && (rank.get(to) ?? -1) >= (rank.get(from) ?? -1))
      upward.push(`${rel(file)} -> ${rel(target)} (${from} may not import ${to})`);
  }
}
for (const file of strays.sort()) console.log(`module folder not in AREA_ORDER: ${file}`);
for (const pair of upward.sort()) console.log(`upward import: ${pair}`);
console.log(`${upward.length} upward import(s)`);
if (components.length > 0 || upward.length > 0 || strays.length > 0) process.exit(1);
