"use client";

import { Panel, useReactFlow, useStoreApi } from "@xyflow/react";
import { useEffect, useRef } from "react";
import { CATEGORY_FILL } from "@/lib/editor/category-colors";
import type { LayerFlowNode, ShapeFlowEdge } from "@/lib/editor/flow-types";
import { boundsOf, type Rect } from "@/lib/editor/node-geometry";
import { drawOverview, readOverviewPalette } from "@/lib/editor/overview-draw";
import { useEditorStoreApi } from "./editor-store-context";
import { useThemePalette } from "./use-theme-palette";

const WIDTH = 200;
const HEIGHT = 150;
const PADDING = 6;
/** Layers moving (a drag) redraw the minimap at most this often: at its scale a drag is a few pixels. */
const NODES_REDRAW_MS = 100;

function union(a: Rect, b: Rect): Rect {
  const x = Math.min(a.x, b.x);
  const y = Math.min(a.y, b.y);
  return {
    x,
    y,
    width: Math.max(a.x + a.width, b.x + b.width) - x,
    height: Math.max(a.y + a.height, b.y + b.height) - y,
  };
}

/**
 * The minimap while the overview is shown (React Flow's own draws only nodes it renders): every
 * layer as a block, the visible area framed, press or drag to move there.
 */
export function OverviewMinimap() {
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const flow = useStoreApi<LayerFlowNode, ShapeFlowEdge>();
  const store = useEditorStoreApi();
  const { setCenter } = useReactFlow();
  const palette = useThemePalette((el) => ({
    ...readOverviewPalette(el, CATEGORY_FILL),
    mask: getComputedStyle(el).getPropertyValue("--bg").trim() || "#f7f7f9",
  }));
  /** Minimap px → flow coordinates, as last drawn. */
  const mapping = useRef({ x: 0, y: 0, scale: 1 });

  useEffect(() => {
    const canvas = canvasRef.current;
    const ctx = canvas?.getContext("2d");
    if (!canvas || !ctx || !palette) return;
    let frame = 0;
    let later = 0;
    let drawnAt = 0;
    const draw = () => {
      frame = 0;
      drawnAt = performance.now();
      const f = flow.getState();
      const [tx, ty, zoom] = f.transform;
      const view = { x: -tx / zoom, y: -ty / zoom, width: f.width / zoom, height: f.height / zoom };
      const nodes = store.getState().nodes;
      const all = union(boundsOf(nodes) ?? view, view);
      const scale = Math.min((WIDTH - 2 * PADDING) / all.width, (HEIGHT - 2 * PADDING) / all.height);
      const x = (WIDTH - all.width * scale) / 2 - all.x * scale;
      const y = (HEIGHT - all.height * scale) / 2 - all.y * scale;
      mapping.current = { x, y, scale };
      const dpr = window.devicePixelRatio || 1;
      canvas.width = WIDTH * dpr;
      canvas.height = HEIGHT * dpr;
      drawOverview(
        ctx,
        { nodes, edges: [], info: () => undefined },
        { x, y, zoom: scale, width: WIDTH, height: HEIGHT, pixelRatio: dpr },
        palette,
      );
      // Dim everything outside the visible area, then frame it.
      const vx = x + view.x * scale;
      const vy = y + view.y * scale;
      ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
      const mask = new Path2D();
      mask.rect(0, 0, WIDTH, HEIGHT);
      mask.rect(vx, vy, view.width * scale, view.height * scale);
      ctx.globalAlpha = 0.6;
      ctx.fillStyle = palette.mask;
      ctx.fill(mask, "evenodd");
      ctx.globalAlpha = 1;
      ctx.strokeStyle = palette.accent;
      ctx.lineWidth = 1.5;
      ctx.strokeRect(vx, vy, view.width * scale, view.height * scale);
    };
    const schedule = () => {
      if (!frame) frame = requestAnimationFrame(draw);
    };
    const offFlow = flow.subscribe((next, prev) => {
      if (next.transform !== prev.transform || next.width !== prev.width || next.height !== prev.height)
        schedule();
    });
    const offStore = store.subscribe((next, prev) => {
      if (next.nodes === prev.nodes || frame || later) return;
      const wait = NODES_REDRAW_MS - (performance.now() - drawnAt);
      if (wait <= 0) schedule();
      else
        later = window.setTimeout(() => {
          later = 0;
          schedule();
        }, wait);
    });
    schedule();
    return () => {
      cancelAnimationFrame(frame);
      clearTimeout(later);
      offFlow();
      offStore();
    };
  }, [flow, palette, store]);

  const moveTo = (e: React.PointerEvent<HTMLCanvasElement>) => {
    const box = e.currentTarget.getBoundingClientRect();
    const { x, y, scale } = mapping.current;
    const zoom = flow.getState().transform[2];
    setCenter((e.clientX - box.left - x) / scale, (e.clientY - box.top - y) / scale, { zoom });
  };

  return (
    <Panel position="bottom-right" className="max-md:hidden">
      <canvas
        ref={canvasRef}
        role="img"
        aria-label="Minimap"
        data-testid="overview-minimap"
        className="block cursor-pointer rounded-md border border-border bg-panel"
        style={{ width: WIDTH, height: HEIGHT }}
        onPointerDown={(e) => {
          e.currentTarget.setPointerCapture(e.pointerId);
          moveTo(e);
        }}
        onPointerMove={(e) => {
          if (e.currentTarget.hasPointerCapture(e.pointerId)) moveTo(e);
        }}
      />
    </Panel>
  );
}
