"use client";

import { PackagePlus } from "lucide-react";
import { useSearchParams } from "next/navigation";
import { errorMessage } from "@/components/training/error-message";
import { Alert } from "@/components/ui/alert";
import { EmptyState } from "@/components/ui/empty-state";
import { useModel, useModelVersions } from "@/lib/api/registry/queries";
import { ModelHeader } from "./model-header";
import { VersionPanel } from "./version-panel";
import { VersionsTable } from "./versions-table";

/**
 * /models/{id}: the entry, its versions and the selected version (`?version=<id>`, the newest when
 * none is named) with its overview, artifacts, lineage, evaluations and aliases.
 */
export function ModelPage({ modelId }: { modelId: string }) {
  const search = useSearchParams();
  const model = useModel(modelId);
  const versions = useModelVersions(modelId);
  if (model.error) return <Alert>{errorMessage(model.error)}</Alert>;
  if (!model.data) return <p className="text-sm text-muted">Loading…</p>;
  const list = versions.data ?? [];
  const wanted = search.get("version");
  const selected = list.find((v) => v.id === wanted) ?? list[0] ?? null;
  return (
    <div className="max-w-7xl">
      <ModelHeader model={model.data} versions={list.length} />
      {versions.error ? <Alert>{errorMessage(versions.error)}</Alert> : null}
      {versions.isPending ? (
        <p className="text-sm text-muted">Loading versions…</p>
      ) : list.length === 0 ? (
        <EmptyState icon={PackagePlus} title="No versions yet">
          Open a succeeded training job or fine-tuning run and press <strong>Push to registry</strong>,
          choosing this model; or run <code className="font-mono text-xs">layerline push</code> to upload
          model files as a new version.
        </EmptyState>
      ) : (
        <div className="space-y-6">
          <section aria-labelledby="versions-heading">
            <h2 id="versions-heading" className="mb-2 text-base font-semibold">
              Versions
            </h2>
            <VersionsTable modelId={modelId} versions={list} selectedId={selected?.id ?? null} />
          </section>
          {wanted && !list.some((v) => v.id === wanted) ? (
            <Alert tone="warn">That version is not one of this model's; showing the newest.</Alert>
          ) : null}
          {selected ? <VersionPanel key={selected.id} model={model.data} version={selected} /> : null}
        </div>
      )}
    </div>
  );
}
