"use client";

import { Share2 } from "lucide-react";
import { useState } from "react";
import { ProblemAlert } from "@/components/deployments/problem-alert";
import { Button } from "@/components/ui/button";
import { CopyButton } from "@/components/ui/copy-button";
import { Modal } from "@/components/ui/modal";
import { $api } from "@/lib/api/client";

/** Creates a share link (the token is shown once) and offers to copy it. */
export function ShareAuditButton({ auditId }: { auditId: string }) {
  const [open, setOpen] = useState(false);
  const share = $api.useMutation("post", "/api/v1/audits/{audit_id}/share");
  const url = share.data ? `${window.location.origin}/audits/shared/${share.data.token}` : null;
  return (
    <>
      <Button
        variant="secondary"
        size="sm"
        onClick={() => {
          setOpen(true);
          share.mutate({ params: { path: { audit_id: auditId } } });
        }}
      >
        <Share2 aria-hidden className="h-4 w-4" /> Share
      </Button>
      <Modal
        open={open}
        onClose={() => setOpen(false)}
        title="Share this report"
        description="Anyone with the link can read the report: no keys, run ids or datasets, and the calls' inputs only if you published them. A new link replaces the previous one."
        size="md"
        footer={
          <Button variant="secondary" onClick={() => setOpen(false)}>
            Done
          </Button>
        }
      >
        {share.isPending ? <p className="text-sm text-muted">Creating a link…</p> : null}
        {share.isError ? <ProblemAlert error={share.error} /> : null}
        {url ? (
          <div className="flex items-center gap-2">
            <input
              readOnly
              value={url}
              aria-label="Share link"
              data-testid="share-url"
              className="h-8 min-w-0 flex-1 rounded-md border border-border bg-panel-2 px-2 font-mono text-xs"
              onFocus={(e) => e.currentTarget.select()}
            />
            <CopyButton value={url} label="Copy link" />
          </div>
        ) : null}
      </Modal>
    </>
  );
}
