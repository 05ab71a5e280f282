import { type RecordOptions, record } from "../history";
import type { EditorState, Snapshot } from "./types";

export function snapshotOf(state: Pick<EditorState, "nodes" | "edges" | "training">): Snapshot {
  return { nodes: state.nodes, edges: state.edges, training: state.training };
}

/**
 * One undoable change of the model: records the state before it, applies the patch and bumps the
 * revision (autosave). Every model-changing action goes through here.
 */
export function commit(
  state: EditorState,
  patch: Partial<Pick<EditorState, "nodes" | "edges" | "training">>,
  options: RecordOptions = {},
): Partial<EditorState> {
  return {
    ...patch,
    history: record(state.history, snapshotOf(state), options),
    rev: state.rev + 1,
  };
}
