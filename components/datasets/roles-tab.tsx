"use client";

import { useQueryClient } from "@tanstack/react-query";
import { AlertTriangle, CheckCircle2, Lock, Wand2 } from "lucide-react";
import { useMemo, useState } from "react";
import { Alert } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardHeader } from "@/components/ui/card";
import { cn } from "@/components/ui/cn";
import { inputClass } from "@/components/ui/field";
import { $api } from "@/lib/api/client";
import { datasetKeys } from "@/lib/api/datasets/keys";
import { formatCount, taskLabel } from "@/lib/datasets-ui/format";
import {
  inferTask,
  ROLE_HINTS,
  ROLE_LABELS,
  ROLES,
  type Role,
  type RoleColumn,
  type RoleMap,
  rolesPatch,
  suggestRoles,
  validateRoles,
} from "@/lib/datasets-ui/roles";
import { LayerlineError } from "@/sdk/src/errors";
import type { DatasetTabProps } from "./types";

type Draft = Record<string, Role | null>;

function fromSaved(columns: RoleColumn[], saved: RoleMap): Draft {
  return Object.fromEntries(columns.map((c) => [c.name, saved[c.name] ?? null]));
}

function toRoleMap(draft: Draft): RoleMap {
  const out: RoleMap = {};
  for (const [k, v] of Object.entries(draft)) if (v) out[k] = v;
  return out;
}

/** One role per column, checked as you go, with the task the roles imply. */
export function RolesTab({ dataset, version }: DatasetTabProps) {
  const queryClient = useQueryClient();
  const columns: RoleColumn[] = useMemo(
    () =>
      version.schema.columns.map((c) => {
        const p = version.profile?.columns.find((x) => x.name === c.name);
        return { name: c.name, type: c.type, distinct: p?.distinct, missing: p?.missing };
      }),
    [version],
  );
  const [draft, setDraft] = useState<Draft>(() => fromSaved(columns, dataset.roles));
  const [savedTask, setSavedTask] = useState<string | null>(null);
  const roles = toRoleMap(draft);
  const issues = validateRoles(version.schema.format, columns, roles);
  const errors = issues.filter((i) => i.severity === "error");
  const warnings = issues.filter((i) => i.severity === "warning");
  const task = inferTask(version.schema.format, columns, roles);
  const patch = rolesPatch(dataset.roles, draft);
  const dirty = Object.keys(patch).length > 0;
  const readOnly = dataset.read_only;

  const save = $api.useMutation("patch", "/api/v1/datasets/{dataset_id}/roles", {
    onSuccess: (data) => {
      setSavedTask(data.task ?? "none");
      queryClient.invalidateQueries({ queryKey: datasetKeys.detail });
      queryClient.invalidateQueries({ queryKey: datasetKeys.browse });
    },
  });
  const serverError = save.error instanceof LayerlineError ? save.error : null;

  const setRole = (name: string, role: Role | null) => {
    setSavedTask(null);
    save.reset();
    setDraft((d) => {
      const next = { ...d, [name]: role };
      // One target at a time: choosing a new target makes the old one a feature.
      if (role === "target") {
        for (const k of Object.keys(next)) if (k !== name && next[k] === "target") next[k] = "feature";
      }
      return next;
    });
  };
  const target = Object.entries(roles).find(([, r]) => r === "target")?.[0];
  const targetCol = columns.find((c) => c.name === target);

  return (
    <Card>
      <CardHeader
        title="Column roles"
        description="Tell training what each column is for. The task follows from the target column."
        actions={
          <div className="text-right">
            <p className="text-xs text-muted">Inferred task</p>
            <p className="mt-0.5" data-testid="inferred-task">
              <Badge tone={task ? "ok" : "neutral"}>{taskLabel(task)}</Badge>
            </p>
          </div>
        }
      />
      <div className="space-y-4 px-5 py-4">
        {readOnly ? (
          <p className="flex items-center gap-2 text-sm text-muted">
            <Lock aria-hidden className="h-4 w-4" />
            {dataset.builtin ? "Built-in datasets are read-only." : "Only the owner can change roles."} These
            are its roles.
          </p>
        ) : null}
        {task && targetCol ? (
          <p className="text-sm text-muted">
            Target <code className="font-mono text-fg">{targetCol.name}</code> is {targetCol.type}
            {targetCol.distinct !== undefined
              ? ` with ${formatCount(targetCol.distinct)} distinct values`
              : ""}
            , so this is <span className="font-medium text-fg">{taskLabel(task).toLowerCase()}</span>.
          </p>
        ) : null}
        <div className="overflow-x-auto">
          <table className="w-full text-sm">
            <caption className="sr-only">Role of each column</caption>
            <thead>
              <tr className="border-b border-border text-left text-xs text-muted">
                <th scope="col" className="py-2 pr-3 font-medium">
                  Column
                </th>
                <th scope="col" className="px-3 py-2 font-medium">
                  Type
                </th>
                <th scope="col" className="px-3 py-2 text-right font-medium">
                  Distinct
                </th>
                <th scope="col" className="px-3 py-2 text-right font-medium">
                  Missing
                </th>
                <th scope="col" className="py-2 pl-3 font-medium">
                  Role
                </th>
              </tr>
            </thead>
            <tbody>
              {columns.map((c) => {
                const role = draft[c.name];
                const changed = (dataset.roles[c.name] ?? null) !== role;
                return (
                  <tr
                    key={c.name}
                    className={cn(
                      "border-b border-border last:border-b-0",
                      role === "target" && "bg-ok-soft/50",
                    )}
                  >
                    <th scope="row" className="py-2 pr-3 text-left font-mono text-sm font-medium">
                      {c.name}
                      {changed ? (
                        <span className="ml-2 font-sans text-xs font-normal text-accent">changed</span>
                      ) : null}
                    </th>
                    <td className="px-3 py-2 text-muted">{c.type}</td>
                    <td className="px-3 py-2 text-right tabular-nums">{formatCount(c.distinct)}</td>
                    <td
                      className={cn("px-3 py-2 text-right tabular-nums", (c.missing ?? 0) > 0 && "text-warn")}
                    >
                      {formatCount(c.missing)}
                    </td>
                    <td className="py-1.5 pl-3">
                      <select
                        aria-label={`Role of ${c.name}`}
                        className={cn(inputClass, "h-8 w-40")}
                        value={role ?? ""}
                        disabled={readOnly || save.isPending}
                        onChange={(e) => setRole(c.name, (e.target.value || null) as Role | null)}
                      >
                        <option value="">No role</option>
                        {ROLES.map((r) => (
                          <option key={r} value={r} title={ROLE_HINTS[r]}>
                            {ROLE_LABELS[r]}
                          </option>
                        ))}
                      </select>
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>

        {errors.length > 0 ? (
          <Alert>
            {errors.map((e) => (
              <p key={e.message}>{e.message}</p>
            ))}
          </Alert>
        ) : null}
        {warnings.length > 0 && !readOnly ? (
          <ul className="space-y-1 text-sm text-warn">
            {warnings.map((w) => (
              <li key={w.message} className="flex items-start gap-2">
                <AlertTriangle aria-hidden className="mt-0.5 h-4 w-4 shrink-0" />
                {w.message}
              </li>
            ))}
          </ul>
        ) : null}
        {serverError ? <Alert>{serverError.fieldError("roles") ?? serverError.message}</Alert> : null}
        {savedTask !== null && !dirty ? (
          <p className="flex items-center gap-2 text-sm text-ok" role="status">
            <CheckCircle2 aria-hidden className="h-4 w-4" />
            Roles saved. Task: {savedTask === "none" ? "none yet" : taskLabel(savedTask)}.
          </p>
        ) : null}

        {readOnly ? null : (
          <div className="flex flex-wrap items-center justify-between gap-2 border-t border-border pt-4">
            <Button
              variant="ghost"
              size="sm"
              onClick={() => setDraft(fromSaved(columns, suggestRoles(columns, roles)))}
              disabled={save.isPending || columns.every((c) => draft[c.name])}
            >
              <Wand2 aria-hidden className="h-4 w-4" /> Fill empty roles
            </Button>
            <div className="flex gap-2">
              <Button
                variant="secondary"
                onClick={() => {
                  setDraft(fromSaved(columns, dataset.roles));
                  save.reset();
                }}
                disabled={!dirty || save.isPending}
              >
                Reset
              </Button>
              <Button
                onClick={() =>
                  save.mutate({ params: { path: { dataset_id: dataset.id } }, body: { roles: patch } })
                }
                disabled={!dirty || errors.length > 0 || save.isPending}
              >
                {save.isPending ? "Saving…" : "Save roles"}
              </Button>
            </div>
          </div>
        )}
      </div>
    </Card>
  );
}
