"use client";

import { Tabs } from "@/components/ui/tabs";

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

/** The tabs over a version's views (its panels have the ids `version-panel-<key>`). */
export function VersionTabs({
  active,
  onChange,
}: {
  active: VersionTab;
  onChange: (tab: VersionTab) => void;
}) {
  return (
    <Tabs
      tabs={VERSION_TABS}
      active={active}
      onChange={onChange}
      idPrefix="version"
      label="Version views"
      className="px-3"
    />
  );
}
