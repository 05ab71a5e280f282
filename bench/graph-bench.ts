/**
 * Benchmarks of the architecture model (lib/ml).
 *   npx tsx bench/graph-bench.ts
 * Prints the median (and p95) of analyzeGraph over 50 runs on synthetic
 * 1,000- and 5,000-node graphs (residual + concat branches), and the time of
 * autoLayout (elkjs, layered DOWN) on 1,000 nodes, and of the server-drawn diagram preview (SVG)
 * of 1,000 and 5,000 nodes with its size.
 */
import { graphPreviewSvg } from "../lib/editor/graph-preview-svg";
import { autoLayout } from "../lib/ml/auto-layout";
import { syntheticGraph } from "../lib/ml/graph-builder";
import { analyzeGraph } from "../lib/ml/infer-graph";

function percentile(sorted: number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
}

function benchAnalyze(nodes: number, runs = 50): { median: number; p95: number; edges: number } {
  const { graph } = syntheticGraph(nodes);
  const check = analyzeGraph(graph);
  if (!check.ok || check.order.length !== nodes)
    throw new Error(`synthetic ${nodes}-node graph did not analyse cleanly`);
  for (let i = 0; i < 5; i++) analyzeGraph(graph); // warm-up (JIT)
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    analyzeGraph(graph);
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  return { median: percentile(times, 0.5), p95: percentile(times, 0.95), edges: graph.edges.length };
}

async function benchLayout(nodes: number): Promise<{ cold: number; warm: number }> {
  const { graph } = syntheticGraph(nodes);
  let t0 = performance.now();
  await autoLayout(graph);
  const cold = performance.now() - t0;
  const warmRuns: number[] = [];
  for (let i = 0; i < 3; i++) {
    t0 = performance.now();
    await autoLayout(graph);
    warmRuns.push(performance.now() - t0);
  }
  warmRuns.sort((a, b) => a - b);
  return { cold, warm: warmRuns[1] };
}

function benchPreview(nodes: number, runs = 20): { median: number; bytes: number } {
  const { graph } = syntheticGraph(nodes);
  for (let i = 0; i < 3; i++) graphPreviewSvg(graph);
  const times: number[] = [];
  let bytes = 0;
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    bytes = graphPreviewSvg(graph).length;
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  return { median: percentile(times, 0.5), bytes };
}

async function main(): Promise<void> {
  const fmt = (ms: number) => `${ms.toFixed(2)} ms`;
  for (const n of [1000, 5000]) {
    const r = benchAnalyze(n);
    console.log(
      `analyzeGraph ${n} nodes / ${r.edges} edges: median ${fmt(r.median)}, p95 ${fmt(r.p95)} (50 runs)`,
    );
  }
  for (const n of [1000, 5000]) {
    const r = benchPreview(n);
    console.log(
      `graphPreviewSvg ${n} nodes: median ${fmt(r.median)} (20 runs), ${(r.bytes / 1024).toFixed(0)} KiB`,
    );
  }
  const layout = await benchLayout(1000);
  console.log(
    `autoLayout 1000 nodes: first run ${fmt(layout.cold)}, warm median ${fmt(layout.warm)} (3 runs)`,
  );
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
