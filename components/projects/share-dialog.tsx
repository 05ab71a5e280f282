"use client";

import { useQueryClient } from "@tanstack/react-query";
import { ExternalLink, Link2 } from "lucide-react";
import { useState } from "react";
import { Alert } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { ConfirmButton } from "@/components/ui/confirm-button";
import { CopyButton } from "@/components/ui/copy-button";
import { inputClass } from "@/components/ui/field";
import { Modal } from "@/components/ui/modal";
import { $api, type Schemas } from "@/lib/api/client";
import { projectKeys } from "@/lib/api/projects/keys";
import { useProjectShares } from "@/lib/api/projects/queries";
import { formatRelativeTime } from "@/lib/editor/format";
import { LayerlineError } from "@/sdk/src/errors";
import { ProfileVisibility } from "./profile-visibility";

function ShareRow({ projectId, share }: { projectId: string; share: Schemas["ProjectShare"] }) {
  const queryClient = useQueryClient();
  const revoke = $api.useMutation("delete", "/api/v1/projects/{project_id}/shares/{share_id}", {
    onSuccess: () => queryClient.invalidateQueries({ queryKey: projectKeys.shares }),
  });
  return (
    <tr className="border-t border-border" data-testid="share-row">
      <td className="py-2">{formatRelativeTime(share.created_at)}</td>
      <td className="py-2 tabular-nums">{share.access_count}</td>
      <td className="py-2 text-muted">
        {share.last_accessed_at ? formatRelativeTime(share.last_accessed_at) : "Never"}
      </td>
      <td className="py-2">{share.active ? <Badge tone="ok">Active</Badge> : <Badge>Revoked</Badge>}</td>
      <td className="py-2 text-right">
        {share.active ? (
          <ConfirmButton
            label="Revoke"
            confirmLabel="Revoke link"
            pending={revoke.isPending}
            onConfirm={() =>
              revoke.mutate({ params: { path: { project_id: projectId, share_id: share.id } } })
            }
          />
        ) : null}
      </td>
    </tr>
  );
}

/** Share links: create one (its address is shown once), see how often each was opened, revoke. */
export function ShareDialog({
  projectId,
  open,
  onClose,
}: {
  projectId: string;
  open: boolean;
  onClose: () => void;
}) {
  const queryClient = useQueryClient();
  const [created, setCreated] = useState<Schemas["CreatedProjectShare"] | null>(null);
  const shares = useProjectShares(projectId, { enabled: open });
  const create = $api.useMutation("post", "/api/v1/projects/{project_id}/share", {
    onSuccess: (share) => {
      setCreated(share);
      queryClient.invalidateQueries({ queryKey: projectKeys.shares });
    },
  });
  const close = () => {
    setCreated(null);
    onClose();
  };
  const url = created && typeof window !== "undefined" ? `${window.location.origin}${created.url}` : "";
  const error = create.error instanceof LayerlineError ? create.error : null;
  const items = shares.data?.items ?? [];

  return (
    <Modal
      open={open}
      onClose={close}
      size="lg"
      title="Share this project"
      description="Anyone with a link can view the diagram without signing in, and import a copy into their own account. Links work until you revoke them."
    >
      <div className="space-y-5">
        <ProfileVisibility projectId={projectId} enabled={open} />
        {created ? (
          <div className="space-y-2 rounded-lg border border-ok/40 bg-ok-soft p-3">
            <p className="text-sm font-medium text-ok">Link created. Copy it now: it is shown only once.</p>
            <div className="flex items-center gap-2">
              <input
                aria-label="Share link"
                readOnly
                value={url}
                data-testid="share-url"
                className={`${inputClass} font-mono text-xs`}
                onFocus={(e) => e.currentTarget.select()}
              />
              <CopyButton value={url} />
              <a
                href={created.url}
                target="_blank"
                rel="noreferrer"
                className="inline-flex h-8 w-8 shrink-0 items-center justify-center rounded-md text-muted hover:bg-panel hover:text-fg"
                aria-label="Open the shared page in a new tab"
                title="Open"
              >
                <ExternalLink aria-hidden className="h-4 w-4" />
              </a>
            </div>
          </div>
        ) : (
          <Button
            onClick={() => create.mutate({ params: { path: { project_id: projectId } } })}
            disabled={create.isPending}
          >
            <Link2 aria-hidden className="h-4 w-4" /> {create.isPending ? "Creating…" : "Create link"}
          </Button>
        )}
        {error ? <Alert>{error.message}</Alert> : null}

        <div>
          <h3 className="mb-2 text-sm font-semibold">Links</h3>
          {shares.isPending ? (
            <p className="text-sm text-muted">Loading…</p>
          ) : items.length === 0 ? (
            <p className="rounded-md border border-dashed border-border px-4 py-5 text-center text-sm text-muted">
              No links yet. Create one to show this architecture to someone.
            </p>
          ) : (
            <table className="w-full text-sm">
              <caption className="sr-only">Share links of this project</caption>
              <thead>
                <tr className="text-left text-xs text-muted">
                  <th className="py-1.5 font-medium">Created</th>
                  <th className="py-1.5 font-medium">Views</th>
                  <th className="py-1.5 font-medium">Last opened</th>
                  <th className="py-1.5 font-medium">Status</th>
                  <th className="py-1.5">
                    <span className="sr-only">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {items.map((s) => (
                  <ShareRow key={s.id} projectId={projectId} share={s} />
                ))}
              </tbody>
            </table>
          )}
        </div>
      </div>
    </Modal>
  );
}
