/**
 * The React Flow shapes of an architecture graph: one node type ("layer") and one edge type
 * ("shape", labelled with the tensor that flows along it).
 */
import type { Edge, Node } from "@xyflow/react";
import type { LayerType } from "@/lib/ml";

/** How a node or edge differs between two compared versions. */
export type DiffStatus = "added" | "removed" | "changed";

export type LayerData = {
  layerType: LayerType;
  params: Record<string, unknown>;
  label?: string;
  /** Only in the compare view. */
  diff?: DiffStatus;
};

export type LayerFlowNode = Node<LayerData, "layer">;

export type ShapeEdgeData = {
  /** Only in the compare view. */
  diff?: DiffStatus;
};

export type ShapeFlowEdge = Edge<ShapeEdgeData, "shape">;

/** Id of the single output handle of every layer node. */
export const OUTPUT_HANDLE = "out";
