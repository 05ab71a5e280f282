/**
 * Who may see a hub model, and how rows become API views. A published public model is seen by
 * everyone; a draft or a private model only by its owner: to anyone else it does not exist (404).
 */
import { and, eq, inArray } from "drizzle-orm";
import type { Db } from "../../db/client";
import { type HubModelRow, hubModels, users } from "../../db/schema";
import { hubModelVisibleTo, isHubModelVisible } from "../../db/schema/hub";
import { NotFoundError } from "../../errors";
import type { HubModelSummaryView } from "./hub.schemas";

/** The condition "the caller may see this model" (viewerId null for signed-out callers). */
export const visibleTo = hubModelVisibleTo;
export const isVisible = isHubModelVisible;

/** A model the caller may see, or 404. */
export async function findVisibleModel(db: Db, viewerId: string | null, id: string): Promise<HubModelRow> {
  const [row] = await db.select().from(hubModels).where(eq(hubModels.id, id)).limit(1);
  if (!row || !isVisible(row, viewerId)) throw new NotFoundError("Hub model");
  return row;
}

/** The caller's own model, or 404 (also for another account's model: never reveal that it exists). */
export async function findOwnedModel(db: Db, ownerId: string, id: string): Promise<HubModelRow> {
  const [row] = await db
    .select()
    .from(hubModels)
    .where(and(eq(hubModels.id, id), eq(hubModels.ownerId, ownerId)))
    .limit(1);
  if (!row) throw new NotFoundError("Hub model");
  return row;
}

export async function usernamesOf(db: Db, ids: string[]): Promise<Map<string, string>> {
  const unique = [...new Set(ids)];
  if (unique.length === 0) return new Map();
  const rows = await db
    .select({ id: users.id, username: users.username })
    .from(users)
    .where(inArray(users.id, unique));
  return new Map(rows.map((r) => [r.id, r.username]));
}

/** A row as listings read it (without the search vector). */
export type HubListRow = Omit<HubModelRow, "search">;

export function toSummaryView(row: HubListRow, username: string): HubModelSummaryView {
  return {
    id: row.id,
    slug: row.slug,
    name: row.name,
    owner: { id: row.ownerId, username },
    description: row.description,
    task: row.task,
    framework: row.framework,
    license: row.license,
    tags: row.tags,
    category: row.category,
    visibility: row.visibility,
    state: row.state,
    has_architecture: row.architecture !== null && row.architecture.nodes.length > 0,
    evaluation: row.evaluation,
    parent_id: row.parentId,
    base_model: row.baseModel,
    source_job_id: row.sourceJobId,
    downloads: row.downloads,
    stars: row.stars,
    featured: row.featured,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
    published_at: row.publishedAt?.toISOString() ?? null,
  };
}

export async function toSummaryViews(db: Db, rows: HubListRow[]): Promise<HubModelSummaryView[]> {
  const names = await usernamesOf(
    db,
    rows.map((r) => r.ownerId),
  );
  return rows.map((r) => toSummaryView(r, names.get(r.ownerId) ?? ""));
}

/** A URL name from a model name: lowercase words joined by hyphens. */
export function slugify(name: string): string {
  const slug = name
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 80)
    .replace(/-+$/g, "");
  return slug || "model";
}

/** A slug unused among the owner's models: `name`, else `name-2`, `name-3`… */
export async function freeSlug(db: Db, ownerId: string, name: string, exceptId?: string): Promise<string> {
  const base = slugify(name);
  const rows = await db
    .select({ id: hubModels.id, slug: hubModels.slug })
    .from(hubModels)
    .where(eq(hubModels.ownerId, ownerId));
  const taken = new Set(rows.filter((r) => r.id !== exceptId).map((r) => r.slug));
  if (!taken.has(base)) return base;
  for (let n = 2; ; n++) if (!taken.has(`${base}-${n}`)) return `${base}-${n}`;
}
