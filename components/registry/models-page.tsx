"use client";

import { Boxes, Plus, TrendingUp } from "lucide-react";
import Link from "next/link";
import { useState } from "react";
import { errorMessage } from "@/components/training/error-message";
import { useNow } from "@/components/training/use-now";
import { Alert } from "@/components/ui/alert";
import { Button, buttonClass } from "@/components/ui/button";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader } from "@/components/ui/page-header";
import { useModels } from "@/lib/api/registry/queries";
import { formatAgo } from "@/lib/training-ui/durations";
import { AliasChip } from "./alias-chip";
import { NewModelDialog } from "./new-model-dialog";

/** /models: the registry's entries, newest change first, and "New model". */
export function ModelsPage() {
  const [creating, setCreating] = useState(false);
  const list = useModels();
  const now = useNow(false);
  const models = list.data ?? [];
  const newButton = (
    <Button onClick={() => setCreating(true)}>
      <Plus aria-hidden className="h-4 w-4" /> New model
    </Button>
  );
  return (
    <div className="max-w-7xl">
      <PageHeader
        title="Models"
        description="Registered models: versioned artifacts with their checksums, lineage, evaluations and aliases."
        actions={models.length > 0 ? newButton : null}
      />
      {list.error ? <Alert>{errorMessage(list.error)}</Alert> : null}
      {list.isPending ? (
        <p className="text-sm text-muted">Loading…</p>
      ) : models.length === 0 && !list.error ? (
        <EmptyState
          icon={Boxes}
          title="No registered models yet"
          action={
            <span className="flex flex-wrap justify-center gap-2">
              {newButton}
              <Link href="/training" className={buttonClass("secondary")}>
                <TrendingUp aria-hidden className="h-4 w-4" /> Go to training jobs
              </Link>
            </span>
          }
        >
          <p>
            Open a succeeded training job or fine-tuning run and press <strong>Push to registry</strong>: its
            model files and manifest become version 1, with their lineage. From a terminal,{" "}
            <code className="rounded bg-panel-2 px-1 py-0.5 font-mono text-xs">layerline push</code> creates
            the entry, uploads your model files as a version and finalizes it.
          </p>
        </EmptyState>
      ) : (
        <div className="overflow-x-auto rounded-lg border border-border bg-panel">
          <table className="w-full text-sm">
            <thead className="border-b border-border text-left text-xs text-muted">
              <tr>
                <th className="px-4 py-2.5 font-medium">Name</th>
                <th className="px-4 py-2.5 font-medium">Task</th>
                <th className="px-4 py-2.5 font-medium">Latest version</th>
                <th className="px-4 py-2.5 font-medium">Aliases</th>
                <th className="px-4 py-2.5 text-right font-medium">Updated</th>
              </tr>
            </thead>
            <tbody className="divide-y divide-border">
              {models.map((m) => (
                <tr key={m.id} className="hover:bg-panel-2/60" data-testid="model-row">
                  <td className="px-4 py-3">
                    <Link href={`/models/${m.id}`} className="font-medium text-accent hover:underline">
                      {m.name}
                    </Link>
                    {m.description ? (
                      <p className="mt-0.5 line-clamp-1 max-w-md text-xs text-muted">{m.description}</p>
                    ) : null}
                  </td>
                  <td className="px-4 py-3 text-muted">{m.task ?? "–"}</td>
                  <td className="px-4 py-3 tabular-nums">
                    {m.latest_version === null ? (
                      <span className="text-muted">None yet</span>
                    ) : (
                      `v${m.latest_version}`
                    )}
                  </td>
                  <td className="px-4 py-3">
                    {m.aliases.length === 0 ? (
                      <span className="text-muted">–</span>
                    ) : (
                      <span className="flex flex-wrap gap-1">
                        {m.aliases.map((a) => (
                          <span key={a.alias} title={`v${a.version}`}>
                            <AliasChip alias={`${a.alias} → v${a.version}`} />
                          </span>
                        ))}
                      </span>
                    )}
                  </td>
                  <td className="px-4 py-3 text-right text-muted">
                    <time dateTime={m.updated_at} title={new Date(m.updated_at).toLocaleString()}>
                      {formatAgo(m.updated_at, now)}
                    </time>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <NewModelDialog open={creating} onClose={() => setCreating(false)} />
    </div>
  );
}
