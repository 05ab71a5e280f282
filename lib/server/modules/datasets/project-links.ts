import type { z } from "@hono/zod-openapi";
import { and, asc, eq } from "drizzle-orm";
import type { Db } from "../../db/client";
import { projectDatasets } from "../../db/schema";
import { NotFoundError } from "../../errors";
import { findOwnedProject } from "../projects/projects";
import { readableDataset, type Viewer } from "./access";
import { datasetView } from "./datasets";
import type { linkedDatasetSchema } from "./datasets.schemas";

/**
 * Datasets linked to a project (contract §4.2): the project must be the caller's, the dataset one the
 * caller can read (their own, a public one, or a built-in). Linking twice is harmless.
 */
export type LinkedDatasetView = z.infer<typeof linkedDatasetSchema>;

export async function linkDataset(
  db: Db,
  user: Viewer,
  projectId: string,
  datasetId: string,
): Promise<{ view: LinkedDatasetView; created: boolean }> {
  await findOwnedProject(db, user.id, projectId);
  const ref = await readableDataset(db, user, datasetId);
  const values =
    ref.kind === "builtin"
      ? { projectId, datasetRef: datasetId, builtinId: datasetId, linkedBy: user.id }
      : { projectId, datasetRef: datasetId, datasetId, linkedBy: user.id };
  const inserted = await db.insert(projectDatasets).values(values).onConflictDoNothing().returning();
  const [link] =
    inserted.length > 0
      ? inserted
      : await db
          .select()
          .from(projectDatasets)
          .where(and(eq(projectDatasets.projectId, projectId), eq(projectDatasets.datasetRef, datasetId)));
  return {
    view: { ...(await datasetView(db, user, ref)), linked_at: link.linkedAt.toISOString() },
    created: inserted.length > 0,
  };
}

export async function listLinkedDatasets(
  db: Db,
  user: Viewer,
  projectId: string,
  page: { skip: number; limit: number },
): Promise<LinkedDatasetView[]> {
  await findOwnedProject(db, user.id, projectId);
  const links = await db
    .select()
    .from(projectDatasets)
    .where(eq(projectDatasets.projectId, projectId))
    .orderBy(asc(projectDatasets.linkedAt), asc(projectDatasets.datasetRef))
    .offset(page.skip)
    .limit(page.limit);
  const out: LinkedDatasetView[] = [];
  for (const link of links) {
    // A dataset that became private to someone else stays linked but is not shown.
    const ref = await readableDataset(db, user, link.datasetRef).catch(() => null);
    if (ref) out.push({ ...(await datasetView(db, user, ref)), linked_at: link.linkedAt.toISOString() });
  }
  return out;
}

export async function unlinkDataset(
  db: Db,
  user: Viewer,
  projectId: string,
  datasetId: string,
): Promise<void> {
  await findOwnedProject(db, user.id, projectId);
  const removed = await db
    .delete(projectDatasets)
    .where(and(eq(projectDatasets.projectId, projectId), eq(projectDatasets.datasetRef, datasetId)))
    .returning({ ref: projectDatasets.datasetRef });
  if (removed.length === 0) throw new NotFoundError("Linked dataset");
}
