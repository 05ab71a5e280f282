import { z } from "@hono/zod-openapi";
import { CODEGEN_TARGETS } from "../../../ml/codegen/types";
import { pathParam, problemSchema } from "../../http/openapi";
import { projectIdParams } from "../projects/projects.schemas";

/** Request and response schemas of the code generation routes (contract §4.4). */

const dateTime = () => z.string().openapi({ format: "date-time" });

export { projectIdParams };

export const taskParams = projectIdParams.extend({
  task_id: pathParam("task_id"),
});

const target = z.enum(CODEGEN_TARGETS).default("pytorch").openapi({
  description:
    "pytorch: model.py, train.py, requirements.txt, README.md. tfjs: a Node.js project (model.mjs, train.mjs, package.json, README.md) for @tensorflow/tfjs",
});

export const targetQuerySchema = z.object({ target });

export const generateQuerySchema = z.object({
  target,
  async_mode: z
    .enum(["true", "false"])
    .default("false")
    .transform((v) => v === "true")
    .openapi({ description: "true: answer 202 with a task to poll instead of the files" }),
});

export const generatedFileSchema = z
  .object({
    path: z.string().openapi({ example: "model.py", description: "Relative POSIX path in the project" }),
    content: z.string(),
    language: z
      .enum(["python", "javascript", "json", "markdown", "plaintext"])
      .openapi({ description: "Monaco language id" }),
    size: z.number().int().openapi({ description: "Bytes (UTF-8)" }),
  })
  .openapi("GeneratedFile");

export const generatedCodeSchema = z
  .object({
    target: z.enum(CODEGEN_TARGETS),
    files: z.array(generatedFileSchema),
    generated_at: dateTime(),
  })
  .openapi("GeneratedCode");

const issueFields = {
  node_id: z
    .string()
    .nullable()
    .openapi({ description: "The node the issue is about (null: the whole graph)" }),
  port: z.number().int().nullable().openapi({ description: "Input port of that node, when relevant" }),
  edge_id: z.string().nullable(),
  param: z
    .string()
    .nullable()
    .openapi({ description: 'Offending param ("units") or training field ("training.epochs")' }),
  code: z.string().openapi({ example: "shape_mismatch" }),
  severity: z.enum(["error", "warning"]),
};

export const codegenIssueSchema = z.object({ ...issueFields, message: z.string() }).openapi("CodegenIssue", {
  description:
    "The editor's rules (shape_mismatch, dangling_input, cycle, invalid_params…) plus code generation's own: multiple_inputs, multiple_outputs, unsupported_for_target, no_trainable_parameters, no_effect (warning), invalid_config",
});

export const validationSchema = z
  .object({
    target: z.enum(CODEGEN_TARGETS),
    valid: z.boolean().openapi({ description: "True when no issue has severity error" }),
    issues: z.array(codegenIssueSchema),
  })
  .openapi("CodegenValidation");

export const codegenProblemSchema = problemSchema
  .extend({
    errors: z
      .array(
        z.object({ path: z.string(), message: z.string() }).extend(z.object(issueFields).partial().shape),
      )
      .optional()
      .openapi({
        description:
          "One entry per error-severity issue, with the node it is about (the issue fields are absent when the request itself did not validate: an unknown target, say)",
      }),
  })
  .openapi("CodegenProblem", { description: "RFC 9457 problem details with per-node errors" });

export const taskAcceptedSchema = z
  .object({
    task_id: z.string().openapi({ example: "tsk_8xQ2mC4vR1pT7nK0bZ5e" }),
    status_url: z.string().openapi({ description: "Poll this (GET) until the state is final" }),
    state: z.enum(["queued", "running", "succeeded", "failed", "cancelled"]),
  })
  .openapi("CodegenTaskAccepted");

export const taskSchema = z
  .object({
    task_id: z.string(),
    project_id: z.string(),
    target: z.enum(CODEGEN_TARGETS),
    state: z.enum(["queued", "running", "succeeded", "failed", "cancelled"]),
    progress: z.number().openapi({ description: "0..1" }),
    files: z.array(generatedFileSchema).optional().openapi({ description: "Present once succeeded" }),
    generated_at: dateTime().optional(),
    error: z.string().nullable().openapi({ description: "Why the task failed (null otherwise)" }),
    created_at: dateTime(),
    finished_at: dateTime().nullable(),
  })
  .openapi("CodegenTask");
