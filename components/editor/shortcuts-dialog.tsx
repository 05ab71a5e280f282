"use client";

import { Fragment } from "react";
import { Modal } from "@/components/ui/modal";
import { SHORTCUTS } from "./use-editor-shortcuts";

export function ShortcutsDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  return (
    <Modal open={open} onClose={onClose} title="Keyboard shortcuts" size="sm">
      <dl className="grid grid-cols-[auto_1fr] items-center gap-x-6 gap-y-2.5 text-sm">
        {SHORTCUTS.map((s) => (
          <Fragment key={`${s.keys.join("+")}-${s.action}`}>
            <dt className="flex items-center gap-1">
              {s.keys.map((k, i) => (
                <Fragment key={k}>
                  {i > 0 ? <span className="text-xs text-muted">+</span> : null}
                  <kbd className="rounded border border-border bg-panel-2 px-1.5 py-0.5 font-mono text-xs">
                    {k}
                  </kbd>
                </Fragment>
              ))}
            </dt>
            <dd className="text-muted">{s.action}</dd>
          </Fragment>
        ))}
      </dl>
      <p className="mt-4 text-xs text-muted">
        Connect layers by dragging from a layer&apos;s bottom handle to another layer&apos;s top handle.
        Dropping onto a port that is already connected replaces that connection.
      </p>
    </Modal>
  );
}
