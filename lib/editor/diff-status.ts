/**
 * Colours of the compare view: on the "from" side removed nodes and edges are red, on the "to" side
 * added ones are green, and changed nodes are amber on both sides.
 */
import type { GraphEdge } from "@/lib/ml";
import type { DiffStatus } from "./flow-types";

export interface NodeDiffLists {
  added: readonly { id: string }[];
  removed: readonly { id: string }[];
  changed: readonly { id: string }[];
}

export interface EdgeDiffLists {
  added: readonly GraphEdge[];
  removed: readonly GraphEdge[];
}

export interface SideStatus {
  nodes: Map<string, DiffStatus>;
  /** Keyed by `edgeKey`: edges are compared by what they connect, not by id. */
  edges: Map<string, DiffStatus>;
}

export function edgeKey(e: Pick<GraphEdge, "source" | "target" | "targetPort">): string {
  return `${e.source}->${e.target}:${e.targetPort ?? 0}`;
}

export function diffStatuses(
  nodes: NodeDiffLists,
  edges: EdgeDiffLists,
): { from: SideStatus; to: SideStatus } {
  const from: SideStatus = { nodes: new Map(), edges: new Map() };
  const to: SideStatus = { nodes: new Map(), edges: new Map() };
  for (const n of nodes.removed) from.nodes.set(n.id, "removed");
  for (const n of nodes.added) to.nodes.set(n.id, "added");
  for (const n of nodes.changed) {
    from.nodes.set(n.id, "changed");
    to.nodes.set(n.id, "changed");
  }
  for (const e of edges.removed) from.edges.set(edgeKey(e), "removed");
  for (const e of edges.added) to.edges.set(edgeKey(e), "added");
  return { from, to };
}
