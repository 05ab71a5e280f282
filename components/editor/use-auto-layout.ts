"use client";

import { useReactFlow } from "@xyflow/react";
import { useCallback, useState } from "react";
import { fromFlow } from "@/lib/editor/graph-mapping";
import { useEditorStoreApi } from "./editor-store-context";

/** Lays the diagram out top-to-bottom with elkjs (loaded on first use), as one undoable step. */
export function useAutoLayout() {
  const store = useEditorStoreApi();
  const { getNodes, fitView } = useReactFlow();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const run = useCallback(async () => {
    setBusy(true);
    setError(null);
    try {
      const { autoLayout } = await import("@/lib/ml/auto-layout");
      const s = store.getState();
      const sizes: Record<string, { width: number; height: number }> = {};
      for (const n of getNodes()) {
        if (n.measured?.width && n.measured.height)
          sizes[n.id] = { width: n.measured.width, height: n.measured.height };
      }
      const laid = await autoLayout(fromFlow(s.nodes, s.edges), { sizes, layerSpacing: 60 });
      store.getState().applyPositions(new Map(laid.nodes.map((n) => [n.id, n.position])));
      requestAnimationFrame(() => {
        fitView({ duration: 400, maxZoom: 1, padding: 0.15, includeHiddenNodes: true });
      });
    } catch {
      setError("Auto-layout could not arrange this diagram.");
    } finally {
      setBusy(false);
    }
  }, [fitView, getNodes, store]);
  return { run, busy, error };
}
