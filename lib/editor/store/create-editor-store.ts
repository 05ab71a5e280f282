/**
 * The editor's single owner of the diagram: a zustand store made of small slices (graph, history,
 * clipboard, revisions). React Flow is controlled from it; analysis is derived from it, never stored.
 */
import { createStore } from "zustand/vanilla";
import { type ArchitectureGraph, DEFAULT_TRAINING_CONFIG, type TrainingConfig } from "@/lib/ml";
import { toFlow } from "../graph-mapping";
import { createClipboardSlice } from "./clipboard-slice";
import { createGraphSlice } from "./graph-slice";
import { createHistorySlice } from "./history-slice";
import type { EditorState } from "./types";

export function createEditorStore(
  graph: ArchitectureGraph,
  training: TrainingConfig = DEFAULT_TRAINING_CONFIG,
) {
  const flow = toFlow(graph);
  return createStore<EditorState>()((set, get) => ({
    ...createGraphSlice(set, get, { nodes: flow.nodes, edges: flow.edges, training }),
    ...createHistorySlice(set, get),
    ...createClipboardSlice(set, get),
    rev: 0,
    savedRev: 0,
    markSaved: (rev) => set((s) => ({ savedRev: Math.max(s.savedRev, rev) })),
  }));
}

export type EditorStore = ReturnType<typeof createEditorStore>;
export type { EditorState, Snapshot } from "./types";
