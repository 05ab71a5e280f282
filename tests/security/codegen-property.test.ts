/**
 * Property test of code generation against hostile names. Seeded random strings built from quotes,
 * triple quotes, backslashes, line terminators (U+2028 included), `#`, braces, `${`, backticks, null
 * bytes, lone surrogates, emoji, bidirectional marks and long runs become the project name, the
 * layer labels and the node and edge ids of every graph of the codegen corpus. Then:
 * - every generated Python file parses with Python's `ast` (warnings as errors) and every
 *   JavaScript file with V8 as an ES module;
 * - each file has the template's shape: its syntax tree, with every string constant and identifier
 *   normalised (identifiers renamed in order of first use), equals the tree of the same graph
 *   generated with benign names, so a name added no statement, call or expression;
 * - `pyStr` / `jsStr` read back (Python's `ast.literal_eval`, JavaScript evaluation) as the string.
 * Python and Node.js each run once for the whole batch (strings in, results out as JSON).
 */
import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { mulberry32 } from "@/lib/datasets-ui/random";
import { buildSnippets } from "@/lib/deployments-ui/snippets";
import { CodegenValidationError, generateProject } from "@/lib/ml/codegen";
import { codegenCorpus } from "@/lib/ml/codegen/corpus";
import { jsStr, mdCode, mdText, pyStr, shStr, shWord, wellFormed } from "@/lib/ml/codegen/literals";
import { planCodegen } from "@/lib/ml/codegen/plan";
import type { ArchitectureGraph } from "@/lib/ml/graph-types";

const PYTHON = "/usr/bin/python3";
const SEED = 0x1a7e2;
const CASES_PER_GRAPH = 6;
const LITERALS = 3000;
/** The name of the issue's report: it closed model.py's docstring. */
const ISSUE_NAME = `"";__import__('os').system('id');x=""`;

const FRAGMENTS = [
  '"',
  "'",
  '"""',
  "'''",
  "\\",
  "\\\\",
  "\\N{",
  "\\x",
  "\\u",
  "\n",
  "\r",
  "\r\n",
  "\t",
  "\v",
  "\f",
  "\u0085",
  "\u2028",
  "\u2029",
  "#",
  "{",
  "}",
  "{0}",
  "${",
  "`",
  "\0",
  "\x7f",
  "\ud800",
  "\udfff",
  "\ufeff",
  "\u200b",
  "\u200f",
  "\u202e",
  "\u2066",
  "😀",
  "👩‍👩‍👧",
  "עברית",
  "é",
  "*/",
  "/*",
  "//",
  "<!--",
  "</script>",
  ";",
  ")",
  "(",
  " ",
  "x",
  "import os",
  "__import__('os').system('id')",
  'os.system("id")',
  "process.exit(1)",
  "%s",
];

/** A small seeded generator (mulberry32), so that a failure can be replayed. */
const random = mulberry32;

function hostile(next: () => number): string {
  const roll = next();
  const count = roll < 0.05 ? 500 + Math.floor(next() * 1500) : Math.floor(next() * 12);
  let out = "";
  for (let i = 0; i < count; i++) {
    out +=
      next() < 0.1
        ? String.fromCodePoint(Math.floor(next() * 0x110000))
        : FRAGMENTS[Math.floor(next() * FRAGMENTS.length)];
  }
  return out;
}

/** `graph` with new node ids, edge ids and labels (ids stay unique; the node order is kept). */
function renamed(
  graph: ArchitectureGraph,
  id: (i: number) => string,
  label: (i: number) => string | undefined,
) {
  const ids = new Map(graph.nodes.map((n, i) => [n.id, `${id(i)}\u0000${i}`] as const));
  return {
    nodes: graph.nodes.map((n, i) => {
      const node = { ...n, id: ids.get(n.id) ?? n.id };
      const l = label(i);
      if (l === undefined) delete node.label;
      else node.label = l;
      return node;
    }),
    edges: graph.edges.map((e, i) => ({
      ...e,
      id: `${id(i + graph.nodes.length)}\u0000e${i}`,
      source: ids.get(e.source) ?? e.source,
      target: ids.get(e.target) ?? e.target,
    })),
  };
}

function runJson(command: string, args: string[], input: unknown): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const child = execFile(
      command,
      args,
      { timeout: 120_000, maxBuffer: 64 << 20 },
      (error, stdout, stderr) => {
        if (error) reject(new Error(`${command} failed: ${error.message}\n${stderr.slice(-2000)}`));
        else resolve(JSON.parse(stdout.trim().split("\n").pop() ?? "null"));
      },
    );
    child.stdin?.end(JSON.stringify(input));
  });
}

/**
 * stdin: {files: {key: source}, literals: [[literal, expected]]}. stdout: {files: {key: hash of the
 * normalised tree, or the error}, literals: [indexes whose literal did not read back]}.
 */
const PY_CHECK = `
import ast, hashlib, json, sys, warnings
warnings.simplefilter("error")

class Normalise(ast.NodeTransformer):
    def __init__(self):
        self.ids = {}
    def rename(self, name):
        return self.ids.setdefault(name, f"id{len(self.ids)}")
    def visit_Name(self, node):
        node.id = self.rename(node.id)
        return node
    def visit_Attribute(self, node):
        if isinstance(node.value, ast.Name) and node.value.id == "self":
            node.attr = self.rename("self." + node.attr)
        self.generic_visit(node)
        return node
    def visit_ClassDef(self, node):
        node.name = self.rename(node.name)
        self.generic_visit(node)
        return node
    def visit_FunctionDef(self, node):
        node.name = self.rename(node.name)
        self.generic_visit(node)
        return node
    def visit_arg(self, node):
        node.arg = self.rename(node.arg)
        self.generic_visit(node)
        return node
    def visit_Constant(self, node):
        if isinstance(node.value, str):
            node.value = "S"
        return node

data = json.load(sys.stdin)
files = {}
for key, source in data["files"].items():
    try:
        tree = Normalise().visit(ast.parse(source))
        files[key] = hashlib.sha256(ast.dump(tree).encode()).hexdigest()
    except Exception as error:
        files[key] = f"{type(error).__name__}: {error}"
bad = [i for i, (literal, expected) in enumerate(data["literals"]) if ast.literal_eval(literal) != expected]
print(json.dumps({"files": files, "literals": bad}))
`;

/** stdin: {key: source}. stdout: {key: null, or V8's SyntaxError} (parsed as modules, never run). */
const JS_CHECK = `
import vm from "node:vm";
let text = "";
for await (const chunk of process.stdin) text += chunk;
const out = {};
for (const [key, source] of Object.entries(JSON.parse(text))) {
  try {
    new vm.SourceTextModule(source, { identifier: key });
    out[key] = null;
  } catch (error) {
    out[key] = String(error);
  }
}
console.log(JSON.stringify(out));
`;

/** Hash of a JavaScript module's tree: strings normalised, identifiers renamed in order of first use. */
function jsShape(source: string): string {
  const file = ts.createSourceFile("m.mjs", source, ts.ScriptTarget.Latest, false, ts.ScriptKind.JS);
  const ids = new Map<string, string>();
  const parts: string[] = [];
  const visit = (node: ts.Node, verbatim = false): void => {
    if (ts.isIdentifier(node) || ts.isPrivateIdentifier(node)) {
      const text = node.text;
      if (verbatim) parts.push(text);
      else {
        if (!ids.has(text)) ids.set(text, `id${ids.size}`);
        parts.push(ids.get(text) ?? "");
      }
      return;
    }
    if (ts.isStringLiteralLike(node) || ts.isTemplateLiteralToken(node)) {
      parts.push(`${ts.SyntaxKind[node.kind]}:S`);
      return;
    }
    parts.push(`(${ts.SyntaxKind[node.kind]}`);
    if (ts.isNumericLiteral(node) || ts.isBigIntLiteral(node)) parts.push(node.text);
    if (ts.isPropertyAccessExpression(node)) {
      visit(node.expression);
      visit(node.name, true);
    } else if (
      ts.isPropertyAssignment(node) ||
      ts.isMethodDeclaration(node) ||
      ts.isPropertyDeclaration(node)
    ) {
      ts.forEachChild(node, (child) => visit(child, child === node.name));
    } else {
      ts.forEachChild(node, (child) => visit(child));
    }
    parts.push(")");
  };
  visit(file);
  return createHash("sha256").update(parts.join(" ")).digest("hex");
}

interface Generated {
  key: string;
  /** Key of the same file generated with benign names. */
  benign: string;
  path: string;
  language: "python" | "javascript";
  content: string;
}

function generate(
  key: string,
  target: "pytorch" | "tfjs",
  graph: ArchitectureGraph,
  training: object,
  projectName: string,
) {
  try {
    return generateProject(target, graph, training, { projectName }).files;
  } catch (error) {
    if (error instanceof CodegenValidationError) return null;
    throw new Error(`${key}: ${(error as Error).message}`);
  }
}

describe("generated code with hostile names", () => {
  it("parses, and has the template's statements and nothing more", async () => {
    const next = random(SEED);
    const files: Generated[] = [];
    const benignKeys = new Set<string>();
    for (const entry of codegenCorpus()) {
      for (const target of ["pytorch", "tfjs"] as const) {
        const benign = generate(
          entry.id,
          target,
          renamed(
            entry.graph,
            (i) => `n${i}`,
            (i) => `layer ${i}`,
          ),
          entry.training,
          "Benign project",
        );
        if (!benign) continue; // not expressible for this target (dilated convolutions in TF.js)
        for (const f of benign) {
          if (f.language !== "python" && f.language !== "javascript") continue;
          const key = `${entry.id}/${target}/benign/${f.path}`;
          benignKeys.add(key);
          files.push({ key, benign: key, path: f.path, language: f.language, content: f.content });
        }
        for (let c = 0; c < CASES_PER_GRAPH; c++) {
          const graph = renamed(
            entry.graph,
            () => hostile(next),
            () => (next() < 0.8 ? hostile(next) : undefined),
          );
          // The first case of each graph carries the issue's name, the others random ones.
          const name = c === 0 ? ISSUE_NAME : hostile(next);
          const project = generate(`${entry.id}/${target}/${c}`, target, graph, entry.training, name);
          expect(project, `${entry.id} ${target} case ${c}`).not.toBeNull();
          for (const f of project ?? []) {
            if (f.language !== "python" && f.language !== "javascript") continue;
            files.push({
              key: `${entry.id}/${target}/${c}/${f.path}`,
              benign: `${entry.id}/${target}/benign/${f.path}`,
              path: f.path,
              language: f.language,
              content: f.content,
            });
          }
        }
      }
    }

    const strings = Array.from({ length: LITERALS }, () => hostile(next));
    const [python, javascript] = await Promise.all([
      runJson(PYTHON, ["-c", PY_CHECK], {
        files: Object.fromEntries(
          files.filter((f) => f.language === "python").map((f) => [f.key, f.content]),
        ),
        literals: strings.map((s) => [pyStr(s), wellFormed(s)]),
      }) as Promise<{ files: Record<string, string>; literals: number[] }>,
      runJson(
        process.execPath,
        ["--experimental-vm-modules", "--no-warnings", "--input-type=module", "-e", JS_CHECK],
        Object.fromEntries(files.filter((f) => f.language === "javascript").map((f) => [f.key, f.content])),
      ) as Promise<Record<string, string | null>>,
    ]);

    const shapes = new Map<string, string>();
    const syntaxErrors: string[] = [];
    for (const f of files) {
      if (f.language === "python") {
        const result = python.files[f.key] ?? "missing";
        if (!/^[0-9a-f]{64}$/.test(result)) syntaxErrors.push(`${f.key}: ${result}`);
        shapes.set(f.key, result);
      } else {
        const error = javascript[f.key];
        if (error !== null) syntaxErrors.push(`${f.key}: ${error ?? "missing"}`);
        shapes.set(f.key, jsShape(f.content));
      }
    }
    expect.soft(syntaxErrors).toEqual([]);
    const changed = files
      .filter((f) => !benignKeys.has(f.key) && shapes.get(f.key) !== shapes.get(f.benign))
      .map((f) => f.key);
    expect(changed).toEqual([]);
    // Enough of each kind was checked for the property to mean something.
    expect(files.filter((f) => f.path === "model.py").length).toBeGreaterThan(100);
    expect(files.filter((f) => f.path === "model.mjs").length).toBeGreaterThan(100);

    expect(python.literals.map((i) => strings[i])).toEqual([]);
    const jsMismatch = strings.filter((s) => new Function(`return ${jsStr(s)};`)() !== wellFormed(s));
    expect(jsMismatch).toEqual([]);
  }, 60_000);

  it("deployment snippets hold feature names and values as literals only", async () => {
    const next = random(SEED + 2);
    const sources: Record<string, string> = {};
    const js: Record<string, string> = {};
    const cases = Array.from({ length: 40 }, (_, c) => c);
    const snippetsFor = (key: (i: number) => string, value: (i: number) => unknown, origin: string) =>
      buildSnippets({
        origin,
        deploymentId: "dep_1",
        example: {
          inputs: [
            Object.fromEntries([0, 1, 2].map((i) => [key(i), value(i)])),
            [value(3), { [key(4)]: null }],
          ],
        },
        languageModel: true,
      });
    const benign = snippetsFor(
      (i) => `feature_${i}`,
      (i) => `value ${i}`,
      "https://studio.example",
    );
    for (const c of cases) {
      const hostileSnippets = snippetsFor(
        () => `${hostile(next)}${c}`,
        () => hostile(next),
        "https://studio.example",
      );
      for (const [i, snippet] of hostileSnippets.entries()) {
        const key = `${c}/${snippet.id}`;
        if (snippet.language === "python") {
          sources[key] = snippet.code;
          sources[`benign/${snippet.id}`] = benign[i].code;
        }
        if (snippet.language === "javascript") {
          js[key] = snippet.code;
          js[`benign/${snippet.id}`] = benign[i].code;
        }
      }
    }
    const [python, v8] = await Promise.all([
      runJson(PYTHON, ["-c", PY_CHECK], { files: sources, literals: [] }) as Promise<{
        files: Record<string, string>;
      }>,
      runJson(
        process.execPath,
        ["--experimental-vm-modules", "--no-warnings", "--input-type=module", "-e", JS_CHECK],
        js,
      ) as Promise<Record<string, string | null>>,
    ]);
    const benignShape = (key: string, shapes: Record<string, string>) =>
      shapes[`benign/${key.split("/")[1]}`];
    const pyShapes = python.files;
    const jsShapes = Object.fromEntries(Object.entries(js).map(([k, code]) => [k, jsShape(code)]));
    expect(Object.entries(pyShapes).filter(([, h]) => !/^[0-9a-f]{64}$/.test(h))).toEqual([]);
    expect(Object.entries(v8).filter(([, e]) => e !== null)).toEqual([]);
    expect(Object.keys(pyShapes).filter((k) => pyShapes[k] !== benignShape(k, pyShapes))).toEqual([]);
    expect(Object.keys(jsShapes).filter((k) => jsShapes[k] !== benignShape(k, jsShapes))).toEqual([]);
  }, 30_000);

  it("shell words read back in /bin/sh (download and curl examples, a job's command line)", async () => {
    const next = random(SEED + 3);
    const hostileStrings = Array.from({ length: 500 }, () => hostile(next).replace(/\0/g, ""));
    // shWord leaves plain words bare and quotes the rest: both read back as written.
    const plain = ["train.py", "--data-dir", "data", "--lr", "0.001", "--nproc_per_node=2", "a,b", "x@y%z"];
    const strings = [...hostileStrings, ...hostileStrings.slice(0, 200), ...plain];
    const words = [
      ...hostileStrings.map(shStr),
      ...hostileStrings.slice(0, 200).map(shWord),
      ...plain.map(shWord),
    ];
    expect(plain.map(shWord)).toEqual(plain);
    const script = `printf '%s\\0' ${words.join(" ")}`;
    // The script on stdin: as one argument it would pass the kernel's size limit.
    const stdout = await new Promise<string>((resolve, reject) => {
      const child = execFile("/bin/sh", [], { maxBuffer: 64 << 20 }, (error, out) =>
        error ? reject(error) : resolve(out),
      );
      child.stdin?.end(script);
    });
    expect(stdout.split("\0").slice(0, -1)).toEqual(strings.map(wellFormed));
  });

  it("derives identifiers from names with [A-Za-z0-9_] only, never a keyword", () => {
    const next = random(SEED + 4);
    const keywords = new Set([
      "False",
      "None",
      "True",
      "and",
      "class",
      "def",
      "import",
      "lambda",
      "return",
      "yield",
      "await",
      "async",
      "function",
      "const",
      "let",
      "var",
      "new",
      "this",
      "eval",
      "arguments",
      "null",
      "true",
      "false",
      "undefined",
      "self",
      "torch",
      "tf",
      "nn",
      "F",
      "super",
    ]);
    for (const entry of codegenCorpus().slice(0, 8)) {
      for (let c = 0; c < 20; c++) {
        const graph = renamed(
          entry.graph,
          () => hostile(next),
          () => hostile(next),
        );
        const plan = planCodegen(graph, entry.training, "pytorch", { projectName: hostile(next) });
        expect(plan.className).toMatch(/^([A-Z][A-Za-z0-9]*)?Model$/);
        for (const node of [plan.input, ...plan.layers]) {
          expect(node.name).toMatch(/^[a-z_][a-z0-9_]*$/);
          expect(keywords.has(node.name), node.name).toBe(false);
        }
      }
    }
  });

  it("writes names as one line: no raw line terminator, control or unescaped quote in a literal", () => {
    const next = random(SEED + 1);
    for (let i = 0; i < 2000; i++) {
      const s = hostile(next);
      for (const literal of [pyStr(s), jsStr(s)]) {
        expect(literal).toMatch(/^"([^"\\\p{C}\p{Z}]|\\.| )*"$/su);
      }
      expect(jsStr(s)).not.toMatch(/<|\*\//);
      const md = mdText(s);
      expect(md).not.toMatch(/[\p{C}\p{Zl}\p{Zp}\n\r]/u);
      expect(md).not.toMatch(/(^|[^\\])(\\\\)*[`<>[\]*|]/);
      // Underscores stay only inside words, where they cannot start or end emphasis.
      expect(md).not.toMatch(/(^|[^\\])(\\\\)*(_(?![\p{L}\p{N}])|(?<![\p{L}\p{N}])_)/u);
    }
  });

  it("spells the escapes the same way every time", () => {
    expect(pyStr(`"";__import__('os').system('id');x=""`)).toBe(
      `"\\"\\";__import__('os').system('id');x=\\"\\""`,
    );
    expect(pyStr('a"""b\\\n\r\t\0\u2028😀\ud800\u202e')).toBe(
      '"a\\"\\"\\"b\\\\\\n\\r\\t\\x00\\u2028😀\ufffd\\u202e"',
    );
    expect(pyStr("\u{e0001}")).toBe('"\\U000e0001"');
    expect(jsStr("\u{e0001}</script>*/\u2028")).toBe('"\\u{e0001}\\x3C/script>*\\/\\u2028"');
    expect(mdText(" # *Iris* <b>\n[x](y) _a_b_ ")).toBe("\\# \\*Iris\\* \\<b\\> \\[x\\](y) \\_a_b\\_");
    expect(mdCode("a`b``c\n")).toBe("```a`b``c```");
    expect(mdCode("`x")).toBe("`` `x ``");
  });
});
