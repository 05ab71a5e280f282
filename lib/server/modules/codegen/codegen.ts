/**
 * Code generation for a project (contract §4.4): synchronous generation and preview, validation,
 * asynchronous tasks in the durable job runner (type "codegen.generate", see codegen-job.ts) and ZIP
 * downloads. Nothing is stored on the project: generation is a pure function of its graph and
 * configuration, and a task keeps its own snapshot of both.
 */
import { Readable } from "node:stream";
import type { z } from "@hono/zod-openapi";
import yazl from "yazl";
import {
  type CodegenIssue,
  type CodegenTarget,
  CodegenValidationError,
  type GeneratedFile,
  generateProject,
  slugify,
  validateForCodegen,
} from "../../../ml/codegen";
import type { ArchitectureGraph } from "../../../ml/graph-types";
import type { Db } from "../../db/client";
import { type FieldError, NotFoundError, ValidationError } from "../../errors";
import { enqueueJob, getJob, type Job, requestCancel } from "../../jobs/queue";
import { findOwnedProject, type ProjectRow } from "../projects/projects";
import type {
  codegenIssueSchema,
  generatedCodeSchema,
  generatedFileSchema,
  taskSchema,
  validationSchema,
} from "./codegen.schemas";
import { type CodegenResult, codegenJob } from "./codegen-job";

// What the API returns: inferred from the response schemas (their one definition).
export type GeneratedFileView = z.infer<typeof generatedFileSchema>;
export type GeneratedCode = z.infer<typeof generatedCodeSchema>;
/** An issue as the API shows it (snake_case, absent fields as null). */
export type IssueView = z.infer<typeof codegenIssueSchema>;
export type ValidationView = z.infer<typeof validationSchema>;
export type CodegenTaskView = z.infer<typeof taskSchema>;

/** A 422 whose `errors` also say which node, port and rule each problem is about. */
export class CodegenRejectedError extends ValidationError {
  constructor(detail: string, errors: (FieldError & Omit<IssueView, "message">)[]) {
    super(detail, errors);
  }
}

export function issueView(issue: CodegenIssue): IssueView {
  return {
    node_id: issue.nodeId ?? null,
    port: issue.port ?? null,
    edge_id: issue.edgeId ?? null,
    param: issue.param ?? null,
    code: issue.code,
    severity: issue.severity,
    message: issue.message,
  };
}

/** Where in the project an issue points, in the paths the DAG import uses: graph.nodes[3].params.units. */
function issuePath(issue: CodegenIssue, graph: ArchitectureGraph): string {
  if (issue.code === "invalid_config") return `training_config${issue.param?.replace(/^training/, "") ?? ""}`;
  const node = issue.nodeId === undefined ? -1 : graph.nodes.findIndex((n) => n.id === issue.nodeId);
  if (node >= 0) return `graph.nodes[${node}]${issue.param ? `.params.${issue.param}` : ""}`;
  const edge = issue.edgeId === undefined ? -1 : graph.edges.findIndex((e) => e.id === issue.edgeId);
  if (edge >= 0) return `graph.edges[${edge}]`;
  return "graph";
}

function rejected(
  target: CodegenTarget,
  issues: CodegenIssue[],
  graph: ArchitectureGraph,
): CodegenRejectedError {
  const errors = issues.filter((i) => i.severity === "error");
  const name = target === "pytorch" ? "PyTorch" : "TensorFlow.js";
  return new CodegenRejectedError(
    `The project's graph cannot be turned into ${name} code: ${errors.length} problem${errors.length === 1 ? "" : "s"}, listed per node in \`errors\`.`,
    errors.map((issue) => {
      const { message, ...rest } = issueView(issue);
      return { path: issuePath(issue, graph), message, ...rest };
    }),
  );
}

function withSizes(files: GeneratedFile[]): GeneratedFileView[] {
  return files.map((f) => ({ ...f, size: Buffer.byteLength(f.content, "utf8") }));
}

/** Generates the project's code, or a CodegenRejectedError (422) with per-node errors. */
export function generateFor(
  project: Pick<ProjectRow, "name" | "graph" | "trainingConfig">,
  target: CodegenTarget,
): GeneratedCode {
  try {
    const { files } = generateProject(target, project.graph, project.trainingConfig, {
      projectName: project.name,
    });
    return { target, files: withSizes(files), generated_at: new Date().toISOString() };
  } catch (err) {
    if (err instanceof CodegenValidationError) throw rejected(target, err.issues, project.graph);
    throw err;
  }
}

export async function generateProjectCode(
  db: Db,
  ownerId: string,
  projectId: string,
  target: CodegenTarget,
): Promise<GeneratedCode> {
  return generateFor(await findOwnedProject(db, ownerId, projectId), target);
}

export async function validateProjectCode(
  db: Db,
  ownerId: string,
  projectId: string,
  target: CodegenTarget,
): Promise<ValidationView> {
  const project = await findOwnedProject(db, ownerId, projectId);
  const { valid, issues } = validateForCodegen(project.graph, project.trainingConfig, target);
  return { target, valid, issues: issues.map(issueView) };
}

export async function projectCodeZip(
  db: Db,
  ownerId: string,
  projectId: string,
  target: CodegenTarget,
): Promise<{ filename: string; stream: ReadableStream<Uint8Array> }> {
  return codeZipFor(await findOwnedProject(db, ownerId, projectId), target);
}

/** The generated project as a streamed ZIP (a folder `<slug>-<target>/`): projects and training jobs. */
export function codeZipFor(
  project: Pick<ProjectRow, "name" | "graph" | "trainingConfig">,
  target: CodegenTarget,
): { filename: string; stream: ReadableStream<Uint8Array> } {
  const code = generateFor(project, target);
  const folder = `${slugify(project.name)}-${target}`;
  const zip = new yazl.ZipFile();
  const mtime = new Date(code.generated_at);
  for (const file of code.files) {
    zip.addBuffer(Buffer.from(file.content, "utf8"), `${folder}/${file.path}`, { mtime, compress: true });
  }
  zip.end();
  return {
    filename: `${folder}.zip`,
    // yazl's output is a PassThrough, typed as the legacy NodeJS.ReadableStream.
    stream: Readable.toWeb(zip.outputStream as Readable) as ReadableStream<Uint8Array>,
  };
}

// ---------------------------------------------------------------------------------------------------
// Asynchronous generation

function taskView(job: Job): CodegenTaskView {
  const payload = codegenJob.payload.parse(job.payload);
  const result = job.state === "succeeded" ? (job.result as CodegenResult | null) : null;
  return {
    task_id: job.id,
    project_id: payload.project_id,
    target: payload.target,
    state: job.state,
    progress: job.progress,
    ...(result ? { files: result.files, generated_at: result.generated_at } : {}),
    error: job.state === "failed" ? job.error : null,
    created_at: job.createdAt.toISOString(),
    finished_at: job.finishedAt?.toISOString() ?? null,
  };
}

/** The task, if it is the caller's and belongs to this project; else 404. */
async function ownedTask(db: Db, ownerId: string, projectId: string, taskId: string): Promise<Job> {
  await findOwnedProject(db, ownerId, projectId);
  const job = await getJob(db, taskId, ownerId, codegenJob.type).catch((err: unknown) => {
    throw err instanceof NotFoundError ? new NotFoundError("Code generation task") : err;
  });
  const payload = codegenJob.payload.safeParse(job.payload);
  if (!payload.success || payload.data.project_id !== projectId)
    throw new NotFoundError("Code generation task");
  return job;
}

/**
 * Queues generation of a snapshot of the project (a graph the generator refuses is refused now,
 * with a 422, rather than as a failed task).
 */
export async function startCodegenTask(
  db: Db,
  ownerId: string,
  projectId: string,
  target: CodegenTarget,
): Promise<CodegenTaskView> {
  const project = await findOwnedProject(db, ownerId, projectId);
  const check = validateForCodegen(project.graph, project.trainingConfig, target);
  if (!check.valid) throw rejected(target, check.issues, project.graph);
  const job = await enqueueJob(
    db,
    codegenJob,
    {
      project_id: project.id,
      project_name: project.name,
      target,
      graph: project.graph,
      training_config: project.trainingConfig,
    },
    { ownerId, maxAttempts: 2 },
  );
  return taskView(job);
}

export async function getCodegenTask(
  db: Db,
  ownerId: string,
  projectId: string,
  taskId: string,
): Promise<CodegenTaskView> {
  return taskView(await ownedTask(db, ownerId, projectId, taskId));
}

/** Cancels a queued or running task; 409 once it has finished. */
export async function cancelCodegenTask(
  db: Db,
  ownerId: string,
  projectId: string,
  taskId: string,
): Promise<CodegenTaskView> {
  const job = await ownedTask(db, ownerId, projectId, taskId);
  return taskView(await requestCancel(db, job.id, ownerId, codegenJob.type));
}
