import type { CSSProperties } from "react";
import { LayerNode } from "./layer-node";
import { ShapeEdge } from "./shape-edge";

/** Module-scope so React Flow never sees new objects (its performance guidance). */
export const nodeTypes = { layer: LayerNode };
export const edgeTypes = { shape: ShapeEdge };

/** React Flow's colours from the app theme tokens, so light and dark follow the `.dark` class. */
export const canvasThemeStyle = {
  "--xy-background-color": "var(--bg)",
  "--xy-background-pattern-color": "var(--border)",
  "--xy-edge-stroke": "var(--muted)",
  "--xy-edge-stroke-selected": "var(--accent)",
  "--xy-connectionline-stroke": "var(--accent)",
  "--xy-connectionline-stroke-width": "2",
  "--xy-minimap-background-color": "var(--panel)",
  "--xy-minimap-mask-background-color": "color-mix(in srgb, var(--bg) 75%, transparent)",
  "--xy-minimap-mask-stroke-color": "var(--border)",
  "--xy-controls-button-background-color": "var(--panel)",
  "--xy-controls-button-background-color-hover": "var(--panel-2)",
  "--xy-controls-button-color": "var(--fg)",
  "--xy-controls-button-color-hover": "var(--fg)",
  "--xy-controls-button-border-color": "var(--border)",
  "--xy-controls-box-shadow": "0 1px 3px rgb(0 0 0 / 0.12)",
  "--xy-attribution-background-color": "color-mix(in srgb, var(--panel) 80%, transparent)",
  "--xy-selection-background-color": "color-mix(in srgb, var(--accent) 10%, transparent)",
  "--xy-selection-border": "1px dashed var(--accent)",
} as CSSProperties;

/** Extra classes for React Flow's own chrome (attribution text contrast, minimap frame). */
export const canvasClassName =
  "[&_.react-flow__attribution_a]:text-muted! [&_.react-flow__minimap]:rounded-md [&_.react-flow__minimap]:border [&_.react-flow__minimap]:border-border [&_.react-flow__controls]:rounded-md [&_.react-flow__controls]:overflow-hidden";

/** Above this many nodes only what is on screen is rendered. */
export const VIRTUALIZE_ABOVE = 200;

/** Drag-and-drop payload type from the palette. */
export const LAYER_DRAG_MIME = "application/x-layerline-layer";
