import type { z } from "@hono/zod-openapi";
import { and, count, desc, eq, isNull, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import { projectShares, projects, users } from "../../db/schema";
import { NotFoundError } from "../../errors";
import { newId, randomBase62 } from "../../ids";
import { hashSecret } from "../../secrets";
import {
  analysisSummary,
  copyThumbnail,
  findOwnedProject,
  insertProject,
  type ProjectView,
  toProjectView,
} from "./projects";
import type { createdShareSchema, sharedProjectSchema, shareSchema } from "./projects.schemas";

/** 32 base62 characters ≈ 190 bits: not guessable, so the link itself is the credential. */
const TOKEN_LENGTH = 32;

export type CreatedShareView = z.infer<typeof createdShareSchema>;
export type ShareView = z.infer<typeof shareSchema>;
export type SharedProjectView = z.infer<typeof sharedProjectSchema>;

function toShareView(row: typeof projectShares.$inferSelect): ShareView {
  return {
    id: row.id,
    active: row.revokedAt === null,
    created_at: row.createdAt.toISOString(),
    revoked_at: row.revokedAt?.toISOString() ?? null,
    last_accessed_at: row.lastAccessedAt?.toISOString() ?? null,
    access_count: row.accessCount,
  };
}

/** A new share link. The token is returned only here; the database keeps its SHA-256. */
export async function createShare(db: Db, ownerId: string, projectId: string): Promise<CreatedShareView> {
  await findOwnedProject(db, ownerId, projectId);
  const token = randomBase62(TOKEN_LENGTH);
  const [row] = await db
    .insert(projectShares)
    .values({ id: newId("shr"), projectId, tokenHash: hashSecret(token) })
    .returning();
  return { id: row.id, token, url: `/shared/${token}`, created_at: row.createdAt.toISOString() };
}

export async function listShares(
  db: Db,
  ownerId: string,
  projectId: string,
  page: { page: number; limit: number },
): Promise<{ items: ShareView[]; total: number }> {
  await findOwnedProject(db, ownerId, projectId);
  const [rows, [{ total }]] = await Promise.all([
    db
      .select()
      .from(projectShares)
      .where(eq(projectShares.projectId, projectId))
      .orderBy(desc(projectShares.createdAt), desc(projectShares.id))
      .limit(page.limit)
      .offset((page.page - 1) * page.limit),
    db.select({ total: count() }).from(projectShares).where(eq(projectShares.projectId, projectId)),
  ]);
  return { items: rows.map(toShareView), total };
}

/** Revokes an active link; an unknown or already revoked one is 404. */
export async function revokeShare(
  db: Db,
  ownerId: string,
  projectId: string,
  shareId: string,
): Promise<void> {
  await findOwnedProject(db, ownerId, projectId);
  const rows = await db
    .update(projectShares)
    .set({ revokedAt: new Date() })
    .where(
      and(
        eq(projectShares.id, shareId),
        eq(projectShares.projectId, projectId),
        isNull(projectShares.revokedAt),
      ),
    )
    .returning({ id: projectShares.id });
  if (rows.length === 0) throw new NotFoundError("Share link");
}

/** Resolves an active token to its project and counts the access; 404 for unknown or revoked tokens. */
async function openShare(db: Db, token: string) {
  const [share] = await db
    .update(projectShares)
    .set({ accessCount: sql`${projectShares.accessCount} + 1`, lastAccessedAt: new Date() })
    .where(and(eq(projectShares.tokenHash, hashSecret(token)), isNull(projectShares.revokedAt)))
    .returning({ projectId: projectShares.projectId });
  if (!share) throw new NotFoundError("Shared project");
  const [row] = await db
    .select({ project: projects, owner: { username: users.username, displayName: users.displayName } })
    .from(projects)
    .innerJoin(users, eq(users.id, projects.ownerId))
    .where(eq(projects.id, share.projectId))
    .limit(1);
  if (!row) throw new NotFoundError("Shared project");
  return row;
}

/** The public view of a shared project: no ids, no private fields. */
export async function readSharedProject(db: Db, token: string): Promise<SharedProjectView> {
  const { project, owner } = await openShare(db, token);
  return {
    name: project.name,
    description: project.description,
    owner: { username: owner.username, display_name: owner.displayName },
    graph: project.graph,
    training_config: project.trainingConfig,
    analysis: analysisSummary(project.graph),
    updated_at: project.updatedAt.toISOString(),
  };
}

/** Copies a shared project's graph, configuration and thumbnail into a new project of the caller. */
export async function importSharedProject(
  db: Db,
  userId: string,
  token: string,
  name?: string,
): Promise<ProjectView> {
  const { project } = await openShare(db, token);
  const row = await insertProject(db, userId, {
    name: name ?? project.name,
    description: project.description,
    graph: project.graph,
    training_config: project.trainingConfig,
  });
  return toProjectView(await copyThumbnail(db, project, row));
}
