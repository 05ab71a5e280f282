"use client";

import { type ReactFlowState, useStore } from "@xyflow/react";

/** Below this zoom, text on nodes and edges is unreadable: draw a simpler diagram (level of detail). */
export const DETAIL_ZOOM = 0.45;

const zoomedOut = (s: ReactFlowState) => s.transform[2] < DETAIL_ZOOM;

/** True while the canvas is zoomed out past readable detail (re-renders only when that flips). */
export function useZoomedOut(): boolean {
  return useStore(zoomedOut);
}
