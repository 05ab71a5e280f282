/**
 * Copied layers as text on the system clipboard, so they can be pasted into another project or tab:
 *
 *   {"format":"layerline.clip/v1","nodes":[LayerNode…],"edges":[GraphEdge…]}
 *
 * Nodes and edges are written as in a `layerline.dag/v1` file and checked by the same parser
 * (lib/ml parseDag): known layer types, valid params, edges between copied nodes, existing ports.
 */
import { z } from "zod";
import { DAG_FORMAT, parseDag } from "@/lib/ml";
import type { Clip } from "./clipboard";
import { fromFlow, toFlow } from "./graph-mapping";

export const CLIP_FORMAT = "layerline.clip/v1";

/** The API's limit on the nodes of a whole graph: a bigger clip could never be saved. */
const MAX_CLIP_NODES = 5000;

const clipEnvelopeSchema = z.strictObject({
  format: z.literal(CLIP_FORMAT),
  nodes: z.array(z.unknown()).min(1).max(MAX_CLIP_NODES),
  edges: z.array(z.unknown()),
});

export type ReadClipResult =
  | { kind: "clip"; clip: Clip }
  /** Layerline data that cannot be pasted; `message` says why, for the person who pasted. */
  | { kind: "invalid"; message: string }
  /** Any other text (or none): not ours to judge. */
  | { kind: "other" };

export function encodeClip(clip: Clip): string {
  const graph = fromFlow(clip.nodes, clip.edges);
  return JSON.stringify({ format: CLIP_FORMAT, nodes: graph.nodes, edges: graph.edges });
}

/** Whether two clips hold the same layers at the same places (so a paste of one repeats the other). */
export function sameClip(a: Clip, b: Clip): boolean {
  return encodeClip(a) === encodeClip(b);
}

function invalid(problems: readonly { message: string }[]): ReadClipResult {
  const others = problems.length - 1;
  const more = others > 0 ? ` and ${others} more problem${others === 1 ? "" : "s"}` : "";
  return {
    kind: "invalid",
    message: `Nothing was pasted: the copied layers are not valid (${problems[0]?.message ?? "unknown problem"}${more}).`,
  };
}

/** Reads clipboard text: copied layers, Layerline data that is not pasteable, or something else. */
export function readClip(text: string): ReadClipResult {
  // Most pasted text is not ours: only text that names a Layerline format is parsed at all.
  if (!text.includes('"layerline.')) return { kind: "other" };
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { kind: "other" };
  }
  const format =
    typeof json === "object" && json !== null ? (json as { format?: unknown }).format : undefined;
  if (typeof format !== "string" || !format.startsWith("layerline.")) return { kind: "other" };
  if (format !== CLIP_FORMAT) {
    return {
      kind: "invalid",
      message: `Nothing was pasted: the clipboard holds "${format}" data, not layers copied from this editor ("${CLIP_FORMAT}").`,
    };
  }
  const envelope = clipEnvelopeSchema.safeParse(json);
  if (!envelope.success) return invalid(envelope.error.issues);
  const { nodes, edges } = envelope.data;
  const parsed = parseDag({ format: DAG_FORMAT, graph: { nodes, edges } });
  if (!parsed.ok) return invalid(parsed.errors);
  return { kind: "clip", clip: toFlow(parsed.dag.graph) };
}
