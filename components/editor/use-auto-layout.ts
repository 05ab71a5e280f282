"use client";

import { useReactFlow } from "@xyflow/react";
import { useCallback, useState } from "react";
import { fromFlow } from "@/lib/editor/graph-mapping";
import { layoutPositions } from "@/lib/editor/layout-in-worker";
import { NODE_HEIGHT, NODE_WIDTH } from "@/lib/editor/node-geometry";
import { useEditorStoreApi } from "./editor-store-context";

/**
 * Lays the diagram out top-to-bottom with elkjs in a worker (the editor stays responsive while it
 * runs), as one undoable step. Layers added meanwhile keep their place.
 */
export function useAutoLayout() {
  const store = useEditorStoreApi();
  const { fitView } = useReactFlow();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const run = useCallback(async () => {
    setBusy(true);
    setError(null);
    try {
      const { nodes, edges } = store.getState();
      const positions = await layoutPositions(fromFlow(nodes, edges), {
        nodeWidth: NODE_WIDTH,
        nodeHeight: NODE_HEIGHT,
        layerSpacing: 60,
      });
      store.getState().applyPositions(positions);
      requestAnimationFrame(() => {
        fitView({ duration: 400, maxZoom: 1, padding: 0.15, includeHiddenNodes: true });
      });
    } catch {
      setError("Auto-layout could not arrange this diagram.");
    } finally {
      setBusy(false);
    }
  }, [fitView, store]);
  return { run, busy, error };
}
