import { describe, expect, it } from "vitest";
import type { LayerFlowNode, ShapeFlowEdge } from "./flow-types";
import { draggedPosition, moveDragged, splitForDrag } from "./overview-drag";

const node = (id: string, x: number, y: number): LayerFlowNode => ({
  id,
  type: "layer",
  position: { x, y },
  data: { layerType: "Dense", params: {} },
});
const edge = (source: string, target: string): ShapeFlowEdge => ({
  id: `${source}-${target}`,
  source,
  target,
  type: "shape",
});

describe("dragging in the overview", () => {
  const nodes = [node("a", 0, 0), node("b", 0, 100), node("c", 0, 200), node("d", 300, 0)];
  const edges = [edge("a", "b"), edge("b", "c"), edge("a", "d")];

  it("splits the diagram into the dragged layers with their edges, and everything else", () => {
    const split = splitForDrag(nodes, edges, new Set(["b"]));
    expect(split.moving.map((n) => n.id)).toEqual(["b"]);
    expect(split.movingEdges.map((e) => e.id)).toEqual(["a-b", "b-c"]);
    expect(split.still.nodes.map((n) => n.id)).toEqual(["a", "c", "d"]);
    expect(split.still.edges.map((e) => e.id)).toEqual(["a-d"]);
    expect([...split.byId.keys()]).toEqual(["a", "b", "c", "d"]);
  });

  it("moves the dragged layers by whole flow units and lets their edges find them", () => {
    const split = splitForDrag(nodes, edges, new Set(["b", "c"]));
    const moved = moveDragged(split, { x: 10.4, y: -20.6 });
    expect(moved.map((n) => n.position)).toEqual([
      { x: 10, y: 79 },
      { x: 10, y: 179 },
    ]);
    expect(split.byId.get("b")?.position).toEqual({ x: 10, y: 79 });
    // The layers as they were stay untouched: every frame moves from the start.
    expect(split.moving[0].position).toEqual({ x: 0, y: 100 });
    expect(moveDragged(split, { x: 0, y: 0 })[0].position).toEqual({ x: 0, y: 100 });
    expect(draggedPosition({ x: 5, y: 5 }, { x: 0.5, y: -0.5 })).toEqual({ x: 6, y: 5 });
  });
});
