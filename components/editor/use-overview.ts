"use client";

import { useMemo, useRef } from "react";
import type { LayerFlowNode, ShapeFlowEdge } from "@/lib/editor/flow-types";
import { NODE_HEIGHT, NODE_WIDTH } from "@/lib/editor/node-geometry";
import { useZoomedOut } from "./use-zoomed-out";

/**
 * Above this many layers, zooming out past readable detail switches to the overview: the diagram
 * drawn on one canvas instead of thousands of DOM nodes and SVG edges (bench/editor-fps.ts).
 */
export const OVERVIEW_ABOVE = 200;

/**
 * True while a big diagram is zoomed out far enough to be shown as the overview, and while it opens
 * (until it is fitted into view the zoom is React Flow's initial 100%: rendering thousands of layer
 * nodes for that moment, only to drop them when the fit zooms out, cost seconds).
 */
export function useOverviewActive(nodeCount: number, opening: boolean): boolean {
  const zoomedOut = useZoomedOut();
  return nodeCount > OVERVIEW_ABOVE && (zoomedOut || opening);
}

const NO_EDGES: ShapeFlowEdge[] = [];

/**
 * What React Flow gets for a big diagram. Nodes carry their fixed size, so fitting and bounds work
 * for nodes never mounted; in the overview they are hidden (React Flow mounts none of them but
 * still knows them for fitting the view) and it gets no edges (the overview draws them). Each store
 * node maps to one stable copy, so a drag re-adopts only the node that moved.
 */
export function useFlowElements(
  nodes: LayerFlowNode[],
  edges: ShapeFlowEdge[],
  overview: boolean,
): { nodes: LayerFlowNode[]; edges: ShapeFlowEdge[] } {
  const copies = useRef({ shown: new WeakMap<LayerFlowNode, LayerFlowNode>(), hidden: new WeakMap() });
  const big = nodes.length > OVERVIEW_ABOVE;
  const flowNodes = useMemo(() => {
    if (!big) return nodes;
    const cache: WeakMap<LayerFlowNode, LayerFlowNode> = overview
      ? copies.current.hidden
      : copies.current.shown;
    return nodes.map((n) => {
      let copy = cache.get(n);
      if (!copy) {
        copy = { ...n, hidden: overview, initialWidth: NODE_WIDTH, initialHeight: NODE_HEIGHT };
        cache.set(n, copy);
      }
      return copy;
    });
  }, [big, nodes, overview]);
  return { nodes: flowNodes, edges: overview ? NO_EDGES : edges };
}
