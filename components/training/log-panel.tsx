"use client";

import { ArrowDown, ScrollText, Search } from "lucide-react";
import { memo, useEffect, useId, useLayoutEffect, useRef, useState } from "react";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { cn } from "@/components/ui/cn";
import { useLogTail } from "@/lib/api/training/use-log-tail";
import { isAtBottom, LOG_LEVELS, type LogFilter, type LogLevel } from "@/lib/training-ui/log-tail";
import { compactInputClass } from "./inputs";

const LEVEL_STYLE: Record<LogLevel, string> = {
  debug: "text-muted",
  info: "text-accent",
  warning: "text-warn",
  error: "text-danger",
};

function useDebounced<T>(value: T, ms: number): T {
  const [v, setV] = useState(value);
  useEffect(() => {
    const t = setTimeout(() => setV(value), ms);
    return () => clearTimeout(t);
  }, [value, ms]);
  return v;
}

function clock(iso: string): string {
  const d = new Date(iso);
  return Number.isNaN(d.getTime())
    ? ""
    : d.toLocaleTimeString("en-GB", { hour: "2-digit", minute: "2-digit", second: "2-digit" });
}

/**
 * The job's log as a tail that follows new lines while scrolled to the bottom and stays put once the
 * user scrolls up ("Jump to latest" brings it back); filtered by level and text on the server.
 */
export const LogPanel = memo(function LogPanel({ jobId, live }: { jobId: string; live: boolean }) {
  const [level, setLevel] = useState<LogLevel | "">("");
  const [search, setSearch] = useState("");
  const q = useDebounced(search.trim(), 250);
  const filter: LogFilter = { ...(level ? { level } : {}), ...(q ? { q } : {}) };
  const tail = useLogTail(jobId, filter);
  const lines = tail.data ?? [];
  const box = useRef<HTMLDivElement>(null);
  const follow = useRef(true);
  const [behind, setBehind] = useState(false);
  const levelId = useId();
  const searchId = useId();

  // New lines: stay at the bottom if we were there, else say there is more below.
  const lastLine = lines.length > 0 ? lines[lines.length - 1].id : null;
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when the last line changes
  useLayoutEffect(() => {
    const el = box.current;
    if (!el) return;
    if (follow.current) el.scrollTop = el.scrollHeight;
    else setBehind(true);
  }, [lastLine]);

  return (
    <Card className="flex min-w-0 flex-col">
      <div className="flex flex-wrap items-center justify-between gap-3 border-b border-border px-5 py-3">
        <h2 className="flex items-center gap-2 text-base font-semibold">
          <ScrollText aria-hidden className="h-4 w-4 text-muted" /> Logs
        </h2>
        <div className="flex flex-wrap items-center gap-2">
          <label htmlFor={levelId} className="sr-only">
            Log level
          </label>
          <select
            id={levelId}
            value={level}
            onChange={(e) => setLevel(e.target.value as LogLevel | "")}
            className={cn(compactInputClass, "w-36")}
          >
            <option value="">All levels</option>
            {LOG_LEVELS.map((l) => (
              <option key={l} value={l}>
                {l} and above
              </option>
            ))}
          </select>
          <div className="relative">
            <Search aria-hidden className="pointer-events-none absolute top-2 left-2.5 h-4 w-4 text-muted" />
            <label htmlFor={searchId} className="sr-only">
              Search the log
            </label>
            <input
              id={searchId}
              type="search"
              placeholder="Search the log"
              value={search}
              onChange={(e) => setSearch(e.target.value)}
              className={cn(compactInputClass, "w-52 pl-8")}
            />
          </div>
        </div>
      </div>
      <div className="relative">
        <div
          ref={box}
          role="log"
          aria-label="Training log"
          aria-live="off"
          // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must be reachable by keyboard
          tabIndex={0}
          onScroll={(e) => {
            follow.current = isAtBottom(e.currentTarget);
            if (follow.current) setBehind(false);
          }}
          className="h-80 overflow-y-auto bg-panel-2/40 px-4 py-2 font-mono text-xs leading-5"
          data-testid="log-lines"
        >
          {tail.isPending ? (
            <p className="text-muted">Loading the log…</p>
          ) : tail.isError ? (
            <p className="text-danger">Could not load the log.</p>
          ) : lines.length === 0 ? (
            <p className="text-muted">
              {filter.level || filter.q
                ? "No line matches."
                : live
                  ? "Waiting for the first lines…"
                  : "No log lines."}
            </p>
          ) : (
            lines.map((l) => (
              <div key={l.id} className="flex gap-3 whitespace-pre-wrap break-words" data-testid="log-line">
                <span className="shrink-0 text-muted tabular-nums">{clock(l.timestamp)}</span>
                <span className={cn("w-14 shrink-0 uppercase", LEVEL_STYLE[l.level])}>{l.level}</span>
                <span className="min-w-0 flex-1">{l.message}</span>
              </div>
            ))
          )}
        </div>
        {behind ? (
          <div className="pointer-events-none absolute inset-x-0 bottom-3 flex justify-center">
            <Button
              size="sm"
              className="pointer-events-auto shadow"
              onClick={() => {
                const el = box.current;
                if (el) el.scrollTop = el.scrollHeight;
                follow.current = true;
                setBehind(false);
              }}
            >
              <ArrowDown aria-hidden className="h-4 w-4" /> Jump to latest
            </Button>
          </div>
        ) : null}
      </div>
    </Card>
  );
});
