/** Pure helpers of the public hub pages: labels, numbers and the search page's URL. */
import type { Schemas } from "@/lib/api/client";

export type HubModelSummary = Schemas["HubModelSummary"];
/**
 * A model as the page's components use it: without its architecture and training configuration
 * (which the pages never show, so they are not sent to the browser either).
 */
export type HubModel = Omit<Schemas["HubModel"], "architecture" | "training_config" | "card_html">;
export type HubFile = Schemas["HubFile"];
export type HubReview = Schemas["HubReview"];
export type HubVersion = Schemas["HubVersion"];
export type HubSort = NonNullable<SearchParams["sort"]>;

export const SORT_LABELS: Record<HubSort, string> = {
  relevance: "Best match",
  trending: "Trending this week",
  downloads: "Most downloaded",
  stars: "Most starred",
  updated: "Recently updated",
};

export const LICENSE_SUGGESTIONS = [
  "apache-2.0",
  "mit",
  "bsd-3-clause",
  "cc-by-4.0",
  "cc-by-sa-4.0",
  "other",
];
export const FRAMEWORK_SUGGESTIONS = ["pytorch", "tfjs", "onnx"];

/** "tabular-classification" → "Tabular classification" (tasks and categories are kebab-case keys). */
export function taskLabel(task: string): string {
  const words = task.replace(/[-_]+/g, " ").trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** 1234 → "1.2K" (counts on cards), under 1000 as is. */
export function formatCount(n: number): string {
  if (n < 1000) return String(n);
  if (n < 1_000_000) return `${Number((n / 1000).toFixed(n < 10_000 ? 1 : 0))}K`;
  return `${Number((n / 1_000_000).toFixed(1))}M`;
}

/** 56149 → "54.8 KB" (binary units, as file managers show them). */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  if (bytes < 1024 ** 3) return `${(bytes / 1024 ** 2).toFixed(1)} MB`;
  return `${(bytes / 1024 ** 3).toFixed(2)} GB`;
}

/** A metric's value: integers as they are, else four significant digits. */
export function formatMetric(v: number): string {
  return Number.isInteger(v) ? String(v) : v.toPrecision(4).replace(/\.?0+$/, "");
}

/** "val_accuracy" → "Val accuracy". */
export function metricLabel(key: string): string {
  return taskLabel(key);
}

const METRIC_ORDER = ["accuracy", "val_accuracy", "loss", "val_loss", "f1", "rmse", "mae", "perplexity"];

/** Metrics in a stable, meaningful order (the usual headline figures first), at most `max`. */
export function orderedMetrics(metrics: Record<string, number>, max = Number.POSITIVE_INFINITY) {
  const rank = (k: string) => {
    const i = METRIC_ORDER.indexOf(k);
    return i === -1 ? METRIC_ORDER.length : i;
  };
  return Object.entries(metrics)
    .filter(([, v]) => Number.isFinite(v))
    .sort(([a], [b]) => rank(a) - rank(b) || a.localeCompare(b))
    .slice(0, max);
}

/** "Nov 24, 2026". */
export function formatDate(iso: string): string {
  return new Date(iso).toLocaleDateString("en", { month: "short", day: "numeric", year: "numeric" });
}

/** What the search page reads from (and writes to) its URL. */
export interface SearchParams {
  q?: string;
  task?: string;
  framework?: string;
  license?: string;
  tags?: string;
  category?: string;
  sort?: "relevance" | "trending" | "downloads" | "stars" | "updated";
  page?: number;
}

const SORTS = Object.keys(SORT_LABELS) as HubSort[];

function first(v: string | string[] | undefined): string | undefined {
  const s = Array.isArray(v) ? v[0] : v;
  const t = s?.trim();
  return t ? t.slice(0, 400) : undefined;
}

/** The search page's parameters from Next's `searchParams` (unknown or empty values dropped). */
export function parseSearchParams(raw: Record<string, string | string[] | undefined>): SearchParams {
  const sort = first(raw.sort);
  const page = Number(first(raw.page) ?? "1");
  return {
    q: first(raw.q),
    task: first(raw.task),
    framework: first(raw.framework),
    license: first(raw.license),
    tags: first(raw.tags),
    category: first(raw.category),
    sort: SORTS.includes(sort as HubSort) ? (sort as HubSort) : undefined,
    page: Number.isInteger(page) && page > 1 ? page : undefined,
  };
}

/** `/hub/search?…` for these parameters (empty ones left out, so links stay short). */
export function searchHref(p: SearchParams): string {
  const qs = new URLSearchParams();
  for (const key of ["q", "task", "framework", "license", "tags", "category", "sort"] as const) {
    const v = p[key];
    if (v) qs.set(key, v);
  }
  if (p.page && p.page > 1) qs.set("page", String(p.page));
  const s = qs.toString();
  return s ? `/hub/search?${s}` : "/hub/search";
}

/** The model page of a hub model. */
export function modelHref(id: string): string {
  return `/hub/${encodeURIComponent(id)}`;
}

/** A short description for cards and metadata: the first ~160 characters, on a word boundary. */
export function shortText(text: string, max = 160): string {
  const flat = text.replace(/\s+/g, " ").trim();
  if (flat.length <= max) return flat;
  const cut = flat.slice(0, max);
  const space = cut.lastIndexOf(" ");
  return `${(space > max * 0.6 ? cut.slice(0, space) : cut).replace(/[\s.,;:]+$/, "")}…`;
}
