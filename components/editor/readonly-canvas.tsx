"use client";

import "@xyflow/react/dist/style.css";
import { Controls, MiniMap, ReactFlow, ReactFlowProvider } from "@xyflow/react";
import { useState } from "react";
import type { LayerFlowNode, ShapeFlowEdge } from "@/lib/editor/flow-types";
import type { ArchitectureGraph } from "@/lib/ml";
import { CanvasBackground } from "./canvas-background";
import { minimapColor } from "./editor-canvas";
import { EditorStoreProvider, type FlowElements, useEditorStore } from "./editor-store-context";
import { canvasClassName, canvasThemeStyle, edgeTypes, nodeTypes, VIRTUALIZE_ABOVE } from "./flow-config";
import { OverviewLayer } from "./overview-layer";
import { OverviewMinimap } from "./overview-minimap";
import { useFitOnOpen } from "./use-fit-on-open";
import { useFlowElements, useOverviewActive } from "./use-overview";

const fitViewOptions = { maxZoom: 1, padding: 0.15, includeHiddenNodes: true };

function ReadOnlyFlow({ label, minimap }: { label: string; minimap: boolean }) {
  const nodes = useEditorStore((s) => s.nodes);
  const edges = useEditorStore((s) => s.edges);
  const onNodesChange = useEditorStore((s) => s.onNodesChange);
  const overview = useOverviewActive(nodes.length);
  const flow = useFlowElements(nodes, edges, overview);
  const [hasNodes] = useState(() => nodes.length > 0);
  const ready = useFitOnOpen(hasNodes, fitViewOptions);
  const [defaultViewport] = useState(() => ({ x: 0, y: 0, zoom: nodes.length > VIRTUALIZE_ABOVE ? 0.1 : 1 }));
  return (
    <ReactFlow<LayerFlowNode, ShapeFlowEdge>
      nodes={flow.nodes}
      edges={flow.edges}
      nodeTypes={nodeTypes}
      edgeTypes={edgeTypes}
      onNodesChange={onNodesChange}
      nodesDraggable={false}
      nodesConnectable={false}
      elementsSelectable={false}
      nodesFocusable={false}
      edgesFocusable={false}
      deleteKeyCode={null}
      onlyRenderVisibleElements={nodes.length > VIRTUALIZE_ABOVE}
      defaultViewport={defaultViewport}
      minZoom={0.05}
      className={`${canvasClassName} ${ready ? "" : "opacity-0"}`}
      style={canvasThemeStyle}
      aria-label={label}
    >
      <CanvasBackground />
      {overview ? <OverviewLayer interactive={false} /> : null}
      {minimap && overview ? <OverviewMinimap /> : null}
      {minimap && !overview ? (
        <MiniMap<LayerFlowNode> pannable zoomable nodeColor={minimapColor} ariaLabel="Minimap" />
      ) : null}
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
