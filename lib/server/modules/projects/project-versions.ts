import type { z } from "@hono/zod-openapi";
import { and, count, desc, eq, sql } from "drizzle-orm";
import { diffConfig, diffGraphs } from "../../../ml/graph-diff";
import type { ArchitectureGraph, TrainingConfig } from "../../../ml/graph-types";
import type { Db } from "../../db/client";
import { projects, projectVersions } from "../../db/schema";
import { NotFoundError } from "../../errors";
import { newId } from "../../ids";
import { findOwnedProject, type ProjectView, toProjectView } from "./projects";
import type { versionComparisonSchema, versionSchema, versionSummarySchema } from "./projects.schemas";

type VersionRow = typeof projectVersions.$inferSelect;

export type VersionSummaryView = z.infer<typeof versionSummarySchema>;
export type VersionView = z.infer<typeof versionSchema>;
export type VersionComparison = z.infer<typeof versionComparisonSchema>;

function toSummary(row: VersionRow, currentVersionId: string | null): VersionSummaryView {
  return {
    id: row.id,
    project_id: row.projectId,
    number: row.number,
    message: row.message,
    node_count: row.graph.nodes.length,
    edge_count: row.graph.edges.length,
    is_current: row.id === currentVersionId,
    created_by: row.createdBy,
    created_at: row.createdAt.toISOString(),
  };
}

function toView(row: VersionRow, currentVersionId: string | null): VersionView {
  return { ...toSummary(row, currentVersionId), graph: row.graph, training_config: row.trainingConfig };
}

/**
 * Records the project's current state as a new version inside `tx`. The counter update locks the
 * project row, so concurrent saves get consecutive numbers. Optional graph/config first become the
 * current state.
 */
async function recordVersion(
  tx: Db,
  ownerId: string,
  projectId: string,
  input: {
    message: string | null;
    createdBy: string;
    graph?: ArchitectureGraph;
    training_config?: TrainingConfig;
  },
) {
  const [project] = await tx
    .update(projects)
    .set({
      lastVersionNumber: sql`${projects.lastVersionNumber} + 1`,
      ...(input.graph !== undefined ? { graph: input.graph } : {}),
      ...(input.training_config !== undefined ? { trainingConfig: input.training_config } : {}),
      updatedAt: new Date(),
    })
    .where(and(eq(projects.id, projectId), eq(projects.ownerId, ownerId)))
    .returning();
  if (!project) throw new NotFoundError("Project");
  const [version] = await tx
    .insert(projectVersions)
    .values({
      id: newId("ver"),
      projectId,
      number: project.lastVersionNumber,
      message: input.message,
      graph: project.graph,
      trainingConfig: project.trainingConfig,
      createdBy: input.createdBy,
    })
    .returning();
  const [updated] = await tx
    .update(projects)
    .set({ currentVersionId: version.id })
    .where(eq(projects.id, projectId))
    .returning();
  return { project: updated, version };
}

export interface SaveVersionInput {
  message?: string | null;
  graph?: ArchitectureGraph;
  training_config?: TrainingConfig;
}

export async function saveVersion(
  db: Db,
  ownerId: string,
  projectId: string,
  input: SaveVersionInput,
): Promise<VersionView> {
  const { version } = await db.transaction((tx) =>
    recordVersion(tx, ownerId, projectId, { ...input, message: input.message || null, createdBy: ownerId }),
  );
  return toView(version, version.id);
}

export async function listVersions(
  db: Db,
  ownerId: string,
  projectId: string,
  page: { page: number; limit: number },
): Promise<{ items: VersionSummaryView[]; total: number }> {
  const project = await findOwnedProject(db, ownerId, projectId);
  const [rows, [{ total }]] = await Promise.all([
    db
      .select()
      .from(projectVersions)
      .where(eq(projectVersions.projectId, projectId))
      .orderBy(desc(projectVersions.number))
      .limit(page.limit)
      .offset((page.page - 1) * page.limit),
    db.select({ total: count() }).from(projectVersions).where(eq(projectVersions.projectId, projectId)),
  ]);
  return { items: rows.map((r) => toSummary(r, project.currentVersionId)), total };
}

async function findVersion(db: Db, projectId: string, versionId: string): Promise<VersionRow> {
  const [row] = await db
    .select()
    .from(projectVersions)
    .where(and(eq(projectVersions.id, versionId), eq(projectVersions.projectId, projectId)))
    .limit(1);
  if (!row) throw new NotFoundError("Version");
  return row;
}

export async function getVersion(
  db: Db,
  ownerId: string,
  projectId: string,
  versionId: string,
): Promise<VersionView> {
  const project = await findOwnedProject(db, ownerId, projectId);
  return toView(await findVersion(db, projectId, versionId), project.currentVersionId);
}

export async function latestVersion(db: Db, ownerId: string, projectId: string): Promise<VersionView> {
  const project = await findOwnedProject(db, ownerId, projectId);
  const [row] = await db
    .select()
    .from(projectVersions)
    .where(eq(projectVersions.projectId, projectId))
    .orderBy(desc(projectVersions.number))
    .limit(1);
  if (!row) throw new NotFoundError("A saved version of this project");
  return toView(row, project.currentVersionId);
}

/** Deleting any version is allowed, the latest included; the project's current state is untouched. */
export async function deleteVersion(
  db: Db,
  ownerId: string,
  projectId: string,
  versionId: string,
): Promise<void> {
  await findOwnedProject(db, ownerId, projectId);
  const rows = await db
    .delete(projectVersions)
    .where(and(eq(projectVersions.id, versionId), eq(projectVersions.projectId, projectId)))
    .returning({ id: projectVersions.id });
  if (rows.length === 0) throw new NotFoundError("Version");
}

export async function restoreVersion(
  db: Db,
  ownerId: string,
  projectId: string,
  versionId: string,
): Promise<{ project: ProjectView; version: VersionView }> {
  const result = await db.transaction(async (tx) => {
    await findOwnedProject(tx, ownerId, projectId);
    const source = await findVersion(tx, projectId, versionId);
    return recordVersion(tx, ownerId, projectId, {
      message: `Restored version ${source.number}`,
      createdBy: ownerId,
      graph: source.graph,
      training_config: source.trainingConfig,
    });
  });
  return { project: toProjectView(result.project), version: toView(result.version, result.version.id) };
}

/** What changed from version `fromId` to version `toId` (both of this project). */
export async function compareVersions(
  db: Db,
  ownerId: string,
  projectId: string,
  fromId: string,
  toId: string,
): Promise<VersionComparison> {
  const project = await findOwnedProject(db, ownerId, projectId);
  const [from, to] = await Promise.all([
    findVersion(db, projectId, fromId),
    findVersion(db, projectId, toId),
  ]);
  const graph = diffGraphs(from.graph, to.graph);
  const config = diffConfig(from.trainingConfig, to.trainingConfig);
  return {
    from: toSummary(from, project.currentVersionId),
    to: toSummary(to, project.currentVersionId),
    has_changes: graph.hasChanges || config.length > 0,
    nodes: {
      added: graph.nodesAdded,
      removed: graph.nodesRemoved,
      changed: graph.nodesChanged.map((c) => ({
        id: c.id,
        type_changed: c.typeChanged,
        label_changed: c.labelChanged,
        params: c.params,
        before: c.before,
        after: c.after,
      })),
      moved: graph.nodesMoved,
    },
    edges: { added: graph.edgesAdded, removed: graph.edgesRemoved },
    config,
  };
}
