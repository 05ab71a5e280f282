"use client";

import type { LucideIcon } from "lucide-react";
import { useId } from "react";
import { cn } from "@/components/ui/cn";

export interface ConsoleTab<T extends string> {
  id: T;
  label: string;
  icon: LucideIcon;
}

/** The console's tab bar (WAI-ARIA tabs: arrow keys move between them). */
export function ConsoleTabs<T extends string>({
  tabs,
  selected,
  onSelect,
  panelId,
}: {
  tabs: readonly ConsoleTab<T>[];
  selected: T;
  onSelect: (id: T) => void;
  panelId: string;
}) {
  const base = useId();
  return (
    <div
      role="tablist"
      aria-label="Console"
      className="mb-6 flex flex-wrap gap-1 border-b border-border"
      onKeyDown={(e) => {
        if (e.key !== "ArrowRight" && e.key !== "ArrowLeft") return;
        const i = tabs.findIndex((t) => t.id === selected);
        const next = tabs[(i + (e.key === "ArrowRight" ? 1 : tabs.length - 1)) % tabs.length];
        onSelect(next.id);
        document.getElementById(`${base}-${next.id}`)?.focus();
      }}
    >
      {tabs.map(({ id, label, icon: Icon }) => (
        <button
          key={id}
          id={`${base}-${id}`}
          type="button"
          role="tab"
          aria-selected={id === selected}
          aria-controls={panelId}
          tabIndex={id === selected ? 0 : -1}
          onClick={() => onSelect(id)}
          className={cn(
            "-mb-px inline-flex items-center gap-1.5 border-b-2 px-3 py-2 text-sm font-medium",
            id === selected ? "border-accent text-accent" : "border-transparent text-muted hover:text-fg",
          )}
        >
          <Icon aria-hidden className="h-4 w-4" /> {label}
        </button>
      ))}
    </div>
  );
}
