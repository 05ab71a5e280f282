import { Download, Star } from "lucide-react";
import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { cache } from "react";
import {
  formatCount,
  formatDate,
  modelHref,
  searchHref,
  shortText,
  taskLabel,
} from "@/components/hub/hub-format";
import { MarkdownBody } from "@/components/hub/markdown-body";
import { MetricList } from "@/components/hub/metric-list";
import { ModelActions } from "@/components/hub/model-actions";
import { FilesSection, ForkTree, ReviewsSection, VersionsSection } from "@/components/hub/model-sections";
import { OwnerTools } from "@/components/hub/owner-tools";
import { ReviewForm } from "@/components/hub/review-form";
import { SamplePredictions } from "@/components/hub/sample-predictions";
import { Badge } from "@/components/ui/badge";
import { cn } from "@/components/ui/cn";
import { PageHeader } from "@/components/ui/page-header";
import { serverApi } from "@/lib/api/server-client";
import { renderModelCard } from "@/lib/server/modules/hub/model-card";
import { LayerlineError } from "@/sdk/src/errors";

type Props = {
  params: Promise<{ id: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
};

const TABS = ["card", "files", "versions", "reviews"] as const;
type Tab = (typeof TABS)[number];

/** The model (or null when it does not exist or the visitor may not see it), once per request. */
const loadModel = cache(async (id: string) => {
  const api = await serverApi();
  try {
    const [model, session] = await Promise.all([
      api.GET("/api/v1/hub/models/{model_id}", { params: { path: { model_id: id } } }),
      api.GET("/api/auth/session"),
    ]);
    return model.data ? { model: model.data, viewer: session.data?.user ?? null } : null;
  } catch (err) {
    if (err instanceof LayerlineError && err.status === 404) return null;
    throw err;
  }
});

async function loadLists(id: string) {
  const api = await serverApi();
  const path = { model_id: id };
  const [files, versions, reviews] = await Promise.all([
    api.GET("/api/v1/hub/models/{model_id}/files", { params: { path, query: { limit: 100 } } }),
    api.GET("/api/v1/hub/models/{model_id}/versions", { params: { path, query: { limit: 50 } } }),
    api.GET("/api/v1/hub/models/{model_id}/reviews", { params: { path, query: { limit: 50 } } }),
  ]);
  return {
    files: files.data?.items ?? [],
    filesTotal: files.data?.total ?? 0,
    versions: versions.data?.items ?? [],
    reviews: reviews.data?.items ?? [],
    reviewsTotal: reviews.data?.total ?? 0,
  };
}

function TabLink({
  id,
  tab,
  current,
  children,
}: {
  id: string;
  tab: Tab;
  current: boolean;
  children: React.ReactNode;
}) {
  return (
    <Link
      href={tab === "card" ? modelHref(id) : `${modelHref(id)}?tab=${tab}`}
      aria-current={current ? "page" : undefined}
      scroll={false}
      className={cn(
        "-mb-px inline-flex h-10 items-center gap-1.5 border-b-2 px-3 text-sm font-medium whitespace-nowrap",
        current ? "border-accent text-fg" : "border-transparent text-muted hover:text-fg",
      )}
    >
      {children}
    </Link>
  );
}

function Count({ n }: { n: number }) {
  return <span className="rounded-full bg-panel-2 px-1.5 text-xs tabular-nums text-muted">{n}</span>;
}

function Detail({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div className="flex justify-between gap-3 py-1.5 text-sm">
      <dt className="text-muted">{label}</dt>
      <dd className="min-w-0 truncate text-right">{children}</dd>
    </div>
  );
}

/** /hub/{id}: a model's public page. */
export default async function HubModelPage({ params, searchParams }: Props) {
  const { id } = await params;
  const raw = (await searchParams).tab;
  const tab: Tab = TABS.includes(raw as Tab) ? (raw as Tab) : "card";
  const loaded = await loadModel(id);
  if (!loaded) notFound();
  const { architecture: _architecture, training_config: _config, card_html: _html, ...model } = loaded.model;
  const viewer = loaded.viewer;
  const lists = await loadLists(id);
  const isOwner = viewer?.id === model.owner.id;
  const reviewed = viewer ? lists.reviews.some((r) => r.user.username === viewer.username) : false;
  const chips = [
    model.task
      ? { label: taskLabel(model.task), href: searchHref({ task: model.task }), tone: "accent" as const }
      : null,
    model.framework
      ? { label: model.framework, href: searchHref({ framework: model.framework }), tone: "neutral" as const }
      : null,
    model.license
      ? {
          label: `License: ${model.license}`,
          href: searchHref({ license: model.license }),
          tone: "neutral" as const,
        }
      : null,
  ].filter((c) => c !== null);

  return (
    <article className="space-y-6">
      <PageHeader
        title={model.name}
        crumbs={[
          { href: "/hub", label: "Hub" },
          { href: `/u/${encodeURIComponent(model.owner.username)}`, label: model.owner.username },
        ]}
        badges={
          <>
            {model.visibility === "private" ? <Badge tone="warn">Private</Badge> : null}
            {model.state === "draft" ? <Badge>Draft</Badge> : null}
            {model.featured ? <Badge tone="ok">Featured</Badge> : null}
          </>
        }
        description={
          <>
            <p>
              by{" "}
              <Link
                href={`/u/${encodeURIComponent(model.owner.username)}`}
                className="font-medium text-fg hover:underline"
                data-testid="hub-owner-link"
              >
                {model.owner.username}
              </Link>
              {model.published_at ? ` · published ${formatDate(model.published_at)}` : ""} · updated{" "}
              {formatDate(model.updated_at)}
            </p>
            {model.description ? <p className="pt-1 text-fg">{model.description}</p> : null}
          </>
        }
        actions={
          <div className="flex items-center gap-4 text-sm text-muted tabular-nums">
            <span
              className="inline-flex items-center gap-1"
              title={`${model.stars} stars`}
              data-testid="hub-stars"
            >
              <Star aria-hidden className="h-4 w-4" /> {formatCount(model.stars)}
              <span className="sr-only">stars</span>
            </span>
            <span
              className="inline-flex items-center gap-1"
              title={`${model.downloads} downloads`}
              data-testid="hub-downloads"
            >
              <Download aria-hidden className="h-4 w-4" /> {formatCount(model.downloads)}
              <span className="sr-only">downloads</span>
            </span>
          </div>
        }
      >
        <ul aria-label="Task, framework, license and tags" className="flex flex-wrap gap-1.5">
          {chips.map((c) => (
            <li key={c.label}>
              <Link
                href={c.href}
                className={cn(
                  "inline-flex rounded-full px-2.5 py-0.5 text-xs font-medium hover:underline",
                  c.tone === "accent" ? "bg-accent-soft text-accent" : "bg-panel-2 text-fg",
                )}
              >
                {c.label}
              </Link>
            </li>
          ))}
          {model.tags.map((t) => (
            <li key={`tag-${t}`}>
              <Link
                href={searchHref({ tags: t })}
                className="inline-flex rounded-full border border-border px-2.5 py-0.5 text-xs text-muted hover:text-fg"
              >
                #{t}
              </Link>
            </li>
          ))}
        </ul>
        <div className="flex flex-wrap items-start justify-between gap-3">
          <ModelActions
            model={model}
            signedIn={viewer !== null}
            fineTunable={model.has_architecture && lists.files.some((f) => f.path === "weights.pt")}
          />
          {isOwner ? <OwnerTools model={model} /> : null}
        </div>
      </PageHeader>

      <div className="grid gap-8 lg:grid-cols-[1fr_17rem]">
        <div className="min-w-0">
          <nav aria-label="Model sections" className="mb-5 flex gap-1 overflow-x-auto border-b border-border">
            <TabLink id={id} tab="card" current={tab === "card"}>
              Model card
            </TabLink>
            <TabLink id={id} tab="files" current={tab === "files"}>
              Files <Count n={lists.filesTotal} />
            </TabLink>
            <TabLink id={id} tab="versions" current={tab === "versions"}>
              Versions <Count n={lists.versions.length} />
            </TabLink>
            <TabLink id={id} tab="reviews" current={tab === "reviews"}>
              Reviews <Count n={lists.reviewsTotal} />
            </TabLink>
          </nav>
          {tab === "card" ? (
            model.card.trim() ? (
              <section
                aria-label="Model card"
                data-testid="model-card"
                className="rounded-lg border border-border bg-panel px-6 py-5"
              >
                <MarkdownBody html={renderModelCard(model.card)} />
              </section>
            ) : (
              <p className="text-sm text-muted">This model has no card yet.</p>
            )
          ) : null}
          {tab === "files" ? <FilesSection modelId={model.id} files={lists.files} /> : null}
          {tab === "versions" ? <VersionsSection versions={lists.versions} /> : null}
          {tab === "reviews" ? (
            <ReviewsSection
              rating={model.rating}
              reviews={lists.reviews}
              total={lists.reviewsTotal}
              form={
                !viewer ? (
                  <p className="text-sm text-muted">
                    <Link
                      href={`/login?next=${encodeURIComponent(`${modelHref(id)}?tab=reviews`)}`}
                      className="text-accent hover:underline"
                    >
                      Sign in
                    </Link>{" "}
                    to review this model.
                  </p>
                ) : isOwner ? (
                  <p className="text-sm text-muted">
                    Reviews come from other users: you cannot review your own model.
                  </p>
                ) : reviewed ? (
                  <p className="text-sm text-muted">You have reviewed this model.</p>
                ) : model.state === "published" ? (
                  <ReviewForm modelId={model.id} />
                ) : null
              }
            />
          ) : null}
        </div>

        <aside className="space-y-6">
          {model.evaluation && Object.keys(model.evaluation.metrics).length > 0 ? (
            <section aria-labelledby="hub-eval" className="rounded-lg border border-border bg-panel p-4">
              <h2 id="hub-eval" className="mb-2 text-sm font-semibold">
                Evaluation
              </h2>
              <MetricList metrics={model.evaluation.metrics} max={8} testId="hub-evaluation" />
              {model.evaluation.dataset || model.evaluation.split ? (
                <p className="mt-2 text-xs text-muted">
                  {model.evaluation.split ? `${model.evaluation.split} split` : ""}
                  {model.evaluation.dataset ? ` of ${model.evaluation.dataset}` : ""}
                </p>
              ) : null}
              {model.evaluation.samples && model.evaluation.samples.length > 0 ? (
                <div className="mt-4 border-t border-border pt-3">
                  <SamplePredictions samples={model.evaluation.samples} />
                </div>
              ) : null}
            </section>
          ) : null}
          <section aria-labelledby="hub-lineage" className="rounded-lg border border-border bg-panel p-4">
            <h2 id="hub-lineage" className="mb-3 text-sm font-semibold">
              Fork tree
            </h2>
            <ForkTree model={model} />
          </section>
          <section aria-labelledby="hub-details" className="rounded-lg border border-border bg-panel p-4">
            <h2 id="hub-details" className="mb-1 text-sm font-semibold">
              Details
            </h2>
            <dl className="divide-y divide-border">
              <Detail label="Architecture">{model.has_architecture ? "Included" : "None"}</Detail>
              {model.rating.average !== null ? (
                <Detail label="Rating">
                  {model.rating.average.toFixed(1)} / 5 ({model.rating.count})
                </Detail>
              ) : null}
              <Detail label="Created">{formatDate(model.created_at)}</Detail>
              <Detail label="Id">
                <code className="font-mono text-xs" title={model.id}>
                  {model.id}
                </code>
              </Detail>
            </dl>
          </section>
        </aside>
      </div>
    </article>
  );
}

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const loaded = await loadModel((await params).id).catch(() => null);
  if (!loaded) return { title: "Model not found", robots: { index: false } };
  const { model } = loaded;
  const title = `${model.name} by ${model.owner.username}`;
  const description = shortText(
    model.description ||
      `${model.task ? taskLabel(model.task) : "A machine-learning"} model on the Layerline hub, by ${model.owner.username}.`,
  );
  const listed = model.visibility === "public" && model.state === "published";
  return {
    title,
    description,
    openGraph: { title, description, type: "website", siteName: "Layerline" },
    twitter: { card: "summary", title, description },
    ...(listed ? {} : { robots: { index: false } }),
  };
}
