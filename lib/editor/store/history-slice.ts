import { emptyHistory, record, redo, undo } from "../history";
import { snapshotOf } from "./commit";
import type { GetState, HistorySlice, SetState } from "./types";

export function createHistorySlice(set: SetState, get: GetState): HistorySlice {
  return {
    history: emptyHistory(),
    gesture: null,

    undo: () => {
      const state = get();
      const step = undo(state.history, snapshotOf(state));
      if (step) set({ ...step.state, history: step.history, rev: state.rev + 1 });
    },

    redo: () => {
      const state = get();
      const step = redo(state.history, snapshotOf(state));
      if (step) set({ ...step.state, history: step.history, rev: state.rev + 1 });
    },

    beginGesture: () => set({ gesture: snapshotOf(get()) }),

    endGesture: () => {
      const state = get();
      const before = state.gesture;
      if (!before) return;
      const moved =
        before.nodes.length !== state.nodes.length ||
        state.nodes.some((n, i) => {
          const p = before.nodes[i]?.position;
          return !p || p.x !== n.position.x || p.y !== n.position.y;
        });
      set(moved ? { gesture: null, history: record(state.history, before) } : { gesture: null });
    },
  };
}
