/** The PyTorch project: model.py, train.py, requirements.txt, README.md. */
import type { ArchitectureGraph, TrainingConfigInput } from "../graph-types";
import type { AnalyzableGraph } from "../infer-graph";
import { planCodegen } from "./plan";
import { generateModelPy } from "./pytorch-model";
import { generateTrainPy } from "./pytorch-train";
import { generateReadme } from "./readme";
import type { CodegenOptions, GeneratedProject } from "./types";

const REQUIREMENTS = ["numpy>=1.21", "torch>=1.13", ""].join("\n");

/**
 * Generates a runnable PyTorch project. Deterministic: the same graph, configuration and options
 * give byte-identical files. Throws CodegenValidationError when the graph cannot be generated.
 */
export function generatePytorchProject(
  graph: ArchitectureGraph | AnalyzableGraph,
  trainingConfig?: TrainingConfigInput,
  options: CodegenOptions = {},
): GeneratedProject {
  const plan = planCodegen(graph, trainingConfig, "pytorch", options);
  return {
    target: "pytorch",
    files: [
      { path: "model.py", content: generateModelPy(plan), language: "python" },
      { path: "train.py", content: generateTrainPy(plan), language: "python" },
      { path: "requirements.txt", content: REQUIREMENTS, language: "plaintext" },
      {
        path: "README.md",
        content: generateReadme(plan, "pytorch", options.reproduce),
        language: "markdown",
      },
    ],
  };
}
