/**
 * A project's diagram drawn as a small SVG, without a browser: the preview the projects list shows
 * until the editor uploads a picture of the real canvas (projects made from templates, imported from
 * DAG files or created through the API have never been opened).
 *
 * The drawing follows the canvas overview's level of detail: at a readable scale, nodes are boxes
 * with their category stripe and layer name; further out, solid category-coloured blocks; edges are
 * React Flow's beziers, or straight lines when the curves would be too short to see. Everything of
 * one colour is one `<path>`, so a 5,000-layer diagram stays a few hundred kilobytes. The only text
 * is the catalog's layer names (never user input), escaped all the same.
 */
import type { XYPosition } from "@xyflow/react";
import { type ArchitectureGraph, type LayerCategory, layerCatalog } from "@/lib/ml";
import { CATEGORY_FILL } from "./category-colors";
import {
  boundsOf,
  edgeControlOffset,
  inputPoint,
  NODE_HEIGHT,
  NODE_WIDTH,
  outputPoint,
} from "./node-geometry";

/** The size thumbnails are drawn at (the editor's canvas snapshots use the same). */
export const PREVIEW_WIDTH = 480;
export const PREVIEW_HEIGHT = 300;

/** Readable on light and dark cards alike. */
const EDGE_COLOUR = "#94a3b8";
const TEXT_COLOUR = "#64748b";
/** Small diagrams are not blown up past this scale (as the editor's fit-view caps its zoom). */
const MAX_SCALE = 0.75;
/** Below this scale (screen px per flow unit) nodes are solid blocks, as in the canvas overview. */
const BLOCK_SCALE = 0.25;
/** Below this scale edges are straight lines. */
const CURVE_SCALE = 0.12;
/** Layer names are drawn at this size in flow units, when that is at least MIN_TEXT_PX on screen. */
const TEXT_SIZE = 20;
const MIN_TEXT_PX = 7;
const STRIPE = 12;

/** Coordinates with at most one decimal: enough at any thumbnail scale, and compact. */
function n(value: number): string {
  return String(Math.round(value * 10) / 10);
}

function escapeXml(text: string): string {
  return text.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
}

function svgDocument(viewBox: string, body: string): string {
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${PREVIEW_WIDTH}" height="${PREVIEW_HEIGHT}" ` +
    `viewBox="${viewBox}" preserveAspectRatio="xMidYMid meet" role="img">${body}</svg>`
  );
}

function edgePath(from: XYPosition, to: XYPosition, curved: boolean): string {
  if (!curved) return `M${n(from.x)} ${n(from.y)}L${n(to.x)} ${n(to.y)}`;
  const offset = edgeControlOffset(from, to);
  return (
    `M${n(from.x)} ${n(from.y)}C${n(from.x)} ${n(from.y + offset)} ` +
    `${n(to.x)} ${n(to.y - offset)} ${n(to.x)} ${n(to.y)}`
  );
}

/** The whole diagram fitted into PREVIEW_WIDTH × PREVIEW_HEIGHT (an empty diagram is an empty image). */
export function graphPreviewSvg(graph: ArchitectureGraph): string {
  const bounds = boundsOf(graph.nodes);
  if (!bounds) return svgDocument(`0 0 ${PREVIEW_WIDTH} ${PREVIEW_HEIGHT}`, "");

  const pad = Math.max(40, 0.04 * Math.max(bounds.width, bounds.height));
  const width = Math.max(bounds.width + 2 * pad, PREVIEW_WIDTH / MAX_SCALE);
  const height = Math.max(bounds.height + 2 * pad, PREVIEW_HEIGHT / MAX_SCALE);
  const box = {
    x: bounds.x + bounds.width / 2 - width / 2,
    y: bounds.y + bounds.height / 2 - height / 2,
    width,
    height,
  };
  const scale = Math.min(PREVIEW_WIDTH / box.width, PREVIEW_HEIGHT / box.height);
  const px = 1 / scale;
  const blocks = scale < BLOCK_SCALE;
  const labels = !blocks && TEXT_SIZE * scale >= MIN_TEXT_PX;

  const byId = new Map(graph.nodes.map((node) => [node.id, node]));
  const incoming = new Map<string, number>();
  for (const e of graph.edges) incoming.set(e.target, (incoming.get(e.target) ?? 0) + 1);

  const edges: string[] = [];
  for (const e of graph.edges) {
    const source = byId.get(e.source);
    const target = byId.get(e.target);
    if (!source || !target) continue;
    const to = inputPoint(
      target.position,
      target.type,
      incoming.get(target.id) ?? 0,
      `in-${e.targetPort ?? 0}`,
    );
    edges.push(edgePath(outputPoint(source.position), to, scale >= CURVE_SCALE));
  }

  // One path per category: boxes (or blocks), and their stripes.
  const shapes = new Map<LayerCategory, { boxes: string[]; stripes: string[] }>();
  const text: string[] = [];
  for (const node of graph.nodes) {
    const def = layerCatalog[node.type];
    const category = def?.category ?? "Core";
    let paths = shapes.get(category);
    if (!paths) {
      paths = { boxes: [], stripes: [] };
      shapes.set(category, paths);
    }
    const { x, y } = node.position;
    paths.boxes.push(`M${n(x)} ${n(y)}h${NODE_WIDTH}v${NODE_HEIGHT}h${-NODE_WIDTH}z`);
    if (!blocks) paths.stripes.push(`M${n(x)} ${n(y)}h${STRIPE}v${NODE_HEIGHT}h${-STRIPE}z`);
    if (labels && def) {
      text.push(
        `<text x="${n(x + STRIPE + 14)}" y="${n(y + NODE_HEIGHT / 2)}">${escapeXml(def.label)}</text>`,
      );
    }
  }

  const parts: string[] = [];
  if (edges.length > 0) {
    parts.push(
      `<path d="${edges.join("")}" fill="none" stroke="${EDGE_COLOUR}" stroke-width="${n(1.5 * px)}"/>`,
    );
  }
  for (const [category, { boxes, stripes }] of shapes) {
    const colour = CATEGORY_FILL[category];
    if (blocks) {
      parts.push(`<path d="${boxes.join("")}" fill="${colour}"/>`);
      continue;
    }
    parts.push(
      `<path d="${boxes.join("")}" fill="${colour}" fill-opacity="0.14" stroke="${colour}" ` +
        `stroke-width="${n(Math.max(2, 1.25 * px))}" stroke-linejoin="round"/>`,
      `<path d="${stripes.join("")}" fill="${colour}"/>`,
    );
  }
  if (text.length > 0) {
    parts.push(
      `<g fill="${TEXT_COLOUR}" font-family="Inter, system-ui, sans-serif" font-size="${TEXT_SIZE}" ` +
        `font-weight="600" dominant-baseline="central">${text.join("")}</g>`,
    );
  }
  return svgDocument(`${n(box.x)} ${n(box.y)} ${n(box.width)} ${n(box.height)}`, parts.join(""));
}
