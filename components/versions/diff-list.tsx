import { ArrowRight } from "lucide-react";
import type { ReactNode } from "react";
import { Badge } from "@/components/ui/badge";
import type { Schemas } from "@/lib/api/client";
import { formatParamValue } from "@/lib/editor/format";

type Comparison = Schemas["ProjectVersionComparison"];
type LayerNode = Schemas["LayerNode"];

function nodeName(n: LayerNode): string {
  return n.label ? `${n.label} (${n.type})` : `${n.type} “${n.id}”`;
}

function Change({ before, after }: { before: unknown; after: unknown }) {
  return (
    <span className="inline-flex flex-wrap items-center gap-1.5 font-mono text-xs">
      <span className="rounded bg-danger-soft px-1.5 py-0.5 text-danger line-through decoration-danger/50">
        {formatParamValue(before)}
      </span>
      <ArrowRight aria-hidden className="h-3 w-3 text-muted" />
      <span className="rounded bg-ok-soft px-1.5 py-0.5 text-ok">{formatParamValue(after)}</span>
    </span>
  );
}

function Section({ title, count, children }: { title: string; count: number; children: ReactNode }) {
  if (count === 0) return null;
  return (
    <section className="space-y-2">
      <h3 className="text-xs font-semibold tracking-wide text-muted uppercase">
        {title} <span className="font-normal">({count})</span>
      </h3>
      <ul className="space-y-1.5">{children}</ul>
    </section>
  );
}

/** Every difference between two versions in words: layers, their params, connections, configuration. */
export function DiffList({ comparison }: { comparison: Comparison }) {
  const { nodes, edges, config } = comparison;
  if (!comparison.has_changes && config.length === 0) {
    return (
      <p className="text-sm text-muted">
        These versions have the same layers, connections and configuration
        {nodes.moved.length > 0 ? ` (${nodes.moved.length} layers were only moved)` : ""}.
      </p>
    );
  }
  return (
    <div className="space-y-5" data-testid="diff-list">
      <Section title="Layers added" count={nodes.added.length}>
        {nodes.added.map((n) => (
          <li key={n.id} className="flex items-center gap-2 text-sm">
            <Badge tone="ok">Added</Badge> {nodeName(n)}
          </li>
        ))}
      </Section>
      <Section title="Layers removed" count={nodes.removed.length}>
        {nodes.removed.map((n) => (
          <li key={n.id} className="flex items-center gap-2 text-sm">
            <Badge tone="danger">Removed</Badge> {nodeName(n)}
          </li>
        ))}
      </Section>
      <Section title="Layers changed" count={nodes.changed.length}>
        {nodes.changed.map((c) => (
          <li key={c.id} className="rounded-md border border-warn/40 bg-warn-soft/40 px-3 py-2 text-sm">
            <div className="flex items-center gap-2">
              <Badge tone="warn">Changed</Badge>
              <span className="font-medium">{nodeName(c.after)}</span>
            </div>
            <dl className="mt-1.5 space-y-1">
              {c.type_changed ? (
                <div className="flex flex-wrap items-center gap-2">
                  <dt className="w-32 text-xs text-muted">type</dt>
                  <dd>
                    <Change before={c.before.type} after={c.after.type} />
                  </dd>
                </div>
              ) : null}
              {c.label_changed ? (
                <div className="flex flex-wrap items-center gap-2">
                  <dt className="w-32 text-xs text-muted">name</dt>
                  <dd>
                    <Change before={c.before.label} after={c.after.label} />
                  </dd>
                </div>
              ) : null}
              {c.params.map((p) => (
                <div key={p.param} className="flex flex-wrap items-center gap-2" data-testid="param-change">
                  <dt className="w-32 font-mono text-xs text-muted">{p.param}</dt>
                  <dd>
                    <Change before={p.before} after={p.after} />
                  </dd>
                </div>
              ))}
            </dl>
          </li>
        ))}
      </Section>
      <Section title="Connections" count={edges.added.length + edges.removed.length}>
        {edges.added.map((e) => (
          <li key={`+${e.id}`} className="flex items-center gap-2 text-sm">
            <Badge tone="ok">Added</Badge>
            <span className="font-mono text-xs">
              {e.source} → {e.target}
              {e.targetPort ? `:${e.targetPort}` : ""}
            </span>
          </li>
        ))}
        {edges.removed.map((e) => (
          <li key={`-${e.id}`} className="flex items-center gap-2 text-sm">
            <Badge tone="danger">Removed</Badge>
            <span className="font-mono text-xs">
              {e.source} → {e.target}
              {e.targetPort ? `:${e.targetPort}` : ""}
            </span>
          </li>
        ))}
      </Section>
      <Section title="Training configuration" count={config.length}>
        {config.map((c) => (
          <li key={c.field} className="flex flex-wrap items-center gap-2 text-sm" data-testid="config-change">
            <span className="w-32 font-mono text-xs text-muted">{c.field}</span>
            <Change before={c.before} after={c.after} />
          </li>
        ))}
      </Section>
    </div>
  );
}
