"use client";

import { useReactFlow } from "@xyflow/react";
import { useCallback } from "react";
import { NODE_HEIGHT, NODE_WIDTH } from "@/lib/editor/node-geometry";
import { useEditorStore } from "./editor-store-context";

/** Selects a node and brings it to the middle of the canvas. */
export function useFocusNode() {
  const selectNode = useEditorStore((s) => s.selectNode);
  const { getNode, setCenter, getZoom } = useReactFlow();
  return useCallback(
    (id: string) => {
      selectNode(id);
      const node = getNode(id);
      if (!node) return;
      const w = node.measured?.width ?? NODE_WIDTH;
      const h = node.measured?.height ?? NODE_HEIGHT;
      setCenter(node.position.x + w / 2, node.position.y + h / 2, {
        zoom: Math.max(getZoom(), 0.9),
        duration: 350,
      });
    },
    [getNode, getZoom, selectNode, setCenter],
  );
}
