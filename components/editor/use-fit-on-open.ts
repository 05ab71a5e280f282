"use client";

import { type FitViewOptions, useNodesInitialized, useReactFlow } from "@xyflow/react";
import { useEffect, useRef, useState } from "react";

/**
 * Fits the diagram into view once every node has been measured, and says when that is done so the
 * canvas can stay hidden until then (no jump from 100% to the fitted zoom). React Flow's own `fitView`
 * prop fits too early on big diagrams rendered with `onlyRenderVisibleElements`.
 */
export function useFitOnOpen(enabled: boolean, options: FitViewOptions): boolean {
  const initialized = useNodesInitialized();
  const { fitView } = useReactFlow();
  const done = useRef(!enabled);
  const [ready, setReady] = useState(!enabled);
  useEffect(() => {
    if (done.current || !initialized) return;
    done.current = true;
    fitView(options).finally(() => setReady(true));
  }, [initialized, fitView, options]);
  return ready;
}
