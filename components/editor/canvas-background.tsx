"use client";

import { Background, BackgroundVariant } from "@xyflow/react";
import { useZoomedOut } from "./use-zoomed-out";

/** The dot grid, left out when zoomed far out (a dense 1–2 px pattern that only costs paint time). */
export function CanvasBackground() {
  const zoomedOut = useZoomedOut();
  return zoomedOut ? null : <Background variant={BackgroundVariant.Dots} gap={20} size={1.2} />;
}
