"use client";

import { Check, CircleAlert, Loader2 } from "lucide-react";
import type { SaveStatus } from "./use-autosave";

export function SaveStatusText({ status, onRetry }: { status: SaveStatus; onRetry: () => void }) {
  return (
    <span
      role="status"
      aria-live="polite"
      className="inline-flex items-center gap-1.5 text-xs text-muted"
      data-testid="save-status"
    >
      {status === "saved" ? (
        <>
          <Check aria-hidden className="h-3.5 w-3.5 text-ok" /> All changes saved
        </>
      ) : status === "saving" ? (
        <>
          <Loader2 aria-hidden className="h-3.5 w-3.5 animate-spin" /> Saving…
        </>
      ) : status === "dirty" ? (
        <>Unsaved changes</>
      ) : (
        <>
          <CircleAlert aria-hidden className="h-3.5 w-3.5 text-danger" />
          <span className="text-danger">Couldn&apos;t save.</span>
          <button type="button" onClick={onRetry} className="font-medium text-accent underline">
            Retry
          </button>
        </>
      )}
    </span>
  );
}
