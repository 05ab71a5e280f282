import { describe, expect, it } from "vitest";
import { syntheticGraph } from "@/lib/ml/graph-builder";
import type { ArchitectureGraph } from "@/lib/ml/graph-types";
import { getTemplate } from "@/lib/ml/templates";
import { CATEGORY_FILL } from "./category-colors";
import { graphPreviewSvg, PREVIEW_HEIGHT, PREVIEW_WIDTH } from "./graph-preview-svg";
import { NODE_HEIGHT, NODE_WIDTH } from "./node-geometry";

const viewBox = (svg: string) =>
  svg
    .match(/viewBox="([^"]+)"/)?.[1]
    .split(" ")
    .map(Number) ?? [];
const pathCount = (svg: string) => svg.match(/<path /g)?.length ?? 0;

describe("graphPreviewSvg", () => {
  it("draws an empty diagram as an empty image of the thumbnail size", () => {
    const svg = graphPreviewSvg({ nodes: [], edges: [] });
    expect(svg).toContain(`width="${PREVIEW_WIDTH}" height="${PREVIEW_HEIGHT}"`);
    expect(pathCount(svg)).toBe(0);
  });

  it("fits every node into the view, with the layer names at a readable scale", () => {
    const { graph } = getTemplate("mlp-classifier");
    const svg = graphPreviewSvg(graph);
    const [x, y, w, h] = viewBox(svg);
    for (const node of graph.nodes) {
      expect(node.position.x).toBeGreaterThanOrEqual(x);
      expect(node.position.y).toBeGreaterThanOrEqual(y);
      expect(node.position.x + NODE_WIDTH).toBeLessThanOrEqual(x + w);
      expect(node.position.y + NODE_HEIGHT).toBeLessThanOrEqual(y + h);
    }
    expect(svg.match(/<text /g)).toHaveLength(graph.nodes.length);
    expect(svg).toContain(">Dense (Linear)</text>");
    // One edge path, then boxes and stripes per category (Input/Output and Core).
    expect(pathCount(svg)).toBe(1 + 2 * 2);
    expect(svg).toContain(`fill="${CATEGORY_FILL.Core}"`);
  });

  it("draws one curve per edge, from the source's bottom to the target's top", () => {
    const graph: ArchitectureGraph = {
      nodes: [
        { id: "a", type: "Input", params: {}, position: { x: 0, y: 0 } },
        { id: "b", type: "Dense", params: {}, position: { x: 0, y: 200 } },
      ],
      edges: [{ id: "e", source: "a", target: "b" }],
    };
    const svg = graphPreviewSvg(graph);
    const d = svg.match(/<path d="([^"]+)" fill="none"/)?.[1];
    expect(d).toBe(`M100 ${NODE_HEIGHT}C100 ${NODE_HEIGHT + 61} 100 139 100 200`);
  });

  it("does not blow a single layer up to fill the image", () => {
    const svg = graphPreviewSvg({
      nodes: [{ id: "a", type: "Input", params: {}, position: { x: 0, y: 0 } }],
      edges: [],
    });
    const [, , w, h] = viewBox(svg);
    expect(Math.min(PREVIEW_WIDTH / w, PREVIEW_HEIGHT / h)).toBeLessThanOrEqual(0.75);
  });

  it("draws thousands of layers as solid blocks, one path per colour, without names", () => {
    const { graph } = syntheticGraph(5000);
    const svg = graphPreviewSvg(graph);
    expect(svg).not.toContain("<text");
    const categories = new Set(graph.nodes.map((n) => n.type)).size;
    expect(pathCount(svg)).toBeLessThanOrEqual(1 + categories);
    expect(svg.length).toBeLessThan(400_000);
  });

  it("escapes what it writes and never includes user text", () => {
    const graph: ArchitectureGraph = {
      nodes: [
        {
          id: "<script>",
          type: "Input",
          params: {},
          position: { x: 0, y: 0 },
          label: '<img src=x onerror="alert(1)">',
        },
      ],
      edges: [],
    };
    const svg = graphPreviewSvg(graph);
    expect(svg).not.toContain("<script");
    expect(svg).not.toContain("onerror");
    expect(svg).toContain(">Input</text>");
  });
});
