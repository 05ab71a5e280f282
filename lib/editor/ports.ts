/** The input handles a layer node shows, one per port. */
import { type LayerType, layerCatalog } from "@/lib/ml";
import { portHandleId } from "./graph-mapping";

export interface PortHandle {
  id: string;
  port: number;
  /** Shown next to the handle on multi-input layers ("q", "k", "v" or the port number). */
  label: string | null;
  /** Full name for tooltips. */
  title: string;
}

const ATTENTION_PORTS = [
  ["q", "query"],
  ["k", "key"],
  ["v", "value"],
] as const;

/**
 * Single-input layers get one handle. MultiHeadAttention always shows query, key and value.
 * Add / Concatenate show every connected port plus one free port (at least their minimum).
 */
export function inputHandles(type: LayerType, connectedPorts: number): PortHandle[] {
  const { min, max } = layerCatalog[type].inputs;
  if (max === 0) return [];
  if (max === 1) return [{ id: portHandleId(0), port: 0, label: null, title: "input" }];
  if (type === "MultiHeadAttention") {
    return ATTENTION_PORTS.map(([label, title], port) => ({ id: portHandleId(port), port, label, title }));
  }
  const count = Math.min(max, Math.max(min, connectedPorts + 1));
  return Array.from({ length: count }, (_, port) => ({
    id: portHandleId(port),
    port,
    label: String(port),
    title: `input ${port}`,
  }));
}
