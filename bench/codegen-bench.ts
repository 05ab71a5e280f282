/**
 * Code generation benchmark.
 *   npx tsx bench/codegen-bench.ts
 * Prints the median (and p95) time of generatePytorchProject, generateTfjsProject and
 * validateForCodegen over 20 runs on a synthetic 1,000-node graph (residual + concat blocks).
 */
import { generatePytorchProject, generateTfjsProject, validateForCodegen } from "../lib/ml/codegen";
import { syntheticGraph } from "../lib/ml/graph-builder";

const RUNS = 20;

function percentile(sorted: number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
}

function bench(label: string, run: () => unknown): void {
  for (let i = 0; i < 3; i++) run(); // warm-up (JIT)
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const t0 = performance.now();
    run();
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  console.log(
    `${label.padEnd(34)} median ${percentile(times, 0.5).toFixed(2)} ms   p95 ${percentile(times, 0.95).toFixed(2)} ms`,
  );
}

const { graph } = syntheticGraph(1000);
if (!validateForCodegen(graph).valid) throw new Error("the synthetic graph is not valid for code generation");
const sizes = (files: { content: string }[]) => files.reduce((n, f) => n + f.content.length, 0);
const py = generatePytorchProject(graph, {}, { projectName: "bench" });
const js = generateTfjsProject(graph, {}, { projectName: "bench" });
console.log(
  `1,000-node graph (${graph.edges.length} edges): PyTorch ${sizes(py.files)} chars, TF.js ${sizes(js.files)} chars; ${RUNS} runs`,
);
bench("generatePytorchProject", () => generatePytorchProject(graph, {}, { projectName: "bench" }));
bench("generateTfjsProject", () => generateTfjsProject(graph, {}, { projectName: "bench" }));
bench("validateForCodegen", () => validateForCodegen(graph));
