import { and, desc, eq, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import { datasetVersions, users } from "../../db/schema";
import type { StoredSplits } from "../../db/schema/datasets";
import { ForbiddenError, NotFoundError, ValidationError } from "../../errors";
import { offsetOf, type PageQuery, paged } from "../../http/paging";
import { ownedDataset, readableDataset, type VersionRow, type Viewer, versionOf } from "./access";
import { builtinVersionData, builtinVersionId } from "./builtin";
import { type ExplicitSplits, validateExplicitSplits } from "./splits";
import {
  builtinVersionView,
  type SplitsSummary,
  splitsSummary,
  storedVersionView,
  type VersionView,
} from "./views";

/** Dataset versions: listing, one version with its profile, explicit splits. */

export async function listVersions(db: Db, viewer: Viewer, datasetId: string, page: PageQuery) {
  const ref = await readableDataset(db, viewer, datasetId);
  if (ref.kind === "builtin") {
    const items =
      page.page === 1 ? [builtinVersionView(ref.builtin, await builtinVersionData(ref.builtin), false)] : [];
    return paged(items, 1, page);
  }
  const [{ total }] = await db
    .select({ total: sql<number>`count(*)::int` })
    .from(datasetVersions)
    .where(eq(datasetVersions.datasetId, datasetId));
  const rows = await db
    .select({ v: datasetVersions, username: users.username })
    .from(datasetVersions)
    .leftJoin(users, eq(users.id, datasetVersions.createdBy))
    .where(eq(datasetVersions.datasetId, datasetId))
    .orderBy(desc(datasetVersions.number))
    .offset(offsetOf(page))
    .limit(page.limit);
  const items = rows.map((r) =>
    storedVersionView(r.v, ref.row.currentVersionId, creatorOf(r.v, r.username), false),
  );
  return paged(items, Number(total), page);
}

function creatorOf(v: VersionRow, username: string | null): { id: string; username: string } | null {
  return v.createdBy && username ? { id: v.createdBy, username } : null;
}

export async function getVersion(
  db: Db,
  viewer: Viewer,
  datasetId: string,
  versionId: string,
): Promise<VersionView> {
  const ref = await readableDataset(db, viewer, datasetId);
  if (ref.kind === "builtin") {
    if (versionId !== builtinVersionId(ref.builtin)) throw new NotFoundError("Dataset version");
    return builtinVersionView(ref.builtin, await builtinVersionData(ref.builtin), true);
  }
  const v = await versionOf(db, datasetId, versionId);
  const [creator] = v.createdBy
    ? await db.select({ username: users.username }).from(users).where(eq(users.id, v.createdBy))
    : [];
  return storedVersionView(v, ref.row.currentVersionId, creatorOf(v, creator?.username ?? null), true);
}

/** A version of a dataset the caller owns (built-ins are read-only). */
export async function ownedVersion(
  db: Db,
  user: Viewer,
  datasetId: string,
  versionId: string,
): Promise<VersionRow> {
  const ref = await readableDataset(db, user, datasetId);
  if (ref.kind === "builtin") {
    if (versionId !== builtinVersionId(ref.builtin)) throw new NotFoundError("Dataset version");
    throw new ForbiddenError("Built-in datasets are read-only.");
  }
  await ownedDataset(db, user, datasetId);
  return versionOf(db, datasetId, versionId);
}

export interface SplitsResult extends SplitsSummary {
  dataset_id: string;
  version_id: string;
  row_count: number;
  unassigned: number;
}

export async function setExplicitSplits(
  db: Db,
  user: Viewer,
  datasetId: string,
  versionId: string,
  splits: ExplicitSplits,
): Promise<SplitsResult> {
  const version = await ownedVersion(db, user, datasetId, versionId);
  const rowCount = version.rowCount ?? 0;
  const errors = validateExplicitSplits(splits, rowCount);
  if (errors.length > 0) throw new ValidationError("The splits are not valid for this version.", errors);
  const stored: StoredSplits = {
    kind: "explicit",
    train: splits.train ?? [],
    validation: splits.validation ?? [],
    test: splits.test ?? [],
    created_at: new Date().toISOString(),
    created_by: user.id,
  };
  await db
    .update(datasetVersions)
    .set({ splits: stored })
    .where(and(eq(datasetVersions.id, versionId), eq(datasetVersions.datasetId, datasetId)));
  const summary = splitsSummary(stored) as SplitsSummary;
  return {
    dataset_id: datasetId,
    version_id: versionId,
    row_count: rowCount,
    unassigned: rowCount - summary.train - summary.validation - summary.test,
    ...summary,
  };
}
