/**
 * Small programmatic graph builder (tests, benchmarks, seeds, server-side
 * generation). Nodes get sequential ids unless one is given, and positions
 * on a simple top-to-bottom grid (run autoLayout for a real layout).
 */
import type { ArchitectureGraph, GraphEdge, LayerNode, LayerType } from "./graph-types";

export interface AddNodeOptions {
  id?: string;
  label?: string;
  /** Source node ids connected to ports 0..n-1, in order. */
  inputs?: string[];
}

export class GraphBuilder {
  private readonly nodes: LayerNode[] = [];
  private readonly edges: GraphEdge[] = [];
  private counter = 0;

  /** Adds a node and returns its id. */
  add(type: LayerType, params: Record<string, unknown> = {}, options: AddNodeOptions = {}): string {
    const id = options.id ?? `${type.toLowerCase()}_${++this.counter}`;
    const node: LayerNode = { id, type, params, position: { x: 0, y: this.nodes.length * 100 } };
    if (options.label !== undefined) node.label = options.label;
    this.nodes.push(node);
    const inputs = options.inputs ?? [];
    for (let port = 0; port < inputs.length; port++) this.connect(inputs[port], id, port);
    return id;
  }

  /** Connects source -> target on the given input port (default 0). */
  connect(source: string, target: string, port?: number): this {
    const edge: GraphEdge = { id: `e${this.edges.length}_${source}_${target}`, source, target };
    if (port !== undefined) edge.targetPort = port;
    this.edges.push(edge);
    return this;
  }

  build(): ArchitectureGraph {
    return { nodes: [...this.nodes], edges: [...this.edges] };
  }
}

/** Builds a linear chain Input -> layers... -> Output; returns the graph and node ids in order. */
export function sequential(
  input: { shape: number[]; dtype?: "float32" | "int64" },
  layers: [LayerType, Record<string, unknown>?][],
  output: Record<string, unknown> = { loss: "cross_entropy" },
): { graph: ArchitectureGraph; ids: string[] } {
  const b = new GraphBuilder();
  const ids = [b.add("Input", { shape: input.shape, dtype: input.dtype ?? "float32" }, { id: "input" })];
  for (const [type, params] of layers) ids.push(b.add(type, params ?? {}, { inputs: [ids[ids.length - 1]] }));
  ids.push(b.add("Output", output, { id: "output", inputs: [ids[ids.length - 1]] }));
  return { graph: b.build(), ids };
}

export interface SyntheticGraphStats {
  residualBlocks: number;
  concatBlocks: number;
  dropouts: number;
}

/**
 * Deterministic synthetic graph with exactly `nodeCount` nodes (>= 3) for
 * benchmarks and scale tests: Input [width] -> blocks -> Dense 10 -> Output,
 * where each 4-node block is either a residual MLP block
 * (Dense relu, Dense, Add(skip), LayerNorm) or, every 10th block, a
 * two-branch block (Dense width/2 x2, Concatenate, Add(skip)).
 * Leftover nodes (0-3) become Dropout layers.
 */
export function syntheticGraph(
  nodeCount: number,
  width = 64,
): { graph: ArchitectureGraph; stats: SyntheticGraphStats } {
  if (nodeCount < 3) throw new Error("syntheticGraph needs at least 3 nodes");
  const b = new GraphBuilder();
  let x = b.add("Input", { shape: [width], dtype: "float32" }, { id: "input" });
  let used = 1;
  const stats: SyntheticGraphStats = { residualBlocks: 0, concatBlocks: 0, dropouts: 0 };
  let block = 0;
  while (nodeCount - used - 2 >= 4) {
    block++;
    if (block % 10 === 0) {
      const left = b.add("Dense", { units: width / 2, activation: "relu" }, { inputs: [x] });
      const right = b.add("Dense", { units: width / 2, activation: "tanh" }, { inputs: [x] });
      const cat = b.add("Concatenate", { axis: -1 }, { inputs: [left, right] });
      x = b.add("Add", {}, { inputs: [x, cat] });
      stats.concatBlocks++;
    } else {
      const d1 = b.add("Dense", { units: width, activation: "relu" }, { inputs: [x] });
      const d2 = b.add("Dense", { units: width }, { inputs: [d1] });
      const add = b.add("Add", {}, { inputs: [x, d2] });
      x = b.add("LayerNorm", {}, { inputs: [add] });
      stats.residualBlocks++;
    }
    used += 4;
  }
  while (nodeCount - used - 2 > 0) {
    x = b.add("Dropout", { p: 0.1 }, { inputs: [x] });
    stats.dropouts++;
    used++;
  }
  const head = b.add("Dense", { units: 10 }, { id: "head", inputs: [x] });
  b.add("Output", { loss: "cross_entropy", num_classes: 10 }, { id: "output", inputs: [head] });
  return { graph: b.build(), stats };
}
