/**
 * Identifiers for generated code: one snake_case name per node, valid in Python and JavaScript,
 * never shadowing a keyword, a builtin we rely on, or an nn.Module attribute; deduplicated
 * deterministically in the order names are requested.
 */
import type { LayerType } from "../graph-types";

const PYTHON_KEYWORDS = [
  "False",
  "None",
  "True",
  "and",
  "as",
  "assert",
  "async",
  "await",
  "break",
  "case",
  "class",
  "continue",
  "def",
  "del",
  "elif",
  "else",
  "except",
  "finally",
  "for",
  "from",
  "global",
  "if",
  "import",
  "in",
  "is",
  "lambda",
  "match",
  "nonlocal",
  "not",
  "or",
  "pass",
  "raise",
  "return",
  "try",
  "type",
  "while",
  "with",
  "yield",
];

const PYTHON_BUILTINS = [
  "abs",
  "all",
  "any",
  "bool",
  "dict",
  "dir",
  "filter",
  "float",
  "format",
  "hash",
  "id",
  "input",
  "int",
  "iter",
  "len",
  "list",
  "map",
  "max",
  "min",
  "next",
  "object",
  "open",
  "print",
  "range",
  "round",
  "set",
  "slice",
  "sorted",
  "str",
  "sum",
  "super",
  "tuple",
  "vars",
  "zip",
];

/** Attributes and methods of torch.nn.Module that a submodule name must not replace. */
const MODULE_ATTRIBUTES = [
  "add_module",
  "apply",
  "bfloat16",
  "buffers",
  "children",
  "cpu",
  "cuda",
  "double",
  "dump_patches",
  "eval",
  "extra_repr",
  "float",
  "forward",
  "get_buffer",
  "get_parameter",
  "get_submodule",
  "half",
  "ipu",
  "load_state_dict",
  "modules",
  "named_buffers",
  "named_children",
  "named_modules",
  "named_parameters",
  "parameters",
  "register_backward_hook",
  "register_buffer",
  "register_forward_hook",
  "register_forward_pre_hook",
  "register_full_backward_hook",
  "register_module",
  "register_parameter",
  "requires_grad_",
  "share_memory",
  "state_dict",
  "to",
  "to_empty",
  "train",
  "training",
  "xpu",
  "zero_grad",
];

const JS_RESERVED = [
  "arguments",
  "await",
  "break",
  "case",
  "catch",
  "class",
  "const",
  "continue",
  "debugger",
  "default",
  "delete",
  "do",
  "else",
  "enum",
  "eval",
  "export",
  "extends",
  "false",
  "finally",
  "for",
  "function",
  "if",
  "implements",
  "import",
  "in",
  "instanceof",
  "interface",
  "let",
  "new",
  "null",
  "package",
  "private",
  "protected",
  "public",
  "return",
  "static",
  "super",
  "switch",
  "this",
  "throw",
  "true",
  "try",
  "typeof",
  "undefined",
  "var",
  "void",
  "while",
  "with",
  "yield",
];

/** Names the generated files use themselves (modules, helpers, constants in lower case). */
const GENERATED_NAMES = ["F", "math", "model", "nn", "np", "self", "tf", "torch", "layers", "build_model"];

const RESERVED = new Set<string>([
  ...PYTHON_KEYWORDS,
  ...PYTHON_BUILTINS,
  ...MODULE_ATTRIBUTES,
  ...JS_RESERVED,
  ...GENERATED_NAMES,
]);

const TYPE_NAMES: Record<LayerType, string> = {
  Input: "x",
  Output: "output",
  Dense: "dense",
  Flatten: "flatten",
  Reshape: "reshape",
  Dropout: "dropout",
  Embedding: "embedding",
  Conv1D: "conv1d",
  Conv2D: "conv2d",
  MaxPool1D: "max_pool1d",
  MaxPool2D: "max_pool2d",
  AvgPool1D: "avg_pool1d",
  AvgPool2D: "avg_pool2d",
  GlobalAvgPool: "global_avg_pool",
  BatchNorm: "batch_norm",
  LayerNorm: "layer_norm",
  LSTM: "lstm",
  GRU: "gru",
  MultiHeadAttention: "attention",
  Activation: "activation",
  Add: "add",
  Concatenate: "concat",
};

const MAX_NAME_LENGTH = 40;

/** "Self-attention" -> "self_attention", "denseLayer" -> "dense_layer", "Čas" -> "cas". */
export function snakeCase(text: string): string {
  return text
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .replace(/([a-z0-9])([A-Z])/g, "$1_$2")
    .replace(/([A-Z]+)([A-Z][a-z])/g, "$1_$2")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "_")
    .replace(/^_+|_+$/g, "")
    .slice(0, MAX_NAME_LENGTH)
    .replace(/_+$/, "");
}

/** "MNIST classifier" -> "MnistClassifier" (a class name), or "" when nothing usable remains. */
export function pascalCase(text: string): string {
  return snakeCase(text)
    .split("_")
    .filter(Boolean)
    .map((w) => w[0].toUpperCase() + w.slice(1))
    .join("")
    .replace(/^[0-9]+/, "");
}

/** "My MNIST model!" -> "my-mnist-model" (file names), "project" when nothing usable remains. */
export function slugify(text: string): string {
  const slug = snakeCase(text).replace(/_/g, "-").slice(0, 60).replace(/-+$/, "");
  return slug || "project";
}

/**
 * Whether a node id reads like a name chosen by a person ("conv1", "fc_2", "residual-block")
 * rather than a generated key ("node_8f3a2c1d", a UUID).
 */
function isReadableId(id: string): boolean {
  if (!/^[A-Za-z][A-Za-z0-9_-]{0,31}$/.test(id)) return false;
  return id.split(/[_-]/).every((part) => {
    const digitLetter = part.match(/[0-9][a-z]/gi)?.length ?? 0;
    const digits = part.match(/[0-9]/g)?.length ?? 0;
    const hex = /^[0-9a-f]{8,}$/i.test(part) && digits > 0 && /[a-f]/i.test(part);
    return digitLetter < 2 && digits < 5 && !hex;
  });
}

export class NameAllocator {
  private readonly taken = new Set<string>();

  /** Reserves a name used by the generated code itself. */
  reserve(name: string): void {
    this.taken.add(name);
  }

  /** A fresh identifier derived from `preferred` (already snake_case or not). */
  allocate(preferred: string, fallback: string): string {
    let base = snakeCase(preferred) || fallback;
    if (/^[0-9]/.test(base)) base = `${fallback}_${base}`;
    if (RESERVED.has(base)) base = `${base}_`;
    let name = base;
    for (let i = 2; this.taken.has(name); i++) name = `${base}_${i}`;
    this.taken.add(name);
    return name;
  }

  /** A node's name: its label, else its id when readable, else `fallback` (default: its layer type). */
  forNode(node: { id: string; type: LayerType; label?: string }, fallback = TYPE_NAMES[node.type]): string {
    const label = node.label?.trim();
    if (label) return this.allocate(label, fallback);
    if (node.type !== "Input" && isReadableId(node.id)) return this.allocate(node.id, fallback);
    return this.allocate(fallback, fallback);
  }
}
