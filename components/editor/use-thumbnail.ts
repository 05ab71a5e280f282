"use client";

import { getNodesBounds, getViewportForBounds, useReactFlow, useStoreApi } from "@xyflow/react";
import { toBlob } from "html-to-image";
import { useCallback } from "react";
import { api } from "@/lib/api/client";
import type { LayerFlowNode } from "@/lib/editor/flow-types";
import { layerCatalog } from "@/lib/ml";
import { CATEGORY_FILL } from "./category-style";
import { VIRTUALIZE_ABOVE } from "./flow-config";

const WIDTH = 480;
const HEIGHT = 300;

function themeColor(name: string, fallback: string): string {
  return getComputedStyle(document.documentElement).getPropertyValue(name).trim() || fallback;
}

/** The rendered diagram, the way React Flow's "download image" example does it. */
async function renderViewport(viewport: HTMLElement, nodes: LayerFlowNode[]): Promise<Blob | null> {
  const vp = getViewportForBounds(getNodesBounds(nodes), WIDTH, HEIGHT, 0.02, 1.2, 0.08);
  return toBlob(viewport, {
    backgroundColor: themeColor("--bg", "#ffffff"),
    width: WIDTH,
    height: HEIGHT,
    pixelRatio: 1,
    skipFonts: true,
    style: {
      width: `${WIDTH}px`,
      height: `${HEIGHT}px`,
      transform: `translate(${vp.x}px, ${vp.y}px) scale(${vp.zoom})`,
    },
  });
}

/** Large diagrams (most nodes not even in the DOM): an overview drawn like the minimap. */
function renderOverview(
  nodes: LayerFlowNode[],
  edges: { source: string; target: string }[],
): Promise<Blob | null> {
  const canvas = document.createElement("canvas");
  canvas.width = WIDTH;
  canvas.height = HEIGHT;
  const ctx = canvas.getContext("2d");
  if (!ctx) return Promise.resolve(null);
  const vp = getViewportForBounds(getNodesBounds(nodes), WIDTH, HEIGHT, 0.001, 1.2, 0.06);
  const byId = new Map(nodes.map((n) => [n.id, n]));
  const w = (n: LayerFlowNode) => n.measured?.width ?? 200;
  const h = (n: LayerFlowNode) => n.measured?.height ?? 70;
  ctx.fillStyle = themeColor("--bg", "#ffffff");
  ctx.fillRect(0, 0, WIDTH, HEIGHT);
  ctx.setTransform(vp.zoom, 0, 0, vp.zoom, vp.x, vp.y);
  ctx.strokeStyle = themeColor("--muted", "#555b6b");
  ctx.lineWidth = 1 / vp.zoom;
  ctx.beginPath();
  for (const e of edges) {
    const s = byId.get(e.source);
    const t = byId.get(e.target);
    if (!s || !t) continue;
    ctx.moveTo(s.position.x + w(s) / 2, s.position.y + h(s));
    ctx.lineTo(t.position.x + w(t) / 2, t.position.y);
  }
  ctx.stroke();
  for (const n of nodes) {
    ctx.fillStyle = CATEGORY_FILL[layerCatalog[n.data.layerType].category];
    ctx.fillRect(n.position.x, n.position.y, w(n), h(n));
  }
  return new Promise((resolve) => canvas.toBlob(resolve, "image/png"));
}

/** Renders a PNG of the whole diagram (not just what is on screen) and uploads it as the thumbnail. */
export function useThumbnailUpload(projectId: string) {
  const { getNodes, getEdges } = useReactFlow<LayerFlowNode>();
  const flowStore = useStoreApi();
  return useCallback(async () => {
    const viewport = flowStore.getState().domNode?.querySelector<HTMLElement>(".react-flow__viewport");
    const nodes = getNodes();
    if (!viewport || nodes.length === 0) return;
    const blob =
      nodes.length > VIRTUALIZE_ABOVE
        ? await renderOverview(nodes, getEdges())
        : await renderViewport(viewport, nodes);
    if (!blob) return;
    await api.POST("/api/v1/projects/{project_id}/thumbnail", {
      params: { path: { project_id: projectId } },
      body: { file: "" },
      bodySerializer: () => {
        const form = new FormData();
        form.append("file", blob, "thumbnail.png");
        return form;
      },
    });
  }, [flowStore, getEdges, getNodes, projectId]);
}
