"use client";

import { Trash2 } from "lucide-react";
import { type FormEvent, type ReactNode, useId, useState } from "react";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { Modal } from "@/components/ui/modal";

/**
 * A Delete button whose dialog asks for the resource's name to be typed before the delete button
 * enables (for deletes that cannot be undone and take other things with them).
 */
export function TypedConfirmDelete({
  name,
  title,
  description,
  confirmLabel,
  pending,
  error,
  onOpen,
  onConfirm,
}: {
  /** What must be typed. */
  name: string;
  title: string;
  description: string;
  confirmLabel: string;
  pending: boolean;
  /** The failed delete's explanation, shown in the dialog. */
  error?: ReactNode;
  /** Called when the dialog opens (reset a previous attempt). */
  onOpen?: () => void;
  onConfirm: () => void;
}) {
  const formId = useId();
  const [open, setOpen] = useState(false);
  const [typed, setTyped] = useState("");
  const matches = typed === name;
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (matches) onConfirm();
  };
  return (
    <>
      <Button
        variant="secondary"
        size="sm"
        onClick={() => {
          setTyped("");
          onOpen?.();
          setOpen(true);
        }}
      >
        <Trash2 aria-hidden className="h-4 w-4" /> Delete
      </Button>
      <Modal
        open={open}
        onClose={() => setOpen(false)}
        title={title}
        description={description}
        size="sm"
        footer={
          <>
            <Button variant="secondary" onClick={() => setOpen(false)}>
              Cancel
            </Button>
            <Button variant="danger" type="submit" form={formId} disabled={!matches || pending}>
              {pending ? "Deleting…" : confirmLabel}
            </Button>
          </>
        }
      >
        <form id={formId} onSubmit={submit} className="space-y-3">
          <Field
            label={`Type “${name}” to confirm`}
            value={typed}
            onChange={(e) => setTyped(e.target.value)}
            autoComplete="off"
            spellCheck={false}
            autoFocus
          />
          {error}
        </form>
      </Modal>
    </>
  );
}
