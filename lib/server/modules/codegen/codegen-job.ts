/**
 * The "codegen.generate" job: generates code from the snapshot of a project taken when the task was
 * created (POST /projects/{id}/generate-code?async_mode=true). Its result is the generated files.
 */
import { z } from "zod";
import {
  CODEGEN_TARGETS,
  type CodegenTarget,
  type GeneratedFile,
  generateProject,
} from "../../../ml/codegen";
import { architectureGraphSchema, trainingConfigSchema } from "../../../ml/graph-types";
import { defineJobType } from "../../jobs/registry";

const payloadSchema = z.object({
  project_id: z.string(),
  project_name: z.string(),
  target: z.enum(CODEGEN_TARGETS),
  graph: architectureGraphSchema,
  training_config: trainingConfigSchema,
});

export interface CodegenResult {
  target: CodegenTarget;
  files: (GeneratedFile & { size: number })[];
  generated_at: string;
}

export const codegenJob = defineJobType({
  type: "codegen.generate",
  payload: payloadSchema,
  run: async (p, ctx): Promise<CodegenResult> => {
    await ctx.reportProgress(0.1, "Generating");
    const { files } = generateProject(p.target, p.graph, p.training_config, { projectName: p.project_name });
    if (ctx.isCancelled()) throw new Error("Cancelled");
    return {
      target: p.target,
      files: files.map((f) => ({ ...f, size: Buffer.byteLength(f.content, "utf8") })),
      generated_at: new Date().toISOString(),
    };
  },
});
