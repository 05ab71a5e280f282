/**
 * The versioned DAG JSON file format (import/export, API payloads):
 *
 *   { "format": "layerline.dag/v1", "name"?: string,
 *     "graph": { "nodes": LayerNode[], "edges": GraphEdge[] },
 *     "training"?: TrainingConfig }
 *
 * In files, node `params` default to {} and `position` to {x:0,y:0}; omitted
 * training fields take the documented defaults.
 */
import { z } from "zod";
import {
  type ArchitectureGraph,
  type GraphEdge,
  graphEdgeSchema,
  isLayerType,
  type LayerNode,
  positionSchema,
  type TrainingConfig,
  type TrainingConfigInput,
  trainingConfigSchema,
} from "./graph-types";
import { layerCatalog, resolveParams } from "./layer-catalog";

export const DAG_FORMAT = "layerline.dag/v1";

/** The largest DAG file the API takes (JSON text: 10 MB holds many thousands of layers). */
export const DAG_MAX_BYTES = 10 * 1024 * 1024;

const dagNodeSchema = z.object({
  id: z.string().min(1),
  type: z.string().min(1),
  params: z.record(z.string(), z.unknown()).default({}),
  position: positionSchema.default({ x: 0, y: 0 }),
  label: z.string().optional(),
});

/** Structural schema of a DAG file (layer types and params are checked semantically by parseDag). */
export const dagFileSchema = z.object({
  format: z.literal(DAG_FORMAT),
  name: z.string().max(200).optional(),
  graph: z.object({
    nodes: z.array(dagNodeSchema),
    edges: z.array(graphEdgeSchema),
  }),
  training: trainingConfigSchema.optional(),
});

export interface Dag {
  format: typeof DAG_FORMAT;
  name?: string;
  graph: ArchitectureGraph;
  training?: TrainingConfig;
}

export interface DagError {
  /** Location in the document, e.g. "graph.nodes[2].params.units" ("" = root). */
  path: string;
  message: string;
  nodeId?: string;
}

export type ParseDagResult = { ok: true; dag: Dag } | { ok: false; errors: DagError[] };

function formatPath(path: readonly PropertyKey[]): string {
  let out = "";
  for (const key of path) {
    if (typeof key === "number") out += `[${key}]`;
    else out += out ? `.${String(key)}` : String(key);
  }
  return out;
}

function rawNodeId(json: unknown, index: number): string | undefined {
  if (typeof json !== "object" || json === null) return undefined;
  const graph = (json as { graph?: unknown }).graph;
  if (typeof graph !== "object" || graph === null) return undefined;
  const nodes = (graph as { nodes?: unknown }).nodes;
  if (!Array.isArray(nodes)) return undefined;
  const node: unknown = nodes[index];
  if (typeof node !== "object" || node === null) return undefined;
  const id = (node as { id?: unknown }).id;
  return typeof id === "string" ? id : undefined;
}

const dagGraphSchema = dagFileSchema.shape.graph;

function structuralErrors(
  issues: readonly z.core.$ZodIssue[],
  prefix: PropertyKey[],
  json: unknown,
): DagError[] {
  return issues.map((issue) => {
    const path = [...prefix, ...issue.path];
    const err: DagError = { path: formatPath(path), message: issue.message };
    if (path[0] === "graph" && path[1] === "nodes" && typeof path[2] === "number") {
      const id = rawNodeId(json, path[2]);
      if (id !== undefined) err.nodeId = id;
    }
    return err;
  });
}

/**
 * Validates structure and semantics of a DAG document (already JSON-parsed).
 * Reports every problem it can find at once: the header, the graph and the
 * training config are checked independently.
 */
export function parseDag(json: unknown): ParseDagResult {
  if (typeof json !== "object" || json === null || Array.isArray(json)) {
    return { ok: false, errors: [{ path: "", message: "A DAG document must be a JSON object" }] };
  }
  const doc = json as Record<string, unknown>;
  if ("format" in doc && doc.format !== DAG_FORMAT) {
    return {
      ok: false,
      errors: [
        {
          path: "format",
          message: `Unsupported format ${JSON.stringify(doc.format)}; expected "${DAG_FORMAT}"`,
        },
      ],
    };
  }
  const errors: DagError[] = [];
  const header = dagFileSchema.pick({ format: true, name: true }).safeParse(doc);
  if (!header.success) errors.push(...structuralErrors(header.error.issues, [], json));
  const training = dagFileSchema.shape.training.safeParse(doc.training);
  if (!training.success) errors.push(...structuralErrors(training.error.issues, ["training"], json));
  // Unknown keys in the training config are typos, not silently-ignored fields.
  const rawTraining = doc.training;
  if (rawTraining && typeof rawTraining === "object") {
    for (const key of Object.keys(rawTraining)) {
      if (!(key in trainingConfigSchema.shape))
        errors.push({ path: `training.${key}`, message: `Unknown training field "${key}"` });
    }
  }
  const graph = dagGraphSchema.safeParse(doc.graph);
  if (!graph.success) {
    errors.push(...structuralErrors(graph.error.issues, ["graph"], json));
    return { ok: false, errors };
  }
  const file = { graph: graph.data };

  const nodes: LayerNode[] = [];
  const ids = new Map<string, number>();
  file.graph.nodes.forEach((node, i) => {
    const base = `graph.nodes[${i}]`;
    if (ids.has(node.id)) {
      errors.push({
        path: `${base}.id`,
        nodeId: node.id,
        message: `Duplicate node id "${node.id}" (also graph.nodes[${ids.get(node.id)}])`,
      });
    } else {
      ids.set(node.id, i);
    }
    if (!isLayerType(node.type)) {
      errors.push({ path: `${base}.type`, nodeId: node.id, message: `Unknown layer type "${node.type}"` });
      return;
    }
    const r = resolveParams(node.type, node.params);
    for (const key of r.unknownKeys) {
      errors.push({
        path: `${base}.params.${key}`,
        nodeId: node.id,
        message: `Unknown param "${key}" for ${node.type}`,
      });
    }
    if (!r.ok) {
      for (const e of r.errors) {
        errors.push({
          path: e.param ? `${base}.params.${e.param}` : `${base}.params`,
          nodeId: node.id,
          message: e.message,
        });
      }
    }
    const out: LayerNode = { id: node.id, type: node.type, params: node.params, position: node.position };
    if (node.label !== undefined) out.label = node.label;
    nodes.push(out);
  });

  const edgeIds = new Set<string>();
  const edges: GraphEdge[] = [];
  file.graph.edges.forEach((edge, i) => {
    const base = `graph.edges[${i}]`;
    if (edgeIds.has(edge.id)) errors.push({ path: `${base}.id`, message: `Duplicate edge id "${edge.id}"` });
    edgeIds.add(edge.id);
    for (const end of ["source", "target"] as const) {
      if (!ids.has(edge[end]))
        errors.push({
          path: `${base}.${end}`,
          message: `Edge "${edge.id}" ${end} "${edge[end]}" is not a node id`,
        });
    }
    const targetIdx = ids.get(edge.target);
    const targetType = targetIdx === undefined ? undefined : file.graph.nodes[targetIdx].type;
    if (targetType !== undefined && isLayerType(targetType)) {
      const max = layerCatalog[targetType].inputs.max;
      const port = edge.targetPort ?? 0;
      if (port >= max) {
        errors.push({
          path: `${base}.targetPort`,
          nodeId: edge.target,
          message:
            max === 0
              ? `${targetType} "${edge.target}" takes no inputs`
              : `${targetType} "${edge.target}" has input ports 0..${max - 1}; got ${port}`,
        });
      }
    }
    edges.push({ ...edge });
  });

  if (errors.length > 0 || !header.success || !training.success) return { ok: false, errors };
  const dag: Dag = { format: DAG_FORMAT, graph: { nodes, edges } };
  if (header.data.name !== undefined) dag.name = header.data.name;
  if (training.data !== undefined) dag.training = training.data;
  return { ok: true, dag };
}

/** Parses DAG JSON text, reporting JSON syntax errors in the same shape as parseDag. */
export function parseDagText(text: string): ParseDagResult {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    return {
      ok: false,
      errors: [{ path: "", message: `Invalid JSON: ${e instanceof Error ? e.message : String(e)}` }],
    };
  }
  return parseDag(json);
}

/** Builds a DAG document from an editor graph (deep-copied) and an optional training config. */
export function toDag(graph: ArchitectureGraph, config?: TrainingConfigInput, name?: string): Dag {
  const dag: Dag = {
    format: DAG_FORMAT,
    graph: {
      nodes: graph.nodes.map((n) => {
        const node: LayerNode = {
          id: n.id,
          type: n.type,
          params: structuredClone(n.params),
          position: { x: n.position.x, y: n.position.y },
        };
        if (n.label !== undefined) node.label = n.label;
        return node;
      }),
      edges: graph.edges.map((e) => {
        const edge: GraphEdge = { id: e.id, source: e.source, target: e.target };
        if (e.targetPort !== undefined) edge.targetPort = e.targetPort;
        return edge;
      }),
    },
  };
  if (name !== undefined) dag.name = name;
  if (config !== undefined) dag.training = trainingConfigSchema.parse(config);
  return dag;
}

/** Pretty JSON text of a DAG document (2-space indent, trailing newline). */
export function stringifyDag(dag: Dag): string {
  return `${JSON.stringify(dag, null, 2)}\n`;
}
