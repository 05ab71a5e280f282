/**
 * The managed training runtimes: one executor per runtime (pytorch.ts, tfjs.ts) behind one
 * interface (types.ts), and the choice `auto` makes: PyTorch where the worker's Python imports
 * torch, else TensorFlow.js.
 */
import { pythonHasTorch, pytorchExecutor } from "./pytorch";
import { tfjsExecutor } from "./tfjs";
import type { Executor, ManagedRuntime } from "./types";

export { pythonPath } from "./pytorch";
export type { ExecutionRequest, ExecutionResult, Executor, FineTuneArgs, ManagedRuntime } from "./types";

export function executorFor(runtime: ManagedRuntime): Executor {
  return runtime === "pytorch" ? pytorchExecutor : tfjsExecutor;
}

/** The runtime a job runs on: as asked, or for `auto` PyTorch when available, else TensorFlow.js. */
export async function resolveRuntime(asked: "auto" | ManagedRuntime): Promise<ManagedRuntime> {
  if (asked !== "auto") return asked;
  return (await pythonHasTorch()) ? "pytorch" : "tfjs";
}
