/**
 * A plain layered layout in linear time, for graphs too large or too deep for ELK (whose recursive
 * passes overflow the stack on long chains of thousands of layers). Each node goes one layer below
 * its deepest input (longest-path layering); nodes of a layer sit side by side, centred.
 * Nodes on a cycle (an invalid graph) are placed after the rest.
 */
import type { ArchitectureGraph } from "./graph-types";

export interface LayeredLayoutOptions {
  nodeWidth?: number;
  nodeHeight?: number;
  layerSpacing?: number;
  nodeSpacing?: number;
}

export function layeredLayout<G extends ArchitectureGraph>(graph: G, options: LayeredLayoutOptions = {}): G {
  const width = options.nodeWidth ?? 200;
  const height = options.nodeHeight ?? 64;
  const layerGap = options.layerSpacing ?? 50;
  const nodeGap = options.nodeSpacing ?? 40;

  const indegree = new Map<string, number>();
  const children = new Map<string, string[]>();
  for (const n of graph.nodes) {
    indegree.set(n.id, 0);
    children.set(n.id, []);
  }
  for (const e of graph.edges) {
    if (!indegree.has(e.source) || !indegree.has(e.target) || e.source === e.target) continue;
    indegree.set(e.target, (indegree.get(e.target) ?? 0) + 1);
    children.get(e.source)?.push(e.target);
  }

  const depth = new Map<string, number>();
  const queue: string[] = [];
  for (const [id, d] of indegree) {
    if (d === 0) {
      queue.push(id);
      depth.set(id, 0);
    }
  }
  for (let head = 0; head < queue.length; head++) {
    const id = queue[head];
    const d = depth.get(id) ?? 0;
    for (const child of children.get(id) ?? []) {
      depth.set(child, Math.max(depth.get(child) ?? 0, d + 1));
      const left = (indegree.get(child) ?? 0) - 1;
      indegree.set(child, left);
      if (left === 0) queue.push(child);
    }
  }
  let maxDepth = 0;
  for (const d of depth.values()) maxDepth = Math.max(maxDepth, d);
  for (const n of graph.nodes) if (!depth.has(n.id)) depth.set(n.id, ++maxDepth);

  const layers = new Map<number, string[]>();
  for (const n of graph.nodes) {
    const d = depth.get(n.id) ?? 0;
    const layer = layers.get(d) ?? [];
    layer.push(n.id);
    layers.set(d, layer);
  }
  let widest = 0;
  for (const layer of layers.values()) widest = Math.max(widest, layer.length);
  const pos = new Map<string, { x: number; y: number }>();
  for (const [d, layer] of layers) {
    const offset = ((widest - layer.length) * (width + nodeGap)) / 2;
    layer.forEach((id, i) => {
      pos.set(id, { x: Math.round(offset + i * (width + nodeGap)), y: d * (height + layerGap) });
    });
  }
  return {
    ...graph,
    nodes: graph.nodes.map((n) => ({ ...n, position: pos.get(n.id) ?? { ...n.position } })),
  };
}
