import { applyEdgeChanges, applyNodeChanges } from "@xyflow/react";
import { defaultParams, type TrainingConfig } from "@/lib/ml";
import { uniqueNodeId } from "../clipboard";
import { OUTPUT_HANDLE, type ShapeFlowEdge } from "../flow-types";
import { handlePort, portHandleId, toFlow } from "../graph-mapping";
import { commit } from "./commit";
import { canConnect, edgeId } from "./connect-rules";
import type { GetState, GraphSlice, SetState } from "./types";

export function createGraphSlice(
  set: SetState,
  get: GetState,
  initial: Pick<GraphSlice, "nodes" | "edges" | "training">,
): GraphSlice {
  return {
    ...initial,

    onNodesChange: (changes) => {
      const state = get();
      const structural = changes.some((c) => c.type === "remove" || c.type === "add" || c.type === "replace");
      const moved = changes.some((c) => c.type === "position" && c.position);
      const nodes = applyNodeChanges(changes, state.nodes);
      if (structural) set(commit(state, { nodes }));
      else set(moved ? { nodes, rev: state.rev + 1 } : { nodes });
    },

    onEdgesChange: (changes) => {
      const state = get();
      const edges = applyEdgeChanges(changes, state.edges);
      const structural = changes.some((c) => c.type !== "select");
      set(structural ? commit(state, { edges }) : { edges });
    },

    connect: (c) => {
      const state = get();
      if (!canConnect(state.nodes, state.edges, c)) return;
      const port = handlePort(c.targetHandle);
      // A port takes one input: connecting to an occupied port replaces what was there.
      const kept = state.edges.filter((e) => !(e.target === c.target && handlePort(e.targetHandle) === port));
      const edge: ShapeFlowEdge = {
        id: edgeId(kept, c.source, c.target, port),
        type: "shape",
        source: c.source,
        target: c.target,
        sourceHandle: OUTPUT_HANDLE,
        targetHandle: portHandleId(port),
      };
      set(commit(state, { edges: [...kept, edge] }));
    },

    addLayer: (type, position) => {
      const state = get();
      const id = uniqueNodeId(type, new Set(state.nodes.map((n) => n.id)));
      const nodes = state.nodes.map((n) => (n.selected ? { ...n, selected: false } : n));
      nodes.push({
        id,
        type: "layer",
        position,
        data: { layerType: type, params: defaultParams(type) },
        selected: true,
      });
      const edges = state.edges.map((e) => (e.selected ? { ...e, selected: false } : e));
      set(commit(state, { nodes, edges }));
      return id;
    },

    updateParam: (id, name, value) => {
      const state = get();
      const nodes = state.nodes.map((n) => {
        if (n.id !== id) return n;
        const params = { ...n.data.params };
        if (value === undefined) delete params[name];
        else params[name] = value;
        return { ...n, data: { ...n.data, params } };
      });
      set(commit(state, { nodes }, { key: `param:${id}:${name}` }));
    },

    setLabel: (id, label) => {
      const state = get();
      const nodes = state.nodes.map((n) => {
        if (n.id !== id) return n;
        const data = { ...n.data };
        if (label.trim() === "") delete data.label;
        else data.label = label;
        return { ...n, data };
      });
      set(commit(state, { nodes }, { key: `label:${id}` }));
    },

    deleteSelection: () => {
      const state = get();
      const removed = new Set(state.nodes.filter((n) => n.selected).map((n) => n.id));
      const edges = state.edges.filter(
        (e) => !e.selected && !removed.has(e.source) && !removed.has(e.target),
      );
      if (removed.size === 0 && edges.length === state.edges.length) return;
      set(commit(state, { nodes: state.nodes.filter((n) => !removed.has(n.id)), edges }));
    },

    selectNode: (id) => {
      const state = get();
      set({
        nodes: state.nodes.map((n) => {
          const selected = n.id === id;
          return Boolean(n.selected) === selected ? n : { ...n, selected };
        }),
        edges: state.edges.map((e) => (e.selected ? { ...e, selected: false } : e)),
      });
    },

    selectAll: (selected) => {
      const state = get();
      set({
        nodes: state.nodes.map((n) => (Boolean(n.selected) === selected ? n : { ...n, selected })),
        edges: state.edges.map((e) => (Boolean(e.selected) === selected ? e : { ...e, selected })),
      });
    },

    setTraining: (field, value) => {
      const state = get();
      const training = { ...state.training, [field]: value } as TrainingConfig;
      set(commit(state, { training }, { key: `training:${field}` }));
    },

    applyPositions: (positions) => {
      const state = get();
      const nodes = state.nodes.map((n) => {
        const p = positions.get(n.id);
        return p && (p.x !== n.position.x || p.y !== n.position.y) ? { ...n, position: { ...p } } : n;
      });
      set(commit(state, { nodes }));
    },

    replaceAll: (graph, training) => {
      const state = get();
      const flow = toFlow(graph);
      set(commit(state, { nodes: flow.nodes, edges: flow.edges, training }));
    },
  };
}
