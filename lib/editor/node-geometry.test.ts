import { describe, expect, it } from "vitest";
import {
  boundsOf,
  inputPoint,
  NODE_HEIGHT,
  NODE_WIDTH,
  nearestNode,
  nodeAt,
  nodeInDirection,
  nodesInRect,
  outputPoint,
} from "./node-geometry";

const at = (id: string, x: number, y: number) => ({ id, position: { x, y } });

describe("node geometry", () => {
  it("puts the output handle at the bottom centre", () => {
    expect(outputPoint({ x: 10, y: 20 })).toEqual({ x: 10 + NODE_WIDTH / 2, y: 20 + NODE_HEIGHT });
  });

  it("spreads input handles like the node does", () => {
    // One input: the middle of the top edge.
    expect(inputPoint({ x: 0, y: 0 }, "Dense", 1, "in-0")).toEqual({ x: NODE_WIDTH / 2, y: 0 });
    // Attention always shows q, k, v: the value port is at 3/4 of the width.
    expect(inputPoint({ x: 0, y: 0 }, "MultiHeadAttention", 0, "in-2")).toEqual({ x: 150, y: 0 });
    // Add with two connected ports shows three handles (one free): port 1 sits in the middle.
    expect(inputPoint({ x: 100, y: 50 }, "Add", 2, "in-1")).toEqual({ x: 200, y: 50 });
  });

  it("finds the topmost node under a point", () => {
    const nodes = [at("a", 0, 0), at("b", 150, 40), at("c", 1000, 1000)];
    expect(nodeAt(nodes, { x: 10, y: 10 })?.id).toBe("a");
    // a and b overlap here; b is drawn last, so it is on top.
    expect(nodeAt(nodes, { x: 180, y: 60 })?.id).toBe("b");
    expect(nodeAt(nodes, { x: 600, y: 600 })).toBeNull();
    expect(nodeAt(nodes, { x: 1000 + NODE_WIDTH, y: 1000 + NODE_HEIGHT })?.id).toBe("c");
  });

  it("selects the nodes a rectangle touches, dragged in any direction", () => {
    const nodes = [at("a", 0, 0), at("b", 300, 0), at("c", 0, 300)];
    expect(nodesInRect(nodes, { x: -10, y: -10, width: 250, height: 100 })).toEqual(["a"]);
    expect(nodesInRect(nodes, { x: 600, y: 400, width: -390, height: -500 })).toEqual(["b"]);
    expect(nodesInRect(nodes, { x: 100, y: 500, width: 300, height: -450 })).toEqual(["a", "b", "c"]);
    expect(nodesInRect(nodes, { x: 220, y: 100, width: 50, height: 150 })).toEqual([]);
  });

  it("bounds every node, or nothing for an empty diagram", () => {
    expect(boundsOf([])).toBeNull();
    expect(boundsOf([at("a", -50, 10), at("b", 400, 300)])).toEqual({
      x: -50,
      y: 10,
      width: 450 + NODE_WIDTH,
      height: 290 + NODE_HEIGHT,
    });
  });
});

describe("arrow-key navigation between nodes", () => {
  // A 3 × 3 grid, 260 apart sideways and 120 down (the way columns of layers are laid out).
  const grid = Array.from({ length: 9 }, (_, i) => at(`n${i}`, (i % 3) * 260, Math.floor(i / 3) * 120));
  const middle = grid[4];

  it("moves to the neighbour in each direction", () => {
    expect(nodeInDirection(grid, middle, "right")?.id).toBe("n5");
    expect(nodeInDirection(grid, middle, "left")?.id).toBe("n3");
    expect(nodeInDirection(grid, middle, "up")?.id).toBe("n1");
    expect(nodeInDirection(grid, middle, "down")?.id).toBe("n7");
  });

  it("stops at the edge", () => {
    expect(nodeInDirection(grid, grid[2], "right")).toBeNull();
    expect(nodeInDirection(grid, grid[6], "down")).toBeNull();
  });

  it("prefers staying in the row over a nearer node off to the side", () => {
    const nodes = [at("a", 0, 0), at("b", 300, 0), at("c", 150, 100)];
    expect(nodeInDirection(nodes, nodes[0], "right")?.id).toBe("b");
  });

  it("starts from the node nearest a point", () => {
    expect(nearestNode(grid, { x: 560, y: 260 })?.id).toBe("n8");
    expect(nearestNode([], { x: 0, y: 0 })).toBeNull();
  });
});
