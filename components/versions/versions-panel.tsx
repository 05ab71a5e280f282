"use client";

import { useQueryClient } from "@tanstack/react-query";
import { GitCompareArrows, History, RotateCcw, Trash2 } from "lucide-react";
import Link from "next/link";
import { useState } from "react";
import { Alert } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { Button, buttonClass } from "@/components/ui/button";
import { cn } from "@/components/ui/cn";
import { Modal } from "@/components/ui/modal";
import { $api, type Schemas } from "@/lib/api/client";
import { projectKeys } from "@/lib/api/projects/keys";
import { useProjectVersionPages } from "@/lib/api/projects/queries";
import { formatRelativeTime } from "@/lib/editor/format";
import { LayerlineError } from "@/sdk/src/errors";

type Version = Schemas["ProjectVersionSummary"];

/** Versions fetched at a time; older ones come with "Show older versions". */
const PAGE_SIZE = 50;

/** The project's history: pick two versions to compare, restore one (after confirming) or delete one. */
export function VersionsPanel({
  projectId,
  onRestore,
  restoring,
  restoreError,
  onSaveVersion,
}: {
  projectId: string;
  onRestore: (versionId: string) => Promise<unknown>;
  restoring: boolean;
  restoreError: unknown;
  onSaveVersion: () => void;
}) {
  const versions = useProjectVersionPages(projectId, PAGE_SIZE);
  const [picked, setPicked] = useState<string[]>([]);
  const [confirm, setConfirm] = useState<Version | null>(null);
  const [deleting, setDeleting] = useState<string | null>(null);
  const queryClient = useQueryClient();
  const remove = $api.useMutation("delete", "/api/v1/projects/{project_id}/versions/{version_id}", {
    onSuccess: (_, { params }) => {
      setDeleting(null);
      setPicked((p) => p.filter((id) => id !== params.path.version_id));
      return Promise.all([
        queryClient.invalidateQueries({ queryKey: projectKeys.versions }),
        queryClient.invalidateQueries({ queryKey: projectKeys.list }),
      ]);
    },
  });
  const items = versions.data?.pages.flatMap((p) => p.items) ?? [];
  const total = versions.data?.pages[0]?.total ?? 0;

  const toggle = (id: string) =>
    setPicked((p) => (p.includes(id) ? p.filter((x) => x !== id) : [...p, id].slice(-2)));
  const pair = items.filter((v) => picked.includes(v.id)).sort((a, b) => a.number - b.number);
  const compareHref =
    pair.length === 2 ? `/projects/${projectId}/compare?from=${pair[0].id}&to=${pair[1].id}` : null;
  const error =
    restoreError instanceof LayerlineError
      ? restoreError
      : remove.error instanceof LayerlineError
        ? remove.error
        : null;

  return (
    <div className="space-y-4">
      <div>
        <h2 className="text-base font-semibold">Versions</h2>
        <p className="text-xs text-muted">
          Pick two versions to compare them, restore an earlier one, or delete one you no longer need.
        </p>
      </div>
      {compareHref ? (
        <Link href={compareHref} className={buttonClass("primary", "sm", "w-full")}>
          <GitCompareArrows aria-hidden className="h-4 w-4" /> Compare v{pair[0].number} and v{pair[1].number}
        </Link>
      ) : (
        <Button size="sm" variant="secondary" className="w-full" disabled>
          <GitCompareArrows aria-hidden className="h-4 w-4" /> Select two versions to compare
        </Button>
      )}
      {error ? <Alert>{error.message}</Alert> : null}

      {versions.isPending ? (
        <p className="text-sm text-muted">Loading…</p>
      ) : items.length === 0 ? (
        <div className="rounded-lg border border-dashed border-border px-4 py-6 text-center">
          <History aria-hidden className="mx-auto mb-2 h-5 w-5 text-muted" />
          <p className="text-sm font-medium">No versions yet</p>
          <p className="mt-1 text-xs text-muted">
            Your work is autosaved. Save a version to mark a milestone you can compare and come back to.
          </p>
          <Button size="sm" className="mt-3" onClick={onSaveVersion}>
            Save version
          </Button>
        </div>
      ) : (
        <ol className="space-y-2" aria-label="Version history">
          {items.map((v) => {
            const checked = picked.includes(v.id);
            return (
              <li
                key={v.id}
                data-testid="version-row"
                className={cn(
                  "rounded-lg border px-3 py-2.5",
                  checked ? "border-accent bg-accent-soft/40" : "border-border bg-panel",
                )}
              >
                <div className="flex items-start gap-2.5">
                  <input
                    type="checkbox"
                    className="mt-1 h-4 w-4 accent-[var(--accent)]"
                    checked={checked}
                    onChange={() => toggle(v.id)}
                    aria-label={`Select version ${v.number} for comparison`}
                  />
                  <div className="min-w-0 flex-1">
                    <div className="flex items-center gap-2">
                      <span className="font-mono text-xs font-semibold">v{v.number}</span>
                      {v.is_current ? <Badge tone="accent">Current</Badge> : null}
                      <span
                        className="ml-auto shrink-0 text-xs text-muted"
                        title={new Date(v.created_at).toLocaleString()}
                      >
                        {formatRelativeTime(v.created_at)}
                      </span>
                    </div>
                    <p className={cn("mt-0.5 text-sm break-words", !v.message && "text-muted italic")}>
                      {v.message || "No message"}
                    </p>
                    <div className="mt-1 flex items-center justify-between gap-2">
                      <span className="min-w-0 text-xs text-muted">
                        {v.node_count} layers · {v.edge_count} connections
                      </span>
                      {deleting === v.id ? (
                        <span className="inline-flex shrink-0 items-center gap-1">
                          <button
                            type="button"
                            disabled={remove.isPending}
                            onClick={() =>
                              remove.mutate({ params: { path: { project_id: projectId, version_id: v.id } } })
                            }
                            aria-label={`Delete v${v.number}`}
                            className="whitespace-nowrap rounded bg-danger px-1.5 py-0.5 text-xs font-medium text-white hover:opacity-90 disabled:opacity-50 dark:text-bg"
                          >
                            {remove.isPending ? "Deleting…" : "Delete"}
                          </button>
                          <button
                            type="button"
                            onClick={() => setDeleting(null)}
                            className="rounded px-1.5 py-0.5 text-xs font-medium text-muted hover:bg-panel-2"
                          >
                            Cancel
                          </button>
                        </span>
                      ) : (
                        <span className="inline-flex shrink-0 items-center">
                          <button
                            type="button"
                            onClick={() => setConfirm(v)}
                            className="inline-flex items-center gap-1 rounded px-1.5 py-0.5 text-xs font-medium text-accent hover:bg-accent-soft"
                            aria-label={`Restore version ${v.number}`}
                          >
                            <RotateCcw aria-hidden className="h-3 w-3" /> Restore
                          </button>
                          <button
                            type="button"
                            onClick={() => setDeleting(v.id)}
                            title={`Delete version ${v.number}`}
                            className="inline-flex h-6 w-6 items-center justify-center rounded text-muted hover:bg-danger-soft hover:text-danger"
                            aria-label={`Delete version ${v.number}`}
                          >
                            <Trash2 aria-hidden className="h-3 w-3" />
                          </button>
                        </span>
                      )}
                    </div>
                  </div>
                </div>
              </li>
            );
          })}
          {versions.hasNextPage ? (
            <li>
              <Button
                size="sm"
                variant="secondary"
                className="w-full"
                disabled={versions.isFetchingNextPage}
                onClick={() => versions.fetchNextPage()}
              >
                {versions.isFetchingNextPage
                  ? "Loading…"
                  : `Show older versions (${(total - items.length).toLocaleString("en-US")} more)`}
              </Button>
            </li>
          ) : null}
        </ol>
      )}

      <Modal
        open={confirm !== null}
        onClose={() => setConfirm(null)}
        size="sm"
        title={confirm ? `Restore version ${confirm.number}?` : "Restore version"}
        description="The canvas and training configuration are replaced with this version. The restore is recorded as a new version, so nothing is lost, and Undo brings your current diagram back."
        footer={
          <>
            <Button variant="ghost" onClick={() => setConfirm(null)}>
              Cancel
            </Button>
            <Button
              disabled={restoring}
              onClick={async () => {
                if (!confirm) return;
                try {
                  await onRestore(confirm.id);
                  setPicked([]);
                } finally {
                  setConfirm(null);
                }
              }}
            >
              {restoring ? "Restoring…" : confirm ? `Restore version ${confirm.number}` : "Restore"}
            </Button>
          </>
        }
      />
    </div>
  );
}
