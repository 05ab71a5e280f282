/**
 * "Fit to dataset": every way a model and a dataset disagree (inputs, task, classes, channels, picture
 * size, vocabulary), each in a sentence, and the model adapted to the data in one go. Only the
 * Input, the Embeddings, the head (the Dense layer feeding the Output) and the Output change; the
 * rest of the diagram stays as drawn (a Flatten is added after the Input when a flat model meets
 * pictures, and a Reshape right after the Input follows the new width). The data is described as
 * "Train a model on this data" sizes a model for it (dataset-models.ts's DataShape, measured by the
 * server from the dataset's schema, roles and profile); the model's Input and Output are read as the
 * server's fit rules read them (fit-model-io.ts). Pure: the editor, the Train dialog and the API
 * (the 422 of a job whose dataset does not fit) all call it.
 */
import type { DataShape } from "./dataset-models";
import {
  fmtShape,
  type ImageInputShape,
  imageInputOf,
  type ModelIO,
  modelIO,
  numel,
  taskMismatch,
} from "./fit-model-io";
import type { ArchitectureGraph, GraphEdge, LayerNode } from "./graph-types";
import { analyzeGraph } from "./infer-graph";

/** A dataset as "Fit to dataset" needs it. */
export interface DatasetShape {
  /** What a sized model is built for: table width and target, pictures and classes, text vocabulary. */
  data: DataShape;
  /** The target column (tables), for the sentences. */
  target: string | null;
  /** Class names when known (at most 20), for the sentences. */
  labels: string[];
  /** A table whose features are the pixels of a picture (the built-in digits): that picture. */
  layout: ImageInputShape | null;
  /** Image datasets: the one size every picture has, or null when their sizes differ. */
  picture_size: { height: number; width: number } | null;
}

export type MismatchKind = "model" | "inputs" | "task" | "classes" | "channels" | "size" | "vocabulary";

export interface Mismatch {
  kind: MismatchKind;
  /** What differs, as a sentence. */
  message: string;
  /** What fitting changes to resolve it, or null when it cannot (why is then in `message`). */
  fix: string | null;
  /** Training refuses the dataset until this is resolved (channels and size are only converted). */
  blocking: boolean;
}

export interface DatasetFitPlan {
  mismatches: Mismatch[];
  /** The model adapted to the data (the same object when nothing changes). */
  graph: ArchitectureGraph;
  /** Whether `graph` differs from the model given. */
  changed: boolean;
  /** Whether the adapted model fits: no blocking mismatch is left unresolved. */
  fits: boolean;
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

function classList(labels: string[], count: number): string {
  if (labels.length === 0) return "";
  const shown = labels.slice(0, 4).map((l) => `“${l}”`);
  return ` (${shown.join(", ")}${count > shown.length ? ", …" : ""})`;
}

/** The graph's parts that fitting may change. */
interface Parts {
  input: LayerNode;
  output: LayerNode;
  /** The layer feeding the Output (resized to the classes when it is a Dense layer). */
  head: LayerNode | null;
  /** The layers the Input feeds. */
  afterInput: LayerNode[];
}

function partsOf(graph: ArchitectureGraph): Parts | null {
  const inputs = graph.nodes.filter((n) => n.type === "Input");
  const outputs = graph.nodes.filter((n) => n.type === "Output");
  if (inputs.length !== 1 || outputs.length !== 1) return null;
  const byId = new Map(graph.nodes.map((n) => [n.id, n]));
  const headId = graph.edges.find((e) => e.target === outputs[0].id)?.source;
  return {
    input: inputs[0],
    output: outputs[0],
    head: (headId && byId.get(headId)) || null,
    afterInput: graph.edges.filter((e) => e.source === inputs[0].id).flatMap((e) => byId.get(e.target) ?? []),
  };
}

/** Edits of node params, collected while the mismatches are found, applied at the end. */
class Edits {
  readonly params = new Map<string, Record<string, unknown>>();
  flattenAfterInput = false;
  set(node: LayerNode, patch: Record<string, unknown>) {
    const prev = this.params.get(node.id) ?? node.params;
    const next = { ...prev, ...patch };
    for (const [k, v] of Object.entries(next)) if (v === undefined) delete next[k];
    this.params.set(node.id, next);
  }
  get empty() {
    return this.params.size === 0 && !this.flattenAfterInput;
  }
  apply(graph: ArchitectureGraph, parts: Parts): ArchitectureGraph {
    let nodes = graph.nodes.map((n) => {
      const p = this.params.get(n.id);
      return p ? { ...n, params: p } : n;
    });
    let edges: GraphEdge[] = graph.edges;
    if (this.flattenAfterInput) {
      const taken = new Set(nodes.map((n) => n.id));
      let id = "flatten";
      for (let i = 2; taken.has(id); i++) id = `flatten_${i}`;
      const { x, y } = parts.input.position;
      nodes = [...nodes, { id, type: "Flatten", params: {}, position: { x, y: y + 55 } }];
      edges = [
        ...edges.map((e) => (e.source === parts.input.id ? { ...e, id: `${e.id}-flat`, source: id } : e)),
        { id: `e-${parts.input.id}-${id}`, source: parts.input.id, target: id },
      ];
    }
    return { nodes, edges };
  }
}

/** Head and Output for `classes` logits (cross_entropy), or one value (regression, classes null). */
function setHead(edits: Edits, parts: Parts, classes: number | null): string | null {
  const head = parts.head;
  if (head?.type !== "Dense") return null;
  const activation = head.params.activation;
  // The Output takes raw logits (or the raw value for a regression): no squashing in the head.
  const plain =
    activation === "softmax" || activation === "sigmoid" || (classes === null && activation !== undefined);
  edits.set(head, { units: classes ?? 1, ...(plain ? { activation: "none" } : {}) });
  edits.set(
    parts.output,
    classes === null
      ? { loss: "mse", num_classes: undefined }
      : { loss: "cross_entropy", num_classes: classes },
  );
  const what = classes === null ? "1 unit (one value out)" : `${plural(classes, "unit")}`;
  return `last Dense layer → ${what}, Output → ${classes === null ? "mse" : `cross_entropy over ${classes} classes`}`;
}

const noHead = (parts: Parts, units: string) =>
  parts.head
    ? `The layer before the Output is a ${parts.head.type}, not a Dense layer: add a Dense layer of ${units} before the Output.`
    : "The Output has no layer feeding it.";

/** Sets the Input's shape, and a Reshape right after it follows the new width. */
function setInput(edits: Edits, parts: Parts, shape: number[], picture: ImageInputShape | null) {
  edits.set(parts.input, { shape, dtype: "float32" });
  for (const next of parts.afterInput) {
    if (next.type !== "Reshape" || !Array.isArray(next.params.shape)) continue;
    const target = next.params.shape as number[];
    if (target.includes(-1) || numel(target) === numel(shape)) continue;
    if (target.length === 1) edits.set(next, { shape: [numel(shape)] });
    else if (target.length === 3 && picture)
      edits.set(next, { shape: [picture.channels, picture.height, picture.width] });
  }
}

function fitTable(
  io: ModelIO,
  parts: Parts,
  ds: DatasetShape,
  data: Extract<DataShape, { kind: "table" }>,
  edits: Edits,
  out: Mismatch[],
) {
  if (io.inputDtype === "int64") {
    out.push({
      kind: "task",
      message: taskMismatch(io, `this dataset is a table of ${plural(data.features, "value")} per sample`),
      fix: null,
      blocking: true,
    });
  } else if (numel(io.inputShape) !== data.features) {
    // A picture model keeps reading pictures when the table is one (the digits' pixels).
    const picture = imageInputOf(io) && ds.layout ? ds.layout : null;
    const shape = picture ? [picture.channels, picture.height, picture.width] : [data.features];
    out.push({
      kind: "inputs",
      message: `The model's Input takes ${plural(numel(io.inputShape), "value")} per sample ${fmtShape(io.inputShape)}; the dataset gives ${data.features}.`,
      fix: `Input → ${fmtShape(shape)}`,
      blocking: true,
    });
    setInput(edits, parts, shape, picture);
  }

  const target = ds.target ? `The target “${ds.target}”` : "The target";
  if (data.target.kind === "classes") {
    const count = data.target.count;
    const names = classList(ds.labels, count);
    const binaryOk = io.loss === "binary_cross_entropy" && count === 2 && numel(io.outputShape) === 1;
    if (binaryOk) return;
    if (io.loss !== "cross_entropy") {
      const fix = setHead(edits, parts, count);
      out.push({
        kind: "task",
        message:
          io.loss === "mse"
            ? `${target} has ${count} classes${names}, but the model's Output is a regression (mse).`
            : `${target} has ${count} classes${names}; the model's Output is binary_cross_entropy over ${fmtShape(io.outputShape)}.`,
        fix,
        blocking: true,
      });
      if (!fix)
        out.push({ kind: "classes", message: noHead(parts, `${count} units`), fix: null, blocking: true });
    } else if (io.outputShape[0] !== count) {
      const fix = setHead(edits, parts, count);
      out.push({
        kind: "classes",
        message: `The dataset has ${count} classes${names}; the model's Output gives ${plural(io.outputShape[0], "logit")}.`,
        fix,
        blocking: true,
      });
      if (!fix)
        out.push({ kind: "classes", message: noHead(parts, `${count} units`), fix: null, blocking: true });
    }
    return;
  }
  if (io.loss !== "mse" || numel(io.outputShape) !== 1) {
    const fix = setHead(edits, parts, null);
    out.push({
      kind: io.loss === "mse" ? "classes" : "task",
      message:
        io.loss === "mse"
          ? `${target} is one number to predict; the model's Output gives ${numel(io.outputShape)} values.`
          : `${target} is a number to predict (regression), but the model's Output is a classifier (${io.loss} over ${plural(numel(io.outputShape), "value")}).`,
      fix,
      blocking: true,
    });
    if (!fix) out.push({ kind: "classes", message: noHead(parts, "1 unit"), fix: null, blocking: true });
  }
}

function fitImages(
  io: ModelIO,
  parts: Parts,
  ds: DatasetShape,
  data: Extract<DataShape, { kind: "images" }>,
  edits: Edits,
  out: Mismatch[],
  keepSize: boolean,
) {
  const picture = imageInputOf(io);
  const colour = (c: number) => (c === 1 ? "grayscale" : "RGB");
  if (io.inputDtype === "int64") {
    out.push({
      kind: "task",
      message: taskMismatch(io, "this dataset is pictures"),
      fix: null,
      blocking: true,
    });
  } else if (!picture) {
    const size = ds.picture_size ?? { height: data.height, width: data.width };
    const shape = [data.channels, size.height, size.width];
    // A flat stack (Dense after the Input) reads the picture flattened.
    const flat = parts.afterInput.some((n) => n.type === "Dense");
    out.push({
      kind: "inputs",
      message: `An image dataset needs a picture Input [C, H, W]; the model's Input is ${fmtShape(io.inputShape)}.`,
      fix: `Input → ${fmtShape(shape)} (${colour(data.channels)} ${size.width}×${size.height})${flat ? " with a Flatten after it" : ""}`,
      blocking: true,
    });
    setInput(edits, parts, shape, { channels: data.channels, ...size });
    edits.flattenAfterInput = flat;
  } else {
    const wanted = ds.picture_size ?? { height: picture.height, width: picture.width };
    const sized = wanted.height !== picture.height || wanted.width !== picture.width;
    const size = sized && !keepSize ? wanted : { height: picture.height, width: picture.width };
    if (picture.channels !== data.channels) {
      out.push({
        kind: "channels",
        message:
          data.channels === 1
            ? "The pictures are grayscale; the model's Input reads 3 channels (RGB), so each picture would be copied into three."
            : "The pictures are in colour; the model's Input reads 1 channel (grayscale), so their colour would be lost.",
        fix: `Input → ${data.channels} ${data.channels === 1 ? "channel" : "channels"} (${colour(data.channels)})`,
        blocking: false,
      });
    }
    if (sized) {
      out.push({
        kind: "size",
        message: `The pictures are all ${wanted.width}×${wanted.height}; the model's Input reads ${picture.width}×${picture.height}, so each would be resized.`,
        fix: keepSize ? null : `Input → ${wanted.width}×${wanted.height}`,
        blocking: false,
      });
    }
    if ((sized && !keepSize) || picture.channels !== data.channels)
      setInput(edits, parts, [data.channels, size.height, size.width], { channels: data.channels, ...size });
  }

  const count = data.classes;
  const names = classList(ds.labels, count);
  if (io.loss !== "cross_entropy" || io.outputShape.length !== 1 || io.outputShape[0] !== count) {
    const fix = setHead(edits, parts, count);
    out.push({
      kind: io.loss === "cross_entropy" ? "classes" : "task",
      message:
        io.loss === "cross_entropy"
          ? `The dataset has ${count} classes${names}; the model's Output gives ${plural(numel(io.outputShape), "logit")}.`
          : `The pictures are classified into their ${count} class folders${names}; the model's Output is ${io.loss} ${fmtShape(io.outputShape)}.`,
      fix,
      blocking: true,
    });
    if (!fix)
      out.push({ kind: "classes", message: noHead(parts, `${count} units`), fix: null, blocking: true });
  }
}

function fitText(
  io: ModelIO,
  graph: ArchitectureGraph,
  parts: Parts,
  data: Extract<DataShape, { kind: "text" }>,
  edits: Edits,
  out: Mismatch[],
) {
  const vocabulary = data.vocabulary;
  if (io.inputDtype !== "int64" || io.vocabSize === null) {
    out.push({
      kind: "task",
      message: taskMismatch(
        io,
        "this is a text dataset: a language model starts with an int64 Input of token ids and an Embedding (New project → From a dataset builds one)",
      ),
      fix: null,
      blocking: true,
    });
    return;
  }
  if (io.inputShape.length !== 1) {
    out.push({
      kind: "inputs",
      message: `A text model's Input is one sequence of token ids [T]; this model's is ${fmtShape(io.inputShape)}.`,
      fix: null,
      blocking: true,
    });
  }
  if (io.vocabSize < vocabulary) {
    for (const n of graph.nodes)
      if (n.type === "Embedding" && Number(n.params.num_embeddings ?? 0) < vocabulary)
        edits.set(n, { num_embeddings: vocabulary });
    out.push({
      kind: "vocabulary",
      message: `The text has ${vocabulary} distinct characters; the model's Embedding holds ${io.vocabSize}.`,
      fix: `Embedding → ${vocabulary} entries`,
      blocking: true,
    });
  }
  if (io.loss !== "cross_entropy" || io.outputShape.length !== 1 || io.outputShape[0] < vocabulary) {
    const fix = setHead(edits, parts, vocabulary);
    out.push({
      kind: io.loss === "cross_entropy" ? "classes" : "task",
      message: `A language model predicts the next of ${vocabulary} characters; the model's Output is ${io.loss} ${fmtShape(io.outputShape)}.`,
      fix,
      blocking: true,
    });
    if (!fix)
      out.push({ kind: "classes", message: noHead(parts, `${vocabulary} units`), fix: null, blocking: true });
  }
}

/** Every mismatch between a model and a dataset, and the model adapted to the dataset. */
export function fitModelToDataset(graph: ArchitectureGraph, ds: DatasetShape): DatasetFitPlan {
  const unchanged = (mismatches: Mismatch[]): DatasetFitPlan => ({
    mismatches,
    graph,
    changed: false,
    fits: !mismatches.some((m) => m.blocking),
  });
  const model = modelIO(graph, analyzeGraph(graph));
  const parts = partsOf(graph);
  if (!model.ok || !parts) {
    const reason = model.ok ? "The model needs exactly one Input and one Output." : model.reason;
    return unchanged([
      { kind: "model", message: `${reason} Fix the diagram first.`, fix: null, blocking: true },
    ]);
  }
  const io = model.io;
  const edits = new Edits();
  const out: Mismatch[] = [];
  const data = ds.data;
  if (data.kind === "table") fitTable(io, parts, ds, data, edits, out);
  else if (data.kind === "images") fitImages(io, parts, ds, data, edits, out, false);
  else fitText(io, graph, parts, data, edits, out);

  let adapted = edits.apply(graph, parts);
  let error = analyzeGraph(adapted).issues.find((i) => i.severity === "error");
  if (error && data.kind === "images" && out.some((m) => m.kind === "size")) {
    // The layers do not work at the pictures' size: keep the Input's size (pictures are resized to it).
    edits.params.clear();
    out.length = 0;
    fitImages(io, parts, ds, data, edits, out, true);
    adapted = edits.apply(graph, parts);
    error = analyzeGraph(adapted).issues.find((i) => i.severity === "error");
  }
  if (edits.empty) return unchanged(out);
  // A mismatch fitting cannot resolve (a text model on a table): a half-fitted model helps nobody.
  if (out.some((m) => m.blocking && m.fix === null)) return unchanged(out.map((m) => ({ ...m, fix: null })));
  if (error) {
    // The rest of the diagram does not work with the data's shape: say so, change nothing.
    const which = adapted.nodes.find((n) => n.id === error.nodeId);
    const where = which ? ` at ${which.label ?? which.type} (${which.id})` : "";
    const unresolved = out.map((m) => ({ ...m, fix: null }));
    unresolved.push({
      kind: "model",
      message: `The diagram cannot be fitted as it is: with the dataset's shape, ${error.message}${where}. Change the layers after the Input by hand, or start from New project → From a dataset.`,
      fix: null,
      blocking: out.some((m) => m.blocking),
    });
    return unchanged(unresolved);
  }
  return {
    mismatches: out,
    graph: adapted,
    changed: true,
    fits: !out.some((m) => m.blocking && m.fix === null),
  };
}
