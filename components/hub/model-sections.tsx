import { ArrowDown, GitFork } from "lucide-react";
import Link from "next/link";
import type { ReactNode } from "react";
import { cn } from "@/components/ui/cn";
import { DownloadFileButton } from "./download-buttons";
import {
  formatBytes,
  formatDate,
  type HubFile,
  type HubModel,
  type HubReview,
  type HubVersion,
  modelHref,
} from "./hub-format";
import { MetricList } from "./metric-list";
import { RatingStars } from "./rating-stars";

function UserLink({ username }: { username: string }) {
  return (
    <Link href={`/u/${encodeURIComponent(username)}`} className="font-medium hover:underline">
      {username}
    </Link>
  );
}

/** The model's files, each downloadable through a signed link (the header's button gets them all as a ZIP). */
export function FilesSection({ modelId, files }: { modelId: string; files: HubFile[] }) {
  const total = files.reduce((s, f) => s + f.size_bytes, 0);
  if (files.length === 0) return <p className="text-sm text-muted">This model has no files yet.</p>;
  return (
    <div className="space-y-3">
      <p className="text-sm text-muted">
        {files.length} file{files.length === 1 ? "" : "s"} · {formatBytes(total)} · “Download all” above gets
        them as one ZIP
      </p>
      <div className="overflow-x-auto rounded-lg border border-border">
        <table className="w-full text-sm" aria-label="Files">
          <thead className="bg-panel-2 text-left text-xs text-muted">
            <tr>
              <th scope="col" className="px-3 py-2 font-medium">
                Path
              </th>
              <th scope="col" className="px-3 py-2 text-right font-medium">
                Size
              </th>
              <th scope="col" className="px-3 py-2 font-medium">
                SHA-256
              </th>
              <th scope="col" className="px-3 py-2">
                <span className="sr-only">Download</span>
              </th>
            </tr>
          </thead>
          <tbody className="divide-y divide-border">
            {files.map((f) => (
              <tr key={f.id} data-testid="hub-file-row" className="bg-panel">
                <td className="px-3 py-2 font-mono text-xs break-all">{f.path}</td>
                <td className="px-3 py-2 text-right whitespace-nowrap tabular-nums">
                  {formatBytes(f.size_bytes)}
                </td>
                <td className="px-3 py-2">
                  <code className="font-mono text-xs text-muted" title={f.sha256}>
                    {f.sha256.slice(0, 12)}…
                  </code>
                </td>
                <td className="px-3 py-2 text-right">
                  <DownloadFileButton modelId={modelId} fileId={f.id} path={f.path} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}

/** Versions, newest first: each a snapshot of the files. */
export function VersionsSection({ versions }: { versions: HubVersion[] }) {
  if (versions.length === 0)
    return (
      <p className="text-sm text-muted">
        No version has been recorded yet: one is recorded when a model is published.
      </p>
    );
  return (
    <ol aria-label="Versions" className="divide-y divide-border rounded-lg border border-border bg-panel">
      {versions.map((v) => {
        const size = v.files.reduce((s, f) => s + f.size_bytes, 0);
        return (
          <li key={v.id} className="space-y-1 px-4 py-3" data-testid="hub-version-row">
            <div className="flex flex-wrap items-baseline justify-between gap-2">
              <span className="font-mono text-sm font-semibold">v{v.version}</span>
              <span className="text-xs text-muted">
                <time dateTime={v.created_at}>{formatDate(v.created_at)}</time> · {v.files.length} file
                {v.files.length === 1 ? "" : "s"} · {formatBytes(size)}
              </span>
            </div>
            {v.notes ? <p className="text-sm text-muted whitespace-pre-line">{v.notes}</p> : null}
            <p className="font-mono text-xs text-muted break-all">{v.files.map((f) => f.path).join(" · ")}</p>
          </li>
        );
      })}
    </ol>
  );
}

/** Reviews, newest first, each with its stars and the figures of the evaluation it cites. */
export function ReviewsSection({
  rating,
  reviews,
  total,
  form,
}: {
  rating: HubModel["rating"];
  reviews: HubReview[];
  total: number;
  form: ReactNode;
}) {
  return (
    <div className="space-y-4">
      <div className="flex items-center gap-3" data-testid="hub-rating">
        {rating.average !== null ? (
          <>
            <RatingStars rating={rating.average} />
            <span className="text-sm">
              <span className="font-semibold tabular-nums">{rating.average.toFixed(1)}</span>
              <span className="text-muted">
                {" "}
                from {rating.count} review{rating.count === 1 ? "" : "s"}
              </span>
            </span>
          </>
        ) : (
          <span className="text-sm text-muted">No reviews yet.</span>
        )}
      </div>
      {form}
      {reviews.length > 0 ? (
        <ul aria-label="Reviews" className="space-y-3">
          {reviews.map((r) => (
            <li
              key={r.id}
              data-testid="hub-review"
              className="rounded-lg border border-border bg-panel px-4 py-3"
            >
              <div className="flex flex-wrap items-center justify-between gap-2">
                <span className="flex items-center gap-2 text-sm">
                  <RatingStars rating={r.rating} />
                  <UserLink username={r.user.username} />
                </span>
                <time dateTime={r.created_at} className="text-xs text-muted">
                  {formatDate(r.created_at)}
                </time>
              </div>
              {r.text ? <p className="mt-2 text-sm whitespace-pre-line">{r.text}</p> : null}
              {r.evaluation ? (
                <div className="mt-3 rounded-md border border-border bg-bg px-3 py-2">
                  <p className="mb-1 text-xs text-muted">
                    Measured by the reviewer · evaluation <code className="font-mono">{r.evaluation.id}</code>
                  </p>
                  <MetricList metrics={r.evaluation.metrics} max={6} />
                </div>
              ) : null}
            </li>
          ))}
        </ul>
      ) : null}
      {total > reviews.length ? (
        <p className="text-xs text-muted">
          Showing the {reviews.length} most recent of {total} reviews.
        </p>
      ) : null}
    </div>
  );
}

function TreeNode({
  model,
  current,
}: {
  model: { id: string; name: string; owner: { username: string } };
  current?: boolean;
}) {
  const body = (
    <>
      <span className="truncate font-medium">{model.name}</span>
      <span className="truncate text-xs text-muted">{model.owner.username}</span>
    </>
  );
  const cls = cn(
    "flex min-w-0 flex-col rounded-md border px-3 py-1.5 text-sm",
    current ? "border-accent bg-accent-soft" : "border-border bg-panel hover:bg-panel-2",
  );
  return current ? (
    <div className={cls} aria-current="page">
      {body}
    </div>
  ) : (
    <Link href={modelHref(model.id)} className={cls}>
      {body}
    </Link>
  );
}

/** Where the model comes from (base model, then ancestors, oldest first) and the forks made of it. */
export function ForkTree({ model }: { model: HubModel }) {
  const ancestors = [...model.fork_tree.ancestors].reverse();
  const root = ancestors[0] ?? model;
  const forks = model.fork_tree.children;
  const arrow = <ArrowDown aria-hidden className="mx-auto h-3.5 w-3.5 text-muted" />;
  return (
    <nav aria-label="Fork tree" className="space-y-1.5" data-testid="fork-tree">
      {root.base_model ? (
        <>
          <div className="rounded-md border border-dashed border-border px-3 py-1.5 text-xs text-muted">
            Base model <span className="font-mono text-fg">{root.base_model}</span>
          </div>
          {arrow}
        </>
      ) : null}
      {ancestors.map((a) => (
        <div key={a.id} className="space-y-1.5">
          <TreeNode model={a} />
          {arrow}
        </div>
      ))}
      <TreeNode model={model} current />
      {forks.length > 0 ? (
        <ul aria-label="Forks" className="ml-3 space-y-1.5 border-l border-border pt-1.5 pl-3">
          {forks.map((f) => (
            <li key={f.id} className="flex items-center gap-1.5">
              <GitFork aria-hidden className="h-3.5 w-3.5 shrink-0 text-muted" />
              <TreeNode model={f} />
            </li>
          ))}
        </ul>
      ) : (
        <p className="pt-1 text-xs text-muted">No forks yet.</p>
      )}
    </nav>
  );
}
