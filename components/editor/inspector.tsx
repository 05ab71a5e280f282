"use client";

import { MousePointerClick, Trash2 } from "lucide-react";
import { Button } from "@/components/ui/button";
import { cn } from "@/components/ui/cn";
import { inputClass } from "@/components/ui/field";
import { formatCount, formatFlops } from "@/lib/editor/format";
import { layerFields, validateLayerParam } from "@/lib/editor/param-form";
import { type LayerType, layerCatalog } from "@/lib/ml";
import { CATEGORY_COLOR } from "./category-style";
import { useAnalysis, useEditorStore } from "./editor-store-context";
import { ParamInput } from "./param-input";

/** The selected node id, or how many nodes are selected when it is not exactly one. */
function useSelection(): string | number {
  return useEditorStore((s) => {
    let id: string | null = null;
    let count = 0;
    for (const n of s.nodes) {
      if (n.selected) {
        count++;
        id = n.id;
      }
    }
    return count === 1 && id ? id : count;
  });
}

function LayerForm({ id }: { id: string }) {
  const data = useEditorStore((s) => s.nodes.find((n) => n.id === id)?.data);
  const info = useAnalysis((d) => d.nodes.get(id));
  const issues = useAnalysis((d) => d.analysis.issues);
  const updateParam = useEditorStore((s) => s.updateParam);
  const setLabel = useEditorStore((s) => s.setLabel);
  const deleteSelection = useEditorStore((s) => s.deleteSelection);
  if (!data) return null;
  const type: LayerType = data.layerType;
  const def = layerCatalog[type];
  const fields = layerFields(type);
  const fieldNames = new Set(fields.map((f) => f.name));
  // Problems with one param show under its input; the rest above the form.
  const fieldErrors = new Map<string, string>();
  const problems: string[] = [];
  for (const issue of issues) {
    if (issue.nodeId !== id) continue;
    const param = issue.param?.split(".")[0];
    if (issue.code === "invalid_params" && param && fieldNames.has(param)) {
      const marker = `${issue.param}: `;
      const at = issue.message.indexOf(marker);
      fieldErrors.set(param, at >= 0 ? issue.message.slice(at + marker.length) : issue.message);
    } else {
      problems.push(issue.message);
    }
  }

  return (
    <div className="space-y-5" data-testid="inspector">
      <div className="flex items-start gap-3">
        <span aria-hidden className={cn("mt-1 h-8 w-1 rounded-full", CATEGORY_COLOR[def.category])} />
        <div className="min-w-0">
          <h2 className="text-base font-semibold">{def.label}</h2>
          <p className="font-mono text-xs text-muted">{id}</p>
          <p className="mt-1 text-xs text-muted">{def.description}</p>
        </div>
      </div>

      <dl className="grid grid-cols-2 gap-x-3 gap-y-2 rounded-lg border border-border bg-panel-2 px-3 py-2.5">
        <div className="col-span-2 flex items-baseline justify-between gap-2">
          <dt className="text-xs text-muted">Output shape</dt>
          <dd className="truncate font-mono text-xs font-medium" data-testid="inspector-shape">
            {info?.shape ?? "?"}
          </dd>
        </div>
        <div className="flex items-baseline justify-between gap-2">
          <dt className="text-xs text-muted">Params</dt>
          <dd className="font-mono text-xs" title={(info?.params ?? 0).toLocaleString()}>
            {formatCount(info?.params ?? 0)}
          </dd>
        </div>
        <div className="flex items-baseline justify-between gap-2">
          <dt className="text-xs text-muted">FLOPs</dt>
          <dd className="font-mono text-xs">{formatFlops(info?.flops ?? 0).replace(" FLOPs", "")}</dd>
        </div>
      </dl>

      {problems.length > 0 ? (
        <ul
          className="space-y-1 rounded-lg border border-danger/40 bg-danger-soft px-3 py-2 text-xs text-danger"
          data-testid="inspector-problems"
        >
          {problems.map((m) => (
            <li key={m}>{m}</li>
          ))}
        </ul>
      ) : null}

      <div className="space-y-1">
        <label htmlFor={`label-${id}`} className="block text-sm font-medium">
          Name
        </label>
        <input
          id={`label-${id}`}
          className={inputClass}
          value={data.label ?? ""}
          placeholder={def.label}
          maxLength={80}
          onChange={(e) => setLabel(id, e.target.value)}
        />
      </div>

      {fields.length > 0 ? (
        <fieldset className="space-y-4">
          <legend className="mb-3 text-xs font-semibold uppercase tracking-wide text-muted">
            Parameters
          </legend>
          {fields.map((f) => (
            <ParamInput
              key={`${id}:${f.name}`}
              field={f}
              value={data.params[f.name]}
              validate={(text) => validateLayerParam(type, f, text)}
              onCommit={(v) => updateParam(id, f.name, v)}
              externalError={fieldErrors.get(f.name)}
            />
          ))}
        </fieldset>
      ) : (
        <p className="text-sm text-muted">This layer has no parameters.</p>
      )}

      <Button variant="secondary" size="sm" onClick={deleteSelection} className="w-full text-danger">
        <Trash2 aria-hidden className="h-4 w-4" /> Delete layer
      </Button>
    </div>
  );
}

/** The side panel's "Layer" tab: a form generated from the selected layer's params schema. */
export function Inspector() {
  const selection = useSelection();
  const deleteSelection = useEditorStore((s) => s.deleteSelection);
  if (typeof selection === "string") return <LayerForm key={selection} id={selection} />;
  if (selection > 1) {
    return (
      <div className="space-y-3 text-sm">
        <p className="font-medium">{selection} layers selected</p>
        <p className="text-muted">Drag to move them together, copy them with Ctrl+C, or delete them.</p>
        <Button variant="secondary" size="sm" onClick={deleteSelection} className="w-full text-danger">
          <Trash2 aria-hidden className="h-4 w-4" /> Delete {selection} layers
        </Button>
      </div>
    );
  }
  return (
    <div className="flex flex-col items-center px-2 py-10 text-center">
      <div className="mb-3 flex h-10 w-10 items-center justify-center rounded-full bg-accent-soft text-accent">
        <MousePointerClick aria-hidden className="h-5 w-5" />
      </div>
      <p className="text-sm font-medium">No layer selected</p>
      <p className="mt-1 text-xs text-muted">
        Click a layer on the canvas to edit its parameters. Drag layers in from the palette, then connect an
        output handle (bottom) to an input handle (top).
      </p>
    </div>
  );
}
