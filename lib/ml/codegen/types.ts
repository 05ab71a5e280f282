/** Shared types of the code generators (pure, isomorphic). */
import type { GraphIssueCode } from "../infer-graph";

export const CODEGEN_TARGETS = ["pytorch", "tfjs"] as const;
export type CodegenTarget = (typeof CODEGEN_TARGETS)[number];

/** Monaco language ids of the generated files. */
export type CodeLanguage = "python" | "javascript" | "json" | "markdown" | "plaintext";

export interface GeneratedFile {
  /** Relative POSIX path inside the generated project, e.g. "model.py". */
  path: string;
  content: string;
  language: CodeLanguage;
}

export interface GeneratedProject {
  target: CodegenTarget;
  files: GeneratedFile[];
}

export interface CodegenOptions {
  /** Shown in docstrings and READMEs; also names the model class / TF.js model. */
  projectName?: string;
  /** A training job's bundle: README.md gets a "Reproduce this job" section (see ReproduceOptions). */
  reproduce?: ReproduceOptions;
}

/** How a downloaded training job is run again (GET /training/jobs/{id}/download-code). */
export interface ReproduceOptions {
  jobId: string;
  /**
   * The runtime the job ran on: the same target reproduces it, the other only retrains on its data;
   * `external`: the job runs where its owner starts it (the command trains on the prepared data).
   */
  runtime: CodegenTarget | "external";
  /** The program and its arguments (`train.py --data-dir data …`), as the job's worker passed them. */
  command: string[];
  /** `python` (one process), `torchrun` (data_parallel, so many processes) or `node`. */
  launcher: { kind: "python" } | { kind: "torchrun"; processes: number } | { kind: "node" };
  /** Whether `data/` (the job's prepared dataset) is in the bundle; else why it is not. */
  data: { included: true } | { included: false; reason: string };
  /** Fine-tuning runs: the base weights file in the bundle (`--init-weights`), else null. */
  baseWeights: string | null;
}

export type CodegenIssueCode =
  | GraphIssueCode
  /** Code generation needs exactly one Input and one Output. */
  | "multiple_inputs"
  | "multiple_outputs"
  /** The layer (or this use of it) cannot be expressed faithfully for the chosen target. */
  | "unsupported_for_target"
  /** Nothing to train: the optimizers (and train.py / train.mjs) need at least one parameter. */
  | "no_trainable_parameters"
  /** A param that has no effect in the generated code (e.g. recurrent dropout with one layer). */
  | "no_effect"
  /** The training configuration does not pass validation. */
  | "invalid_config";

export interface CodegenIssue {
  code: CodegenIssueCode;
  severity: "error" | "warning";
  nodeId?: string;
  port?: number;
  edgeId?: string;
  /** Offending param ("units") or training config field ("training.epochs"). */
  param?: string;
  message: string;
}

export interface CodegenValidation {
  /** True when there is no error-severity issue. */
  valid: boolean;
  issues: CodegenIssue[];
}

/** Thrown by the generators when the graph or configuration cannot be turned into code. */
export class CodegenValidationError extends Error {
  constructor(
    readonly target: CodegenTarget,
    readonly issues: CodegenIssue[],
  ) {
    const errors = issues.filter((i) => i.severity === "error");
    super(
      `Cannot generate ${target === "pytorch" ? "PyTorch" : "TensorFlow.js"} code: ${errors
        .slice(0, 5)
        .map((i) => i.message)
        .join("; ")}${errors.length > 5 ? ` (and ${errors.length - 5} more)` : ""}`,
    );
    this.name = "CodegenValidationError";
  }
}
