/**
 * Small Python programs run on a base model's weights with the worker's Python (PyTorch): extract
 * the best epoch's state_dict from a generated train.py checkpoint, and evaluate a state_dict loaded
 * strictly into the generated model.py on one split of a prepared dataset. Both run as
 * `python -c <program> <arguments…>` (an argument array, never a shell string).
 */
import path from "node:path";
import { childEnv, runProcess } from "../training/executors/process";
import { pythonPath } from "../training/executors/pytorch";

/** argv: checkpoint (best.pt), output file. Prints {"epoch", "params", "tensors"}. */
const EXTRACT = `
import json, sys
from collections import OrderedDict
import torch
checkpoint = torch.load(sys.argv[1], map_location="cpu")
state = OrderedDict(
    (name, value.detach().clone().contiguous())
    for name, value in checkpoint["model_state_dict"].items()
)
torch.save(state, sys.argv[2])
params = sum(value.numel() for value in state.values() if value.is_floating_point())
print(json.dumps({"epoch": checkpoint["epoch"], "best_epoch": checkpoint["best_epoch"], "params": params, "tensors": len(state), "torch": torch.__version__}))
`;

/**
 * argv: project dir (model.py), weights, prepared data dir, split. Loads the state_dict strictly
 * and prints {"rows", "loss", "accuracy"} (mean cross-entropy and top-1 accuracy over the split).
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
model.load_state_dict(torch.load(sys.argv[2], map_location="cpu"), strict=True)
model.eval()
data = Path(sys.argv[3])
info = json.loads((data / "dataset.json").read_text())
split = info["splits"][sys.argv[4]]
x_dtype = "<f4" if info["x"]["dtype"] == "float32" else "<i4"
x = np.fromfile(data / split["x"], dtype=x_dtype).reshape(split["rows"], *INPUT_SHAPE)
y = np.fromfile(data / split["y"], dtype="<i4").astype(np.int64)
inputs = torch.from_numpy(x.copy()).to(INPUT_DTYPE)
targets = torch.from_numpy(y)
with torch.no_grad():
    logits = model(inputs)
    loss = F.cross_entropy(logits, targets).item()
    accuracy = (logits.argmax(dim=1) == targets).float().mean().item()
print(json.dumps({"rows": int(split["rows"]), "loss": loss, "accuracy": accuracy}))
`;

async function runPython(program: string, args: string[], cwd: string): Promise<Record<string, unknown>> {
  const lines: string[] = [];
  const result = await runProcess({
    command: pythonPath(),
    args: ["-c", program, ...args],
    cwd,
    env: childEnv(
      { PYTHONDONTWRITEBYTECODE: "1", PYTHONNOUSERSITE: "1", OMP_NUM_THREADS: "1", MKL_NUM_THREADS: "1" },
      cwd,
    ),
    timeLimitMs: 300_000,
    onLine: (line) => lines.push(line),
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
  const r = await runPython(EXTRACT, [checkpoint, out], path.dirname(checkpoint));
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
    [input.projectDir, input.weights, input.dataDir, input.split],
    input.projectDir,
  );
  return { rows: Number(r.rows), loss: Number(r.loss), accuracy: Number(r.accuracy) };
}
