"use client";

import { type FitViewOptions, MiniMap, type ReactFlowProps } from "@xyflow/react";
import { useState } from "react";
import { CATEGORY_FILL } from "@/lib/editor/category-colors";
import type { LayerFlowNode, ShapeFlowEdge } from "@/lib/editor/flow-types";
import { layerCatalog } from "@/lib/ml";
import { CanvasBackground } from "./canvas-background";
import { useEditorStore } from "./editor-store-context";
import { canvasClassName, canvasThemeStyle, edgeTypes, nodeTypes, VIRTUALIZE_ABOVE } from "./flow-config";
import { OverviewLayer } from "./overview-layer";
import { OverviewMinimap } from "./overview-minimap";
import { useFitOnOpen } from "./use-fit-on-open";
import { useFlowElements, useOverviewActive } from "./use-overview";

/** What every diagram (the editor, compare sides, shared page) gives React Flow. */
type BaseFlowProps = Pick<
  ReactFlowProps<LayerFlowNode, ShapeFlowEdge>,
  | "nodes"
  | "edges"
  | "nodeTypes"
  | "edgeTypes"
  | "onlyRenderVisibleElements"
  | "defaultViewport"
  | "minZoom"
  | "deleteKeyCode"
  | "className"
  | "style"
>;

function minimapColor(node: LayerFlowNode): string {
  return CATEGORY_FILL[layerCatalog[node.data.layerType]?.category ?? "Core"];
}

/**
 * A diagram of the store's graph: the nodes and edges React Flow gets (hidden in the overview of a
 * big diagram), fitted once on open (hidden until then, so there is no jump from 100%), with only
 * what is on screen rendered above VIRTUALIZE_ABOVE layers.
 */
export function useDiagramBase(fitViewOptions: FitViewOptions): {
  overview: boolean;
  /** More layers than are rendered at once: the minimap is drawn on a canvas too. */
  big: boolean;
  props: BaseFlowProps;
} {
  const nodes = useEditorStore((s) => s.nodes);
  const edges = useEditorStore((s) => s.edges);
  // Fit what the diagram opened with; a blank canvas stays at 100% while layers are dropped in.
  const [fitOnOpen] = useState(() => nodes.length > 0);
  const ready = useFitOnOpen(fitOnOpen, fitViewOptions);
  const overview = useOverviewActive(nodes.length, !ready);
  const flow = useFlowElements(nodes, edges, overview);
  // Big diagrams open zoomed out, so the first render is the light one (the overview).
  const [defaultViewport] = useState(() => ({ x: 0, y: 0, zoom: nodes.length > VIRTUALIZE_ABOVE ? 0.1 : 1 }));
  return {
    overview,
    big: nodes.length > VIRTUALIZE_ABOVE,
    props: {
      nodes: flow.nodes,
      edges: flow.edges,
      nodeTypes,
      edgeTypes,
      onlyRenderVisibleElements: nodes.length > VIRTUALIZE_ABOVE,
      defaultViewport,
      minZoom: 0.05,
      deleteKeyCode: null,
      className: `${canvasClassName} ${ready ? "" : "opacity-0"}`,
      style: canvasThemeStyle,
    },
  };
}

/**
 * The background, the overview when it is active, and the minimap: drawn on a canvas for big
 * diagrams (React Flow's own is an SVG element per layer, repainted as a layer is dragged).
 */
export function DiagramLayers({
  overview,
  big,
  interactive,
  minimap = true,
}: {
  overview: boolean;
  big: boolean;
  interactive: boolean;
  minimap?: boolean;
}) {
  const canvasMinimap = overview || big;
  return (
    <>
      <CanvasBackground />
      {overview ? <OverviewLayer interactive={interactive} /> : null}
      {minimap && canvasMinimap ? <OverviewMinimap /> : null}
      {minimap && !canvasMinimap ? (
        <MiniMap<LayerFlowNode>
          pannable
          zoomable
          nodeColor={minimapColor}
          ariaLabel="Minimap"
          // On a phone the diagram needs the whole screen.
          className="max-md:hidden!"
        />
      ) : null}
    </>
  );
}
