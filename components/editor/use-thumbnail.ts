"use client";

import { getNodesBounds, getViewportForBounds, useStoreApi } from "@xyflow/react";
import { useCallback } from "react";
import { api } from "@/lib/api/client";
import { CATEGORY_FILL } from "@/lib/editor/category-colors";
import type { LayerFlowNode, ShapeFlowEdge } from "@/lib/editor/flow-types";
import { boundsOf } from "@/lib/editor/node-geometry";
import { drawOverview, readOverviewPalette } from "@/lib/editor/overview-draw";
import { useEditorStoreApi } from "./editor-store-context";
import { VIRTUALIZE_ABOVE } from "./flow-config";

const WIDTH = 480;
const HEIGHT = 300;

function themeColor(name: string, fallback: string): string {
  return getComputedStyle(document.documentElement).getPropertyValue(name).trim() || fallback;
}

/** The rendered diagram, the way React Flow's "download image" example does it. */
async function renderViewport(viewport: HTMLElement, nodes: LayerFlowNode[]): Promise<Blob | null> {
  const vp = getViewportForBounds(getNodesBounds(nodes), WIDTH, HEIGHT, 0.02, 1.2, 0.08);
  // Loaded when a preview is made (first open of a project without one, after saving a version),
  // not with the editor.
  const { toBlob } = await import("html-to-image");
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

/** Large diagrams (most nodes not even in the DOM): drawn the way the canvas overview draws them. */
function renderOverview(nodes: LayerFlowNode[], edges: ShapeFlowEdge[]): Promise<Blob | null> {
  const canvas = document.createElement("canvas");
  canvas.width = WIDTH;
  canvas.height = HEIGHT;
  const ctx = canvas.getContext("2d");
  const bounds = boundsOf(nodes);
  if (!ctx || !bounds) return Promise.resolve(null);
  const vp = getViewportForBounds(bounds, WIDTH, HEIGHT, 0.001, 1.2, 0.06);
  drawOverview(
    ctx,
    { nodes, edges, info: () => undefined },
    { ...vp, width: WIDTH, height: HEIGHT, pixelRatio: 1 },
    readOverviewPalette(document.documentElement, CATEGORY_FILL),
  );
  ctx.setTransform(1, 0, 0, 1, 0, 0);
  ctx.globalCompositeOperation = "destination-over";
  ctx.fillStyle = themeColor("--bg", "#ffffff");
  ctx.fillRect(0, 0, WIDTH, HEIGHT);
  return new Promise((resolve) => canvas.toBlob(resolve, "image/png"));
}

/** Renders a PNG of the whole diagram (not just what is on screen) and uploads it as the thumbnail. */
export function useThumbnailUpload(projectId: string) {
  const flowStore = useStoreApi();
  const store = useEditorStoreApi();
  return useCallback(async () => {
    const viewport = flowStore.getState().domNode?.querySelector<HTMLElement>(".react-flow__viewport");
    // The store's graph: React Flow holds no edges while the overview draws them.
    const { nodes, edges } = store.getState();
    if (!viewport || nodes.length === 0) return;
    const blob =
      nodes.length > VIRTUALIZE_ABOVE
        ? await renderOverview(nodes, edges)
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
  }, [flowStore, projectId, store]);
}
