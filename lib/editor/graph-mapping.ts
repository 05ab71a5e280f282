/**
 * Pure mapping between the stored architecture graph (lib/ml) and React Flow's nodes and edges.
 * Input ports become target handles "in-0", "in-1"…; every node has one source handle "out".
 */
import type { ArchitectureGraph, GraphEdge, LayerNode } from "@/lib/ml";
import { type LayerFlowNode, OUTPUT_HANDLE, type ShapeFlowEdge } from "./flow-types";

const PORT_PREFIX = "in-";

export function portHandleId(port: number): string {
  return `${PORT_PREFIX}${port}`;
}

/** Port number of a target handle id ("in-2" → 2); null/unknown handles are port 0. */
export function handlePort(handleId: string | null | undefined): number {
  if (!handleId?.startsWith(PORT_PREFIX)) return 0;
  const n = Number(handleId.slice(PORT_PREFIX.length));
  return Number.isInteger(n) && n >= 0 ? n : 0;
}

export function toFlowNode(node: LayerNode): LayerFlowNode {
  const data: LayerFlowNode["data"] = { layerType: node.type, params: node.params };
  if (node.label !== undefined) data.label = node.label;
  return { id: node.id, type: "layer", position: { x: node.position.x, y: node.position.y }, data };
}

export function toFlowEdge(edge: GraphEdge): ShapeFlowEdge {
  return {
    id: edge.id,
    type: "shape",
    source: edge.source,
    target: edge.target,
    sourceHandle: OUTPUT_HANDLE,
    targetHandle: portHandleId(edge.targetPort ?? 0),
  };
}

export function toFlow(graph: ArchitectureGraph): { nodes: LayerFlowNode[]; edges: ShapeFlowEdge[] } {
  return { nodes: graph.nodes.map(toFlowNode), edges: graph.edges.map(toFlowEdge) };
}

export function fromFlowNode(node: LayerFlowNode): LayerNode {
  const out: LayerNode = {
    id: node.id,
    type: node.data.layerType,
    params: node.data.params,
    position: { x: Math.round(node.position.x), y: Math.round(node.position.y) },
  };
  if (node.data.label !== undefined && node.data.label !== "") out.label = node.data.label;
  return out;
}

export function fromFlowEdge(edge: ShapeFlowEdge): GraphEdge {
  const out: GraphEdge = { id: edge.id, source: edge.source, target: edge.target };
  const port = handlePort(edge.targetHandle);
  if (port > 0) out.targetPort = port;
  return out;
}

/** The stored graph: only what the model needs (no selection, sizes or diff marks). */
export function fromFlow(
  nodes: readonly LayerFlowNode[],
  edges: readonly ShapeFlowEdge[],
): ArchitectureGraph {
  return { nodes: nodes.map(fromFlowNode), edges: edges.map(fromFlowEdge) };
}
