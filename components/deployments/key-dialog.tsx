"use client";

import { KeyRound } from "lucide-react";
import Link from "next/link";
import { Alert } from "@/components/ui/alert";
import { Button, buttonClass } from "@/components/ui/button";
import { CopyButton } from "@/components/ui/copy-button";
import { Modal } from "@/components/ui/modal";

/**
 * A deployment key, shown once (after creation or rotation) with a copy button. The console link
 * is offered when the dialog opens from elsewhere (the job page).
 */
export function KeyDialog({
  apiKey,
  title,
  description,
  consoleHref,
  onClose,
}: {
  apiKey: string | null;
  title: string;
  description: string;
  consoleHref?: string;
  onClose: () => void;
}) {
  return (
    <Modal
      open={apiKey !== null}
      onClose={onClose}
      title={title}
      description={description}
      footer={
        consoleHref ? (
          <>
            <Button variant="secondary" onClick={onClose}>
              Close
            </Button>
            <Link href={consoleHref} className={buttonClass("primary")}>
              Open the console
            </Link>
          </>
        ) : (
          <Button onClick={onClose}>Done</Button>
        )
      }
    >
      <div className="space-y-4">
        <div className="flex items-center gap-2 rounded-md border border-border bg-panel-2/60 p-2 pl-3">
          <KeyRound aria-hidden className="h-4 w-4 shrink-0 text-muted" />
          <code className="min-w-0 flex-1 break-all font-mono text-sm" data-testid="deployment-key">
            {apiKey}
          </code>
          <CopyButton value={apiKey ?? ""} label="Copy key" />
        </div>
        <Alert tone="warn">
          Copy it now: you won't see it again. Keep it secret; anyone with it can call this deployment. If it
          is lost, rotate the key.
        </Alert>
        <p className="text-sm text-muted">
          Send it as <code className="font-mono text-xs">Authorization: Bearer …</code>. The snippets in the
          console read it from <code className="font-mono text-xs">$LAYERLINE_DEPLOYMENT_KEY</code>.
        </p>
      </div>
    </Modal>
  );
}
