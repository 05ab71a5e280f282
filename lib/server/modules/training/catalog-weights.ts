/**
 * Small Python programs run on a base model's weights with the worker's Python (PyTorch): extract
 * the best epoch's state_dict from a generated train.py checkpoint, and evaluate a state_dict loaded
 * strictly into the generated model.py on one split of a prepared dataset. Both run as
 * `python -c <program> <arguments…>` (an argument array, never a shell string), in the sandbox
 * (executors/sandbox.ts): the files they read are copied into a directory of their own, the only one
 * they see, and what they write comes back from there. Weights load as data only (weights_only=True).
 */
import fsp from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { childEnv, runProcess } from "./executors/process";
import { pythonPath } from "./executors/pytorch";
import { prepareJobDir, sandboxEnabled, sandboxLimits, stageInput } from "./executors/sandbox";

const TIME_LIMIT_MS = 300_000;

/** argv: checkpoint (best.pt), output file. Prints {"epoch", "params", "tensors"}. */
const EXTRACT = `
import json, sys
from collections import OrderedDict
import torch
try:
    checkpoint = torch.load(sys.argv[1], map_location="cpu", weights_only=True)
except Exception as error:
    sys.exit(f"refused: not a plain PyTorch checkpoint or state_dict (only tensors and plain values are loaded): {str(error).strip()[-300:]}")
state = OrderedDict(
    (name, value.detach().clone().contiguous())
    for name, value in checkpoint["model_state_dict"].items()
)
torch.save(state, sys.argv[2])
params = sum(value.numel() for value in state.values() if value.is_floating_point())
print(json.dumps({"epoch": checkpoint["epoch"], "best_epoch": checkpoint["best_epoch"], "params": params, "tensors": len(state), "torch": torch.__version__}))
`;

/**
 * argv: project dir (model.py), weights, prepared data dir, split (float32, int32 or uint8 pictures
 * with their dataset.json `image` statistics). Loads the state_dict strictly and prints {"rows", "loss", "accuracy"} (mean cross-entropy and top-1 accuracy over the split).
 */
const EVALUATE = `
import json, sys
from pathlib import Path
import numpy as np
import torch
import torch.nn.functional as F
sys.path.insert(0, sys.argv[1])
from model import INPUT_DTYPE, INPUT_SHAPE, build_model
torch.manual_seed(0)
model = build_model()
try:
    weights = torch.load(sys.argv[2], map_location="cpu", weights_only=True)
except Exception as error:
    sys.exit(f"refused: not a plain PyTorch checkpoint or state_dict (only tensors and plain values are loaded): {str(error).strip()[-300:]}")
model.load_state_dict(weights, strict=True)
model.eval()
data = Path(sys.argv[3])
info = json.loads((data / "dataset.json").read_text())
split = info["splits"][sys.argv[4]]
x_dtype = {"float32": "<f4", "int32": "<i4", "uint8": "u1"}[info["x"]["dtype"]]
x = np.fromfile(data / split["x"], dtype=x_dtype).reshape(split["rows"], *INPUT_SHAPE)
y = np.fromfile(data / split["y"], dtype="<i4").astype(np.int64)
inputs = torch.from_numpy(x.copy())
if info["x"]["dtype"] == "uint8":
    # Pictures: x / 255, then (x - mean[c]) / std[c] per channel in float32, as train.py and serving.
    mean = torch.tensor(info["image"]["mean"], dtype=torch.float32).reshape(1, -1, 1, 1)
    std = torch.tensor(info["image"]["std"], dtype=torch.float32).reshape(1, -1, 1, 1)
    inputs = (inputs.to(torch.float32) / 255 - mean) / std
inputs = inputs.to(INPUT_DTYPE)
targets = torch.from_numpy(y)
with torch.no_grad():
    logits = model(inputs)
    loss = F.cross_entropy(logits, targets).item()
    accuracy = (logits.argmax(dim=1) == targets).float().mean().item()
print(json.dumps({"rows": int(split["rows"]), "loss": loss, "accuracy": accuracy}))
`;

/**
 * Runs `program` on `inputs` (files or directories) in a directory of its own: `args` gets the paths
 * to use and a writable directory for outputs.
 */
async function runPython(
  program: string,
  inputs: string[],
  args: (paths: string[], outDir: string) => string[],
  collect?: (outDir: string) => Promise<void>,
): Promise<Record<string, unknown>> {
  const jobDir = await fsp.mkdtemp(path.join(os.tmpdir(), "layerline-weights-"));
  try {
    const sandboxed = sandboxEnabled();
    const outDir = path.join(jobDir, "out");
    await fsp.mkdir(outDir);
    const paths: string[] = [];
    for (const input of inputs)
      paths.push(sandboxed ? await stageInput(input, jobDir, path.join(jobDir, "inputs")) : input);
    if (sandboxed) await prepareJobDir(jobDir);
    const result = await runPythonIn(program, args(paths, outDir), jobDir, outDir);
    await collect?.(outDir);
    return result;
  } finally {
    await fsp.rm(jobDir, { recursive: true, force: true }).catch(() => {});
  }
}

async function runPythonIn(
  program: string,
  args: string[],
  jobDir: string,
  outDir: string,
): Promise<Record<string, unknown>> {
  const lines: string[] = [];
  const result = await runProcess({
    command: pythonPath(),
    args: ["-c", program, ...args],
    cwd: jobDir,
    env: childEnv(
      { PYTHONDONTWRITEBYTECODE: "1", PYTHONNOUSERSITE: "1", OMP_NUM_THREADS: "1", MKL_NUM_THREADS: "1" },
      jobDir,
    ),
    timeLimitMs: TIME_LIMIT_MS,
    onLine: (line) => lines.push(line),
    sandbox: { jobDir, writable: [outDir], limits: sandboxLimits("free", TIME_LIMIT_MS) },
  });
  const last = lines.filter((l) => l.startsWith("{")).at(-1);
  if (result.exitCode !== 0 || !last)
    throw new Error(`python exited with ${result.exitCode}: ${result.stderrTail.slice(-2000)}`);
  return JSON.parse(last) as Record<string, unknown>;
}

export interface ExtractedWeights {
  epoch: number;
  bestEpoch: number;
  params: number;
  tensors: number;
  torch: string;
}

/** Saves the model state_dict of a checkpoint (best.pt) as a plain state_dict at `out`. */
export async function extractStateDict(checkpoint: string, out: string): Promise<ExtractedWeights> {
  const r = await runPython(
    EXTRACT,
    [checkpoint],
    ([file], outDir) => [file, path.join(outDir, "weights.pt")],
    (outDir) => fsp.copyFile(path.join(outDir, "weights.pt"), out),
  );
  return {
    epoch: Number(r.epoch),
    bestEpoch: Number(r.best_epoch),
    params: Number(r.params),
    tensors: Number(r.tensors),
    torch: String(r.torch),
  };
}

export interface WeightsEvaluation {
  rows: number;
  loss: number;
  accuracy: number;
}

/** Mean cross-entropy and accuracy of `weights` in the generated model of `projectDir` on a split. */
export async function evaluateStateDict(input: {
  projectDir: string;
  weights: string;
  dataDir: string;
  split: "train" | "validation" | "test";
}): Promise<WeightsEvaluation> {
  const r = await runPython(
    EVALUATE,
    [input.projectDir, input.weights, input.dataDir],
    ([projectDir, weights, dataDir]) => [projectDir, weights, dataDir, input.split],
  );
  return { rows: Number(r.rows), loss: Number(r.loss), accuracy: Number(r.accuracy) };
}
