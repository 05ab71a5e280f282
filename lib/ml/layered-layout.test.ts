import { describe, expect, it } from "vitest";
import { autoLayout } from "./auto-layout";
import { syntheticGraph } from "./graph-builder";
import { layeredLayout } from "./layered-layout";

describe("layeredLayout", () => {
  it("puts every node below its inputs and never two nodes on one spot", () => {
    const { graph } = syntheticGraph(5000);
    const laid = layeredLayout(graph);
    const pos = new Map(laid.nodes.map((n) => [n.id, n.position]));
    for (const e of graph.edges) {
      expect(pos.get(e.target)?.y).toBeGreaterThan(pos.get(e.source)?.y ?? Number.POSITIVE_INFINITY);
    }
    const spots = new Set(laid.nodes.map((n) => `${n.position.x},${n.position.y}`));
    expect(spots.size).toBe(laid.nodes.length);
  });

  it("is what autoLayout uses for very large graphs", async () => {
    const { graph } = syntheticGraph(5000);
    const laid = await autoLayout(graph);
    expect(laid.nodes.map((n) => n.position)).toEqual(layeredLayout(graph).nodes.map((n) => n.position));
  });
});
