"use client";

import { Panel, type ReactFlowState, useReactFlow, useStoreApi } from "@xyflow/react";
import { useEffect, useRef, useState } from "react";
import { cn } from "@/components/ui/cn";
import { CATEGORY_FILL } from "@/lib/editor/category-colors";
import type { LayerFlowNode, ShapeFlowEdge } from "@/lib/editor/flow-types";
import { formatCount } from "@/lib/editor/format";
import {
  type Direction,
  NODE_HEIGHT,
  NODE_WIDTH,
  nearestNode,
  nodeAt,
  nodeInDirection,
  nodesInRect,
  type Rect,
} from "@/lib/editor/node-geometry";
import { type DragSplit, draggedPosition, moveDragged, splitForDrag } from "@/lib/editor/overview-drag";
import { drawOverview, type OverviewNodeInfo, readOverviewPalette } from "@/lib/editor/overview-draw";
import { layerCatalog } from "@/lib/ml";
import { useAnalyze, useEditorStoreApi } from "./editor-store-context";
import { useThemePalette } from "./use-theme-palette";

const ARROW_DIRECTIONS: Record<string, Direction | undefined> = {
  ArrowLeft: "left",
  ArrowRight: "right",
  ArrowUp: "up",
  ArrowDown: "down",
};

/** Pointer travel (CSS px) before a press on a node becomes a drag rather than a click. */
const DRAG_THRESHOLD = 3;

/** Room (px) the tooltip needs above a layer; nearer the top it shows below the layer instead. */
const TOOLTIP_ROOM = 80;

interface Hover {
  id: string;
  /** Anchor of the tooltip, in px from the canvas's top-left corner: the layer's top or bottom middle. */
  left: number;
  top: number;
  below: boolean;
}

type Gesture =
  | {
      kind: "drag";
      start: { x: number; y: number };
      startScreen: { x: number; y: number };
      from: Map<string, { x: number; y: number }>;
      moved: boolean;
      /** How far the pointer has moved the layers, in flow units (the store hears of it on release). */
      offset: { x: number; y: number };
    }
  | { kind: "band"; start: { x: number; y: number }; rect: Rect; additive: boolean };

function screenTransform(s: Pick<ReactFlowState, "transform">) {
  const [x, y, zoom] = s.transform;
  return { x, y, zoom };
}

/**
 * The zoomed-out diagram of a big project on one canvas, with the editing that makes sense at that
 * distance: click to select (Ctrl/⌘/Shift-click to add), drag selected layers, Shift-drag to select
 * an area, double-click to zoom into a layer, hover for its name and shape. Panning and wheel zoom
 * stay React Flow's: presses that hit no layer go through to its pane.
 */
export function OverviewLayer({ interactive }: { interactive: boolean }) {
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const widgetRef = useRef<HTMLDivElement>(null);
  const flow = useStoreApi<LayerFlowNode, ShapeFlowEdge>();
  const store = useEditorStoreApi();
  const analyze = useAnalyze();
  const { setCenter } = useReactFlow();
  const palette = useThemePalette((el) => readOverviewPalette(el, CATEGORY_FILL));
  const [hover, setHover] = useState<Hover | null>(null);
  const [layerCount, setLayerCount] = useState(() => store.getState().nodes.length);
  const [announcement, setAnnouncement] = useState("");

  // Interaction state read by the draw loop (refs: a pointer move must not re-render React).
  const hoveredId = useRef<string | null>(null);
  const gesture = useRef<Gesture | null>(null);
  const redraw = useRef<() => void>(() => {});

  useEffect(() => {
    const canvas = canvasRef.current;
    const ctx = canvas?.getContext("2d");
    if (!canvas || !ctx || !palette) return;
    let frame = 0;
    // While layers are dragged: everything else, drawn once (see lib/editor/overview-drag).
    let still: {
      gesture: Gesture;
      key: string;
      nodes: readonly LayerFlowNode[];
      edges: readonly ShapeFlowEdge[];
      split: DragSplit;
      picture: HTMLCanvasElement;
    } | null = null;
    const draw = () => {
      frame = 0;
      const f = flow.getState();
      const s = store.getState();
      const derived = analyze();
      const info = (id: string): OverviewNodeInfo | undefined => {
        const n = derived.nodes.get(id);
        return n && { hasErrors: n.errors.length > 0, connectedPorts: n.connectedPorts };
      };
      const dpr = window.devicePixelRatio || 1;
      const width = canvas.clientWidth;
      const height = canvas.clientHeight;
      if (canvas.width !== Math.round(width * dpr) || canvas.height !== Math.round(height * dpr)) {
        canvas.width = Math.round(width * dpr);
        canvas.height = Math.round(height * dpr);
      }
      const g = gesture.current;
      const view = { ...screenTransform(f), width, height, pixelRatio: dpr };
      if (g?.kind === "drag" && g.moved) {
        const key = `${view.x} ${view.y} ${view.zoom} ${canvas.width} ${canvas.height}`;
        if (
          !still ||
          still.gesture !== g ||
          still.key !== key ||
          still.nodes !== s.nodes ||
          still.edges !== s.edges
        ) {
          const split = splitForDrag(s.nodes, s.edges, new Set(g.from.keys()));
          const picture = still?.picture ?? document.createElement("canvas");
          picture.width = canvas.width;
          picture.height = canvas.height;
          const pictureCtx = picture.getContext("2d");
          if (pictureCtx) drawOverview(pictureCtx, { ...split.still, info }, view, palette);
          still = { gesture: g, key, nodes: s.nodes, edges: s.edges, split, picture };
        }
        drawOverview(
          ctx,
          {
            nodes: moveDragged(still.split, g.offset),
            edges: still.split.movingEdges,
            info,
            nodeById: still.split.byId,
            background: still.picture,
          },
          view,
          palette,
        );
        return;
      }
      still = null;
      drawOverview(
        ctx,
        {
          nodes: s.nodes,
          edges: s.edges,
          info,
          hoveredId: hoveredId.current,
          selectionRect: g?.kind === "band" ? g.rect : null,
        },
        view,
        palette,
      );
    };
    const schedule = () => {
      if (!frame) frame = requestAnimationFrame(draw);
    };
    redraw.current = schedule;
    const offFlow = flow.subscribe((next, prev) => {
      if (next.transform !== prev.transform || next.width !== prev.width || next.height !== prev.height) {
        schedule();
        setHover(null);
      }
    });
    const offStore = store.subscribe((next, prev) => {
      if (next.nodes !== prev.nodes || next.edges !== prev.edges) {
        schedule();
        if (next.nodes.length !== prev.nodes.length) setLayerCount(next.nodes.length);
      }
    });
    const resize = new ResizeObserver(schedule);
    resize.observe(canvas);
    schedule();
    return () => {
      cancelAnimationFrame(frame);
      offFlow();
      offStore();
      resize.disconnect();
    };
  }, [analyze, flow, palette, store]);

  useEffect(() => {
    const root = flow.getState().domNode;
    const canvas = canvasRef.current;
    const widget = widgetRef.current;
    if (!root || !canvas || !widget) return;
    const pane = root.querySelector<HTMLElement>(".react-flow__pane");
    let swallowClick = false;

    const toFlow = (e: { clientX: number; clientY: number }) => {
      const box = canvas.getBoundingClientRect();
      const { x, y, zoom } = screenTransform(flow.getState());
      return { x: (e.clientX - box.left - x) / zoom, y: (e.clientY - box.top - y) / zoom };
    };
    const setHovered = (node: LayerFlowNode | null, again = false) => {
      const id = node?.id ?? null;
      if (id === hoveredId.current && !again) return;
      hoveredId.current = id;
      if (pane) pane.style.cursor = node && interactive ? "pointer" : "";
      if (node) {
        const { x, y, zoom } = screenTransform(flow.getState());
        const top = y + node.position.y * zoom;
        const below = top < TOOLTIP_ROOM;
        setHover({
          id: node.id,
          left: x + (node.position.x + NODE_WIDTH / 2) * zoom,
          top: below ? top + NODE_HEIGHT * zoom : top,
          below,
        });
      } else setHover(null);
      redraw.current();
    };

    const zoomInto = (node: LayerFlowNode) =>
      setCenter(node.position.x + NODE_WIDTH / 2, node.position.y + NODE_HEIGHT / 2, {
        zoom: 1,
        duration: 350,
      });

    /** The drag's one store update, on release (frames in between only redraw the canvas). */
    const commitDrag = (offset: { x: number; y: number }) => {
      const g = gesture.current;
      if (g?.kind !== "drag") return;
      store.getState().onNodesChange(
        [...g.from].map(([id, p]) => ({
          type: "position" as const,
          id,
          position: draggedPosition(p, offset),
          dragging: false,
        })),
      );
    };

    const onWindowMove = (e: PointerEvent) => {
      const g = gesture.current;
      if (!g) return;
      const p = toFlow(e);
      if (g.kind === "band") {
        g.rect = { x: g.start.x, y: g.start.y, width: p.x - g.start.x, height: p.y - g.start.y };
        redraw.current();
        return;
      }
      if (!g.moved) {
        if (Math.hypot(e.clientX - g.startScreen.x, e.clientY - g.startScreen.y) < DRAG_THRESHOLD) return;
        g.moved = true;
        store.getState().beginGesture();
        setHovered(null);
      }
      g.offset = { x: p.x - g.start.x, y: p.y - g.start.y };
      redraw.current();
    };
    const onWindowUp = (e: PointerEvent) => {
      const g = gesture.current;
      window.removeEventListener("pointermove", onWindowMove);
      window.removeEventListener("pointerup", onWindowUp);
      window.removeEventListener("pointercancel", onWindowUp);
      if (!g) return;
      if (g.kind === "drag" && g.moved) {
        const p = toFlow(e);
        commitDrag({ x: p.x - g.start.x, y: p.y - g.start.y });
        gesture.current = null;
        store.getState().endGesture();
      } else if (g.kind === "band") {
        const s = store.getState();
        const inside = new Set(nodesInRect(s.nodes, g.rect));
        gesture.current = null;
        s.onNodesChange(
          s.nodes.flatMap((n) => {
            const selected = inside.has(n.id) || (g.additive && Boolean(n.selected));
            return Boolean(n.selected) === selected ? [] : [{ type: "select" as const, id: n.id, selected }];
          }),
        );
      } else gesture.current = null;
      redraw.current();
    };

    const onPointerDown = (e: PointerEvent) => {
      if (e.button !== 0 || !interactive) return;
      if (!(e.target instanceof Element) || !e.target.closest(".react-flow__pane")) return;
      const p = toFlow(e);
      const s = store.getState();
      const hit = nodeAt(s.nodes, p);
      if (!hit && !e.shiftKey) return; // a pan: React Flow's
      // Ours: keep the pane from panning or starting its own (empty) selection.
      e.stopPropagation();
      e.preventDefault();
      swallowClick = true;
      if (!hit) {
        gesture.current = {
          kind: "band",
          start: p,
          rect: { ...p, width: 0, height: 0 },
          additive: e.ctrlKey || e.metaKey,
        };
      } else {
        const toggle = e.shiftKey || e.ctrlKey || e.metaKey;
        if (toggle) s.onNodesChange([{ type: "select", id: hit.id, selected: !hit.selected }]);
        else if (!hit.selected) s.selectNode(hit.id);
        const now = store.getState().nodes;
        const from = new Map(now.filter((n) => n.selected).map((n) => [n.id, { ...n.position }]));
        if (from.size > 0)
          gesture.current = {
            kind: "drag",
            start: p,
            startScreen: { x: e.clientX, y: e.clientY },
            from,
            moved: false,
            offset: { x: 0, y: 0 },
          };
      }
      window.addEventListener("pointermove", onWindowMove);
      window.addEventListener("pointerup", onWindowUp);
      window.addEventListener("pointercancel", onWindowUp);
    };
    // A finger on a layer: the pointer handler above owns the gesture, but the browser still sends
    // the touch events the pane pans on (preventing pointerdown suppresses only mouse events).
    const onTouchStart = (e: TouchEvent) => {
      if (gesture.current && e.touches.length === 1) e.stopPropagation();
    };
    const onClick = (e: MouseEvent) => {
      if (!swallowClick) return;
      swallowClick = false;
      e.stopPropagation();
    };
    const onDoubleClick = (e: MouseEvent) => {
      if (!(e.target instanceof Element) || !e.target.closest(".react-flow__pane")) return;
      const hit = nodeAt(store.getState().nodes, toFlow(e));
      if (!hit) return;
      e.stopPropagation();
      e.preventDefault();
      zoomInto(hit);
    };
    const onHoverMove = (e: PointerEvent) => {
      if (gesture.current) return;
      if (!(e.target instanceof Element) || !e.target.closest(".react-flow__pane")) {
        setHovered(null);
        return;
      }
      setHovered(nodeAt(store.getState().nodes, toFlow(e)));
    };
    const onLeave = () => {
      if (document.activeElement !== widget) setHovered(null);
    };

    // The keyboard: arrows move a cursor between layers (selecting them when editing), Enter zooms in.
    const onKeyDown = (e: KeyboardEvent) => {
      const s = store.getState();
      const current = s.nodes.find((n) => n.id === hoveredId.current) ?? s.nodes.find((n) => n.selected);
      if (e.key === "Enter" && current) {
        e.preventDefault();
        zoomInto(current);
        return;
      }
      const direction = ARROW_DIRECTIONS[e.key];
      if (!direction) return;
      e.preventDefault();
      const f = flow.getState();
      const { x, y, zoom } = screenTransform(f);
      const next = current
        ? nodeInDirection(s.nodes, current, direction)
        : nearestNode(s.nodes, { x: (f.width / 2 - x) / zoom, y: (f.height / 2 - y) / zoom });
      if (!next) return;
      if (interactive) s.selectNode(next.id);
      const left = x + next.position.x * zoom;
      const top = y + next.position.y * zoom;
      const margin = 24;
      if (
        left < margin ||
        top < margin ||
        left + NODE_WIDTH * zoom > f.width - margin ||
        top + NODE_HEIGHT * zoom > f.height - margin
      ) {
        setCenter(next.position.x + NODE_WIDTH / 2, next.position.y + NODE_HEIGHT / 2, { zoom });
      }
      setHovered(next, true);
      const info = analyze().nodes.get(next.id);
      const def = layerCatalog[next.data.layerType];
      setAnnouncement(`${next.data.label || def.label}, ${def.type}, output ${info?.shape ?? "unknown"}`);
    };
    const onBlur = () => setHovered(null);

    root.addEventListener("pointerdown", onPointerDown, true);
    root.addEventListener("touchstart", onTouchStart, { capture: true, passive: true });
    root.addEventListener("click", onClick, true);
    root.addEventListener("dblclick", onDoubleClick, true);
    root.addEventListener("pointermove", onHoverMove);
    root.addEventListener("pointerleave", onLeave);
    widget.addEventListener("keydown", onKeyDown);
    widget.addEventListener("blur", onBlur);
    return () => {
      root.removeEventListener("pointerdown", onPointerDown, true);
      root.removeEventListener("touchstart", onTouchStart, true);
      root.removeEventListener("click", onClick, true);
      root.removeEventListener("dblclick", onDoubleClick, true);
      root.removeEventListener("pointermove", onHoverMove);
      root.removeEventListener("pointerleave", onLeave);
      widget.removeEventListener("keydown", onKeyDown);
      widget.removeEventListener("blur", onBlur);
      window.removeEventListener("pointermove", onWindowMove);
      window.removeEventListener("pointerup", onWindowUp);
      window.removeEventListener("pointercancel", onWindowUp);
      // Leaving the overview mid-drag (zoomed in past it) keeps where the layers were taken.
      const g = gesture.current;
      if (g?.kind === "drag" && g.moved) {
        commitDrag(g.offset);
        store.getState().endGesture();
      }
      gesture.current = null;
      if (pane) pane.style.cursor = "";
    };
  }, [analyze, flow, interactive, setCenter, store]);

  const count = layerCount.toLocaleString("en-US");
  return (
    <>
      {/* A custom keyboard widget around the drawing: arrows move between layers, Enter zooms in. */}
      <div
        ref={widgetRef}
        role="application"
        aria-roledescription="diagram overview"
        // biome-ignore lint/a11y/noNoninteractiveTabindex: role="application" is a keyboard widget (WAI-ARIA); Biome does not count it as interactive
        tabIndex={0}
        aria-label={`Overview of ${count} layers. Arrow keys move between layers, Enter zooms in to ${interactive ? "see details and connect layers" : "see details"}.`}
        data-testid="diagram-overview"
        className="pointer-events-none absolute inset-0 z-[1] focus-visible:outline-2 focus-visible:outline-accent focus-visible:-outline-offset-2"
      >
        <canvas ref={canvasRef} aria-hidden className="h-full w-full" />
      </div>
      <p aria-live="polite" className="sr-only">
        {announcement}
      </p>
      {hover ? <HoverCard hover={hover} /> : null}
      <Panel position="top-center" className="pointer-events-none">
        <p className="whitespace-nowrap rounded-full border border-border bg-panel/90 px-3 py-1 text-xs text-muted shadow-sm">
          Overview of {count} layers · zoom in to{" "}
          {interactive ? "see details and connect layers" : "see details"}
        </p>
      </Panel>
    </>
  );
}

/** Name, type, output shape and problems of the hovered layer. */
function HoverCard({ hover }: { hover: Hover }) {
  const store = useEditorStoreApi();
  const analyze = useAnalyze();
  const node = store.getState().nodes.find((n) => n.id === hover.id);
  if (!node) return null;
  const info = analyze().nodes.get(hover.id);
  const def = layerCatalog[node.data.layerType];
  return (
    <div
      role="tooltip"
      data-testid="overview-hover"
      className={cn(
        "pointer-events-none absolute z-[6] -translate-x-1/2 rounded-md border border-border bg-panel px-2.5 py-1.5 text-xs text-fg shadow-md",
        !hover.below && "-translate-y-full",
      )}
      style={{ left: hover.left, top: hover.below ? hover.top + 6 : hover.top - 6 }}
    >
      <p className="font-semibold">
        {node.data.label || def.label} <span className="font-normal text-muted">{def.type}</span>
      </p>
      <p className="font-mono text-[11px] text-muted">
        {info?.shape ?? "?"}
        {info && info.params > 0 ? ` · ${formatCount(info.params)} params` : ""}
      </p>
      {info && info.errors.length > 0 ? (
        <p className="text-danger">
          {info.errors.length} problem{info.errors.length === 1 ? "" : "s"}: {info.errors[0]}
        </p>
      ) : null}
    </div>
  );
}
