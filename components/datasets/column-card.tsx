import { Badge } from "@/components/ui/badge";
import { cn } from "@/components/ui/cn";
import { topValueBars } from "@/lib/datasets-ui/chart-data";
import { formatCount, formatPercent, formatStat } from "@/lib/datasets-ui/format";
import { ROLE_LABELS, type Role } from "@/lib/datasets-ui/roles";
import { BarList } from "./bar-list";
import { HistogramChart } from "./histogram-chart";
import type { ColumnProfile } from "./types";

const NUMERIC = new Set(["integer", "float"]);
/** Types whose min and max mean something (not strings: their order is only alphabetical). */
const ORDERED = new Set(["integer", "float", "date", "datetime"]);

function Stat({ label, value, tone }: { label: string; value: string; tone?: "warn" }) {
  return (
    <div className="min-w-0">
      <dt className="text-[11px] tracking-wide text-muted uppercase">{label}</dt>
      <dd
        className={cn("truncate font-mono text-sm tabular-nums", tone === "warn" && "text-warn")}
        title={value}
      >
        {value}
      </dd>
    </div>
  );
}

/** One column's profile: type, counts, range and spread, and its distribution. */
export function ColumnCard({ profile, role }: { profile: ColumnProfile; role?: Role }) {
  const numeric = NUMERIC.has(profile.type);
  const rows = profile.count + profile.missing;
  const missingShare = rows > 0 ? profile.missing / rows : 0;
  const headingId = `col-${profile.name.replace(/[^A-Za-z0-9_-]/g, "_")}`;
  return (
    <article
      aria-labelledby={headingId}
      className="flex flex-col rounded-lg border border-border bg-panel p-4"
      data-testid="column-card"
    >
      <header className="flex items-start justify-between gap-2">
        <h3 id={headingId} className="min-w-0 truncate font-mono text-sm font-semibold" title={profile.name}>
          {profile.name}
        </h3>
        <div className="flex shrink-0 gap-1">
          {role ? <Badge tone={role === "target" ? "ok" : "neutral"}>{ROLE_LABELS[role]}</Badge> : null}
          <Badge tone="accent">{profile.type}</Badge>
        </div>
      </header>
      <dl className="mt-3 grid grid-cols-3 gap-x-3 gap-y-2">
        <Stat label="Values" value={formatCount(profile.count)} />
        <Stat
          label="Missing"
          value={
            profile.missing > 0 ? `${formatCount(profile.missing)} (${formatPercent(missingShare)})` : "0"
          }
          tone={profile.missing > 0 ? "warn" : undefined}
        />
        <Stat label="Distinct" value={formatCount(profile.distinct)} />
        {ORDERED.has(profile.type) ? (
          <>
            <Stat label="Min" value={formatStat(profile.min)} />
            <Stat label="Max" value={formatStat(profile.max)} />
            {numeric ? <Stat label="Mean" value={formatStat(profile.mean)} /> : null}
            {numeric ? <Stat label="Std" value={formatStat(profile.std)} /> : null}
          </>
        ) : null}
      </dl>
      {profile.histogram && profile.histogram.length > 0 ? (
        <HistogramChart column={profile.name} bins={profile.histogram} integer={profile.type === "integer"} />
      ) : profile.top_values && profile.top_values.length > 0 && profile.top_values[0].count > 1 ? (
        <BarList
          items={topValueBars(profile.top_values, profile.count, 5)}
          label={`Most frequent values of ${profile.name}`}
        />
      ) : profile.count > 0 && profile.distinct === profile.count ? (
        <p className="mt-3 rounded-md bg-panel-2 px-3 py-2 text-xs text-muted">
          Every value is different: an identifier or free text rather than a category.
        </p>
      ) : null}
    </article>
  );
}
