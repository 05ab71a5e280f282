/**
 * The diagram drawn on one 2D canvas: how big diagrams are shown when zoomed out (thousands of DOM
 * nodes and SVG edges cost Chromium hundreds of milliseconds per frame in hit-testing, layerizing
 * and painting, whatever each element looks like), and how thumbnails are rendered.
 *
 * Pure drawing from the store's nodes and edges: batched into one path per colour so the cost is a
 * handful of fill/stroke calls plus geometry, and culled to what is on screen.
 */
import type { XYPosition } from "@xyflow/react";
import { type LayerCategory, layerCatalog } from "@/lib/ml";
import type { DiffStatus, LayerFlowNode, ShapeFlowEdge } from "./flow-types";
import {
  edgeControlOffset,
  inputPoint,
  NODE_HEIGHT,
  NODE_WIDTH,
  outputPoint,
  type Rect,
} from "./node-geometry";

export interface OverviewPalette {
  panel: string;
  border: string;
  fg: string;
  muted: string;
  accent: string;
  danger: string;
  diff: Record<DiffStatus, { stroke: string; fill: string }>;
  category: Record<LayerCategory, string>;
  font: string;
}

/** Screen transform (as React Flow's viewport: screen = flow × zoom + offset) and canvas size in CSS px. */
export interface OverviewView {
  x: number;
  y: number;
  zoom: number;
  width: number;
  height: number;
  /** Device pixels per CSS pixel. */
  pixelRatio: number;
}

/** Per-node facts the drawing needs from the analysis. */
export interface OverviewNodeInfo {
  hasErrors: boolean;
  connectedPorts: number;
}

export interface OverviewScene {
  nodes: readonly LayerFlowNode[];
  edges: readonly ShapeFlowEdge[];
  info: (id: string) => OverviewNodeInfo | undefined;
  hoveredId?: string | null;
  /** A rubber-band selection in progress, in flow coordinates. */
  selectionRect?: Rect | null;
  /**
   * Drawing part of a diagram over a picture of the rest (a drag redraws only what moves):
   * the picture, at the canvas's size in device pixels, put down first...
   */
  background?: CanvasImageSource;
  /** ...and where edges find their ends when those are not all in `nodes`. */
  nodeById?: ReadonlyMap<string, LayerFlowNode>;
}

/** Below this zoom nodes are solid category-coloured blocks (the way the minimap draws them). */
export const BLOCK_ZOOM = 0.25;
/** Below this zoom edges are straight lines: curves that short are indistinguishable and cost more. */
const CURVE_ZOOM = 0.12;
/** Labels are drawn at this size in flow units (same as the zoomed-out DOM node's title). */
const LABEL_SIZE = 24;
/** Labels need at least this many screen pixels of font size to be worth drawing. */
const MIN_LABEL_PX = 6;
const STRIPE = 12;

function bezier(path: Path2D, s: XYPosition, t: XYPosition, curved: boolean) {
  path.moveTo(s.x, s.y);
  if (!curved) {
    path.lineTo(t.x, t.y);
    return;
  }
  const offset = edgeControlOffset(s, t);
  path.bezierCurveTo(s.x, s.y + offset, t.x, t.y - offset, t.x, t.y);
}

function pathFor(paths: Map<string, Path2D>, key: string): Path2D {
  let p = paths.get(key);
  if (!p) {
    p = new Path2D();
    paths.set(key, p);
  }
  return p;
}

const truncated = new Map<string, string>();

/** The label cut with an ellipsis to fit the node (cached: the same names repeat across a diagram). */
function fitLabel(ctx: CanvasRenderingContext2D, text: string, maxWidth: number): string {
  const key = `${ctx.font}|${maxWidth}|${text}`;
  const hit = truncated.get(key);
  if (hit !== undefined) return hit;
  let out = text;
  if (ctx.measureText(text).width > maxWidth) {
    let lo = 0;
    let hi = text.length;
    while (lo < hi) {
      const mid = Math.ceil((lo + hi) / 2);
      if (ctx.measureText(`${text.slice(0, mid)}…`).width <= maxWidth) lo = mid;
      else hi = mid - 1;
    }
    out = `${text.slice(0, lo)}…`;
  }
  if (truncated.size > 5000) truncated.clear();
  truncated.set(key, out);
  return out;
}

interface NodePass {
  ctx: CanvasRenderingContext2D;
  scene: OverviewScene;
  palette: OverviewPalette;
  /** Solid blocks (far out) rather than boxes with a stripe and an outline. */
  blocks: boolean;
  /** One screen pixel in flow units. */
  px: number;
}

/** Nodes: fills per colour, stripes, outlines, error dots, then rings on selected, hovered and changed ones. */
function paintNodes({ ctx, scene, palette, blocks, px }: NodePass, nodes: readonly LayerFlowNode[]) {
  const fills = new Map<string, Path2D>();
  const stripes = new Map<string, Path2D>();
  const outlines = new Map<string, Path2D>();
  const rings = new Map<string, Path2D>();
  const errorDots = new Path2D();
  const ring = blocks ? 3 * px : 0;
  for (const n of nodes) {
    const { x, y } = n.position;
    const category = palette.category[layerCatalog[n.data.layerType]?.category ?? "Core"];
    const diff = n.data.diff ? palette.diff[n.data.diff] : null;
    const hasErrors = scene.info(n.id)?.hasErrors ?? false;
    if (blocks) {
      pathFor(fills, diff ? diff.stroke : category).rect(x, y, NODE_WIDTH, NODE_HEIGHT);
    } else {
      pathFor(fills, diff ? diff.fill : palette.panel).rect(x, y, NODE_WIDTH, NODE_HEIGHT);
      pathFor(stripes, category).rect(x, y, STRIPE, NODE_HEIGHT);
      pathFor(outlines, diff ? diff.stroke : hasErrors ? palette.danger : palette.border).rect(
        x,
        y,
        NODE_WIDTH,
        NODE_HEIGHT,
      );
    }
    if (hasErrors) {
      const r = blocks ? 14 : 8;
      const cx = x + NODE_WIDTH - 20;
      const cy = y + 20;
      errorDots.moveTo(cx + r, cy);
      errorDots.arc(cx, cy, r, 0, Math.PI * 2);
    }
    // A ring outside the node, wide enough to find a selected or changed block among thousands.
    const ringColour =
      n.selected || n.id === scene.hoveredId ? palette.accent : diff && blocks ? diff.stroke : null;
    if (ringColour) {
      const r = diff && !n.selected ? ring * 2 : ring;
      pathFor(rings, ringColour).rect(x - r, y - r, NODE_WIDTH + 2 * r, NODE_HEIGHT + 2 * r);
    }
  }
  for (const [colour, path] of fills) {
    ctx.fillStyle = colour;
    ctx.fill(path);
  }
  for (const [colour, path] of stripes) {
    ctx.fillStyle = colour;
    ctx.fill(path);
  }
  ctx.lineWidth = px;
  for (const [colour, path] of outlines) {
    ctx.strokeStyle = colour;
    ctx.stroke(path);
  }
  ctx.fillStyle = palette.danger;
  ctx.fill(errorDots);
  ctx.lineWidth = (blocks ? 3 : 2.5) * px;
  for (const [colour, path] of rings) {
    ctx.strokeStyle = colour;
    ctx.stroke(path);
  }
}

/** Draws the scene; returns how many nodes were on screen. */
export function drawOverview(
  ctx: CanvasRenderingContext2D,
  scene: OverviewScene,
  view: OverviewView,
  palette: OverviewPalette,
): number {
  const { zoom, pixelRatio: dpr } = view;
  ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
  ctx.clearRect(0, 0, view.width, view.height);
  if (scene.background) {
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    ctx.drawImage(scene.background, 0, 0);
  }
  ctx.setTransform(dpr * zoom, 0, 0, dpr * zoom, dpr * view.x, dpr * view.y);

  // What is on screen, in flow coordinates, with a node's size of margin.
  const left = -view.x / zoom - NODE_WIDTH;
  const top = -view.y / zoom - NODE_HEIGHT;
  const right = (view.width - view.x) / zoom + NODE_WIDTH;
  const bottom = (view.height - view.y) / zoom + NODE_HEIGHT;
  const onScreen = (p: XYPosition) => p.x >= left && p.x <= right && p.y >= top && p.y <= bottom;

  let byId = scene.nodeById;
  if (!byId) {
    const own = new Map<string, LayerFlowNode>();
    for (const n of scene.nodes) own.set(n.id, n);
    byId = own;
  }
  const px = 1 / zoom;

  // In a comparison, what did not change steps back so the few changes stand out among thousands.
  const comparing = scene.nodes.some((n) => n.data.diff);
  const DIMMED = 0.3;

  // Edges: one path per stroke colour.
  const edgePaths = new Map<string, Path2D>();
  const curved = zoom >= CURVE_ZOOM;
  for (const e of scene.edges) {
    const s = byId.get(e.source);
    const t = byId.get(e.target);
    if (!s || !t) continue;
    const from = outputPoint(s.position);
    const to = inputPoint(
      t.position,
      t.data.layerType,
      scene.info(t.id)?.connectedPorts ?? 0,
      e.targetHandle,
    );
    const minX = Math.min(from.x, to.x);
    const maxX = Math.max(from.x, to.x);
    const minY = Math.min(from.y, to.y);
    const maxY = Math.max(from.y, to.y);
    if (maxX < left || minX > right || maxY < top || minY > bottom) continue;
    const colour = e.data?.diff
      ? palette.diff[e.data.diff].stroke
      : e.selected
        ? palette.accent
        : palette.muted;
    bezier(pathFor(edgePaths, colour), from, to, curved);
  }
  ctx.lineWidth = 1.5 * px;
  for (const [colour, path] of edgePaths) {
    ctx.globalAlpha = comparing && colour === palette.muted ? DIMMED : 1;
    ctx.strokeStyle = colour;
    ctx.stroke(path);
  }
  ctx.globalAlpha = 1;

  const visible: LayerFlowNode[] = [];
  for (const n of scene.nodes) {
    if (onScreen(n.position)) visible.push(n);
  }
  const blocks = zoom < BLOCK_ZOOM;
  const pass = { ctx, scene, palette, blocks, px };
  if (comparing) {
    ctx.globalAlpha = DIMMED;
    paintNodes(
      pass,
      visible.filter((n) => !n.data.diff),
    );
    ctx.globalAlpha = 1;
    paintNodes(
      pass,
      visible.filter((n) => n.data.diff),
    );
  } else paintNodes(pass, visible);

  if (!blocks && LABEL_SIZE * zoom >= MIN_LABEL_PX) {
    ctx.fillStyle = palette.fg;
    ctx.font = `600 ${LABEL_SIZE}px ${palette.font}`;
    ctx.textBaseline = "middle";
    const maxWidth = NODE_WIDTH - STRIPE - 36;
    for (const n of visible) {
      ctx.globalAlpha = comparing && !n.data.diff ? DIMMED : 1;
      const text = n.data.label || layerCatalog[n.data.layerType]?.label || n.data.layerType;
      ctx.fillText(fitLabel(ctx, text, maxWidth), n.position.x + STRIPE + 12, n.position.y + NODE_HEIGHT / 2);
    }
    ctx.globalAlpha = 1;
  }

  const band = scene.selectionRect;
  if (band) {
    ctx.fillStyle = palette.accent;
    ctx.globalAlpha = 0.08;
    ctx.fillRect(band.x, band.y, band.width, band.height);
    ctx.globalAlpha = 1;
    ctx.strokeStyle = palette.accent;
    ctx.lineWidth = px;
    ctx.setLineDash([4 * px, 3 * px]);
    ctx.strokeRect(band.x, band.y, band.width, band.height);
    ctx.setLineDash([]);
  }
  return visible.length;
}

/** The palette from the page's theme variables (light or dark, whichever is active). */
export function readOverviewPalette(el: Element, category: Record<LayerCategory, string>): OverviewPalette {
  const style = getComputedStyle(el);
  const v = (name: string, fallback: string) => style.getPropertyValue(name).trim() || fallback;
  return {
    panel: v("--panel", "#ffffff"),
    border: v("--border", "#e2e4ea"),
    fg: v("--fg", "#15171c"),
    muted: v("--muted", "#555b6b"),
    accent: v("--accent", "#4f46e5"),
    danger: v("--danger", "#c62a2a"),
    diff: {
      added: { stroke: v("--ok", "#116530"), fill: v("--ok-soft", "#e6f6ec") },
      removed: { stroke: v("--danger", "#c62a2a"), fill: v("--danger-soft", "#fdecec") },
      changed: { stroke: v("--warn", "#7d5300"), fill: v("--warn-soft", "#fff5d6") },
    },
    category,
    font: v("--font-sans", style.fontFamily || "sans-serif"),
  };
}
