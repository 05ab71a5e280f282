"use client";

import { type ReactNode, useEffect, useId, useState } from "react";
import { cn } from "@/components/ui/cn";
import { useEditorStore } from "./editor-store-context";

type Tab = "layer" | "training" | "versions";
const TABS: { id: Tab; label: string }[] = [
  { id: "layer", label: "Layer" },
  { id: "training", label: "Training" },
  { id: "versions", label: "Versions" },
];

/** The right-hand panel: the selected layer's form, the training configuration, the version history. */
export function SidePanel({
  layer,
  training,
  versions,
}: {
  layer: ReactNode;
  training: ReactNode;
  versions: ReactNode;
}) {
  const [tab, setTab] = useState<Tab>("layer");
  const base = useId();
  // Selecting a node on the canvas brings its form forward.
  const selectedId = useEditorStore((s) => {
    let id: string | null = null;
    for (const n of s.nodes) if (n.selected) id = id === null ? n.id : "";
    return id || null;
  });
  useEffect(() => {
    if (selectedId) setTab("layer");
  }, [selectedId]);

  const content = { layer, training, versions }[tab];
  return (
    <aside
      aria-label="Properties"
      className="hidden w-80 shrink-0 md:flex flex-col border-l border-border bg-panel"
    >
      <div
        role="tablist"
        aria-label="Panels"
        className="flex shrink-0 gap-1 border-b border-border px-2 pt-2"
      >
        {TABS.map((t) => (
          <button
            key={t.id}
            id={`${base}-${t.id}`}
            type="button"
            role="tab"
            aria-selected={tab === t.id}
            aria-controls={`${base}-panel`}
            tabIndex={tab === t.id ? 0 : -1}
            onClick={() => setTab(t.id)}
            onKeyDown={(e) => {
              if (e.key !== "ArrowRight" && e.key !== "ArrowLeft") return;
              const i = TABS.findIndex((x) => x.id === tab);
              const next = TABS[(i + (e.key === "ArrowRight" ? 1 : TABS.length - 1)) % TABS.length];
              setTab(next.id);
              document.getElementById(`${base}-${next.id}`)?.focus();
            }}
            className={cn(
              "-mb-px border-b-2 px-3 pt-1 pb-2 text-sm font-medium",
              tab === t.id ? "border-accent text-fg" : "border-transparent text-muted hover:text-fg",
            )}
          >
            {t.label}
          </button>
        ))}
      </div>
      <div
        id={`${base}-panel`}
        role="tabpanel"
        aria-labelledby={`${base}-${tab}`}
        className="min-h-0 flex-1 overflow-y-auto p-4"
      >
        {content}
      </div>
    </aside>
  );
}
