/**
 * One interface for the managed training runtimes (decisions "Training"): an executor writes the
 * job's generated project (the files of GET /training/jobs/{id}/download-code) into a work
 * directory and runs it in a child process. The program reports through the public upload-token
 * API, exactly like a user's own machine; the executor only sees how the process ended.
 */
import type { ArchitectureGraph, TrainingConfig } from "../../../../ml/graph-types";
import type { ResourceLimits } from "./sandbox";

export type ManagedRuntime = "pytorch" | "tfjs";

export interface ExecutionRequest {
  jobId: string;
  projectName: string;
  graph: ArchitectureGraph;
  config: TrainingConfig;
  /** A materialised dataset (materializeDataset): passed as --data-dir. */
  dataDir: string;
  /** Scratch directory of this attempt: project/, checkpoints/ and export/ are created in it. */
  workDir: string;
  /** The job's upload token (`lut_…`) and the API base URL the program reports to. */
  uploadToken: string;
  apiBaseUrl: string;
  /** A checkpoint file written by the same runtime's script, to continue from; null to start afresh. */
  resumeFrom: string | null;
  /** Aborting kills the program (SIGTERM, then SIGKILL after a grace period). */
  signal: AbortSignal;
  /** Wall-clock limit of the program; past it the program is killed and `timedOut` is true. */
  timeLimitMs: number;
  /** Each line the program prints on stdout (one JSON record per line). */
  onLine?: (line: string) => void;
  /**
   * The job's distribution strategy (STRATEGIES in jobs.ts): `data_parallel` runs the PyTorch
   * project with torchrun on this machine; absent or `single`, one process.
   */
  strategy?: string;
  /** Fine-tuning runs (PyTorch only): how to start from a base model's weights. */
  fineTune?: FineTuneArgs;
  /** The sandbox's resource limits (the owner's plan: sandboxLimits); default the free plan's. */
  limits?: ResourceLimits;
}

/** train.py's fine-tuning options; layers are the generated model's module names. */
export interface FineTuneArgs {
  /** A verified state_dict file (--init-weights); ignored by train.py when resuming. */
  initWeights: string;
  /** Layers whose base weights are not loaded: a new head (--replace). */
  replace: string[];
  /** --freeze: none, base, or these layers. */
  freeze: "none" | "base" | string[];
  lrSchedule: "constant" | "cosine" | "linear";
  warmupEpochs: number;
}

export interface ExecutionResult {
  exitCode: number | null;
  /** The signal that ended the program (SIGTERM, SIGKILL…), else null. */
  signal: string | null;
  timedOut: boolean;
  /** The end of what the program wrote on stderr (at most STDERR_TAIL_BYTES). */
  stderrTail: string;
  wallSeconds: number;
}

export interface Executor {
  runtime: ManagedRuntime;
  /** Whether this machine can run the runtime (cached after the first call). */
  available(): Promise<boolean>;
  run(req: ExecutionRequest): Promise<ExecutionResult>;
}
