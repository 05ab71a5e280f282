"use client";

import { useState } from "react";
import { cn } from "@/components/ui/cn";
import { inputClass } from "@/components/ui/field";
import { topValueBars } from "@/lib/datasets-ui/chart-data";
import { formatCount, formatStat } from "@/lib/datasets-ui/format";
import { BarList } from "./bar-list";
import { ColumnCard } from "./column-card";
import type { DatasetTabProps } from "./types";

/** Per-column profile cards, plus the text and image summaries of those formats. */
export function ColumnsTab({ dataset, version }: DatasetTabProps) {
  const profile = version.profile;
  const [filter, setFilter] = useState("");
  if (!profile) return <p className="text-sm text-muted">No profile for this version.</p>;
  const columns = profile.columns.filter((c) => c.name.toLowerCase().includes(filter.trim().toLowerCase()));
  return (
    <div className="space-y-5">
      {profile.text ? (
        <section className="rounded-lg border border-border bg-panel p-4" aria-labelledby="text-heading">
          <h2 id="text-heading" className="text-sm font-semibold">
            Text
          </h2>
          <dl className="mt-3 grid grid-cols-2 gap-3 sm:grid-cols-4">
            {(
              [
                ["Lines", profile.text.lines],
                ["Words", profile.text.words],
                ["Characters", profile.text.characters],
                ["Distinct characters", profile.text.distinct_characters],
              ] as const
            ).map(([label, v]) => (
              <div key={label}>
                <dt className="text-xs text-muted">{label}</dt>
                <dd className="font-mono text-sm tabular-nums">{formatCount(v)}</dd>
              </div>
            ))}
          </dl>
          {profile.text.top_words.length > 0 ? (
            <div className="max-w-md">
              <BarList
                items={topValueBars(profile.text.top_words, profile.text.words, 8)}
                label="Most frequent words"
              />
            </div>
          ) : null}
        </section>
      ) : null}
      {profile.images ? (
        <section className="rounded-lg border border-border bg-panel p-4" aria-labelledby="images-heading">
          <h2 id="images-heading" className="text-sm font-semibold">
            Images
          </h2>
          <p className="mt-1 text-sm text-muted">
            {profile.images.classes.length} classes · width {formatStat(profile.images.width.min)}–
            {formatStat(profile.images.width.max)} px · height {formatStat(profile.images.height.min)}–
            {formatStat(profile.images.height.max)} px
            {profile.images.skipped > 0 ? ` · ${profile.images.skipped} files could not be read` : ""}
          </p>
          {profile.images.splits ? (
            <p className="mt-1 text-sm text-muted" data-testid="image-splits">
              Split folders: {formatCount(profile.images.splits.train)} train ·{" "}
              {formatCount(profile.images.splits.validation)} validation ·{" "}
              {formatCount(profile.images.splits.test)} test
            </p>
          ) : null}
          <div className="max-w-md">
            <BarList
              items={topValueBars(
                profile.images.classes.map((c) => ({ value: c.name, count: c.count })),
                profile.images.classes.reduce((a, c) => a + c.count, 0),
                12,
              )}
              label="Images per class"
            />
          </div>
          {profile.images.corrupt && profile.images.corrupt.length > 0 ? (
            <details className="mt-3 text-sm" data-testid="image-corrupt">
              <summary className="cursor-pointer text-muted">
                {formatCount(profile.images.corrupt.length)} unreadable{" "}
                {profile.images.corrupt.length === 1 ? "file" : "files"}, skipped
              </summary>
              <ul className="mt-2 max-h-48 overflow-auto font-mono text-xs">
                {profile.images.corrupt.map((name) => (
                  <li key={name} className="truncate">
                    {name}
                  </li>
                ))}
              </ul>
            </details>
          ) : null}
        </section>
      ) : null}
      {profile.columns.length > 8 ? (
        <input
          type="search"
          aria-label="Filter columns"
          placeholder={`Filter ${profile.columns.length} columns`}
          className={cn(inputClass, "max-w-xs")}
          value={filter}
          onChange={(e) => setFilter(e.target.value)}
        />
      ) : null}
      <div className="grid gap-4 sm:grid-cols-2 xl:grid-cols-3">
        {columns.map((c) => (
          <ColumnCard key={c.name} profile={c} role={dataset.roles[c.name]} />
        ))}
      </div>
      {columns.length === 0 && profile.columns.length > 0 ? (
        <p className="text-sm text-muted">No column matches “{filter}”.</p>
      ) : null}
      <p className="text-xs text-muted">
        Profiled {formatCount(profile.row_count)} rows in {formatStat(Math.round(profile.duration_ms))} ms
        when the version was created.
      </p>
    </div>
  );
}
