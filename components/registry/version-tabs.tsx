"use client";

import { type KeyboardEvent, useRef } from "react";
import { cn } from "@/components/ui/cn";

export const VERSION_TABS = [
  { key: "overview", label: "Overview" },
  { key: "artifacts", label: "Artifacts" },
  { key: "lineage", label: "Lineage" },
  { key: "evaluations", label: "Evaluations" },
  { key: "aliases", label: "Aliases" },
] as const;
export type VersionTab = (typeof VERSION_TABS)[number]["key"];

export function isVersionTab(v: string | null): v is VersionTab {
  return VERSION_TABS.some((t) => t.key === v);
}

/** ARIA tabs over a version's views (arrow keys, Home and End move between them). */
export function VersionTabs({
  active,
  onChange,
}: {
  active: VersionTab;
  onChange: (tab: VersionTab) => void;
}) {
  const refs = useRef<(HTMLButtonElement | null)[]>([]);
  const onKeyDown = (e: KeyboardEvent, i: number) => {
    const last = VERSION_TABS.length - 1;
    const moves: Record<string, number> = {
      ArrowRight: i === last ? 0 : i + 1,
      ArrowLeft: i === 0 ? last : i - 1,
      Home: 0,
      End: last,
    };
    const next = moves[e.key];
    if (next === undefined) return;
    e.preventDefault();
    refs.current[next]?.focus();
    onChange(VERSION_TABS[next].key);
  };
  return (
    <div
      role="tablist"
      aria-label="Version views"
      className="flex gap-1 overflow-x-auto border-b border-border px-3"
    >
      {VERSION_TABS.map((t, i) => {
        const selected = t.key === active;
        return (
          <button
            key={t.key}
            ref={(el) => {
              refs.current[i] = el;
            }}
            type="button"
            role="tab"
            id={`version-tab-${t.key}`}
            aria-selected={selected}
            aria-controls={`version-panel-${t.key}`}
            tabIndex={selected ? 0 : -1}
            onClick={() => onChange(t.key)}
            onKeyDown={(e) => onKeyDown(e, i)}
            className={cn(
              "-mb-px shrink-0 border-b-2 px-3 py-2.5 text-sm whitespace-nowrap transition-colors",
              selected
                ? "border-accent font-medium text-fg"
                : "border-transparent text-muted hover:border-border hover:text-fg",
            )}
          >
            {t.label}
          </button>
        );
      })}
    </div>
  );
}
