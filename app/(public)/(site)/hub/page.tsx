import { Clock, Flame, Globe, Sparkles } from "lucide-react";
import type { Metadata } from "next";
import Link from "next/link";
import type { ReactNode } from "react";
import { searchHref, taskLabel } from "@/components/hub/hub-format";
import { HubSearchBox } from "@/components/hub/hub-search-box";
import { ModelGrid } from "@/components/hub/model-summary-card";
import { buttonClass } from "@/components/ui/button";
import { EmptyState } from "@/components/ui/empty-state";
import { serverApi } from "@/lib/api/server-client";

const DESCRIPTION =
  "Public models shared by the Layerline community: search them, star them, fork them and open them in the studio.";

export const metadata: Metadata = {
  title: "Model hub",
  description: DESCRIPTION,
  openGraph: { title: "Layerline model hub", description: DESCRIPTION, type: "website" },
};

function Section({
  id,
  icon: Icon,
  title,
  more,
  children,
}: {
  id: string;
  icon: typeof Clock;
  title: string;
  more?: { href: string; label: string };
  children: ReactNode;
}) {
  return (
    <section aria-labelledby={id} className="space-y-3">
      <div className="flex items-center justify-between gap-4">
        <h2 id={id} className="flex items-center gap-2 text-base font-semibold">
          <Icon aria-hidden className="h-4 w-4 text-accent" /> {title}
        </h2>
        {more ? (
          <Link href={more.href} className="text-sm text-accent hover:underline">
            {more.label}
          </Link>
        ) : null}
      </div>
      {children}
    </section>
  );
}

/** /hub: search, featured, trending this week, categories and recently updated models. */
export default async function HubPage() {
  const api = await serverApi();
  const [featured, trending, categories, recent] = await Promise.all([
    api.GET("/api/v1/hub/featured", { params: { query: { limit: 6 } } }),
    api.GET("/api/v1/hub/trending", { params: { query: { limit: 6 } } }),
    api.GET("/api/v1/hub/categories"),
    api.GET("/api/v1/hub/models", { params: { query: { sort: "updated", limit: 9 } } }),
  ]);
  const cats = categories.data ?? [];
  const recentItems = recent.data?.items ?? [];
  const total = recent.data?.total ?? 0;
  return (
    <div className="space-y-10">
      <div className="rounded-xl border border-border bg-panel px-6 py-8 shadow-sm">
        <h1 className="text-2xl font-semibold tracking-tight">Model hub</h1>
        <p className="mt-1 max-w-2xl text-sm text-muted">{DESCRIPTION}</p>
        <div className="mt-5 max-w-2xl">
          <HubSearchBox large />
        </div>
        {total > 0 ? (
          <p className="mt-3 text-xs text-muted">
            {total} public model{total === 1 ? "" : "s"} ·{" "}
            <Link href={searchHref({ sort: "downloads" })} className="hover:text-fg hover:underline">
              most downloaded
            </Link>{" "}
            ·{" "}
            <Link href={searchHref({ sort: "stars" })} className="hover:text-fg hover:underline">
              most starred
            </Link>
          </p>
        ) : null}
      </div>

      {total === 0 ? (
        <EmptyState
          icon={Globe}
          title="No public models yet"
          action={
            <Link href="/training" className={buttonClass("secondary")}>
              Publish a trained model
            </Link>
          }
        >
          Train a model in the studio, then use “Publish to hub” on its job page: it will be listed here for
          everyone, signed in or not.
        </EmptyState>
      ) : (
        <div className="grid gap-10 lg:grid-cols-[1fr_15rem]">
          <div className="min-w-0 space-y-10">
            {(featured.data?.items.length ?? 0) > 0 ? (
              <Section id="hub-featured" icon={Sparkles} title="Featured">
                <ModelGrid models={featured.data?.items ?? []} label="Featured models" />
              </Section>
            ) : null}
            <Section
              id="hub-trending"
              icon={Flame}
              title="Trending this week"
              more={{ href: searchHref({ sort: "trending" }), label: "All trending" }}
            >
              {(trending.data?.items.length ?? 0) > 0 ? (
                <ModelGrid models={trending.data?.items ?? []} label="Trending models" />
              ) : (
                <p className="rounded-lg border border-dashed border-border px-4 py-6 text-center text-sm text-muted">
                  No model was starred in the last 7 days. Star the ones you like: trending counts this week’s
                  stars.
                </p>
              )}
            </Section>
            <Section
              id="hub-recent"
              icon={Clock}
              title="Recently updated"
              more={{ href: searchHref({ sort: "updated" }), label: "Browse all" }}
            >
              <ModelGrid models={recentItems} label="Recently updated models" />
            </Section>
          </div>
          <aside aria-labelledby="hub-categories" className="space-y-3">
            <h2 id="hub-categories" className="text-base font-semibold">
              Categories
            </h2>
            {cats.length > 0 ? (
              <ul className="divide-y divide-border rounded-lg border border-border bg-panel">
                {cats.map((c) => (
                  <li key={c.category}>
                    <Link
                      href={searchHref({ category: c.category })}
                      className="flex items-center justify-between gap-3 px-3 py-2 text-sm hover:bg-panel-2"
                    >
                      <span className="truncate">{taskLabel(c.category)}</span>
                      <span className="rounded-full bg-panel-2 px-2 text-xs tabular-nums text-muted">
                        {c.count}
                      </span>
                    </Link>
                  </li>
                ))}
              </ul>
            ) : (
              <p className="text-sm text-muted">No categories yet.</p>
            )}
          </aside>
        </div>
      )}
    </div>
  );
}
