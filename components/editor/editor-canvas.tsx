"use client";

import "@xyflow/react/dist/style.css";
import { type Connection, Controls, type Edge, MiniMap, ReactFlow, useReactFlow } from "@xyflow/react";
import { type DragEvent, useCallback, useState } from "react";
import type { LayerFlowNode, ShapeFlowEdge } from "@/lib/editor/flow-types";
import { canConnect } from "@/lib/editor/store/connect-rules";
import { isLayerType, layerCatalog } from "@/lib/ml";
import { CanvasBackground } from "./canvas-background";
import { CATEGORY_FILL } from "./category-style";
import { useEditorStore, useEditorStoreApi } from "./editor-store-context";
import {
  canvasClassName,
  canvasThemeStyle,
  edgeTypes,
  LAYER_DRAG_MIME,
  nodeTypes,
  VIRTUALIZE_ABOVE,
} from "./flow-config";
import { OverviewLayer } from "./overview-layer";
import { OverviewMinimap } from "./overview-minimap";
import { useFitOnOpen } from "./use-fit-on-open";
import { useFlowElements, useOverviewActive } from "./use-overview";

export function minimapColor(node: LayerFlowNode): string {
  return CATEGORY_FILL[layerCatalog[node.data.layerType]?.category ?? "Core"];
}

const fitViewOptions = { maxZoom: 1, padding: 0.2, includeHiddenNodes: true };
const proOptions = { hideAttribution: false };

/** The editable diagram: React Flow controlled from the editor store. */
export function EditorCanvas() {
  const store = useEditorStoreApi();
  const nodes = useEditorStore((s) => s.nodes);
  const edges = useEditorStore((s) => s.edges);
  const onNodesChange = useEditorStore((s) => s.onNodesChange);
  const onEdgesChange = useEditorStore((s) => s.onEdgesChange);
  const onConnect = useEditorStore((s) => s.connect);
  const beginGesture = useEditorStore((s) => s.beginGesture);
  const endGesture = useEditorStore((s) => s.endGesture);
  const addLayer = useEditorStore((s) => s.addLayer);
  const { screenToFlowPosition } = useReactFlow();
  const overview = useOverviewActive(nodes.length);
  const flow = useFlowElements(nodes, edges, overview);
  // Fit what the project opened with; a blank canvas stays at 100% while layers are dropped in.
  const [fitOnOpen] = useState(() => nodes.length > 0);
  const ready = useFitOnOpen(fitOnOpen, fitViewOptions);
  // Big diagrams open zoomed out, so the first render (every node, to measure it) is the light one.
  const [defaultViewport] = useState(() => ({ x: 0, y: 0, zoom: nodes.length > VIRTUALIZE_ABOVE ? 0.1 : 1 }));

  const isValidConnection = useCallback(
    (c: Connection | Edge) => {
      const s = store.getState();
      return canConnect(s.nodes, s.edges, {
        source: c.source,
        target: c.target,
        targetHandle: c.targetHandle ?? null,
      });
    },
    [store],
  );

  const onDragOver = useCallback((e: DragEvent) => {
    if (!e.dataTransfer.types.includes(LAYER_DRAG_MIME)) return;
    e.preventDefault();
    e.dataTransfer.dropEffect = "copy";
  }, []);

  const onDrop = useCallback(
    (e: DragEvent) => {
      const type = e.dataTransfer.getData(LAYER_DRAG_MIME);
      if (!isLayerType(type)) return;
      e.preventDefault();
      const p = screenToFlowPosition({ x: e.clientX, y: e.clientY });
      // Centre the node (200 × ~70) under the pointer.
      addLayer(type, { x: Math.round(p.x - 100), y: Math.round(p.y - 35) });
    },
    [addLayer, screenToFlowPosition],
  );

  return (
    <ReactFlow<LayerFlowNode, ShapeFlowEdge>
      nodes={flow.nodes}
      edges={flow.edges}
      nodeTypes={nodeTypes}
      edgeTypes={edgeTypes}
      onNodesChange={onNodesChange}
      onEdgesChange={onEdgesChange}
      onConnect={onConnect}
      isValidConnection={isValidConnection}
      onNodeDragStart={beginGesture}
      onNodeDragStop={endGesture}
      onSelectionDragStart={beginGesture}
      onSelectionDragStop={endGesture}
      onDragOver={onDragOver}
      onDrop={onDrop}
      deleteKeyCode={null}
      onlyRenderVisibleElements={nodes.length > VIRTUALIZE_ABOVE}
      defaultViewport={defaultViewport}
      minZoom={0.05}
      maxZoom={2}
      proOptions={proOptions}
      className={`${canvasClassName} ${ready ? "" : "opacity-0"}`}
      style={canvasThemeStyle}
      aria-label="Architecture diagram"
    >
      <CanvasBackground />
      {overview ? <OverviewLayer interactive /> : null}
      {overview ? (
        <OverviewMinimap />
      ) : (
        <MiniMap<LayerFlowNode> pannable zoomable nodeColor={minimapColor} ariaLabel="Minimap" />
      )}
      <Controls showInteractive={false} showFitView={false} />
    </ReactFlow>
  );
}
