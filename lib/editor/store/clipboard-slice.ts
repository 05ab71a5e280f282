import { sameClip } from "../clip-format";
import { copySubgraph, pasteSubgraph } from "../clipboard";
import { commit } from "./commit";
import type { ClipboardSlice, GetState, SetState } from "./types";

const PASTE_OFFSET = 40;

export function createClipboardSlice(set: SetState, get: GetState): ClipboardSlice {
  return {
    clipboard: null,
    pasteCount: 0,

    copySelection: () => {
      const state = get();
      const ids = new Set(state.nodes.filter((n) => n.selected).map((n) => n.id));
      const clip = copySubgraph(state.nodes, state.edges, ids);
      if (clip) set({ clipboard: clip, pasteCount: 0 });
      return clip;
    },

    paste: (from) => {
      const state = get();
      const clip = from ?? state.clipboard;
      if (!clip) return;
      // Pasting the same layers again lands one step further; other layers start at one step.
      const again = state.clipboard !== null && (from === undefined || sameClip(from, state.clipboard));
      const count = again ? state.pasteCount + 1 : 1;
      const pasted = pasteSubgraph(clip, new Set(state.nodes.map((n) => n.id)), {
        x: PASTE_OFFSET * count,
        y: PASTE_OFFSET * count,
      });
      const nodes = [
        ...state.nodes.map((n) => (n.selected ? { ...n, selected: false } : n)),
        ...pasted.nodes,
      ];
      const edges = [
        ...state.edges.map((e) => (e.selected ? { ...e, selected: false } : e)),
        ...pasted.edges,
      ];
      set({ ...commit(state, { nodes, edges }), clipboard: clip, pasteCount: count });
    },
  };
}
