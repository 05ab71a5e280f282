"use client";

import { useReactFlow, useStoreApi } from "@xyflow/react";
import { useCallback, useRef } from "react";
import type { LayerType } from "@/lib/ml";
import { useEditorStore } from "./editor-store-context";

/** Adds a layer in the middle of what the canvas shows, nudging repeated adds so they do not stack. */
export function useAddLayerAtCenter() {
  const addLayer = useEditorStore((s) => s.addLayer);
  const { screenToFlowPosition } = useReactFlow();
  const flowStore = useStoreApi();
  const count = useRef(0);
  return useCallback(
    (type: LayerType) => {
      const rect = flowStore.getState().domNode?.getBoundingClientRect();
      const center = rect
        ? screenToFlowPosition({ x: rect.left + rect.width / 2, y: rect.top + rect.height / 2 })
        : { x: 0, y: 0 };
      const nudge = (count.current++ % 6) * 24;
      return addLayer(type, { x: Math.round(center.x - 100 + nudge), y: Math.round(center.y - 35 + nudge) });
    },
    [addLayer, flowStore, screenToFlowPosition],
  );
}
