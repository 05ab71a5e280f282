/**
 * The PyTorch runtime: the job's generated PyTorch project run by the worker's Python (Debian's
 * /usr/bin/python3 with python3-torch, or LAYERLINE_PYTHON). The script picks CUDA when torch sees
 * a GPU, and reports through the upload-token API like any user's machine.
 */
import { generateProject } from "../../../../ml/codegen";
import {
  attemptDirs,
  childEnv,
  notStarted,
  runProcess,
  runTrainingProgram,
  trainingArgs,
  writeProjectFiles,
} from "./process";
import type { ExecutionRequest, ExecutionResult, Executor } from "./types";

export const DEFAULT_PYTHON = "/usr/bin/python3";

export function pythonPath(): string {
  return process.env.LAYERLINE_PYTHON?.trim() || DEFAULT_PYTHON;
}

/** Processes of a data_parallel job (torchrun --nproc_per_node): LAYERLINE_DATA_PARALLEL_PROCS, default 2. */
export function dataParallelProcs(): number {
  const n = Number.parseInt(process.env.LAYERLINE_DATA_PARALLEL_PROCS ?? "", 10);
  return Number.isFinite(n) && n >= 1 ? n : 2;
}

/**
 * The interpreter's arguments: `train.py …`, or for data_parallel the same under torchrun on this
 * machine (`-m torch.distributed.run --standalone --nproc_per_node=N`; gloo on CPU, nccl on GPUs).
 */
export function pythonArgs(strategy: string | undefined, scriptArgs: string[]): string[] {
  if (strategy !== "data_parallel") return ["train.py", ...scriptArgs];
  return [
    "-m",
    "torch.distributed.run",
    "--standalone",
    `--nproc_per_node=${dataParallelProcs()}`,
    // No redirection (the default), spelt as a mapping: torch 1.13 under Python ≥ 3.11 cannot parse
    // the default "0" (IntFlag iteration skips NONE) and crashes; a map for local rank 9 means the same.
    "--redirects=9:0",
    "--tee=9:0",
    "train.py",
    ...scriptArgs,
  ];
}

const torchChecks = new Map<string, Promise<boolean>>();

/** Whether `python -c "import torch"` works (cached per interpreter path). */
export function pythonHasTorch(python = pythonPath()): Promise<boolean> {
  let check = torchChecks.get(python);
  if (!check) {
    check = runProcess({
      command: python,
      args: ["-c", "import torch, numpy"],
      cwd: process.cwd(),
      env: childEnv({ PYTHONDONTWRITEBYTECODE: "1" }, process.env.HOME ?? "/"),
      timeLimitMs: 120_000,
    }).then((r) => r.exitCode === 0);
    torchChecks.set(python, check);
  }
  return check;
}

export const pytorchExecutor: Executor = {
  runtime: "pytorch",
  available: () => pythonHasTorch(),
  async run(req: ExecutionRequest): Promise<ExecutionResult> {
    const python = pythonPath();
    if (!(await pythonHasTorch(python)))
      return notStarted(`PyTorch is not available on this worker: ${python} cannot import torch and numpy.`);
    const dirs = await attemptDirs(req.workDir);
    const project = generateProject("pytorch", req.graph, req.config, { projectName: req.projectName });
    await writeProjectFiles(dirs.project, project.files);
    return runTrainingProgram(req, dirs, {
      command: python,
      args: (r, api) => pythonArgs(r.strategy, trainingArgs(r, dirs, api)),
      env: { PYTHONUNBUFFERED: "1", PYTHONDONTWRITEBYTECODE: "1", PYTHONNOUSERSITE: "1" },
    });
  },
};
