"use client";

import { X } from "lucide-react";
import { PHONE_QUERY, useMediaQuery } from "@/components/ui/use-media-query";
import { layerCatalog } from "@/lib/ml";
import { useEditorStore } from "./editor-store-context";
import { Inspector } from "./inspector";

/**
 * On a phone (below the `md` breakpoint) the side panel folds away so the diagram fills the screen;
 * tapping one layer opens its parameters in a sheet over the bottom of the canvas. Close (or tapping
 * the empty canvas) deselects it.
 */
export function PhoneInspector() {
  // Selectors return plain values (a new object each time would re-render for ever).
  const selectedId = useEditorStore((s) => {
    let id: string | null = null;
    for (const n of s.nodes) if (n.selected) id = id === null ? n.id : "";
    return id || null;
  });
  const layerType = useEditorStore((s) =>
    selectedId ? s.nodes.find((n) => n.id === selectedId)?.data.layerType : undefined,
  );
  const selected = selectedId && layerType ? { id: selectedId, label: layerCatalog[layerType].label } : null;
  const selectAll = useEditorStore((s) => s.selectAll);
  // Rendered on phones only: wider screens have the side panel's form (one form per page).
  const phone = useMediaQuery(PHONE_QUERY);
  if (!phone || !selected) return null;
  return (
    <div
      role="dialog"
      aria-label={`${selected.label} parameters`}
      className="absolute inset-x-0 bottom-0 z-20 flex max-h-[60%] flex-col rounded-t-xl border-t border-border bg-panel shadow-2xl"
    >
      <div className="flex shrink-0 items-center justify-between border-b border-border px-4 py-2">
        <span aria-hidden className="mx-auto h-1 w-10 rounded-full bg-border" />
        <button
          type="button"
          onClick={() => selectAll(false)}
          aria-label="Close"
          className="absolute right-2 inline-flex h-8 w-8 items-center justify-center rounded-md text-muted hover:bg-panel-2 hover:text-fg"
        >
          <X aria-hidden className="h-4 w-4" />
        </button>
      </div>
      <div className="min-h-0 flex-1 overflow-y-auto p-4">
        <Inspector />
      </div>
    </div>
  );
}
