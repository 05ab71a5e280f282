"use client";

import "@xyflow/react/dist/style.css";
import { Controls, ReactFlow, ReactFlowProvider } from "@xyflow/react";
import type { LayerFlowNode, ShapeFlowEdge } from "@/lib/editor/flow-types";
import type { ArchitectureGraph } from "@/lib/ml";
import { DiagramLayers, useDiagramBase } from "./diagram-base";
import { EditorStoreProvider, type FlowElements, useEditorStore } from "./editor-store-context";

const fitViewOptions = { maxZoom: 1, padding: 0.15, includeHiddenNodes: true };

function ReadOnlyFlow({ label, minimap }: { label: string; minimap: boolean }) {
  const onNodesChange = useEditorStore((s) => s.onNodesChange);
  const { overview, big, props } = useDiagramBase(fitViewOptions);
  return (
    <ReactFlow<LayerFlowNode, ShapeFlowEdge>
      {...props}
      onNodesChange={onNodesChange}
      nodesDraggable={false}
      nodesConnectable={false}
      elementsSelectable={false}
      nodesFocusable={false}
      edgesFocusable={false}
      aria-label={label}
    >
      <DiagramLayers overview={overview} big={big} interactive={false} minimap={minimap} />
      <Controls showInteractive={false} />
    </ReactFlow>
  );
}

/**
 * A diagram to look at (compare view, shared page): pan and zoom, no editing. `decorate` marks nodes
 * and edges (diff colours) before they reach the store.
 */
export function ReadOnlyCanvas({
  graph,
  label,
  minimap = true,
  decorate,
}: {
  graph: ArchitectureGraph;
  label: string;
  minimap?: boolean;
  decorate?: (flow: FlowElements) => FlowElements;
}) {
  return (
    <ReactFlowProvider>
      <EditorStoreProvider graph={graph} decorate={decorate}>
        <ReadOnlyFlow label={label} minimap={minimap} />
      </EditorStoreProvider>
    </ReactFlowProvider>
  );
}
