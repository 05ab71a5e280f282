import { Download, Star } from "lucide-react";
import Link from "next/link";
import { Badge } from "@/components/ui/badge";
import { formatCount, type HubModelSummary, modelHref, shortText, taskLabel } from "./hub-format";

/** A hub model in a listing: name, owner, task, stars, downloads and the start of its description. */
export function ModelSummaryCard({ model }: { model: HubModelSummary }) {
  return (
    <li
      data-testid="hub-model-card"
      data-model-id={model.id}
      className="relative flex flex-col gap-2 rounded-lg border border-border bg-panel p-4 shadow-sm transition hover:border-accent/60"
    >
      <div className="flex min-w-0 items-baseline justify-between gap-3">
        <h3 className="min-w-0 truncate text-sm font-semibold">
          {/* The whole card is the link's hit area; the owner link sits above it. */}
          <Link href={modelHref(model.id)} className="after:absolute after:inset-0 hover:text-accent">
            {model.name}
          </Link>
        </h3>
        {model.visibility === "private" ? <Badge tone="warn">Private</Badge> : null}
        {model.state === "draft" ? <Badge>Draft</Badge> : null}
      </div>
      <p className="text-xs text-muted">
        by{" "}
        <Link
          href={`/u/${encodeURIComponent(model.owner.username)}`}
          className="relative z-10 hover:text-fg hover:underline"
        >
          {model.owner.username}
        </Link>
      </p>
      {model.description ? (
        <p className="line-clamp-2 text-sm text-muted">{shortText(model.description)}</p>
      ) : null}
      <div className="mt-auto flex flex-wrap items-center gap-x-3 gap-y-1 pt-1 text-xs text-muted">
        {model.task ? <Badge tone="accent">{taskLabel(model.task)}</Badge> : null}
        {model.framework ? <span>{model.framework}</span> : null}
        <span className="ml-auto inline-flex items-center gap-3 tabular-nums">
          <span className="inline-flex items-center gap-1" title={`${model.stars} stars`}>
            <Star aria-hidden className="h-3.5 w-3.5" />
            <span className="sr-only">Stars: </span>
            {formatCount(model.stars)}
          </span>
          <span className="inline-flex items-center gap-1" title={`${model.downloads} downloads`}>
            <Download aria-hidden className="h-3.5 w-3.5" />
            <span className="sr-only">Downloads: </span>
            {formatCount(model.downloads)}
          </span>
        </span>
      </div>
    </li>
  );
}

/** A grid of model cards. */
export function ModelGrid({ models, label }: { models: HubModelSummary[]; label: string }) {
  return (
    <ul aria-label={label} className="grid gap-3 sm:grid-cols-2 lg:grid-cols-3">
      {models.map((m) => (
        <ModelSummaryCard key={m.id} model={m} />
      ))}
    </ul>
  );
}
