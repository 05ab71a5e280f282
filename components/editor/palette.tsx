"use client";

import { Search } from "lucide-react";
import { useId, useMemo, useState } from "react";
import { cn } from "@/components/ui/cn";
import { catalogByCategory } from "@/lib/ml";
import { CATEGORY_COLOR } from "./category-style";
import { LAYER_DRAG_MIME } from "./flow-config";
import { useAddLayerAtCenter } from "./use-add-layer";

const GROUPS = catalogByCategory();

/** Layers grouped by category: drag one onto the canvas, or click it to add it in the middle. */
export function Palette() {
  const [query, setQuery] = useState("");
  const searchId = useId();
  const addAtCenter = useAddLayerAtCenter();
  const groups = useMemo(() => {
    const q = query.trim().toLowerCase();
    if (!q) return GROUPS;
    return GROUPS.map((g) => ({
      ...g,
      layers: g.layers.filter(
        (l) =>
          l.label.toLowerCase().includes(q) ||
          l.type.toLowerCase().includes(q) ||
          l.description.toLowerCase().includes(q),
      ),
    })).filter((g) => g.layers.length > 0);
  }, [query]);

  return (
    <nav
      aria-label="Layer palette"
      className="hidden w-52 shrink-0 md:flex flex-col border-r border-border bg-panel"
    >
      <div className="border-b border-border p-2.5">
        <label htmlFor={searchId} className="sr-only">
          Search layers
        </label>
        <div className="relative">
          <Search aria-hidden className="pointer-events-none absolute top-2.5 left-2.5 h-4 w-4 text-muted" />
          <input
            id={searchId}
            type="search"
            value={query}
            onChange={(e) => setQuery(e.target.value)}
            placeholder="Search layers"
            className="h-9 w-full rounded-md border border-border bg-panel-2 pr-2 pl-8 text-sm placeholder:text-muted focus:border-accent focus:outline-none"
          />
        </div>
      </div>
      <div className="min-h-0 flex-1 overflow-y-auto px-2 pt-1 pb-4">
        {groups.map((g) => (
          <section key={g.category} aria-label={g.category} className="mt-3">
            <h3 className="mb-1 flex items-center gap-2 px-2 text-[11px] font-semibold tracking-wide text-muted uppercase">
              <span aria-hidden className={cn("h-2 w-2 rounded-full", CATEGORY_COLOR[g.category])} />
              {g.category}
            </h3>
            <ul>
              {g.layers.map((l) => (
                <li key={l.type}>
                  <button
                    type="button"
                    draggable
                    data-testid={`palette-${l.type}`}
                    title={`${l.description}\nDrag onto the canvas, or click to add.`}
                    onDragStart={(e) => {
                      e.dataTransfer.setData(LAYER_DRAG_MIME, l.type);
                      e.dataTransfer.effectAllowed = "copy";
                    }}
                    onClick={() => addAtCenter(l.type)}
                    className="group flex w-full cursor-grab items-center gap-2 rounded-md px-2 py-1.5 text-left text-sm hover:bg-panel-2 active:cursor-grabbing"
                  >
                    <span className="min-w-0 flex-1 truncate">{l.label}</span>
                    <span aria-hidden className="text-xs text-muted opacity-0 group-hover:opacity-100">
                      +
                    </span>
                  </button>
                </li>
              ))}
            </ul>
          </section>
        ))}
        {groups.length === 0 ? (
          <p className="px-2 py-6 text-center text-sm text-muted">No layer matches.</p>
        ) : null}
      </div>
    </nav>
  );
}
