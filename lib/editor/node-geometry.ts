/**
 * Where a layer node and its handles are, without the DOM: every layer node is drawn at one fixed
 * size, so the overview renderer, hit-testing and thumbnails can place nodes and edges from the
 * store alone (thousands of nodes, none of them mounted).
 */
import type { XYPosition } from "@xyflow/react";
import type { LayerType } from "@/lib/ml";
import { handlePort } from "./graph-mapping";
import { inputHandles } from "./ports";

/** The layer node's box (components/editor/layer-node.tsx draws it at exactly this size). */
export const NODE_WIDTH = 200;
export const NODE_HEIGHT = 78;

export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

interface Positioned {
  id: string;
  position: XYPosition;
}

/** Bottom centre: the single output handle. */
export function outputPoint(position: XYPosition): XYPosition {
  return { x: position.x + NODE_WIDTH / 2, y: position.y + NODE_HEIGHT };
}

/**
 * Top edge, spread like the node spreads its input handles: handle i of n sits at (i + 1) / (n + 1)
 * of the width.
 */
export function inputPoint(
  position: XYPosition,
  layerType: LayerType,
  connectedPorts: number,
  targetHandle: string | null | undefined,
): XYPosition {
  const count = Math.max(1, inputHandles(layerType, connectedPorts).length);
  const port = Math.min(handlePort(targetHandle), count - 1);
  return { x: position.x + ((port + 1) / (count + 1)) * NODE_WIDTH, y: position.y };
}

/**
 * How far an edge's bezier control points stand off its ends (React Flow's rule for a bottom source
 * and a top target): half the drop when the target is below, a little more when it is above.
 */
export function edgeControlOffset(from: XYPosition, to: XYPosition): number {
  const d = to.y - from.y;
  return d >= 0 ? 0.5 * d : 0.25 * 25 * Math.sqrt(-d);
}

/** The topmost node under a point (the last one drawn wins, as on screen), or null. */
export function nodeAt<T extends Positioned>(nodes: readonly T[], point: XYPosition): T | null {
  for (let i = nodes.length - 1; i >= 0; i--) {
    const { x, y } = nodes[i].position;
    if (point.x >= x && point.x <= x + NODE_WIDTH && point.y >= y && point.y <= y + NODE_HEIGHT) {
      return nodes[i];
    }
  }
  return null;
}

/** Ids of the nodes that overlap a rectangle (any corner order). */
export function nodesInRect<T extends Positioned>(nodes: readonly T[], rect: Rect): string[] {
  const left = Math.min(rect.x, rect.x + rect.width);
  const right = Math.max(rect.x, rect.x + rect.width);
  const top = Math.min(rect.y, rect.y + rect.height);
  const bottom = Math.max(rect.y, rect.y + rect.height);
  const ids: string[] = [];
  for (const n of nodes) {
    const { x, y } = n.position;
    if (x <= right && x + NODE_WIDTH >= left && y <= bottom && y + NODE_HEIGHT >= top) ids.push(n.id);
  }
  return ids;
}

/** The box around every node, or null for an empty diagram. */
export function boundsOf(nodes: readonly Positioned[]): Rect | null {
  if (nodes.length === 0) return null;
  let minX = Number.POSITIVE_INFINITY;
  let minY = Number.POSITIVE_INFINITY;
  let maxX = Number.NEGATIVE_INFINITY;
  let maxY = Number.NEGATIVE_INFINITY;
  for (const { position: p } of nodes) {
    minX = Math.min(minX, p.x);
    minY = Math.min(minY, p.y);
    maxX = Math.max(maxX, p.x + NODE_WIDTH);
    maxY = Math.max(maxY, p.y + NODE_HEIGHT);
  }
  return { x: minX, y: minY, width: maxX - minX, height: maxY - minY };
}

export type Direction = "left" | "right" | "up" | "down";

function centreOf(p: XYPosition): XYPosition {
  return { x: p.x + NODE_WIDTH / 2, y: p.y + NODE_HEIGHT / 2 };
}

/** The node whose centre is nearest a point, or null for an empty diagram. */
export function nearestNode<T extends Positioned>(nodes: readonly T[], point: XYPosition): T | null {
  let best: T | null = null;
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const n of nodes) {
    const c = centreOf(n.position);
    const d = (c.x - point.x) ** 2 + (c.y - point.y) ** 2;
    if (d < bestDistance) {
      best = n;
      bestDistance = d;
    }
  }
  return best;
}

/**
 * The next node from `from` in a direction (arrow-key navigation): within 45° of it, the nearest,
 * with sideways distance counted double so a move stays in its row or column. Null at the edge.
 */
export function nodeInDirection<T extends Positioned>(
  nodes: readonly T[],
  from: Positioned,
  direction: Direction,
): T | null {
  const start = centreOf(from.position);
  let best: T | null = null;
  let bestScore = Number.POSITIVE_INFINITY;
  for (const n of nodes) {
    if (n.id === from.id) continue;
    const c = centreOf(n.position);
    const dx = c.x - start.x;
    const dy = c.y - start.y;
    const [ahead, sideways] =
      direction === "left"
        ? [-dx, dy]
        : direction === "right"
          ? [dx, dy]
          : direction === "up"
            ? [-dy, dx]
            : [dy, dx];
    if (ahead <= 0 || Math.abs(sideways) > ahead) continue;
    const score = ahead + 2 * Math.abs(sideways);
    if (score < bestScore) {
      best = n;
      bestScore = score;
    }
  }
  return best;
}
