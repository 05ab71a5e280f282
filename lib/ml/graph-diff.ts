/**
 * Structural diff of two architecture versions and of two training configs
 * (version compare view). Params are compared after applying defaults, so
 * {units: 64} and {units: 64, bias: true} are equal. Edges are compared by
 * what they connect (source -> target:port), not by their ids.
 */
import {
  type ArchitectureGraph,
  DEFAULT_TRAINING_CONFIG,
  type GraphEdge,
  isLayerType,
  type LayerNode,
  type TrainingConfig,
  type TrainingConfigInput,
  trainingConfigSchema,
} from "./graph-types";
import { resolveParams } from "./layer-catalog";

export interface ParamChange {
  param: string;
  before: unknown;
  after: unknown;
}

export interface NodeChange {
  id: string;
  before: LayerNode;
  after: LayerNode;
  /** The layer type changed (params are then compared key by key anyway). */
  typeChanged: boolean;
  labelChanged: boolean;
  params: ParamChange[];
}

export interface GraphDiff {
  nodesAdded: LayerNode[];
  nodesRemoved: LayerNode[];
  /** Nodes whose type, label or params changed. */
  nodesChanged: NodeChange[];
  /** Ids of nodes whose only change is their position. */
  nodesMoved: string[];
  edgesAdded: GraphEdge[];
  edgesRemoved: GraphEdge[];
  /** True when anything other than positions differs. */
  hasChanges: boolean;
}

/** Stable JSON for deep equality (object keys sorted). */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(",")}}`;
  }
  return JSON.stringify(value) ?? "undefined";
}

function effectiveParams(node: LayerNode): Record<string, unknown> {
  if (isLayerType(node.type)) {
    const r = resolveParams(node.type, node.params);
    if (r.ok) {
      // Keep unknown keys visible in the diff too.
      const extra: Record<string, unknown> = {};
      for (const k of r.unknownKeys) extra[k] = node.params[k];
      return { ...r.params, ...extra };
    }
  }
  return node.params;
}

function edgeKey(e: GraphEdge): string {
  return `${e.source}\u0000${e.target}\u0000${e.targetPort ?? 0}`;
}

export function diffGraphs(a: ArchitectureGraph, b: ArchitectureGraph): GraphDiff {
  const before = new Map(a.nodes.map((n) => [n.id, n]));
  const after = new Map(b.nodes.map((n) => [n.id, n]));
  const nodesAdded = b.nodes.filter((n) => !before.has(n.id));
  const nodesRemoved = a.nodes.filter((n) => !after.has(n.id));
  const nodesChanged: NodeChange[] = [];
  const nodesMoved: string[] = [];
  for (const nb of b.nodes) {
    const na = before.get(nb.id);
    if (!na) continue;
    const pa = effectiveParams(na);
    const pb = effectiveParams(nb);
    const params: ParamChange[] = [];
    const keys = [...new Set([...Object.keys(pa), ...Object.keys(pb)])].sort();
    for (const key of keys) {
      if (canonical(pa[key]) !== canonical(pb[key]))
        params.push({ param: key, before: pa[key], after: pb[key] });
    }
    const typeChanged = na.type !== nb.type;
    const labelChanged = (na.label ?? "") !== (nb.label ?? "");
    if (typeChanged || labelChanged || params.length > 0) {
      nodesChanged.push({ id: nb.id, before: na, after: nb, typeChanged, labelChanged, params });
    } else if (na.position.x !== nb.position.x || na.position.y !== nb.position.y) {
      nodesMoved.push(nb.id);
    }
  }
  const edgesA = new Set(a.edges.map(edgeKey));
  const edgesB = new Set(b.edges.map(edgeKey));
  const edgesAdded = b.edges.filter((e) => !edgesA.has(edgeKey(e)));
  const edgesRemoved = a.edges.filter((e) => !edgesB.has(edgeKey(e)));
  return {
    nodesAdded,
    nodesRemoved,
    nodesChanged,
    nodesMoved,
    edgesAdded,
    edgesRemoved,
    hasChanges:
      nodesAdded.length +
        nodesRemoved.length +
        nodesChanged.length +
        edgesAdded.length +
        edgesRemoved.length >
      0,
  };
}

function definedFields(c: TrainingConfigInput | undefined): Partial<TrainingConfig> {
  const out: Partial<Record<keyof TrainingConfig, unknown>> = {};
  if (c) {
    for (const [k, v] of Object.entries(c)) if (v !== undefined) out[k as keyof TrainingConfig] = v;
  }
  return out as Partial<TrainingConfig>;
}

export interface ConfigChange {
  field: keyof TrainingConfig;
  before: TrainingConfig[keyof TrainingConfig];
  after: TrainingConfig[keyof TrainingConfig];
}

/** Field-level diff of two training configs (defaults applied; undefined = all defaults). */
export function diffConfig(
  a: TrainingConfigInput | undefined,
  b: TrainingConfigInput | undefined,
): ConfigChange[] {
  // Merge over the defaults rather than parse, so invalid stored values still diff instead of throwing.
  const ca: TrainingConfig = { ...DEFAULT_TRAINING_CONFIG, ...definedFields(a) };
  const cb: TrainingConfig = { ...DEFAULT_TRAINING_CONFIG, ...definedFields(b) };
  const changes: ConfigChange[] = [];
  for (const field of Object.keys(trainingConfigSchema.shape) as (keyof TrainingConfig)[]) {
    // augmentation is an object: compared by value.
    if (JSON.stringify(ca[field]) !== JSON.stringify(cb[field]))
      changes.push({ field, before: ca[field], after: cb[field] });
  }
  return changes;
}
