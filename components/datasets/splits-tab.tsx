"use client";

import { useQueryClient } from "@tanstack/react-query";
import { CheckCircle2, Dices, Loader2, Lock, Scissors } from "lucide-react";
import { useId, useMemo, useState } from "react";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Card, CardHeader } from "@/components/ui/card";
import { cn } from "@/components/ui/cn";
import { inputClass } from "@/components/ui/field";
import { $api } from "@/lib/api/client";
import { datasetKeys } from "@/lib/api/datasets/keys";
import { formatCount, formatPercent, formatRelative } from "@/lib/datasets-ui/format";
import {
  classBalance,
  randomSplit,
  SPLIT_LABELS,
  SPLIT_NAMES,
  type SplitName,
  type SplitPercents,
  splitsRequestBody,
  stratifiedSplit,
  validatePercents,
} from "@/lib/datasets-ui/splits";
import { ClassBalance } from "./class-balance";
import { errorMessage } from "./error-message";
import type { DatasetTabProps } from "./types";
import { useColumnValues } from "./use-dataset-rows";

/** Columns with at most this many distinct values can stratify a split. */
const MAX_STRATA = 50;

type Method = "random" | "stratified";

/**
 * Train/validation/test splits made here, random or stratified by a class column, from a seed; sent
 * as explicit row membership. The preview shows each split's size and class balance before saving.
 * Only the class column is read from the server (in large pages), never whole rows.
 */
export function SplitsTab({ dataset, version }: DatasetTabProps) {
  const queryClient = useQueryClient();
  const ids = { method: useId(), column: useId(), seed: useId() };
  const rowCount = version.row_count ?? 0;
  const classColumns = useMemo(
    () =>
      version.schema.columns.filter((c) => {
        const p = version.profile?.columns.find((x) => x.name === c.name);
        return p !== undefined && p.distinct > 0 && p.distinct <= MAX_STRATA;
      }),
    [version],
  );
  const target = Object.entries(dataset.roles).find(([, r]) => r === "target")?.[0];
  const defaultColumn = classColumns.find((c) => c.name === target)?.name ?? classColumns[0]?.name ?? "";

  const [method, setMethod] = useState<Method>(defaultColumn ? "stratified" : "random");
  const [column, setColumn] = useState(defaultColumn);
  const values = useColumnValues(dataset.id, version, column, { enabled: column !== "" });
  const [percents, setPercents] = useState<SplitPercents>({ train: 80, validation: 10, test: 10 });
  const [seed, setSeed] = useState(42);

  const percentError = validatePercents(percents);
  const labels = values.data?.values ?? null;
  const usable = values.data?.matchesServer ?? false;
  const membership = useMemo(() => {
    if (percentError || rowCount === 0) return null;
    if (method === "stratified") return labels && usable ? stratifiedSplit(labels, percents, seed) : null;
    return randomSplit(rowCount, percents, seed);
  }, [method, labels, usable, percents, seed, rowCount, percentError]);
  const balance = useMemo(
    () => (membership && labels && usable ? classBalance(labels, membership, 12) : null),
    [membership, labels, usable],
  );

  const save = $api.useMutation(
    "post",
    "/api/v1/datasets/{dataset_id}/versions/{version_id}/splits/explicit",
    {
      onSuccess: () => queryClient.invalidateQueries({ queryKey: datasetKeys.version }),
    },
  );
  const saved = version.splits;
  const readOnly = dataset.read_only;
  const setPercent = (name: SplitName, value: string) => {
    save.reset();
    setPercents((p) => ({ ...p, [name]: value === "" ? Number.NaN : Number(value) }));
  };

  return (
    <div className="grid gap-5 lg:grid-cols-[22rem_1fr]">
      <Card className="self-start">
        <CardHeader
          title="Make splits"
          description="Computed in your browser from a seed: the same seed gives the same rows."
        />
        <form
          className="space-y-4 px-5 py-4"
          onSubmit={(e) => {
            e.preventDefault();
            if (!membership) return;
            save.mutate({
              params: { path: { dataset_id: dataset.id, version_id: version.id } },
              body: splitsRequestBody(membership),
            });
          }}
        >
          <fieldset>
            <legend className="mb-1.5 text-sm font-medium">Method</legend>
            <div className="grid grid-cols-2 gap-1 rounded-md border border-border bg-panel-2 p-1">
              {(["random", "stratified"] as const).map((m) => (
                <label
                  key={m}
                  className={cn(
                    "flex cursor-pointer items-center justify-center rounded px-2 py-1.5 text-sm has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-accent",
                    method === m ? "bg-panel font-medium text-fg shadow-sm" : "text-muted hover:text-fg",
                    m === "stratified" && classColumns.length === 0 && "pointer-events-none opacity-50",
                  )}
                >
                  <input
                    type="radio"
                    name={ids.method}
                    value={m}
                    checked={method === m}
                    disabled={m === "stratified" && classColumns.length === 0}
                    onChange={() => {
                      setMethod(m);
                      save.reset();
                    }}
                    className="sr-only"
                  />
                  {m === "random" ? "Random" : "Stratified"}
                </label>
              ))}
            </div>
          </fieldset>

          <div className="space-y-1">
            <label htmlFor={ids.column} className="block text-sm font-medium">
              {method === "stratified" ? "Stratify by" : "Show class balance of"}
            </label>
            <select
              id={ids.column}
              className={inputClass}
              value={column}
              disabled={classColumns.length === 0}
              onChange={(e) => {
                setColumn(e.target.value);
                save.reset();
              }}
            >
              {classColumns.length === 0 ? <option value="">No class-like column</option> : null}
              {classColumns.map((c) => (
                <option key={c.name} value={c.name}>
                  {c.name}
                  {c.name === target ? " (target)" : ""}
                </option>
              ))}
            </select>
            <p className="text-xs text-muted">Columns with at most {MAX_STRATA} distinct values.</p>
          </div>

          <fieldset>
            <legend className="mb-1.5 text-sm font-medium">Sizes</legend>
            <div className="grid grid-cols-3 gap-2">
              {SPLIT_NAMES.map((name) => (
                <div key={name}>
                  <label htmlFor={`${ids.method}-${name}`} className="mb-1 block text-xs text-muted">
                    {SPLIT_LABELS[name]} %
                  </label>
                  <input
                    id={`${ids.method}-${name}`}
                    type="number"
                    min={0}
                    max={100}
                    step={1}
                    inputMode="numeric"
                    className={cn(inputClass, "tabular-nums", percentError && "border-danger")}
                    value={Number.isNaN(percents[name]) ? "" : percents[name]}
                    onChange={(e) => setPercent(name, e.target.value)}
                  />
                </div>
              ))}
            </div>
            {percentError ? <p className="mt-1 text-xs text-danger">{percentError}</p> : null}
          </fieldset>

          <div className="space-y-1">
            <label htmlFor={ids.seed} className="block text-sm font-medium">
              Seed
            </label>
            <div className="flex gap-2">
              <input
                id={ids.seed}
                type="number"
                step={1}
                className={cn(inputClass, "tabular-nums")}
                value={seed}
                onChange={(e) => {
                  setSeed(Math.trunc(Number(e.target.value) || 0));
                  save.reset();
                }}
              />
              <Button
                variant="secondary"
                aria-label="New random seed"
                title="New random seed"
                onClick={() => {
                  setSeed(Math.floor(Math.random() * 1_000_000));
                  save.reset();
                }}
              >
                <Dices aria-hidden className="h-4 w-4" />
              </Button>
            </div>
          </div>

          {readOnly ? (
            <p className="flex items-center gap-2 text-sm text-muted">
              <Lock aria-hidden className="h-4 w-4" />
              {dataset.builtin
                ? "Built-in datasets are read-only: preview only."
                : "Only the owner can save splits."}
            </p>
          ) : (
            <Button type="submit" className="w-full" disabled={!membership || save.isPending}>
              <Scissors aria-hidden className="h-4 w-4" />
              {save.isPending ? "Saving…" : "Save splits"}
            </Button>
          )}
          {save.error ? <Alert>{errorMessage(save.error)}</Alert> : null}
          {save.isSuccess ? (
            <p className="flex items-center gap-2 text-sm text-ok" role="status">
              <CheckCircle2 aria-hidden className="h-4 w-4" /> Splits saved.
            </p>
          ) : null}
        </form>
      </Card>

      <div className="space-y-5">
        {saved ? (
          <div
            className="rounded-lg border border-border bg-panel px-5 py-3 text-sm"
            data-testid="saved-splits"
          >
            <span className="font-medium">Saved splits</span>{" "}
            <span className="text-muted">
              ({formatRelative(saved.created_at)}): train {formatCount(saved.train)} · validation{" "}
              {formatCount(saved.validation)} · test {formatCount(saved.test)}
            </span>
          </div>
        ) : null}
        <Card>
          <CardHeader
            title="Preview"
            description={
              membership
                ? `${formatCount(rowCount)} rows: ${SPLIT_NAMES.map(
                    (n) => `${SPLIT_LABELS[n].toLowerCase()} ${formatCount(membership[n].length)}`,
                  ).join(", ")}`
                : percentError
                  ? "Choose sizes that add up to 100 %."
                  : method === "stratified"
                    ? `Waiting for the values of ${column}…`
                    : "Waiting for the rows…"
            }
          />
          <div className="px-5 py-4">
            {values.isFetching ? (
              <p className="mb-3 flex items-center gap-2 text-sm text-muted" role="status">
                <Loader2 aria-hidden className="h-4 w-4 animate-spin" /> Reading the values of {column}…{" "}
                {formatPercent(values.progress)}
              </p>
            ) : null}
            {values.waitsForRequest ? (
              <div className="mb-4 flex flex-wrap items-center gap-3 text-sm text-muted">
                The class balance and stratified splits need the {column} value of all {formatCount(rowCount)}{" "}
                rows (only that column is read).
                <Button size="sm" variant="secondary" onClick={values.load}>
                  Read {column}
                </Button>
              </div>
            ) : null}
            {values.data && !values.data.matchesServer ? (
              <Alert tone="warn">
                {formatCount(values.data.values.length)} values of {column} were read but the server counted{" "}
                {formatCount(rowCount)} rows; row numbers would not match, so splits cannot be made from them.
              </Alert>
            ) : null}
            {values.error ? <Alert>{errorMessage(values.error)}</Alert> : null}
            {balance && column ? (
              <ClassBalance balance={balance} column={column} />
            ) : membership ? (
              <ul className="space-y-1 text-sm">
                {SPLIT_NAMES.map((n) => (
                  <li key={n} className="flex justify-between">
                    <span>{SPLIT_LABELS[n]}</span>
                    <span className="tabular-nums">{formatCount(membership[n].length)} rows</span>
                  </li>
                ))}
              </ul>
            ) : null}
          </div>
        </Card>
      </div>
    </div>
  );
}
