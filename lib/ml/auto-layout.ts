/**
 * Automatic top-to-bottom layout with elkjs ("layered" algorithm, direction DOWN).
 * Uses the bundled ELK build so it runs in Node and in the browser without a
 * worker file. Input ports are ordered left-to-right by port number so
 * multi-input layers (Add, Concatenate, MultiHeadAttention) get uncrossed edges.
 */
import ELK from "elkjs/lib/elk.bundled.js";
import type { ElkExtendedEdge, ElkNode, ElkPort } from "elkjs/lib/elk-api";
import type { ArchitectureGraph } from "./graph-types";
import { layeredLayout } from "./layered-layout";

export interface AutoLayoutOptions {
  /** Default node box size used when `sizes` has no entry (px). */
  nodeWidth?: number;
  nodeHeight?: number;
  /** Measured node sizes from the editor, keyed by node id. */
  sizes?: Record<string, { width: number; height: number }>;
  /** Vertical gap between layers (px). */
  layerSpacing?: number;
  /** Horizontal gap between nodes in the same layer (px). */
  nodeSpacing?: number;
  /**
   * "high": model-order aware, thorough crossing minimisation (best for small
   * graphs); "fast": cheaper settings for big graphs; "auto" (default): high
   * up to FAST_LAYOUT_THRESHOLD nodes, fast above.
   */
  quality?: "auto" | "high" | "fast";
}

/** Node count above which the "auto" quality switches to the fast settings. */
export const FAST_LAYOUT_THRESHOLD = 250;

/** Node count above which ELK is not used at all (see layered-layout.ts). */
export const LINEAR_LAYOUT_THRESHOLD = 2000;

type ElkInstance = InstanceType<typeof ELK>;
let elkInstance: ElkInstance | undefined;
function elk(): ElkInstance {
  elkInstance ??= new ELK();
  return elkInstance;
}

/**
 * Returns a copy of the graph with new top-left `position`s; node and edge
 * order, ids and params are unchanged. Edges to unknown nodes are ignored.
 */
export async function autoLayout<G extends ArchitectureGraph>(
  graph: G,
  options: AutoLayoutOptions = {},
): Promise<G> {
  const width = options.nodeWidth ?? 200;
  const height = options.nodeHeight ?? 64;
  if (graph.nodes.length > LINEAR_LAYOUT_THRESHOLD) return layeredLayout(graph, options);
  const ids = new Set(graph.nodes.map((n) => n.id));
  const maxPort = new Map<string, number>();
  const edges: ElkExtendedEdge[] = [];
  graph.edges.forEach((e, i) => {
    if (!ids.has(e.source) || !ids.has(e.target) || e.source === e.target) return;
    const port = e.targetPort ?? 0;
    maxPort.set(e.target, Math.max(maxPort.get(e.target) ?? 0, port));
    edges.push({ id: `edge${i}`, sources: [`${e.source}::out`], targets: [`${e.target}::in${port}`] });
  });
  const children: ElkNode[] = [];
  const seen = new Set<string>();
  for (const n of graph.nodes) {
    if (seen.has(n.id)) continue;
    seen.add(n.id);
    const size = options.sizes?.[n.id];
    const w = size?.width ?? width;
    const ports: ElkPort[] = [];
    const inputs = (maxPort.get(n.id) ?? -1) + 1;
    for (let p = 0; p < inputs; p++) {
      ports.push({
        id: `${n.id}::in${p}`,
        width: 1,
        height: 1,
        layoutOptions: { "elk.port.side": "NORTH", "elk.port.index": String(p) },
      });
    }
    ports.push({ id: `${n.id}::out`, width: 1, height: 1, layoutOptions: { "elk.port.side": "SOUTH" } });
    children.push({
      id: n.id,
      width: w,
      height: size?.height ?? height,
      ports,
      layoutOptions: { "elk.portConstraints": "FIXED_ORDER" },
    });
  }
  const quality = options.quality ?? "auto";
  const fast = quality === "fast" || (quality === "auto" && children.length > FAST_LAYOUT_THRESHOLD);
  const root: ElkNode = {
    id: "root",
    layoutOptions: {
      "elk.algorithm": "layered",
      "elk.direction": "DOWN",
      "elk.layered.spacing.nodeNodeBetweenLayers": String(options.layerSpacing ?? 50),
      "elk.spacing.nodeNode": String(options.nodeSpacing ?? 40),
      "elk.layered.nodePlacement.strategy": "BRANDES_KOEPF",
      "elk.spacing.componentComponent": "80",
      ...(fast
        ? { "elk.layered.thoroughness": "1" }
        : { "elk.layered.considerModelOrder.strategy": "NODES_AND_EDGES" }),
    },
    children,
    edges,
  };
  let laidOut: ElkNode;
  try {
    laidOut = await elk().layout(root);
  } catch (err) {
    // ELK's recursive passes can overflow the stack on very deep graphs: lay out linearly instead.
    if (err instanceof RangeError) return layeredLayout(graph, options);
    throw err;
  }
  const pos = new Map<string, { x: number; y: number }>();
  for (const c of laidOut.children ?? []) pos.set(c.id, { x: Math.round(c.x ?? 0), y: Math.round(c.y ?? 0) });
  return {
    ...graph,
    nodes: graph.nodes.map((n) => ({ ...n, position: pos.get(n.id) ?? { ...n.position } })),
  };
}
