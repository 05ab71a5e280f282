import { and, eq } from "drizzle-orm";
import type { ArchitectureGraph, TrainingConfig } from "../../../ml/graph-types";
import type { Db } from "../../db/client";
import { projectVersions } from "../../db/schema";
import { NotFoundError } from "../../errors";
import { findOwnedProject } from "../projects/projects";

/** The architecture a job trains: a version of the project, or the project's current state. */
export async function architectureOf(
  db: Db,
  ownerId: string,
  projectId: string,
  versionId: string | undefined,
): Promise<{ name: string; graph: ArchitectureGraph; config: TrainingConfig; versionId: string | null }> {
  const project = await findOwnedProject(db, ownerId, projectId);
  if (!versionId)
    return { name: project.name, graph: project.graph, config: project.trainingConfig, versionId: null };
  const [version] = await db
    .select()
    .from(projectVersions)
    .where(and(eq(projectVersions.id, versionId), eq(projectVersions.projectId, projectId)))
    .limit(1);
  if (!version) throw new NotFoundError("Architecture version");
  return { name: project.name, graph: version.graph, config: version.trainingConfig, versionId: version.id };
}
