/**
 * Code generation from an architecture graph (pure, isomorphic: usable in the browser).
 * `generatePytorchProject` / `generateTfjsProject` return the files of a runnable project;
 * `validateForCodegen` lists, per node, what stops (errors) or qualifies (warnings) generation.
 * The verification corpus lives in `./corpus` (tests only).
 */
import type { ArchitectureGraph, TrainingConfigInput } from "../graph-types";
import { generatePytorchProject } from "./pytorch";
import { generateTfjsProject } from "./tfjs";
import type { CodegenOptions, CodegenTarget, GeneratedProject } from "./types";

export { pascalCase, slugify, snakeCase } from "./naming";
export { validateForCodegen } from "./plan";
export * from "./types";
export { generatePytorchProject, generateTfjsProject };

/** The project for `target` (see the two generators). */
export function generateProject(
  target: CodegenTarget,
  graph: ArchitectureGraph,
  trainingConfig?: TrainingConfigInput,
  options: CodegenOptions = {},
): GeneratedProject {
  return target === "pytorch"
    ? generatePytorchProject(graph, trainingConfig, options)
    : generateTfjsProject(graph, trainingConfig, options);
}
