import { and, desc, eq, inArray, or, type SQL, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import {
  type DatasetFormat,
  type DatasetVisibility,
  datasetDownloadNonces,
  datasets,
  datasetVersions,
  jobs,
  trainingJobs,
  users,
} from "../../db/schema";
import type { ColumnRole } from "../../db/schema/datasets";
import { ConflictError, ValidationError } from "../../errors";
import { currentVersionOf, type DatasetRef, ownedDataset, readableDataset, type Viewer } from "./access";
import { BUILTIN_DATASETS, type BuiltinDataset, builtinVersionData } from "./builtin";
import { deleteDatasetFile } from "./ingest";
import { applyRoleUpdate, inferTask } from "./roles";
import { dropRowCache } from "./row-cache";
import { builtinDatasetView, type DatasetView, storedDatasetView } from "./views";

/** Dataset CRUD: browse (with built-ins), read, update, delete, column roles. */

export interface BrowseQuery {
  skip: number;
  limit: number;
  q?: string;
  format?: DatasetFormat;
  task?: string;
  include_builtin: boolean;
  mine: boolean;
}

function likePattern(q: string): string {
  return `%${q.replace(/[\\%_]/g, (m) => `\\${m}`)}%`;
}

function builtinMatches(b: BuiltinDataset, query: BrowseQuery): boolean {
  if (query.mine || !query.include_builtin) return false;
  if (query.format && b.format !== query.format) return false;
  if (query.task && b.task !== query.task) return false;
  if (query.q) {
    const q = query.q.toLowerCase();
    return [b.id, b.name, b.description].some((s) => s.toLowerCase().includes(q));
  }
  return true;
}

/**
 * Built-ins first (in their fixed order), then the caller's datasets and public ones, most recently
 * updated first; `skip` and `limit` apply to that combined list.
 */
export async function browseDatasets(db: Db, viewer: Viewer, query: BrowseQuery): Promise<DatasetView[]> {
  const builtins = BUILTIN_DATASETS.filter((b) => builtinMatches(b, query));
  const fromBuiltins = builtins.slice(query.skip, query.skip + query.limit);
  const views: DatasetView[] = await Promise.all(
    fromBuiltins.map(async (b) => builtinDatasetView(b, await builtinVersionData(b))),
  );
  const remaining = query.limit - views.length;
  if (remaining <= 0) return views;
  const conditions: (SQL | undefined)[] = [
    query.mine
      ? eq(datasets.ownerId, viewer.id)
      : or(eq(datasets.ownerId, viewer.id), eq(datasets.visibility, "public")),
  ];
  if (query.q) {
    const p = likePattern(query.q);
    conditions.push(sql`(${datasets.name} ilike ${p} or ${datasets.description} ilike ${p})`);
  }
  if (query.format) conditions.push(eq(datasets.format, query.format));
  if (query.task) conditions.push(eq(datasets.task, query.task));
  const rows = await db
    .select({
      row: datasets,
      ownerUsername: users.username,
      schema: datasetVersions.schema,
      rowCount: datasetVersions.rowCount,
    })
    .from(datasets)
    .innerJoin(users, eq(users.id, datasets.ownerId))
    .leftJoin(datasetVersions, eq(datasetVersions.id, datasets.currentVersionId))
    .where(and(...conditions))
    .orderBy(desc(datasets.updatedAt), desc(datasets.id))
    .offset(Math.max(0, query.skip - builtins.length))
    .limit(remaining);
  for (const r of rows) {
    views.push(
      storedDatasetView(
        r.row,
        r.ownerUsername,
        viewer.id,
        r.schema ? { schema: r.schema, rowCount: r.rowCount } : null,
      ),
    );
  }
  return views;
}

export async function datasetView(db: Db, viewer: Viewer | null, ref: DatasetRef): Promise<DatasetView> {
  if (ref.kind === "builtin") return builtinDatasetView(ref.builtin, await builtinVersionData(ref.builtin));
  const current = ref.row.currentVersionId ? await currentVersionOf(db, ref.row) : null;
  return storedDatasetView(
    ref.row,
    ref.ownerUsername,
    viewer?.id ?? null,
    current ? { schema: current.schema, rowCount: current.rowCount } : null,
  );
}

export async function getDataset(db: Db, viewer: Viewer, id: string): Promise<DatasetView> {
  return datasetView(db, viewer, await readableDataset(db, viewer, id));
}

export interface DatasetUpdate {
  name?: string;
  description?: string;
  visibility?: DatasetVisibility;
}

export async function updateDataset(
  db: Db,
  user: Viewer,
  id: string,
  update: DatasetUpdate,
): Promise<DatasetView> {
  await ownedDataset(db, user, id);
  if (Object.keys(update).length > 0) {
    await db
      .update(datasets)
      .set({ ...update, updatedAt: new Date() })
      .where(and(eq(datasets.id, id), eq(datasets.ownerId, user.id)));
  }
  return getDataset(db, user, id);
}

/** DELETE answers 409 while a queued or running training job (or another background job) uses the dataset. */
export async function assertDatasetNotInUse(db: Db, datasetId: string): Promise<void> {
  const [training] = await db
    .select({ id: trainingJobs.id, state: trainingJobs.state })
    .from(trainingJobs)
    .where(and(eq(trainingJobs.datasetId, datasetId), inArray(trainingJobs.state, ["queued", "running"])))
    .limit(1);
  if (training)
    throw new ConflictError(
      `The dataset is in use by training job ${training.id} (${training.state}); wait for it to finish or cancel it.`,
    );
  const [busy] = await db
    .select({ id: jobs.id, type: jobs.type })
    .from(jobs)
    .where(
      and(
        inArray(jobs.state, ["queued", "running"]),
        sql`${jobs.type} not like 'dataset.%'`,
        sql`${jobs.type} <> 'training.run'`,
        sql`position(${datasetId} in ${jobs.payload}::text) > 0`,
      ),
    )
    .limit(1);
  if (busy)
    throw new ConflictError(
      `The dataset is in use by job ${busy.id} (${busy.type}); wait for it to finish or cancel it.`,
    );
}

/** Deletes a dataset with all its versions and their files. */
export async function deleteDataset(db: Db, user: Viewer, id: string): Promise<void> {
  await ownedDataset(db, user, id);
  await assertDatasetNotInUse(db, id);
  const versions = await db
    .select({ id: datasetVersions.id, blobKey: datasetVersions.blobKey })
    .from(datasetVersions)
    .where(eq(datasetVersions.datasetId, id));
  // Rows first (versions, links and download nonces go with the dataset), then the files.
  await db.transaction(async (tx) => {
    await tx.delete(datasetDownloadNonces).where(eq(datasetDownloadNonces.datasetId, id));
    await tx.delete(datasets).where(and(eq(datasets.id, id), eq(datasets.ownerId, user.id)));
  });
  for (const v of versions) {
    await deleteDatasetFile(v.blobKey).catch((err: unknown) => {
      console.error(`could not delete dataset blob ${v.blobKey}`, err instanceof Error ? err.message : err);
    });
    await dropRowCache(v.id).catch((err: unknown) => {
      console.error(`could not delete the row cache of ${v.id}`, err instanceof Error ? err.message : err);
    });
  }
}

export interface RolesResult {
  dataset_id: string;
  roles: Record<string, ColumnRole>;
  task: string | null;
}

export async function setRoles(
  db: Db,
  user: Viewer,
  id: string,
  update: Record<string, ColumnRole | null>,
): Promise<RolesResult> {
  const dataset = await ownedDataset(db, user, id);
  const version = await currentVersionOf(db, dataset);
  const { roles, errors } = applyRoleUpdate(version.schema, dataset.roles, update);
  if (errors.length > 0) throw new ValidationError("The roles are not valid for this dataset.", errors);
  const task = inferTask(version.schema, version.profile, roles);
  await db.update(datasets).set({ roles, task, updatedAt: new Date() }).where(eq(datasets.id, id));
  return { dataset_id: id, roles, task };
}
