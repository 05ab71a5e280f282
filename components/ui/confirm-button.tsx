"use client";

import { useState } from "react";
import { Button } from "./button";

/**
 * A destructive action that asks first, in place: the button turns into "<confirmLabel>" and
 * "Cancel". For table rows, where a dialog would be heavier than the action.
 */
export function ConfirmButton({
  label,
  confirmLabel,
  pending,
  onConfirm,
}: {
  label: string;
  confirmLabel: string;
  pending: boolean;
  onConfirm: () => void;
}) {
  const [confirming, setConfirming] = useState(false);
  if (!confirming)
    return (
      <Button variant="secondary" size="sm" onClick={() => setConfirming(true)}>
        {label}
      </Button>
    );
  return (
    <span className="inline-flex gap-1">
      <Button variant="danger" size="sm" disabled={pending} onClick={onConfirm}>
        {confirmLabel}
      </Button>
      <Button variant="ghost" size="sm" onClick={() => setConfirming(false)}>
        Cancel
      </Button>
    </span>
  );
}
