/**
 * What both generators work from: the graph analysed, validated for code generation, reduced to
 * the nodes that feed the Output, in topological order, each with a unique identifier.
 */

import type {
  ArchitectureGraph,
  Dtype,
  LayerType,
  Shape,
  TrainingConfig,
  TrainingConfigInput,
} from "../graph-types";
import { trainingConfigSchema } from "../graph-types";
import type { AnalyzableGraph, GraphAnalysis, GraphIssue } from "../infer-graph";
import { analyzeGraph } from "../infer-graph";
import type { LayerParams, LossName } from "../layer-catalog";
import { wellFormed } from "./literals";
import { NameAllocator, pascalCase } from "./naming";
import {
  type CodegenIssue,
  type CodegenOptions,
  type CodegenTarget,
  type CodegenValidation,
  CodegenValidationError,
} from "./types";

interface PlannedBase {
  id: string;
  /** Identifier of the node's output (and of its module attribute / TF.js layer). */
  name: string;
  /** Identifiers of the inputs, in port order. */
  inputs: string[];
  inputShapes: Shape[];
  /** Output shape without the batch dimension. */
  shape: Shape;
  dtype: Dtype;
  paramCount: number;
}

type PlannedOf<T extends LayerType> = PlannedBase & { type: T; params: LayerParams<T> };
/** A node with its resolved params typed from its layer type (switch on `type` to narrow). */
export type PlannedNode = { [T in LayerType]: PlannedOf<T> }[LayerType];

export interface CodegenPlan {
  projectName: string;
  /** PascalCase class / model name derived from the project name. */
  className: string;
  input: PlannedOf<"Input">;
  /** Every node between Input and Output that feeds the Output, in topological order. */
  layers: PlannedNode[];
  output: PlannedOf<"Output">;
  loss: LossName;
  totalParams: number;
  /** Smallest Embedding vocabulary when the Input holds token ids, else null. */
  vocabSize: number | null;
  config: TrainingConfig;
}

type AnyGraph = AnalyzableGraph | ArchitectureGraph;

function fromGraphIssue(issue: GraphIssue): CodegenIssue {
  const out: CodegenIssue = { code: issue.code, severity: issue.severity, message: issue.message };
  if (issue.nodeId !== undefined) out.nodeId = issue.nodeId;
  if (issue.port !== undefined) out.port = issue.port;
  if (issue.edgeId !== undefined) out.edgeId = issue.edgeId;
  if (issue.param !== undefined) out.param = issue.param;
  return out;
}

/** Ids of the nodes the Output depends on (the Output included). */
function ancestorsOf(outputId: string, analysis: GraphAnalysis): Set<string> {
  const seen = new Set<string>([outputId]);
  const queue = [outputId];
  for (let head = 0; head < queue.length; head++) {
    for (const src of analysis.inputs[queue[head]] ?? []) {
      if (src !== null && !seen.has(src)) {
        seen.add(src);
        queue.push(src);
      }
    }
  }
  return seen;
}

function label(node: { id: string; type: string; label?: string }): string {
  return node.label && node.label !== node.type
    ? `${node.type} "${node.label}"`
    : `${node.type} "${node.id}"`;
}

interface Checked {
  analysis: GraphAnalysis;
  config: TrainingConfig | null;
  issues: CodegenIssue[];
}

/** The editor's rules plus what code generation (for `target`) additionally needs. */
function check(graph: AnyGraph, config: unknown, target: CodegenTarget): Checked {
  const analysis = analyzeGraph(graph);
  const issues = analysis.issues.map(fromGraphIssue);

  const parsed = trainingConfigSchema.safeParse(config ?? {});
  for (const issue of parsed.success ? [] : parsed.error.issues) {
    const field = issue.path.map(String).join(".");
    issues.push({
      code: "invalid_config",
      severity: "error",
      param: `training.${field}`,
      message: `Training configuration: ${field ? `${field}: ` : ""}${issue.message}`,
    });
  }

  const seen = new Set<string>();
  const live = graph.nodes.filter((n) => !seen.has(n.id) && seen.add(n.id));
  for (const [type, code] of [
    ["Input", "multiple_inputs"],
    ["Output", "multiple_outputs"],
  ] as const) {
    const nodes = live.filter((n) => n.type === type);
    if (nodes.length < 2) continue;
    const names = nodes.map((n) => `"${n.id}"`).join(", ");
    for (const node of nodes) {
      issues.push({
        code,
        severity: "error",
        nodeId: node.id,
        message:
          type === "Input"
            ? `Code generation supports one Input; this graph has ${nodes.length} (${names})`
            : `Code generation supports one Output; this graph has ${nodes.length} (${names}). Merge the heads with Concatenate before a single Output`,
      });
    }
  }

  const outputs = live.filter((n) => n.type === "Output");
  const emitted = outputs.length === 1 ? ancestorsOf(outputs[0].id, analysis) : new Set<string>();
  for (const node of live) {
    const params = analysis.resolvedParams[node.id];
    if (!emitted.has(node.id) || !params) continue;
    if (
      (node.type === "LSTM" || node.type === "GRU") &&
      params.num_layers === 1 &&
      typeof params.dropout === "number" &&
      params.dropout > 0
    ) {
      issues.push({
        code: "no_effect",
        severity: "warning",
        nodeId: node.id,
        param: "dropout",
        message: `${label(node)}: dropout only applies between stacked layers; with num_layers = 1 it has no effect and is left out of the code`,
      });
    }
    if (
      target === "tfjs" &&
      (node.type === "Conv1D" || node.type === "Conv2D") &&
      typeof params.dilation === "number" &&
      params.dilation > 1
    ) {
      issues.push({
        code: "unsupported_for_target",
        severity: "error",
        nodeId: node.id,
        param: "dilation",
        message: `${label(node)}: TensorFlow.js cannot train dilated convolutions (it has no gradient for dilation > 1); use dilation 1 or the PyTorch target`,
      });
    }
  }
  if (outputs.length === 1 && analysis.ok && [...emitted].every((id) => analysis.params[id] === 0)) {
    issues.push({
      code: "no_trainable_parameters",
      severity: "error",
      nodeId: outputs[0].id,
      message:
        "The model has no trainable parameters, so there is nothing to train: add a Dense, Conv or other learned layer",
    });
  }
  return { analysis, config: parsed.success ? parsed.data : null, issues };
}

/** Per-node issues that stop (errors) or qualify (warnings) code generation for `target`. */
export function validateForCodegen(
  graph: AnyGraph,
  config?: TrainingConfigInput,
  target: CodegenTarget = "pytorch",
): CodegenValidation {
  const { issues } = check(graph, config, target);
  return { valid: !issues.some((i) => i.severity === "error"), issues };
}

/** The plan for `target`, or a CodegenValidationError listing the problems. */
export function planCodegen(
  graph: AnyGraph,
  config: TrainingConfigInput | undefined,
  target: CodegenTarget,
  options: CodegenOptions = {},
): CodegenPlan {
  const { analysis, config: resolvedConfig, issues } = check(graph, config, target);
  if (issues.some((i) => i.severity === "error") || !resolvedConfig) {
    throw new CodegenValidationError(target, issues);
  }
  const byId = new Map(graph.nodes.map((n) => [n.id, n] as const));
  const outputNode = graph.nodes.find((n) => n.type === "Output");
  if (!outputNode) throw new CodegenValidationError(target, issues);
  const emitted = ancestorsOf(outputNode.id, analysis);

  const names = new NameAllocator();
  const nameOf = new Map<string, string>();
  const planned: PlannedNode[] = [];
  for (const id of analysis.order) {
    if (!emitted.has(id)) continue;
    const node = byId.get(id);
    const params = analysis.resolvedParams[id];
    const shape = analysis.shapes[id];
    const dtype = analysis.dtypes[id];
    if (!node || !params || !shape || !dtype) throw new CodegenValidationError(target, issues);
    const type = node.type as LayerType;
    const fallback = type === "Activation" ? String(params.activation) : undefined;
    const name = type === "Output" ? "" : names.forNode({ id, type, label: node.label }, fallback);
    nameOf.set(id, name);
    const sources = (analysis.inputs[id] ?? []).map((src) => src ?? "");
    planned.push({
      id,
      type,
      name,
      inputs: sources.map((src) => nameOf.get(src) ?? ""),
      inputShapes: sources.map((src) => analysis.shapes[src] ?? []),
      shape,
      dtype,
      paramCount: analysis.params[id],
      // The params were resolved by this type's schema: they have its output type.
      params: params as LayerParams<typeof type>,
    } as PlannedNode);
  }

  const input = planned.find((n): n is PlannedOf<"Input"> => n.type === "Input");
  const output = planned.find((n): n is PlannedOf<"Output"> => n.type === "Output");
  if (!input || !output) throw new CodegenValidationError(target, issues);
  const layers = planned.filter((n) => n.type !== "Input" && n.type !== "Output");
  const embeddings = layers.flatMap((n) => (n.type === "Embedding" ? [n.params.num_embeddings] : []));
  const projectName = wellFormed(options.projectName ?? "").trim() || "Untitled model";
  const base = pascalCase(projectName);
  return {
    projectName,
    className: !base ? "Model" : base.endsWith("Model") ? base : `${base}Model`,
    input,
    layers,
    output,
    loss: output.params.loss,
    totalParams: planned.reduce((sum, n) => sum + n.paramCount, 0),
    vocabSize: input.params.dtype === "int64" && embeddings.length > 0 ? Math.min(...embeddings) : null,
    config: resolvedConfig,
  };
}
