"use client";

import { type KeyboardEvent, type ReactNode, useRef } from "react";
import { cn } from "./cn";

export interface TabDef<K extends string> {
  key: K;
  label: string;
  icon?: ReactNode;
  /** A small count or marker beside the label. */
  badge?: ReactNode;
}

/**
 * ARIA tabs (arrow keys, Home and End move between them); the caller renders the panel, with the
 * id `<idPrefix>-panel-<key>` and `aria-labelledby` `<idPrefix>-tab-<key>`.
 */
export function Tabs<K extends string>({
  tabs,
  active,
  onChange,
  idPrefix,
  label,
  className,
}: {
  tabs: readonly TabDef<K>[];
  active: K;
  onChange: (key: K) => void;
  idPrefix: string;
  /** The tab list's accessible name, e.g. "Dataset views". */
  label: string;
  /** Spacing of the tab list in its page. */
  className?: string;
}) {
  const refs = useRef<(HTMLButtonElement | null)[]>([]);
  const onKeyDown = (e: KeyboardEvent, index: number) => {
    const last = tabs.length - 1;
    const next =
      e.key === "ArrowRight"
        ? index === last
          ? 0
          : index + 1
        : e.key === "ArrowLeft"
          ? index === 0
            ? last
            : index - 1
          : e.key === "Home"
            ? 0
            : e.key === "End"
              ? last
              : null;
    if (next === null) return;
    e.preventDefault();
    refs.current[next]?.focus();
    onChange(tabs[next].key);
  };
  return (
    <div
      role="tablist"
      aria-label={label}
      className={cn("flex gap-1 overflow-x-auto border-b border-border", className)}
    >
      {tabs.map((t, i) => {
        const selected = t.key === active;
        return (
          <button
            key={t.key}
            ref={(el) => {
              refs.current[i] = el;
            }}
            type="button"
            role="tab"
            id={`${idPrefix}-tab-${t.key}`}
            aria-selected={selected}
            aria-controls={`${idPrefix}-panel-${t.key}`}
            tabIndex={selected ? 0 : -1}
            onClick={() => onChange(t.key)}
            onKeyDown={(e) => onKeyDown(e, i)}
            className={cn(
              "-mb-px flex shrink-0 items-center gap-1.5 border-b-2 px-3 py-2.5 text-sm whitespace-nowrap transition-colors",
              selected
                ? "border-accent font-medium text-fg"
                : "border-transparent text-muted hover:border-border hover:text-fg",
            )}
          >
            {t.icon}
            {t.label}
            {t.badge}
          </button>
        );
      })}
    </div>
  );
}
