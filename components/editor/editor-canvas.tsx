"use client";

import "@xyflow/react/dist/style.css";
import { type Connection, Controls, type Edge, ReactFlow, useReactFlow } from "@xyflow/react";
import { type DragEvent, useCallback } from "react";
import type { LayerFlowNode, ShapeFlowEdge } from "@/lib/editor/flow-types";
import { NODE_HEIGHT, NODE_WIDTH } from "@/lib/editor/node-geometry";
import { canConnect } from "@/lib/editor/store/connect-rules";
import { isLayerType } from "@/lib/ml";
import { DiagramLayers, useDiagramBase } from "./diagram-base";
import { useEditorStore, useEditorStoreApi } from "./editor-store-context";
import { LAYER_DRAG_MIME } from "./flow-config";

const fitViewOptions = { maxZoom: 1, padding: 0.2, includeHiddenNodes: true };
const proOptions = { hideAttribution: false };

/** The editable diagram: React Flow controlled from the editor store. */
export function EditorCanvas() {
  const store = useEditorStoreApi();
  const onNodesChange = useEditorStore((s) => s.onNodesChange);
  const onEdgesChange = useEditorStore((s) => s.onEdgesChange);
  const onConnect = useEditorStore((s) => s.connect);
  const beginGesture = useEditorStore((s) => s.beginGesture);
  const endGesture = useEditorStore((s) => s.endGesture);
  const addLayer = useEditorStore((s) => s.addLayer);
  const { screenToFlowPosition } = useReactFlow();
  const { overview, big, props } = useDiagramBase(fitViewOptions);

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
      // Centre the node under the pointer.
      addLayer(type, { x: Math.round(p.x - NODE_WIDTH / 2), y: Math.round(p.y - NODE_HEIGHT / 2) });
    },
    [addLayer, screenToFlowPosition],
  );

  return (
    <ReactFlow<LayerFlowNode, ShapeFlowEdge>
      {...props}
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
      maxZoom={2}
      proOptions={proOptions}
      aria-label="Architecture diagram"
    >
      <DiagramLayers overview={overview} big={big} interactive />
      <Controls showInteractive={false} showFitView={false} />
    </ReactFlow>
  );
}
