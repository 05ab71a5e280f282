/**
 * Dragging layers in the canvas overview: the diagram is split once, when the drag starts, into what
 * moves (the dragged layers and the edges touching them) and the rest, which is drawn once into a
 * picture. Each frame then puts the picture down and draws only the moving part at the pointer's
 * offset; the store gets the new positions once, on release.
 */
import type { XYPosition } from "@xyflow/react";
import type { LayerFlowNode, ShapeFlowEdge } from "./flow-types";

export interface DragSplit {
  /** Layers and edges that stay where they are: drawn once, into the picture. */
  still: { nodes: LayerFlowNode[]; edges: ShapeFlowEdge[] };
  /** The dragged layers as they were when the drag started. */
  moving: LayerFlowNode[];
  /** Edges with at least one end on a dragged layer. */
  movingEdges: ShapeFlowEdge[];
  /** Every layer by id, for the moving edges' other ends (dragged ones are replaced each frame). */
  byId: Map<string, LayerFlowNode>;
}

export function splitForDrag(
  nodes: readonly LayerFlowNode[],
  edges: readonly ShapeFlowEdge[],
  dragged: ReadonlySet<string>,
): DragSplit {
  const split: DragSplit = {
    still: { nodes: [], edges: [] },
    moving: [],
    movingEdges: [],
    byId: new Map(),
  };
  for (const n of nodes) {
    split.byId.set(n.id, n);
    (dragged.has(n.id) ? split.moving : split.still.nodes).push(n);
  }
  for (const e of edges) {
    (dragged.has(e.source) || dragged.has(e.target) ? split.movingEdges : split.still.edges).push(e);
  }
  return split;
}

/** Where a dragged layer is at this offset from its start (whole flow units, as the store keeps them). */
export function draggedPosition(from: XYPosition, offset: XYPosition): XYPosition {
  return { x: Math.round(from.x + offset.x), y: Math.round(from.y + offset.y) };
}

/** The dragged layers moved by `offset`, also updated in `split.byId` so their edges follow. */
export function moveDragged(split: DragSplit, offset: XYPosition): LayerFlowNode[] {
  return split.moving.map((n) => {
    const moved = { ...n, position: draggedPosition(n.position, offset) };
    split.byId.set(n.id, moved);
    return moved;
  });
}
