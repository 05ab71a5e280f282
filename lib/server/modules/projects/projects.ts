import type { z } from "@hono/zod-openapi";
import { and, asc, desc, eq, ilike, inArray, sql } from "drizzle-orm";
import { type Dag, type DagError, parseDag, parseDagText } from "../../../ml/dag-format";
import {
  type ArchitectureGraph,
  DEFAULT_TRAINING_CONFIG,
  type TrainingConfig,
} from "../../../ml/graph-types";
import { analyzeGraph } from "../../../ml/infer-graph";
import { getTemplate, type TemplateId } from "../../../ml/templates";
import type { Db } from "../../db/client";
import { projects } from "../../db/schema";
import { NotFoundError, ValidationError } from "../../errors";
import { newId } from "../../ids";
import { blobStore } from "../../storage/blob-stores";
import { seedFromDataset } from "./dataset-seeds";
import { PROJECT_NAME_MAX } from "./projects.limits";
import type { analysisSummarySchema, projectSchema, projectSummarySchema } from "./projects.schemas";

export type ProjectRow = typeof projects.$inferSelect;

// What the API returns: types inferred from the response schemas (their one definition).
export type AnalysisSummary = z.infer<typeof analysisSummarySchema>;
export type ProjectSummaryView = z.infer<typeof projectSummarySchema>;
export type ProjectView = z.infer<typeof projectSchema>;

export const EMPTY_GRAPH: ArchitectureGraph = { nodes: [], edges: [] };

export function analysisSummary(graph: ArchitectureGraph): AnalysisSummary {
  const a = analyzeGraph(graph);
  const errors = a.issues.filter((i) => i.severity === "error").length;
  return {
    ok: a.ok,
    total_params: a.totalParams,
    total_flops: a.totalFlops,
    issue_count: a.issues.length,
    error_count: errors,
    warning_count: a.issues.length - errors,
  };
}

export function thumbnailUrl(row: Pick<ProjectRow, "id" | "thumbnailKey">): string | null {
  return row.thumbnailKey ? `/api/v1/projects/${row.id}/thumbnail` : null;
}

export function toProjectView(row: ProjectRow): ProjectView {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    node_count: row.graph.nodes.length,
    current_version_id: row.currentVersionId,
    thumbnail_url: thumbnailUrl(row),
    visibility: row.visibility,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
    graph: row.graph,
    training_config: row.trainingConfig,
    analysis: analysisSummary(row.graph),
  };
}

/** The caller's project, or 404 (also for another user's project: never reveal that it exists). */
export async function findOwnedProject(db: Db, ownerId: string, projectId: string): Promise<ProjectRow> {
  const [row] = await db
    .select()
    .from(projects)
    .where(and(eq(projects.id, projectId), eq(projects.ownerId, ownerId)))
    .limit(1);
  if (!row) throw new NotFoundError("Project");
  return row;
}

export interface NewProjectInput {
  name: string;
  description?: string;
  graph?: ArchitectureGraph;
  training_config?: TrainingConfig;
  template?: TemplateId;
}

/** POST /projects: also from a dataset (a model sized to it, dataset-seeds.ts). */
export interface CreateProjectInput extends Omit<NewProjectInput, "name"> {
  name?: string;
  dataset_id?: string;
  family?: string;
}

export async function insertProject(db: Db, ownerId: string, input: NewProjectInput): Promise<ProjectRow> {
  const template = input.template ? getTemplate(input.template) : undefined;
  const [row] = await db
    .insert(projects)
    .values({
      id: newId("prj"),
      ownerId,
      name: input.name,
      description: input.description ?? template?.description ?? "",
      graph: input.graph ?? template?.graph ?? EMPTY_GRAPH,
      trainingConfig: input.training_config ?? template?.training ?? DEFAULT_TRAINING_CONFIG,
    })
    .returning();
  return row;
}

export async function createProject(
  db: Db,
  ownerId: string,
  input: CreateProjectInput,
): Promise<ProjectView> {
  if (input.dataset_id !== undefined) {
    const seed = await seedFromDataset(db, ownerId, input.dataset_id, input.family);
    return toProjectView(
      await insertProject(db, ownerId, {
        name: (input.name ?? `${seed.name} ${seed.family.toUpperCase()}`).slice(0, PROJECT_NAME_MAX),
        description: input.description ?? seed.description,
        graph: seed.graph,
        training_config: input.training_config
          ? { ...seed.training, ...input.training_config }
          : seed.training,
      }),
    );
  }
  // The schema requires a name unless a dataset names the project.
  return toProjectView(await insertProject(db, ownerId, { ...input, name: input.name ?? "" }));
}

export type ProjectSort = "updated_at" | "created_at" | "name";

export interface ListProjectsQuery {
  page: number;
  limit: number;
  q?: string;
  sort: ProjectSort;
  order?: "asc" | "desc";
}

function likePattern(q: string): string {
  return `%${q.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;
}

export async function listProjects(
  db: Db,
  ownerId: string,
  query: ListProjectsQuery,
): Promise<{ items: ProjectSummaryView[]; total: number }> {
  const where = and(
    eq(projects.ownerId, ownerId),
    query.q ? ilike(projects.name, likePattern(query.q)) : undefined,
  );
  // Names read best A→Z; timestamps newest first (GitHub's defaults).
  const direction = (query.order ?? (query.sort === "name" ? "asc" : "desc")) === "asc" ? asc : desc;
  const column = { updated_at: projects.updatedAt, created_at: projects.createdAt, name: projects.name }[
    query.sort
  ];
  const [rows, [{ total }]] = await Promise.all([
    db
      .select({
        id: projects.id,
        name: projects.name,
        description: projects.description,
        nodeCount: sql<number>`coalesce(jsonb_array_length(${projects.graph} -> 'nodes'), 0)::int`,
        currentVersionId: projects.currentVersionId,
        thumbnailKey: projects.thumbnailKey,
        visibility: projects.visibility,
        createdAt: projects.createdAt,
        updatedAt: projects.updatedAt,
      })
      .from(projects)
      .where(where)
      .orderBy(direction(column), direction(projects.id))
      .limit(query.limit)
      .offset((query.page - 1) * query.limit),
    db.select({ total: sql<number>`count(*)::int` }).from(projects).where(where),
  ]);
  return {
    total,
    items: rows.map((r) => ({
      id: r.id,
      name: r.name,
      description: r.description,
      node_count: r.nodeCount,
      current_version_id: r.currentVersionId,
      thumbnail_url: thumbnailUrl(r),
      visibility: r.visibility,
      created_at: r.createdAt.toISOString(),
      updated_at: r.updatedAt.toISOString(),
    })),
  };
}

export async function getProject(db: Db, ownerId: string, projectId: string): Promise<ProjectView> {
  return toProjectView(await findOwnedProject(db, ownerId, projectId));
}

export interface ProjectPatch {
  name?: string;
  description?: string;
  graph?: ArchitectureGraph;
  training_config?: TrainingConfig;
  visibility?: "private" | "public";
}

/** The editor's autosave: replaces the given fields of the current state; records no version. */
export async function updateProject(
  db: Db,
  ownerId: string,
  projectId: string,
  patch: ProjectPatch,
): Promise<ProjectView> {
  const [row] = await db
    .update(projects)
    .set({
      ...(patch.name !== undefined ? { name: patch.name } : {}),
      ...(patch.description !== undefined ? { description: patch.description } : {}),
      ...(patch.graph !== undefined ? { graph: patch.graph } : {}),
      ...(patch.training_config !== undefined ? { trainingConfig: patch.training_config } : {}),
      ...(patch.visibility !== undefined ? { visibility: patch.visibility } : {}),
      updatedAt: new Date(),
    })
    .where(and(eq(projects.id, projectId), eq(projects.ownerId, ownerId)))
    .returning();
  if (!row) throw new NotFoundError("Project");
  return toProjectView(row);
}

async function removeThumbnails(keys: (string | null)[]): Promise<void> {
  for (const key of keys) {
    if (!key) continue;
    // Best effort: the row is gone already, a leftover file is harmless.
    await blobStore()
      .delete(key)
      .catch((err: unknown) =>
        console.error("thumbnail cleanup failed", err instanceof Error ? err.message : err),
      );
  }
}

/**
 * Gives a new project a copy of another project's thumbnail. Best effort: without it the new
 * project still works, and the editor draws a thumbnail the next time the project is saved.
 */
export async function copyThumbnail(db: Db, source: ProjectRow, target: ProjectRow): Promise<ProjectRow> {
  if (!source.thumbnailKey || !source.thumbnailMime) return target;
  const key = `thumbnails/${target.id}`;
  try {
    if (!(await blobStore().copy(source.thumbnailKey, key))) return target;
    const [row] = await db
      .update(projects)
      .set({
        thumbnailKey: key,
        thumbnailMime: source.thumbnailMime,
        thumbnailSize: source.thumbnailSize,
      })
      .where(and(eq(projects.id, target.id), eq(projects.ownerId, target.ownerId)))
      .returning();
    if (row) return row;
    await blobStore().delete(key); // deleted meanwhile
  } catch (err) {
    console.error("thumbnail copy failed", err instanceof Error ? err.message : err);
  }
  return target;
}

export async function deleteProject(db: Db, ownerId: string, projectId: string): Promise<void> {
  const rows = await db
    .delete(projects)
    .where(and(eq(projects.id, projectId), eq(projects.ownerId, ownerId)))
    .returning({ id: projects.id, thumbnailKey: projects.thumbnailKey });
  if (rows.length === 0) throw new NotFoundError("Project");
  await removeThumbnails(rows.map((r) => r.thumbnailKey));
}

export interface BulkDeleteResult {
  deleted: string[];
  failed: { id: string; status: number; detail: string }[];
}

/** Deletes the caller's projects among `ids`; every other id is reported in `failed` (404). */
export async function bulkDeleteProjects(db: Db, ownerId: string, ids: string[]): Promise<BulkDeleteResult> {
  const unique = [...new Set(ids)];
  const rows = await db
    .delete(projects)
    .where(and(eq(projects.ownerId, ownerId), inArray(projects.id, unique)))
    .returning({ id: projects.id, thumbnailKey: projects.thumbnailKey });
  await removeThumbnails(rows.map((r) => r.thumbnailKey));
  const deleted = new Set(rows.map((r) => r.id));
  return {
    deleted: unique.filter((id) => deleted.has(id)),
    failed: unique
      .filter((id) => !deleted.has(id))
      .map((id) => ({ id, status: 404, detail: "Project was not found." })),
  };
}

export function copyName(name: string): string {
  const suffix = " (copy)";
  return name.length + suffix.length <= PROJECT_NAME_MAX
    ? `${name}${suffix}`
    : `${name.slice(0, PROJECT_NAME_MAX - suffix.length).trimEnd()}${suffix}`;
}

/**
 * A new project with the same graph, configuration, description and thumbnail; versions and shares
 * are not copied.
 */
export async function duplicateProject(
  db: Db,
  ownerId: string,
  projectId: string,
  name?: string,
): Promise<ProjectView> {
  const { source, row } = await db.transaction(async (tx) => {
    const source = await findOwnedProject(tx, ownerId, projectId);
    const row = await insertProject(tx, ownerId, {
      name: name ?? copyName(source.name),
      description: source.description,
      graph: source.graph,
      training_config: source.trainingConfig,
    });
    return { source, row };
  });
  return toProjectView(await copyThumbnail(db, source, row));
}

function dagErrorsToFieldErrors(errors: DagError[]) {
  return errors.map((e) => ({
    path: e.path || "(root)",
    message: e.nodeId !== undefined ? `${e.message} (node "${e.nodeId}")` : e.message,
  }));
}

export type DagSource = { text: string } | { json: unknown };

/** Parses and validates a DAG document; its problems become a 422 with one entry per problem. */
export function parseDagSource(source: DagSource): Dag {
  const result = "text" in source ? parseDagText(source.text) : parseDag(source.json);
  if (!result.ok) {
    throw new ValidationError(
      `The DAG file is not valid (${result.errors.length} problem${result.errors.length === 1 ? "" : "s"}).`,
      dagErrorsToFieldErrors(result.errors),
    );
  }
  return result.dag;
}

function nameFromFileName(fileName: string | undefined): string | undefined {
  const base = fileName?.replace(/\.[^.]*$/, "").trim();
  return base ? base.slice(0, PROJECT_NAME_MAX) : undefined;
}

export async function importDagAsProject(
  db: Db,
  ownerId: string,
  source: DagSource,
  opts: { name?: string; fileName?: string } = {},
): Promise<ProjectView> {
  const dag = parseDagSource(source);
  const name = opts.name ?? dag.name?.trim().slice(0, PROJECT_NAME_MAX) ?? nameFromFileName(opts.fileName);
  return createProject(db, ownerId, {
    name: name || "Imported model",
    graph: dag.graph,
    training_config: dag.training ?? DEFAULT_TRAINING_CONFIG,
  });
}

/** Replaces the project's graph (and its configuration when the file has one); records no version. */
export async function importDagIntoProject(
  db: Db,
  ownerId: string,
  projectId: string,
  source: DagSource,
): Promise<ProjectView> {
  await findOwnedProject(db, ownerId, projectId); // 404 before judging the file
  const dag = parseDagSource(source);
  return updateProject(db, ownerId, projectId, {
    graph: dag.graph,
    ...(dag.training ? { training_config: dag.training } : {}),
  });
}
