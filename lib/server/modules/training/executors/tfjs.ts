/**
 * The TensorFlow.js runtime, for a worker without Python: the job's generated TF.js project run by
 * this Node.js binary (a child process, off the request path) on the pure-JS cpu backend, with the
 * app's own @tensorflow/tfjs (the project's node_modules is a link to the app's).
 */
import fs from "node:fs";
import fsp from "node:fs/promises";
import path from "node:path";
import { generateProject } from "../../../../ml/codegen";
import { attemptDirs, notStarted, runTrainingProgram, trainingArgs, writeProjectFiles } from "./process";
import type { ExecutionRequest, ExecutionResult, Executor } from "./types";

/** The node_modules holding @tensorflow/tfjs (LAYERLINE_NODE_MODULES, else the app's). */
export function nodeModulesDir(): string {
  return path.resolve(
    /* turbopackIgnore: true */ process.env.LAYERLINE_NODE_MODULES?.trim() ||
      path.join(process.cwd(), "node_modules"),
  );
}

function hasTfjs(): boolean {
  return fs.existsSync(
    path.join(/* turbopackIgnore: true */ nodeModulesDir(), "@tensorflow", "tfjs", "package.json"),
  );
}

export const tfjsExecutor: Executor = {
  runtime: "tfjs",
  available: async () => hasTfjs(),
  async run(req: ExecutionRequest): Promise<ExecutionResult> {
    if (!hasTfjs()) return notStarted(`@tensorflow/tfjs is not installed in ${nodeModulesDir()}.`);
    if (req.fineTune) return notStarted("Fine-tuning runs start from PyTorch weights: they need PyTorch.");
    const dirs = await attemptDirs(req.workDir);
    const project = generateProject("tfjs", req.graph, req.config, { projectName: req.projectName });
    await writeProjectFiles(dirs.project, project.files);
    const link = path.join(dirs.project, "node_modules");
    await fsp.rm(link, { recursive: true, force: true });
    await fsp.symlink(nodeModulesDir(), link, "dir");
    return runTrainingProgram(req, dirs, {
      command: process.execPath,
      args: (r, api) => ["train.mjs", ...trainingArgs(r, dirs, api)],
      env: { NODE_ENV: "production" },
      // The app's node_modules (@tensorflow/tfjs), which the project's node_modules links to.
      readOnly: [fs.realpathSync(nodeModulesDir())],
    });
  },
};
