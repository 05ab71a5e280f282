/** Copy and paste of a selection: the chosen nodes and the edges between them, pasted with fresh ids. */
import type { LayerFlowNode, ShapeFlowEdge } from "./flow-types";

export interface Clip {
  nodes: LayerFlowNode[];
  edges: ShapeFlowEdge[];
}

/** The selected nodes and every edge whose two ends are both selected. */
export function copySubgraph(
  nodes: readonly LayerFlowNode[],
  edges: readonly ShapeFlowEdge[],
  ids: ReadonlySet<string>,
): Clip | null {
  const picked = nodes.filter((n) => ids.has(n.id));
  if (picked.length === 0) return null;
  return {
    nodes: picked.map((n) => ({
      id: n.id,
      type: n.type,
      position: { ...n.position },
      data: { ...n.data, params: structuredClone(n.data.params) },
    })),
    edges: edges
      .filter((e) => ids.has(e.source) && ids.has(e.target))
      .map((e) => ({
        id: e.id,
        type: e.type,
        source: e.source,
        target: e.target,
        sourceHandle: e.sourceHandle,
        targetHandle: e.targetHandle,
      })),
  };
}

/** A readable id not yet taken: "conv2d_3". */
export function uniqueNodeId(prefix: string, taken: ReadonlySet<string>): string {
  const base = prefix.toLowerCase().replace(/[^a-z0-9]+/g, "_");
  for (let i = 1; ; i++) {
    const id = `${base}_${i}`;
    if (!taken.has(id)) return id;
  }
}

/** A copy of the clip with new node and edge ids, moved by `offset`, its nodes selected. */
export function pasteSubgraph(
  clip: Clip,
  taken: ReadonlySet<string>,
  offset: { x: number; y: number },
): Clip {
  const used = new Set(taken);
  const rename = new Map<string, string>();
  for (const n of clip.nodes) {
    const id = uniqueNodeId(n.data.layerType, used);
    used.add(id);
    rename.set(n.id, id);
  }
  const nodes = clip.nodes.map((n) => ({
    ...n,
    id: rename.get(n.id) as string,
    position: { x: n.position.x + offset.x, y: n.position.y + offset.y },
    data: { ...n.data, params: structuredClone(n.data.params) },
    selected: true,
  }));
  const edges = clip.edges.map((e) => {
    const source = rename.get(e.source) as string;
    const target = rename.get(e.target) as string;
    return { ...e, id: `e-${source}-${target}-${e.targetHandle ?? "in-0"}`, source, target, selected: false };
  });
  return { nodes, edges };
}
