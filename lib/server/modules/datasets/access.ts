import { and, eq } from "drizzle-orm";
import type { Db } from "../../db/client";
import { datasets, datasetVersions, users } from "../../db/schema";
import { ForbiddenError, NotFoundError } from "../../errors";
import { type BuiltinDataset, findBuiltin, isBuiltinId } from "./builtin";

/**
 * Who may see and change a dataset. Readable: built-ins, public datasets, and the caller's own.
 * Another account's private dataset is a 404 (its existence is never revealed); changing a built-in
 * or someone else's public dataset is a 403.
 */
export type DatasetRow = typeof datasets.$inferSelect;
export type VersionRow = typeof datasetVersions.$inferSelect;

export type DatasetRef =
  | { kind: "builtin"; builtin: BuiltinDataset }
  | { kind: "stored"; row: DatasetRow; ownerUsername: string };

export interface Viewer {
  id: string;
}

export async function readableDataset(db: Db, viewer: Viewer | null, id: string): Promise<DatasetRef> {
  if (isBuiltinId(id)) {
    const builtin = findBuiltin(id);
    if (!builtin) throw new NotFoundError("Dataset");
    return { kind: "builtin", builtin };
  }
  const [found] = await db
    .select({ row: datasets, ownerUsername: users.username })
    .from(datasets)
    .innerJoin(users, eq(users.id, datasets.ownerId))
    .where(eq(datasets.id, id))
    .limit(1);
  if (!found || (found.row.visibility !== "public" && found.row.ownerId !== viewer?.id))
    throw new NotFoundError("Dataset");
  return { kind: "stored", row: found.row, ownerUsername: found.ownerUsername };
}

/** A dataset the caller owns and may change. */
export async function ownedDataset(db: Db, user: Viewer, id: string): Promise<DatasetRow> {
  const ref = await readableDataset(db, user, id);
  if (ref.kind === "builtin") throw new ForbiddenError("Built-in datasets are read-only.");
  if (ref.row.ownerId !== user.id) throw new ForbiddenError("Only the dataset's owner can change it.");
  return ref.row;
}

export async function versionOf(db: Db, datasetId: string, versionId: string): Promise<VersionRow> {
  const [row] = await db
    .select()
    .from(datasetVersions)
    .where(and(eq(datasetVersions.id, versionId), eq(datasetVersions.datasetId, datasetId)))
    .limit(1);
  if (!row) throw new NotFoundError("Dataset version");
  return row;
}

export async function currentVersionOf(db: Db, dataset: DatasetRow): Promise<VersionRow> {
  if (!dataset.currentVersionId) throw new NotFoundError("Dataset version");
  return versionOf(db, dataset.id, dataset.currentVersionId);
}
