// No import cycles in lib/server and no upward import from its ground floor: resolves every import
// (value, type, dynamic and re-export, with the `@/` alias) of every file under lib/server through the
// TypeScript compiler, then
// - finds the strongly connected components and fails on any, printing its files;
// - fails on any import from a ground-floor file (http/, events/, jobs/, storage/, db/, errors.ts,
//   ids.ts, config.ts, plans.ts, secrets.ts) into services/, routes/ or schemas/, printing each
//   (file → import) pair. A higher layer that must be reached from below registers a hook at start
//   (../shared/STYLE.md, "Server modules").
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

// The layer rule: the ground floor knows no service, route or schema.
const GROUND_DIRS = ["http", "events", "jobs", "storage", "db"];
const GROUND_FILES = ["errors.ts", "ids.ts", "config.ts", "plans.ts", "secrets.ts"];
const UPPER_DIRS = ["modules"];
const under = (file: string, dir: string) => file.startsWith(path.join(scope, dir) + path.sep);
const isGround = (file: string) =>
  GROUND_DIRS.some((dir) => under(file, dir)) || GROUND_FILES.some((name) => file === path.join(scope, name));
const isUpper = (file: string) => UPPER_DIRS.some((dir) => under(file, dir));

const upward: string[] = [];
for (const [file, targets] of edges) {
  if (!isGround(file)) continue;
  for (const target of targets) if (isUpper(target)) upward.push(`${rel(file)} -> ${rel(target)}`);
}
for (const pair of upward.sort()) console.log(`upward import from the ground floor: ${pair}`);
console.log(`${upward.length} upward import(s) from the ground floor`);
if (components.length > 0 || upward.length > 0) process.exit(1);
