"use client";

import { useCallback } from "react";
import { fromFlow } from "@/lib/editor/graph-mapping";
import { type DatasetFitPlan, type DatasetShape, fitModelToDataset } from "@/lib/ml/fit-dataset";
import { useEditorStoreApi } from "./editor-store-context";
import type { Autosave } from "./use-autosave";

/** The diagram on screen, as "Fit to dataset" would adapt it to a dataset (nothing is changed). */
export function usePlanFit(): (shape: DatasetShape) => DatasetFitPlan {
  const store = useEditorStoreApi();
  return useCallback(
    (shape) => {
      const s = store.getState();
      return fitModelToDataset(fromFlow(s.nodes, s.edges), shape);
    },
    [store],
  );
}

/**
 * Adapts the diagram to a dataset as ONE undoable step (Ctrl+Z gives the previous diagram back) and
 * saves it as the editor saves (autosave, at once): the Train dialog then trains what is on screen.
 */
export function useFitModel(
  autosave: Pick<Autosave, "flush">,
): (shape: DatasetShape) => Promise<DatasetFitPlan> {
  const store = useEditorStoreApi();
  const plan = usePlanFit();
  return useCallback(
    async (shape) => {
      const result = plan(shape);
      if (result.changed && result.fits) {
        const s = store.getState();
        s.replaceAll(result.graph, s.training);
        await autosave.flush();
      }
      return result;
    },
    [autosave, plan, store],
  );
}
