/**
 * Runs lib/ml's auto-layout in a Web Worker (one, started on first use and kept), falling back to the
 * main thread where workers are unavailable. Resolves to each node's new top-left position.
 */
import type { XYPosition } from "@xyflow/react";
import type { AutoLayoutOptions } from "@/lib/ml/auto-layout";
import type { ArchitectureGraph } from "@/lib/ml/graph-types";
import type { LayoutRequest, LayoutResponse } from "./workers/auto-layout.worker";

let worker: Worker | null = null;
let nextId = 0;
const pending = new Map<
  number,
  { resolve: (p: Map<string, XYPosition>) => void; reject: (e: Error) => void }
>();

function layoutWorker(): Worker | null {
  if (typeof Worker === "undefined") return null;
  if (!worker) {
    worker = new Worker(new URL("./workers/auto-layout.worker.ts", import.meta.url), { type: "module" });
    worker.onmessage = (e: MessageEvent<LayoutResponse>) => {
      const job = pending.get(e.data.id);
      if (!job) return;
      pending.delete(e.data.id);
      if ("error" in e.data) job.reject(new Error(e.data.error));
      else job.resolve(new Map(e.data.positions));
    };
    worker.onerror = (e) => {
      // A broken worker fails what it was doing; the next layout starts a fresh one.
      for (const job of pending.values()) job.reject(new Error(e.message || "layout worker failed"));
      pending.clear();
      worker?.terminate();
      worker = null;
    };
  }
  return worker;
}

export async function layoutPositions(
  graph: ArchitectureGraph,
  options: AutoLayoutOptions,
): Promise<Map<string, XYPosition>> {
  const w = layoutWorker();
  if (!w) {
    const { autoLayout } = await import("@/lib/ml/auto-layout");
    const laid = await autoLayout(graph, options);
    return new Map(laid.nodes.map((n) => [n.id, n.position]));
  }
  const id = ++nextId;
  return new Promise((resolve, reject) => {
    pending.set(id, { resolve, reject });
    const request: LayoutRequest = { id, graph, options };
    w.postMessage(request);
  });
}
