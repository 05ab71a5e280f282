/**
 * Public projects: a project its owner made `public` is listed on their profile, readable by anyone
 * (no credential) and can be copied into anyone's studio. Everything else stays private: another
 * user's private project, or an unknown user, is a 404.
 */
import { and, count, desc, eq, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import { projects, users } from "../../db/schema";
import { NotFoundError } from "../../errors";
import { offsetOf, type PageQuery, paged } from "../../http/paging";
import { analysisSummary, copyThumbnail, insertProject, type ProjectView, toProjectView } from "./projects";

async function ownerByUsername(db: Db, username: string) {
  const [owner] = await db
    .select({ id: users.id, username: users.username, displayName: users.displayName })
    .from(users)
    .where(eq(users.username, username))
    .limit(1);
  if (!owner) throw new NotFoundError("User");
  return owner;
}

/** The user's public projects, most recently updated first. */
export async function listPublicProjects(db: Db, username: string, q: PageQuery) {
  const owner = await ownerByUsername(db, username);
  const where = and(eq(projects.ownerId, owner.id), eq(projects.visibility, "public"));
  const [rows, [{ total }]] = await Promise.all([
    db
      .select({
        id: projects.id,
        name: projects.name,
        description: projects.description,
        nodeCount: sql<number>`coalesce(jsonb_array_length(${projects.graph} -> 'nodes'), 0)::int`,
        updatedAt: projects.updatedAt,
      })
      .from(projects)
      .where(where)
      .orderBy(desc(projects.updatedAt), desc(projects.id))
      .limit(q.limit)
      .offset(offsetOf(q)),
    db.select({ total: count() }).from(projects).where(where),
  ]);
  return paged(
    rows.map((r) => ({
      id: r.id,
      name: r.name,
      description: r.description,
      node_count: r.nodeCount,
      updated_at: r.updatedAt.toISOString(),
    })),
    total,
    q,
  );
}

async function findPublic(db: Db, username: string, projectId: string) {
  const owner = await ownerByUsername(db, username);
  const [row] = await db
    .select()
    .from(projects)
    .where(and(eq(projects.id, projectId), eq(projects.ownerId, owner.id), eq(projects.visibility, "public")))
    .limit(1);
  if (!row) throw new NotFoundError("Project");
  return { owner, project: row };
}

/** A public project as anyone sees it (its diagram and configuration; no private fields). */
export async function readPublicProject(db: Db, username: string, projectId: string) {
  const { owner, project } = await findPublic(db, username, projectId);
  return {
    id: project.id,
    name: project.name,
    description: project.description,
    owner: { username: owner.username, display_name: owner.displayName },
    graph: project.graph,
    training_config: project.trainingConfig,
    analysis: analysisSummary(project.graph),
    node_count: project.graph.nodes.length,
    updated_at: project.updatedAt.toISOString(),
  };
}

/** Copies a public project's graph, configuration and thumbnail into a new (private) project of the caller. */
export async function importPublicProject(
  db: Db,
  userId: string,
  username: string,
  projectId: string,
  name?: string,
): Promise<ProjectView> {
  const { project } = await findPublic(db, username, projectId);
  const row = await insertProject(db, userId, {
    name: name ?? project.name,
    description: project.description,
    graph: project.graph,
    training_config: project.trainingConfig,
  });
  return toProjectView(await copyThumbnail(db, project, row));
}
