import { describe, expect, it } from "vitest";
import { autoLayout } from "./auto-layout";
import { syntheticGraph } from "./graph-builder";
import { getTemplate } from "./templates";

describe("autoLayout", () => {
  it("lays a template out top to bottom without overlaps", async () => {
    const g = getTemplate("transformer-block").graph;
    const shuffled = { ...g, nodes: g.nodes.map((n) => ({ ...n, position: { x: 0, y: 0 } })) };
    const out = await autoLayout(shuffled, { nodeWidth: 180, nodeHeight: 60 });
    expect(out.nodes.map((n) => n.id)).toEqual(g.nodes.map((n) => n.id));
    expect(out.edges).toEqual(g.edges);
    const pos = new Map(out.nodes.map((n) => [n.id, n.position]));
    for (const e of out.edges) {
      expect(pos.get(e.target)?.y).toBeGreaterThan(pos.get(e.source)?.y as number);
    }
    const boxes = out.nodes.map((n) => n.position);
    for (let i = 0; i < boxes.length; i++) {
      for (let j = i + 1; j < boxes.length; j++) {
        const overlap = Math.abs(boxes[i].x - boxes[j].x) < 180 && Math.abs(boxes[i].y - boxes[j].y) < 60;
        expect(overlap).toBe(false);
      }
    }
    // the input is not mutated
    expect(shuffled.nodes.every((n) => n.position.x === 0 && n.position.y === 0)).toBe(true);
  });

  it("handles empty graphs, unknown edge ends and a larger graph", async () => {
    expect(await autoLayout({ nodes: [], edges: [] })).toEqual({ nodes: [], edges: [] });
    const g = getTemplate("mlp-classifier").graph;
    const withGhost = { ...g, edges: [...g.edges, { id: "ghost", source: "nope", target: "input" }] };
    const out = await autoLayout(withGhost);
    expect(out.nodes).toHaveLength(4);
    const { graph } = syntheticGraph(200);
    const big = await autoLayout(graph);
    const y = new Map(big.nodes.map((n) => [n.id, n.position.y]));
    for (const e of graph.edges) expect(y.get(e.target)).toBeGreaterThan(y.get(e.source) as number);
  });
});
