"use client";

import { ArrowLeft, Database, Settings } from "lucide-react";
import Link from "next/link";
import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { type ReactNode, useState } from "react";
import { Alert } from "@/components/ui/alert";
import { buttonClass } from "@/components/ui/button";
import { EmptyState } from "@/components/ui/empty-state";
import { type TabDef, Tabs } from "@/components/ui/tabs";
import { useDataset, useDatasetVersion } from "@/lib/api/datasets/queries";
import { LayerlineError } from "@/sdk/src/errors";
import { ColumnsTab } from "./columns-tab";
import { DataTab } from "./data-tab";
import { DatasetHeader } from "./dataset-header";
import { DownloadTab } from "./download-tab";
import { errorMessage } from "./error-message";
import { PiiTab } from "./pii-tab";
import { ProjectsTab } from "./projects-tab";
import { RolesTab } from "./roles-tab";
import { SettingsTab } from "./settings-tab";
import { SplitsTab } from "./splits-tab";
import { UploadDialog } from "./upload-dialog";
import { VersionsTab } from "./versions-tab";

const TAB_KEYS = [
  "data",
  "columns",
  "roles",
  "versions",
  "pii",
  "splits",
  "download",
  "projects",
  "settings",
] as const;
type TabKey = (typeof TAB_KEYS)[number];

function isTab(v: string | null): v is TabKey {
  return v !== null && (TAB_KEYS as readonly string[]).includes(v);
}

/** /datasets/[id]: header and one tab at a time; `?tab=` and `?version=` are kept in the URL. */
export function DatasetPage({ id }: { id: string }) {
  const router = useRouter();
  const pathname = usePathname();
  const search = useSearchParams();
  const tabParam = search.get("tab");
  const requestedTab: TabKey = isTab(tabParam) ? tabParam : "data";
  const [uploadOpen, setUploadOpen] = useState(false);

  const setParams = (changes: Record<string, string | null>) => {
    const next = new URLSearchParams(search.toString());
    for (const [k, v] of Object.entries(changes)) {
      if (v === null) next.delete(k);
      else next.set(k, v);
    }
    const qs = next.toString();
    router.replace(qs ? `${pathname}?${qs}` : pathname, { scroll: false });
  };

  const dataset = useDataset(id);
  const versionId = search.get("version") ?? dataset.data?.current_version_id ?? "";
  const version = useDatasetVersion(id, versionId, { enabled: versionId !== "" });

  if (dataset.error) {
    const notFound = dataset.error instanceof LayerlineError && dataset.error.status === 404;
    return (
      <div className="max-w-3xl">
        <EmptyState
          icon={Database}
          title={notFound ? "Dataset not found" : "The dataset could not be loaded"}
          action={
            <Link href="/datasets" className={buttonClass("secondary")}>
              <ArrowLeft aria-hidden className="h-4 w-4" /> All datasets
            </Link>
          }
        >
          {notFound
            ? "It may have been deleted, or it belongs to someone else and is not public."
            : errorMessage(dataset.error)}
        </EmptyState>
      </div>
    );
  }
  if (!dataset.data) return <p className="text-sm text-muted">Loading dataset…</p>;
  const d = dataset.data;
  const v = version.data;
  const pii = v?.pii_report;
  // Only the owner has settings: built-ins and other people's public datasets are read-only.
  const tab: TabKey = requestedTab === "settings" && d.read_only ? "data" : requestedTab;

  const tabs: TabDef<TabKey>[] = [
    { key: "data", label: "Data" },
    { key: "columns", label: "Columns", badge: <Count n={(v?.schema.columns ?? d.columns).length} /> },
    { key: "roles", label: "Roles" },
    { key: "versions", label: "Versions", badge: <Count n={d.version_count} /> },
    {
      key: "pii",
      label: "PII",
      badge: pii?.has_pii ? (
        <span className="h-2 w-2 rounded-full bg-danger" role="img" aria-label="personal data found" />
      ) : null,
    },
    { key: "splits", label: "Splits" },
    { key: "download", label: "Download" },
    { key: "projects", label: "Projects" },
    ...(d.read_only
      ? []
      : [
          {
            key: "settings" as const,
            label: "Settings",
            icon: <Settings aria-hidden className="h-3.5 w-3.5" />,
          },
        ]),
  ];

  let panel: ReactNode;
  if (!v) {
    panel = version.error ? (
      <Alert>{errorMessage(version.error)}</Alert>
    ) : d.current_version_id === null ? (
      <Alert tone="warn">This dataset has no version yet.</Alert>
    ) : (
      <p className="text-sm text-muted">Loading version…</p>
    );
  } else {
    const props = { dataset: d, version: v };
    panel =
      tab === "data" ? (
        <DataTab {...props} />
      ) : tab === "columns" ? (
        <ColumnsTab {...props} />
      ) : tab === "roles" ? (
        <RolesTab {...props} />
      ) : tab === "versions" ? (
        <VersionsTab
          {...props}
          onView={(vid) => setParams({ version: vid === d.current_version_id ? null : vid, tab: "data" })}
          onUpload={() => setUploadOpen(true)}
        />
      ) : tab === "pii" ? (
        <PiiTab {...props} />
      ) : tab === "splits" ? (
        <SplitsTab {...props} />
      ) : tab === "download" ? (
        <DownloadTab {...props} />
      ) : tab === "settings" ? (
        <SettingsTab {...props} />
      ) : (
        <ProjectsTab {...props} />
      );
  }

  return (
    <div className="max-w-6xl">
      <DatasetHeader
        dataset={d}
        version={v}
        onUploadVersion={() => setUploadOpen(true)}
        onOpenSettings={() => setParams({ tab: "settings" })}
      />
      {v && !v.is_current ? (
        <div className="mb-4 flex flex-wrap items-center justify-between gap-3 rounded-md border border-warn/40 bg-warn-soft px-4 py-2 text-sm text-warn">
          <span>
            You are looking at version {v.number}, an earlier version. Roles and downloads are those of the
            current version.
          </span>
          <button
            type="button"
            className="font-medium underline underline-offset-2"
            onClick={() => setParams({ version: null })}
          >
            Back to the current version
          </button>
        </div>
      ) : null}
      <Tabs
        label="Dataset views"
        className="-mx-1 mb-5 px-1"
        tabs={tabs}
        active={tab}
        onChange={(k) => setParams({ tab: k === "data" ? null : k })}
        idPrefix="dataset"
      />
      <div role="tabpanel" id={`dataset-panel-${tab}`} aria-labelledby={`dataset-tab-${tab}`}>
        {panel}
      </div>
      <UploadDialog
        open={uploadOpen}
        onClose={() => setUploadOpen(false)}
        datasetId={d.id}
        datasetName={d.name}
      />
    </div>
  );
}

function Count({ n }: { n: number }) {
  return <span className="rounded-full bg-panel-2 px-1.5 text-xs text-muted tabular-nums">{n}</span>;
}
