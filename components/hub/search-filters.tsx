import Link from "next/link";
import { buttonClass } from "@/components/ui/button";
import { inputClass } from "@/components/ui/field";
import {
  FRAMEWORK_SUGGESTIONS,
  LICENSE_SUGGESTIONS,
  type SearchParams,
  searchHref,
  taskLabel,
} from "./hub-format";

export const FILTER_FORM_ID = "hub-filters";

function Label({ htmlFor, children }: { htmlFor: string; children: string }) {
  return (
    <label htmlFor={htmlFor} className="block text-sm font-medium">
      {children}
    </label>
  );
}

/**
 * The search page's filters (the sort select above the results belongs to this form too, via `form=`): a plain GET form, so every filter lives in the URL (`?q=&task=&framework=
 * &license=&tags=&sort=`) and a search can be shared or bookmarked. Tasks come from the categories.
 */
export function SearchFilters({
  params,
  tasks,
}: {
  params: SearchParams;
  tasks: { value: string; count: number }[];
}) {
  const taskOptions =
    params.task && !tasks.some((t) => t.value === params.task)
      ? [{ value: params.task, count: 0 }, ...tasks]
      : tasks;
  const active = Boolean(params.task || params.framework || params.license || params.tags || params.category);
  return (
    <form id={FILTER_FORM_ID} action="/hub/search" method="get" aria-label="Filters" className="space-y-4">
      {params.q ? <input type="hidden" name="q" value={params.q} /> : null}
      {params.category ? <input type="hidden" name="category" value={params.category} /> : null}
      <div className="space-y-1">
        <Label htmlFor="filter-task">Task</Label>
        <select id="filter-task" name="task" defaultValue={params.task ?? ""} className={inputClass}>
          <option value="">Any task</option>
          {taskOptions.map((t) => (
            <option key={t.value} value={t.value}>
              {taskLabel(t.value)}
              {t.count ? ` (${t.count})` : ""}
            </option>
          ))}
        </select>
      </div>
      <div className="space-y-1">
        <Label htmlFor="filter-framework">Framework</Label>
        <input
          id="filter-framework"
          name="framework"
          list="hub-frameworks"
          placeholder="Any framework"
          defaultValue={params.framework}
          maxLength={64}
          className={inputClass}
        />
        <datalist id="hub-frameworks">
          {FRAMEWORK_SUGGESTIONS.map((f) => (
            <option key={f} value={f} />
          ))}
        </datalist>
      </div>
      <div className="space-y-1">
        <Label htmlFor="filter-license">License</Label>
        <input
          id="filter-license"
          name="license"
          list="hub-licenses"
          placeholder="Any license"
          defaultValue={params.license}
          maxLength={64}
          className={inputClass}
        />
        <datalist id="hub-licenses">
          {LICENSE_SUGGESTIONS.map((l) => (
            <option key={l} value={l} />
          ))}
        </datalist>
      </div>
      <div className="space-y-1">
        <Label htmlFor="filter-tags">Tags</Label>
        <input
          id="filter-tags"
          name="tags"
          placeholder="e.g. iris, onnx"
          aria-describedby="filter-tags-hint"
          defaultValue={params.tags}
          maxLength={400}
          className={inputClass}
        />
        <p id="filter-tags-hint" className="text-xs text-muted">
          Comma-separated; models carrying all of them.
        </p>
      </div>
      <div className="flex flex-wrap gap-2 pt-1">
        <button type="submit" className={buttonClass("primary", "sm")}>
          Apply filters
        </button>
        {active ? (
          <Link href={searchHref({ q: params.q, sort: params.sort })} className={buttonClass("ghost", "sm")}>
            Clear
          </Link>
        ) : null}
      </div>
    </form>
  );
}
