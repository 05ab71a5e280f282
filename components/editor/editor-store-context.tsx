"use client";

import { createContext, type ReactNode, useCallback, useContext, useState } from "react";
import { useStore } from "zustand";
import { useStoreWithEqualityFn } from "zustand/traditional";
import { createAnalysisMemo, type DerivedAnalysis } from "@/lib/editor/analysis-memo";
import type { LayerFlowNode, ShapeFlowEdge } from "@/lib/editor/flow-types";
import {
  createEditorStore,
  type EditorState,
  type EditorStore,
} from "@/lib/editor/store/create-editor-store";
import type { ArchitectureGraph, TrainingConfig } from "@/lib/ml";

export interface FlowElements {
  nodes: LayerFlowNode[];
  edges: ShapeFlowEdge[];
}

interface EditorContextValue {
  store: EditorStore;
  analyze: ReturnType<typeof createAnalysisMemo>;
}

const EditorContext = createContext<EditorContextValue | null>(null);

/** One store per open diagram (the editor, each side of a comparison, a shared page). */
export function EditorStoreProvider({
  graph,
  training,
  decorate,
  children,
}: {
  graph: ArchitectureGraph;
  training?: TrainingConfig;
  /** Marks nodes and edges before first render (diff colours in the compare view). */
  decorate?: (flow: FlowElements) => FlowElements;
  children: ReactNode;
}) {
  const [value] = useState<EditorContextValue>(() => {
    const store = createEditorStore(graph, training);
    if (decorate) {
      const { nodes, edges } = store.getState();
      store.setState(decorate({ nodes, edges }));
    }
    return { store, analyze: createAnalysisMemo() };
  });
  return <EditorContext.Provider value={value}>{children}</EditorContext.Provider>;
}

function useEditorContext(): EditorContextValue {
  const value = useContext(EditorContext);
  if (!value) throw new Error("EditorStoreProvider is missing");
  return value;
}

export function useEditorStoreApi(): EditorStore {
  return useEditorContext().store;
}

export function useEditorStore<T>(selector: (state: EditorState) => T): T {
  return useStore(useEditorContext().store, selector);
}

/** Like useEditorStore, with an equality function (e.g. zustand's `shallow`) for derived arrays/objects. */
export function useEditorStoreWith<T>(
  selector: (state: EditorState) => T,
  equal: (a: T, b: T) => boolean,
): T {
  return useStoreWithEqualityFn(useEditorContext().store, selector, equal);
}

/** A slice of the analysis derived from the current graph (recomputed only when the model changes). */
export function useAnalysis<T>(selector: (derived: DerivedAnalysis) => T): T {
  const { store, analyze } = useEditorContext();
  return useStore(store, (s) => selector(analyze(s.nodes, s.edges)));
}

/** The analysis function itself, for event handlers that read the current state. */
export function useAnalyze(): () => DerivedAnalysis {
  const { store, analyze } = useEditorContext();
  return useCallback(() => {
    const s = store.getState();
    return analyze(s.nodes, s.edges);
  }, [store, analyze]);
}
