import { LogIn } from "lucide-react";
import Link from "next/link";
import { ReadOnlyCanvas } from "@/components/editor/readonly-canvas";
import { buttonClass } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import type { Schemas } from "@/lib/api/client";
import { formatCount, formatFlops } from "@/lib/editor/format";
import { ImportSharedButton } from "./import-shared-button";
import { type ImportSource, sourcePath } from "./import-source";

function Stat({ label, value, testId }: { label: string; value: string; testId?: string }) {
  return (
    <div className="rounded-lg border border-border bg-panel px-4 py-3">
      <dt className="text-xs text-muted">{label}</dt>
      <dd className="mt-0.5 text-lg font-semibold tabular-nums" data-testid={testId}>
        {value}
      </dd>
    </div>
  );
}

/** The public, read-only page of a shared project (a share link) or of a public project (a profile's). */
export function SharedProjectView({
  shared,
  source,
  signedIn,
}: {
  shared: Schemas["SharedProject"];
  source: ImportSource;
  signedIn: boolean;
}) {
  const owner = shared.owner.display_name ?? shared.owner.username;
  const t = shared.training_config;
  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-start justify-between gap-4">
        <div className="min-w-0">
          <p className="text-xs font-medium tracking-wide text-accent uppercase">
            {"token" in source ? "Shared architecture" : "Public project"}
          </p>
          <h1 className="mt-1 text-2xl font-semibold tracking-tight">{shared.name}</h1>
          <p className="mt-1 text-sm text-muted">
            by{" "}
            <Link
              href={`/u/${shared.owner.username}`}
              className="font-medium text-fg hover:text-accent"
              data-testid="shared-owner"
            >
              {owner}
            </Link>{" "}
            · updated{" "}
            {new Date(shared.updated_at).toLocaleDateString("en", {
              day: "numeric",
              month: "short",
              year: "numeric",
            })}
          </p>
          {shared.description ? <p className="mt-2 max-w-2xl text-sm">{shared.description}</p> : null}
        </div>
        {signedIn ? (
          <ImportSharedButton source={source} />
        ) : (
          <Link
            href={`/login?next=${encodeURIComponent(sourcePath(source))}`}
            className={buttonClass("primary")}
          >
            <LogIn aria-hidden className="h-4 w-4" /> Sign in to import
          </Link>
        )}
      </div>

      <dl className="grid grid-cols-2 gap-3 sm:grid-cols-4">
        <Stat label="Layers" value={String(shared.graph.nodes.length)} />
        <Stat label="Parameters" value={formatCount(shared.analysis.total_params)} testId="shared-params" />
        <Stat
          label="FLOPs per sample"
          value={formatFlops(shared.analysis.total_flops).replace(" FLOPs", "")}
        />
        <Stat
          label="Checks"
          value={shared.analysis.ok ? "All shapes valid" : `${shared.analysis.error_count} errors`}
        />
      </dl>

      <Card className="overflow-hidden">
        <div className="h-[560px]" data-testid="shared-canvas">
          <ReadOnlyCanvas graph={shared.graph} label={`${shared.name} diagram`} />
        </div>
      </Card>

      <Card>
        <div className="px-5 py-4">
          <h2 className="text-base font-semibold">Training configuration</h2>
          <dl className="mt-3 grid grid-cols-2 gap-x-6 gap-y-2 text-sm sm:grid-cols-4">
            {[
              ["Epochs", t.epochs],
              ["Batch size", t.batch_size],
              ["Learning rate", t.learning_rate],
              ["Optimizer", t.optimizer],
              ["Weight decay", t.weight_decay],
              ["Validation split", t.validation_split],
              ["Seed", t.seed],
            ].map(([k, v]) => (
              <div key={String(k)}>
                <dt className="text-xs text-muted">{k}</dt>
                <dd className="font-mono">{String(v)}</dd>
              </div>
            ))}
          </dl>
        </div>
      </Card>
    </div>
  );
}
