/**
 * Whole-graph analysis: topological order, validation, shape/dtype inference,
 * parameter counts and FLOPs. Linear in nodes + edges (adjacency arrays, no
 * O(n²) passes) so the editor can re-run it on every change.
 */
import type { ArchitectureGraph, Dtype, GraphEdge, LayerNode, Shape } from "./graph-types";
import { getLayerDef, resolveParams } from "./layer-catalog";
import type { LayerDef } from "./layers/layer-def";
import { formatShape } from "./layers/shape-math";

export type GraphIssueCode =
  | "cycle"
  | "dangling_input"
  | "missing_input_node"
  | "missing_output_node"
  | "shape_mismatch"
  | "invalid_params"
  | "unknown_layer"
  | "too_many_inputs"
  | "disconnected"
  /** Edge that references an unknown node, leaves an Output, or has a bad port number. */
  | "invalid_edge"
  /** Two nodes share the same id (the later ones are ignored). */
  | "duplicate_id";

export interface GraphIssue {
  code: GraphIssueCode;
  severity: "error" | "warning";
  nodeId?: string;
  port?: number;
  edgeId?: string;
  /** For invalid_params: the offending field ("units", "shape.1"...). */
  param?: string;
  message: string;
}

export interface GraphAnalysis {
  /** Output shape of every node (batch excluded), null when it cannot be inferred. */
  shapes: Record<string, Shape | null>;
  /** Output element type of every node, null when unknown. */
  dtypes: Record<string, Dtype | null>;
  /** Trainable parameters per node (0 when unknown). */
  params: Record<string, number>;
  /** Forward FLOPs per sample per node (0 when unknown); see layers/layer-def.ts. */
  flops: Record<string, number>;
  /** Params with defaults applied (null when the type is unknown or params are invalid). */
  resolvedParams: Record<string, Record<string, unknown> | null>;
  /** Source node id connected to each input port, in port order (null = unconnected). */
  inputs: Record<string, (string | null)[]>;
  totalParams: number;
  totalFlops: number;
  issues: GraphIssue[];
  /** Topological order (Kahn) of the nodes that are not in or behind a cycle. */
  order: string[];
  /** True when there are no error-severity issues. */
  ok: boolean;
}

/** What analyzeGraph needs; `type` is a plain string so unknown types can be reported. */
export interface AnalyzableGraph {
  nodes: ReadonlyArray<Pick<LayerNode, "id" | "params"> & { type: string; label?: string }>;
  edges: ReadonlyArray<GraphEdge>;
}

/** Upper bound on port numbers for nodes whose type is unknown. */
const MAX_PORTS = 64;

function nodeName(node: { id: string; type: string; label?: string }): string {
  return node.label && node.label !== node.type
    ? `${node.type} "${node.label}"`
    : `${node.type} "${node.id}"`;
}

function cyclicComponents(n: number, out: number[][], alive: Uint8Array): number[][] {
  // Iterative Tarjan SCC restricted to `alive` nodes.
  const index = new Int32Array(n).fill(-1);
  const low = new Int32Array(n);
  const onStack = new Uint8Array(n);
  const stack: number[] = [];
  const result: number[][] = [];
  let counter = 0;
  const callStack: { v: number; i: number }[] = [];
  for (let root = 0; root < n; root++) {
    if (!alive[root] || index[root] !== -1) continue;
    callStack.push({ v: root, i: 0 });
    index[root] = low[root] = counter++;
    stack.push(root);
    onStack[root] = 1;
    while (callStack.length > 0) {
      const frame = callStack[callStack.length - 1];
      const succ = out[frame.v];
      if (frame.i < succ.length) {
        const w = succ[frame.i++];
        if (!alive[w]) continue;
        if (index[w] === -1) {
          index[w] = low[w] = counter++;
          stack.push(w);
          onStack[w] = 1;
          callStack.push({ v: w, i: 0 });
        } else if (onStack[w]) {
          low[frame.v] = Math.min(low[frame.v], index[w]);
        }
        continue;
      }
      callStack.pop();
      if (callStack.length > 0) {
        const parent = callStack[callStack.length - 1].v;
        low[parent] = Math.min(low[parent], low[frame.v]);
      }
      if (low[frame.v] === index[frame.v]) {
        const comp: number[] = [];
        let w: number;
        do {
          w = stack.pop() as number;
          onStack[w] = 0;
          comp.push(w);
        } while (w !== frame.v);
        const selfLoop = comp.length === 1 && out[comp[0]].includes(comp[0]);
        if (comp.length > 1 || selfLoop) result.push(comp.reverse());
      }
    }
  }
  return result;
}

export function analyzeGraph(graph: AnalyzableGraph | ArchitectureGraph): GraphAnalysis {
  const issues: GraphIssue[] = [];
  const nodes = graph.nodes;
  const n = nodes.length;

  // 1. Index nodes, resolve definitions and params.
  const indexById = new Map<string, number>();
  const defs: (LayerDef | undefined)[] = new Array(n);
  const resolved: (Record<string, unknown> | null)[] = new Array(n).fill(null);
  const live = new Uint8Array(n); // 0 for duplicate ids, which are ignored
  let inputCount = 0;
  let outputCount = 0;
  for (let i = 0; i < n; i++) {
    const node = nodes[i];
    if (indexById.has(node.id)) {
      issues.push({
        code: "duplicate_id",
        severity: "error",
        nodeId: node.id,
        message: `Duplicate node id "${node.id}"; this copy is ignored`,
      });
      continue;
    }
    indexById.set(node.id, i);
    live[i] = 1;
    const def = getLayerDef(node.type);
    defs[i] = def;
    if (!def) {
      issues.push({
        code: "unknown_layer",
        severity: "error",
        nodeId: node.id,
        message: `Unknown layer type "${node.type}"`,
      });
      continue;
    }
    if (def.type === "Input") inputCount++;
    if (def.type === "Output") outputCount++;
    const r = resolveParams(def.type, node.params);
    for (const key of r.unknownKeys) {
      issues.push({
        code: "invalid_params",
        severity: "warning",
        nodeId: node.id,
        param: key,
        message: `${nodeName(node)}: unknown param "${key}" is ignored`,
      });
    }
    if (r.ok) {
      resolved[i] = r.params;
    } else {
      for (const e of r.errors) {
        issues.push({
          code: "invalid_params",
          severity: "error",
          nodeId: node.id,
          param: e.param,
          message: `${nodeName(node)}: ${e.param ? `${e.param}: ` : ""}${e.message}`,
        });
      }
    }
  }

  // 2. Edges -> port slots and adjacency.
  const slots: (number | undefined)[][] = Array.from({ length: n }, () => []);
  const out: number[][] = Array.from({ length: n }, () => []);
  const indeg = new Int32Array(n);
  for (const edge of graph.edges) {
    const s = indexById.get(edge.source);
    const t = indexById.get(edge.target);
    if (s === undefined || t === undefined) {
      const missing = s === undefined ? edge.source : edge.target;
      issues.push({
        code: "invalid_edge",
        severity: "error",
        edgeId: edge.id,
        nodeId: t !== undefined ? edge.target : undefined,
        message: `Edge "${edge.id}" references unknown node "${missing}"`,
      });
      continue;
    }
    const port = edge.targetPort ?? 0;
    const sDef = defs[s];
    const tDef = defs[t];
    if (sDef && !sDef.hasOutput) {
      issues.push({
        code: "invalid_edge",
        severity: "error",
        edgeId: edge.id,
        nodeId: edge.source,
        message: `${nodeName(nodes[s])} is a model output and cannot feed other layers`,
      });
      continue;
    }
    if (!Number.isInteger(port) || port < 0) {
      issues.push({
        code: "invalid_edge",
        severity: "error",
        edgeId: edge.id,
        nodeId: edge.target,
        message: `Edge "${edge.id}" has invalid target port ${port}`,
      });
      continue;
    }
    if (!tDef && port >= MAX_PORTS) {
      issues.push({
        code: "invalid_edge",
        severity: "error",
        edgeId: edge.id,
        nodeId: edge.target,
        message: `Edge "${edge.id}" targets port ${port}, beyond the maximum of ${MAX_PORTS - 1}`,
      });
      continue;
    }
    if (tDef && port >= tDef.inputs.max) {
      issues.push({
        code: "too_many_inputs",
        severity: "error",
        nodeId: edge.target,
        port,
        edgeId: edge.id,
        message:
          tDef.inputs.max === 0
            ? `${nodeName(nodes[t])} takes no inputs`
            : `${nodeName(nodes[t])} accepts at most ${tDef.inputs.max} input${tDef.inputs.max === 1 ? "" : "s"} (ports 0..${tDef.inputs.max - 1}); edge targets port ${port}`,
      });
      continue;
    }
    const taken = slots[t][port];
    if (taken !== undefined) {
      issues.push({
        code: "too_many_inputs",
        severity: "error",
        nodeId: edge.target,
        port,
        edgeId: edge.id,
        message: `${nodeName(nodes[t])}: port ${port} is already connected to "${nodes[taken].id}"`,
      });
      continue;
    }
    slots[t][port] = s;
    out[s].push(t);
    indeg[t]++;
  }

  // 3. Kahn's topological sort.
  const orderIdx: number[] = [];
  const remaining = Int32Array.from(indeg);
  for (let i = 0; i < n; i++) if (live[i] && remaining[i] === 0) orderIdx.push(i);
  for (let head = 0; head < orderIdx.length; head++) {
    for (const w of out[orderIdx[head]]) {
      if (--remaining[w] === 0) orderIdx.push(w);
    }
  }
  let liveCount = 0;
  for (let i = 0; i < n; i++) liveCount += live[i];
  if (orderIdx.length < liveCount) {
    const alive = new Uint8Array(n);
    for (let i = 0; i < n; i++) if (live[i] && remaining[i] > 0) alive[i] = 1;
    for (const comp of cyclicComponents(n, out, alive)) {
      const ids = comp.map((i) => nodes[i].id);
      const shown = ids.length > 6 ? `${ids.slice(0, 6).join(" -> ")} -> ...` : ids.join(" -> ");
      for (const i of comp) {
        issues.push({
          code: "cycle",
          severity: "error",
          nodeId: nodes[i].id,
          message: `${nodeName(nodes[i])} is part of a cycle (${shown}); the graph must be acyclic`,
        });
      }
    }
  }

  // 4. Shape / dtype inference in topological order.
  const shapeArr: (Shape | null)[] = new Array(n).fill(null);
  const dtypeArr: (Dtype | null)[] = new Array(n).fill(null);
  const paramArr = new Float64Array(n);
  const flopArr = new Float64Array(n);
  for (const i of orderIdx) {
    const def = defs[i];
    const params = resolved[i];
    const node = nodes[i];
    if (!def) continue;
    const ports = slots[i];
    const required = Math.max(def.inputs.min, ports.length);
    let dangling = false;
    for (let p = 0; p < required; p++) {
      if (ports[p] === undefined) {
        dangling = true;
        issues.push({
          code: "dangling_input",
          severity: "error",
          nodeId: node.id,
          port: p,
          message:
            def.inputs.max > 1
              ? `${nodeName(node)}: input port ${p} is not connected`
              : `${nodeName(node)} has no input connected`,
        });
      }
    }
    if (dangling || !params) continue;
    const inShapes: Shape[] = [];
    const inDtypes: Dtype[] = [];
    let unknown = false;
    for (let p = 0; p < ports.length; p++) {
      const src = ports[p] as number;
      const sh = shapeArr[src];
      const dt = dtypeArr[src];
      if (!sh || !dt) {
        unknown = true;
        break;
      }
      inShapes.push(sh);
      inDtypes.push(dt);
    }
    if (unknown) continue;
    let dtypeError = false;
    for (let p = 0; p < inDtypes.length; p++) {
      const want = def.inputDtype === "any" ? inDtypes[0] : def.inputDtype;
      if (inDtypes[p] !== want) {
        const hint =
          inDtypes[p] === "int64"
            ? "; token ids must go through an Embedding first"
            : def.type === "Embedding"
              ? "; set the Input dtype to int64"
              : "";
        issues.push({
          code: "shape_mismatch",
          severity: "error",
          nodeId: node.id,
          port: p,
          message: `${nodeName(node)} expects ${want} input on port ${p} but got ${inDtypes[p]}${hint}`,
        });
        dtypeError = true;
        break;
      }
    }
    if (dtypeError) continue;
    const res = def.inferShape(inShapes, params);
    if ("error" in res) {
      issues.push({
        code: "shape_mismatch",
        severity: "error",
        nodeId: node.id,
        port: res.port,
        message: `${nodeName(node)}: ${res.error}`,
      });
      continue;
    }
    if (res.shape.some((d) => !Number.isInteger(d) || d < 1)) {
      issues.push({
        code: "shape_mismatch",
        severity: "error",
        nodeId: node.id,
        message: `${nodeName(node)}: invalid output shape ${formatShape(res.shape)}`,
      });
      continue;
    }
    shapeArr[i] = res.shape;
    dtypeArr[i] = def.outputDtype ? def.outputDtype(inDtypes, params) : "float32";
    paramArr[i] = def.paramCount(inShapes, params);
    flopArr[i] = def.flops(inShapes, params, res.shape);
  }

  // 5. Graph-level checks.
  if (inputCount === 0)
    issues.push({ code: "missing_input_node", severity: "error", message: "The model has no Input layer" });
  if (outputCount === 0)
    issues.push({ code: "missing_output_node", severity: "error", message: "The model has no Output layer" });
  if (outputCount > 0) {
    // Reverse reachability from the Output nodes: everything else is a dead branch.
    const reaches = new Uint8Array(n);
    const queue: number[] = [];
    for (let i = 0; i < n; i++) {
      if (live[i] && defs[i]?.type === "Output") {
        reaches[i] = 1;
        queue.push(i);
      }
    }
    for (let head = 0; head < queue.length; head++) {
      for (const src of slots[queue[head]]) {
        if (src !== undefined && !reaches[src]) {
          reaches[src] = 1;
          queue.push(src);
        }
      }
    }
    for (let i = 0; i < n; i++) {
      if (live[i] && !reaches[i]) {
        issues.push({
          code: "disconnected",
          severity: "warning",
          nodeId: nodes[i].id,
          message: `${nodeName(nodes[i])} does not feed any Output`,
        });
      }
    }
  }

  // 6. Assemble records.
  const shapes: Record<string, Shape | null> = {};
  const dtypes: Record<string, Dtype | null> = {};
  const params: Record<string, number> = {};
  const flops: Record<string, number> = {};
  const resolvedParams: Record<string, Record<string, unknown> | null> = {};
  const inputs: Record<string, (string | null)[]> = {};
  let totalParams = 0;
  let totalFlops = 0;
  for (let i = 0; i < n; i++) {
    if (!live[i]) continue;
    const id = nodes[i].id;
    shapes[id] = shapeArr[i];
    dtypes[id] = dtypeArr[i];
    params[id] = paramArr[i];
    flops[id] = flopArr[i];
    resolvedParams[id] = resolved[i];
    const ps = slots[i];
    const list: (string | null)[] = new Array(ps.length);
    for (let p = 0; p < ps.length; p++) {
      const src = ps[p];
      list[p] = src === undefined ? null : nodes[src].id;
    }
    inputs[id] = list;
    totalParams += paramArr[i];
    totalFlops += flopArr[i];
  }
  const order = orderIdx.map((i) => nodes[i].id);
  return {
    shapes,
    dtypes,
    params,
    flops,
    resolvedParams,
    inputs,
    totalParams,
    totalFlops,
    issues,
    order,
    ok: !issues.some((x) => x.severity === "error"),
  };
}

/** Issues attached to one node (for the editor's per-node badges). */
export function issuesForNode(analysis: GraphAnalysis, nodeId: string): GraphIssue[] {
  return analysis.issues.filter((i) => i.nodeId === nodeId);
}
