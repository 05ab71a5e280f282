import { Search } from "lucide-react";
import { buttonClass } from "@/components/ui/button";
import { cn } from "@/components/ui/cn";
import { inputClass } from "@/components/ui/field";

/** The hub's search box: a plain GET form to /hub/search (works before any script has loaded). */
export function HubSearchBox({ defaultValue, large = false }: { defaultValue?: string; large?: boolean }) {
  return (
    <search>
      <form action="/hub/search" method="get" className="flex gap-2">
        <div className="relative min-w-0 flex-1">
          <Search
            aria-hidden
            className="pointer-events-none absolute top-1/2 left-3 h-4 w-4 -translate-y-1/2 text-muted"
          />
          <input
            type="search"
            name="q"
            aria-label="Search models"
            placeholder="Search models by name, task, tag or what their card says"
            defaultValue={defaultValue}
            maxLength={200}
            className={cn(inputClass, "pl-9", large && "h-11 text-base")}
          />
        </div>
        <button type="submit" className={buttonClass("primary", "md", large ? "h-11" : undefined)}>
          Search
        </button>
      </form>
    </search>
  );
}
