import { SearchX, X } from "lucide-react";
import type { Metadata } from "next";
import Link from "next/link";
import { AutoSubmitSelect } from "@/components/hub/auto-submit-select";
import {
  type HubSort,
  parseSearchParams,
  type SearchParams,
  SORT_LABELS,
  searchHref,
  taskLabel,
} from "@/components/hub/hub-format";
import { HubSearchBox } from "@/components/hub/hub-search-box";
import { ModelGrid } from "@/components/hub/model-summary-card";
import { PagerLinks } from "@/components/hub/pager-links";
import { FILTER_FORM_ID, SearchFilters } from "@/components/hub/search-filters";
import { Alert } from "@/components/ui/alert";
import { cn } from "@/components/ui/cn";
import { EmptyState } from "@/components/ui/empty-state";
import { inputClass } from "@/components/ui/field";
import { PageHeader } from "@/components/ui/page-header";
import { serverApi } from "@/lib/api/server-client";
import { LayerlineError } from "@/sdk/src/errors";

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

const PAGE_SIZE = 24;

async function runSearch(p: SearchParams) {
  const api = await serverApi();
  const query = {
    task: p.task,
    framework: p.framework,
    license: p.license,
    tags: p.tags,
    category: p.category,
    sort: p.sort,
    page: p.page ?? 1,
    limit: PAGE_SIZE,
  };
  try {
    const [results, categories] = await Promise.all([
      p.q
        ? api.GET("/api/v1/hub/models/search", { params: { query: { ...query, q: p.q } } })
        : api.GET("/api/v1/hub/models", { params: { query } }),
      api.GET("/api/v1/hub/categories"),
    ]);
    return { results: results.data ?? null, categories: categories.data ?? [], error: null };
  } catch (err) {
    // A filter the API refuses (e.g. a task with characters no task has) reads as a message, not a crash.
    if (err instanceof LayerlineError && (err.status === 422 || err.status === 400))
      return { results: null, categories: [], error: err.message };
    throw err;
  }
}

function searchSummary(p: SearchParams): string {
  const parts = [
    p.q ? `“${p.q}”` : null,
    p.task ? taskLabel(p.task) : null,
    p.category ? taskLabel(p.category) : null,
  ];
  return parts.filter(Boolean).join(" · ");
}

/** The filters in force, each removable. */
function ActiveFilters({ p }: { p: SearchParams }) {
  const chips = (["task", "category", "framework", "license", "tags"] as const).filter((k) => p[k]);
  if (chips.length === 0) return null;
  return (
    <ul aria-label="Active filters" className="flex flex-wrap gap-2">
      {chips.map((k) => (
        <li key={k}>
          <Link
            href={searchHref({ ...p, [k]: undefined, page: undefined })}
            className="inline-flex items-center gap-1 rounded-full border border-border bg-panel px-2.5 py-0.5 text-xs hover:bg-panel-2"
            aria-label={`Remove filter ${k}: ${p[k]}`}
          >
            <span className="text-muted">{k}:</span> {p[k]}
            <X aria-hidden className="h-3 w-3" />
          </Link>
        </li>
      ))}
    </ul>
  );
}

/** /hub/search: full-text search with filters, a sort and pages; everything is in the URL. */
export default async function HubSearchPage({ searchParams }: Props) {
  const p = parseSearchParams(await searchParams);
  const { results, categories, error } = await runSearch(p);
  const sorts = (Object.keys(SORT_LABELS) as HubSort[]).filter((s) => s !== "relevance" || p.q);
  const sort = p.sort ?? (p.q ? "relevance" : "updated");
  const tasks = categories.map((c) => ({ value: c.category, count: c.count }));
  const heading = searchSummary(p);
  return (
    <div className="space-y-6">
      <PageHeader
        title={heading ? `Models: ${heading}` : "All models"}
        crumbs={[{ href: "/hub", label: "Hub" }]}
        current="Search"
      >
        <div className="max-w-2xl">
          <HubSearchBox defaultValue={p.q} />
        </div>
      </PageHeader>
      <div className="grid gap-8 lg:grid-cols-[14rem_1fr]">
        <aside className="rounded-lg border border-border bg-panel p-4 lg:self-start">
          <SearchFilters params={p} tasks={tasks} />
        </aside>
        <div className="min-w-0 space-y-4">
          <div className="flex flex-wrap items-center justify-between gap-3">
            <p className="text-sm text-muted" data-testid="hub-result-count" aria-live="polite">
              {results ? `${results.total} model${results.total === 1 ? "" : "s"}` : ""}
            </p>
            <div className="flex items-center gap-2">
              <label htmlFor="hub-sort" className="text-sm whitespace-nowrap text-muted">
                Sort by
              </label>
              <AutoSubmitSelect
                id="hub-sort"
                name="sort"
                form={FILTER_FORM_ID}
                defaultValue={sort}
                className={cn(inputClass, "h-8 w-auto")}
              >
                {sorts.map((s) => (
                  <option key={s} value={s}>
                    {SORT_LABELS[s]}
                  </option>
                ))}
              </AutoSubmitSelect>
            </div>
          </div>
          <ActiveFilters p={p} />
          {error ? <Alert>{error}</Alert> : null}
          {results && results.items.length === 0 ? (
            <EmptyState
              icon={SearchX}
              title="No model matches"
              action={
                <Link href="/hub/search" className="text-sm text-accent hover:underline">
                  Show every model
                </Link>
              }
            >
              {p.q
                ? "Try other words, fewer filters, or “or” between alternatives (e.g. iris or penguins)."
                : "No public model carries these filters. Remove one to see more."}
            </EmptyState>
          ) : null}
          {results && results.items.length > 0 ? (
            <>
              <ModelGrid models={results.items} label="Search results" />
              {results.pages > 1 ? (
                <PagerLinks data={results} noun="model" href={(page) => searchHref({ ...p, page })} />
              ) : null}
            </>
          ) : null}
        </div>
      </div>
    </div>
  );
}

export async function generateMetadata({ searchParams }: Props): Promise<Metadata> {
  const p = parseSearchParams(await searchParams);
  const what = searchSummary(p);
  const title = what ? `Search: ${what}` : "Search models";
  const description = what
    ? `Public Layerline models matching ${what}.`
    : "Search the public Layerline models by task, framework, license and tags.";
  return { title, description, openGraph: { title, description, type: "website" } };
}
