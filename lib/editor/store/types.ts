import type { Connection, EdgeChange, NodeChange, XYPosition } from "@xyflow/react";
import type { ArchitectureGraph, LayerType, TrainingConfig } from "@/lib/ml";
import type { Clip } from "../clipboard";
import type { LayerFlowNode, ShapeFlowEdge } from "../flow-types";
import type { History } from "../history";

/** What undo restores: the model and its training configuration. */
export interface Snapshot {
  nodes: LayerFlowNode[];
  edges: ShapeFlowEdge[];
  training: TrainingConfig;
}

/** The diagram: React Flow is controlled from these nodes and edges. */
export interface GraphSlice {
  nodes: LayerFlowNode[];
  edges: ShapeFlowEdge[];
  training: TrainingConfig;
  onNodesChange: (changes: NodeChange<LayerFlowNode>[]) => void;
  onEdgesChange: (changes: EdgeChange<ShapeFlowEdge>[]) => void;
  connect: (connection: Connection) => void;
  addLayer: (type: LayerType, position: XYPosition) => string;
  updateParam: (id: string, name: string, value: unknown) => void;
  setLabel: (id: string, label: string) => void;
  deleteSelection: () => void;
  /** Selects exactly this node (issues list, search). */
  selectNode: (id: string) => void;
  /** Selects (true) or deselects (false) every node and edge. */
  selectAll: (selected: boolean) => void;
  setTraining: (field: keyof TrainingConfig, value: unknown) => void;
  /** Moves nodes (auto-layout) as one undoable step. */
  applyPositions: (positions: ReadonlyMap<string, XYPosition>) => void;
  /** Replaces everything (restore of a version) as one undoable step. */
  replaceAll: (graph: ArchitectureGraph, training: TrainingConfig) => void;
}

/** Undo/redo of snapshots; a drag is one gesture, recorded when it ends if anything moved. */
export interface HistorySlice {
  history: History<Snapshot>;
  gesture: Snapshot | null;
  undo: () => void;
  redo: () => void;
  beginGesture: () => void;
  endGesture: () => void;
}

/** Copy and paste; the system clipboard is read and written by the editor's copy/paste events. */
export interface ClipboardSlice {
  /** The last layers copied or pasted in this editor. */
  clipboard: Clip | null;
  pasteCount: number;
  /** Copies the selected layers (null when none are selected). */
  copySelection: () => Clip | null;
  /** Pastes `clip` (read from the system clipboard), or else the layers kept in `clipboard`. */
  paste: (clip?: Clip) => void;
}

/** Revision counters for autosave: the model changed since it was last saved when rev ≠ savedRev. */
export interface RevisionSlice {
  rev: number;
  savedRev: number;
  markSaved: (rev: number) => void;
}

export type EditorState = GraphSlice & HistorySlice & ClipboardSlice & RevisionSlice;

export type SetState = (
  partial: Partial<EditorState> | ((state: EditorState) => Partial<EditorState>),
) => void;
export type GetState = () => EditorState;
