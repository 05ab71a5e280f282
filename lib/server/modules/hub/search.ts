/**
 * Discovery: list and full-text search (websearch_to_tsquery over the GIN-indexed `search`
 * column, ranked with ts_rank), filters (task, framework, license, category, tags, owner) and sorts
 * (relevance, trending = stars in the last 7 days, downloads, stars, updated); categories, featured,
 * trending and the caller's starred models. Only published models are listed; a private one only
 * to its owner; drafts only in the owner's own listing (`owner=<their username>`).
 */
import { and, count, desc, eq, getTableColumns, gt, inArray, type SQL, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import { hubModels, hubStars, users } from "../../db/schema";
import { offsetOf, type PageQuery, paged } from "../../http/paging";
import { toSummaryViews, visibleTo } from "./access";
import type { HubModelSummaryView, HubSort, ListHubModelsQuery } from "./hub.schemas";

export const TRENDING_WINDOW_DAYS = 7;

const { search: _search, ...listColumns } = getTableColumns(hubModels);

const listed = () => and(eq(hubModels.state, "published"), eq(hubModels.visibility, "public")) as SQL;

function recentStars(db: Db) {
  return db
    .select({ modelId: hubStars.modelId, n: count().as("recent_stars") })
    .from(hubStars)
    .where(gt(hubStars.createdAt, sql`now() - make_interval(days => ${TRENDING_WINDOW_DAYS})`))
    .groupBy(hubStars.modelId)
    .as("recent");
}

function parseTags(tags: string | undefined): string[] {
  return [
    ...new Set(
      (tags ?? "")
        .split(",")
        .map((t) => t.trim().toLowerCase())
        .filter(Boolean),
    ),
  ].slice(0, 20);
}

interface Page {
  items: HubModelSummaryView[];
  total: number;
  page: number;
  limit: number;
  pages: number;
}

async function runListing(
  db: Db,
  where: SQL[],
  sort: HubSort,
  q: PageQuery,
  opts: { query?: SQL; onlyTrending?: boolean } = {},
): Promise<Page> {
  const recent = recentStars(db);
  const trending = sort === "trending" || opts.onlyTrending;
  const recentCount = sql<number>`coalesce(${recent.n}, 0)`;
  const conds = [...where];
  if (opts.onlyTrending) conds.push(gt(recentCount, 0));
  const order: SQL[] = [];
  switch (sort) {
    case "relevance":
      if (opts.query) order.push(desc(sql`ts_rank(${hubModels.search}, ${opts.query})`));
      order.push(desc(hubModels.stars));
      break;
    case "trending":
      order.push(desc(recentCount), desc(hubModels.stars));
      break;
    case "downloads":
      order.push(desc(hubModels.downloads));
      break;
    case "stars":
      order.push(desc(hubModels.stars));
      break;
    case "updated":
      break;
  }
  order.push(desc(hubModels.updatedAt), desc(hubModels.id));
  // Narrow rows to sort (ids only), a separate count, then the page's rows by id: the wide
  // columns (card, architecture) never go through the sort, and no window keeps the planner
  // from a top-N scan.
  const idQuery = db.select({ id: hubModels.id }).from(hubModels).$dynamic();
  const countQuery = db.select({ n: count() }).from(hubModels).$dynamic();
  const [idRows, [{ n: total }]] = await Promise.all([
    (trending ? idQuery.leftJoin(recent, eq(recent.modelId, hubModels.id)) : idQuery)
      .where(and(...conds))
      .orderBy(...order)
      .limit(q.limit)
      .offset(offsetOf(q)),
    (opts.onlyTrending ? countQuery.leftJoin(recent, eq(recent.modelId, hubModels.id)) : countQuery).where(
      and(...conds),
    ),
  ]);
  const ids = idRows.map((r) => r.id);
  const rows =
    ids.length === 0 ? [] : await db.select(listColumns).from(hubModels).where(inArray(hubModels.id, ids));
  const byId = new Map(rows.map((r) => [r.id, r]));
  const items = await toSummaryViews(
    db,
    ids.flatMap((id) => byId.get(id) ?? []),
  );
  return paged(items, total, q);
}

/** GET /hub/models and /hub/models/search. */
export async function listModels(db: Db, viewerId: string | null, q: ListHubModelsQuery): Promise<Page> {
  const where: SQL[] = [];
  if (q.owner) {
    const [owner] = await db
      .select({ id: users.id })
      .from(users)
      .where(sql`lower(${users.username}) = lower(${q.owner})`)
      .limit(1);
    if (!owner) return paged([], 0, q);
    where.push(eq(hubModels.ownerId, owner.id));
    // Your own listing shows your drafts and private models; anyone else's only what is listed.
    if (owner.id !== viewerId) where.push(listed());
  } else {
    where.push(eq(hubModels.state, "published"), visibleTo(viewerId));
  }
  if (q.task) where.push(eq(hubModels.task, q.task));
  if (q.framework) where.push(eq(hubModels.framework, q.framework));
  if (q.license) where.push(eq(hubModels.license, q.license));
  if (q.category) where.push(eq(hubModels.category, q.category));
  const tags = parseTags(q.tags);
  if (tags.length > 0) where.push(sql`${hubModels.tags} @> ${JSON.stringify(tags)}::jsonb`);
  let query: SQL | undefined;
  if (q.q) {
    query = sql`websearch_to_tsquery('english', ${q.q})`;
    where.push(sql`${hubModels.search} @@ ${query}`);
  }
  const sort = q.sort ?? (query ? "relevance" : "updated");
  return runListing(db, where, sort === "relevance" && !query ? "updated" : sort, q, { query });
}

export async function listCategories(db: Db): Promise<{ category: string; count: number }[]> {
  const rows = await db
    .select({ category: hubModels.category, count: count() })
    .from(hubModels)
    .where(and(listed(), sql`${hubModels.category} is not null`))
    .groupBy(hubModels.category)
    .orderBy(desc(count()), hubModels.category);
  return rows.map((r) => ({ category: r.category ?? "", count: r.count }));
}

export async function listFeatured(db: Db, q: PageQuery): Promise<Page> {
  return runListing(db, [listed(), eq(hubModels.featured, true)], "stars", q);
}

/** Models starred in the last 7 days, most such stars first. */
export async function listTrending(db: Db, q: PageQuery): Promise<Page> {
  return runListing(db, [listed()], "trending", q, { onlyTrending: true });
}

/** The caller's starred models (that they may still see), most recently starred first. */
export async function listStarred(db: Db, userId: string, q: PageQuery): Promise<Page> {
  const where = and(eq(hubStars.userId, userId), eq(hubModels.state, "published"), visibleTo(userId));
  const [rows, [{ total }]] = await Promise.all([
    db
      .select({ m: listColumns })
      .from(hubStars)
      .innerJoin(hubModels, eq(hubModels.id, hubStars.modelId))
      .where(where)
      .orderBy(desc(hubStars.createdAt), desc(hubModels.id))
      .limit(q.limit)
      .offset(offsetOf(q)),
    db
      .select({ total: count() })
      .from(hubStars)
      .innerJoin(hubModels, eq(hubModels.id, hubStars.modelId))
      .where(where),
  ]);
  return paged(
    await toSummaryViews(
      db,
      rows.map((r) => r.m),
    ),
    total,
    q,
  );
}
