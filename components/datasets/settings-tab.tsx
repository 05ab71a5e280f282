"use client";

import { useQueryClient } from "@tanstack/react-query";
import { AlertTriangle, CheckCircle2, Globe2, Lock, Trash2 } from "lucide-react";
import { type FormEvent, useId, useState } from "react";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Card, CardHeader } from "@/components/ui/card";
import { cn } from "@/components/ui/cn";
import { inputClass } from "@/components/ui/field";
import { $api } from "@/lib/api/client";
import { DATASET_QUERY_KEYS } from "@/lib/api/datasets/keys";
import { formatBytes, formatCount } from "@/lib/datasets-ui/format";
import { LayerlineError } from "@/sdk/src/errors";
import { DeleteDatasetDialog } from "./delete-dataset-dialog";
import { errorMessage } from "./error-message";
import type { DatasetTabProps } from "./types";

type Visibility = "private" | "public";

const VISIBILITY: Record<Visibility, { label: string; icon: typeof Lock; description: string }> = {
  private: {
    label: "Private",
    icon: Lock,
    description: "Only you can see it, read its rows and link it to projects.",
  },
  public: {
    label: "Public",
    icon: Globe2,
    description:
      "Everyone signed in can find it when browsing, read its rows, download it and link it to their projects. Only you can change it.",
  },
};

function useInvalidateDataset() {
  const queryClient = useQueryClient();
  return () => {
    for (const queryKey of DATASET_QUERY_KEYS) queryClient.invalidateQueries({ queryKey });
  };
}

/**
 * The owner's settings of a dataset: name and description, visibility, and deleting it. Built-ins
 * and other people's public datasets have no settings (the tab is not shown for them).
 */
export function SettingsTab({ dataset, version }: DatasetTabProps) {
  const [deleteOpen, setDeleteOpen] = useState(false);
  return (
    <div className="max-w-3xl space-y-5">
      <DetailsCard dataset={dataset} />
      <VisibilityCard dataset={dataset} version={version} />
      <Card className="border-danger/40">
        <CardHeader title="Danger zone" />
        <div className="flex flex-wrap items-center justify-between gap-4 px-5 py-4">
          <div className="min-w-0 max-w-lg text-sm">
            <p className="font-medium">Delete this dataset</p>
            <p className="mt-0.5 text-muted">
              Deletes{" "}
              {dataset.version_count === 1
                ? "its version and its file"
                : `all ${dataset.version_count} versions and their files`}{" "}
              ({formatBytes(dataset.size_bytes)}), and unlinks it from every project. This cannot be undone.
            </p>
          </div>
          <Button variant="danger" className="dark:text-bg" onClick={() => setDeleteOpen(true)}>
            <Trash2 aria-hidden className="h-4 w-4" /> Delete dataset
          </Button>
        </div>
      </Card>
      <DeleteDatasetDialog open={deleteOpen} onClose={() => setDeleteOpen(false)} dataset={dataset} />
    </div>
  );
}

function DetailsCard({ dataset }: Pick<DatasetTabProps, "dataset">) {
  const ids = { name: useId(), nameError: useId(), description: useId(), count: useId() };
  const invalidate = useInvalidateDataset();
  const [name, setName] = useState(dataset.name);
  const [description, setDescription] = useState(dataset.description);
  const update = $api.useMutation("put", "/api/v1/datasets/{dataset_id}", { onSuccess: invalidate });
  const trimmed = name.trim();
  const changed = trimmed !== dataset.name || description !== dataset.description;
  const localError = trimmed === "" ? "A dataset needs a name." : null;
  const serverNameError =
    update.error instanceof LayerlineError ? update.error.fieldError("name") : undefined;
  const nameError = localError ?? serverNameError;

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!changed || localError) return;
    update.mutate({
      params: { path: { dataset_id: dataset.id } },
      body: { name: trimmed, description },
    });
  };

  return (
    <Card>
      <CardHeader title="Details" description="How the dataset is listed, here and in projects." />
      <form className="space-y-4 px-5 py-4" onSubmit={submit} noValidate>
        <div className="space-y-1">
          <label htmlFor={ids.name} className="block text-sm font-medium">
            Name
          </label>
          <input
            id={ids.name}
            className={cn(inputClass, nameError && "border-danger")}
            value={name}
            maxLength={120}
            required
            aria-invalid={nameError ? true : undefined}
            aria-describedby={nameError ? ids.nameError : undefined}
            onChange={(e) => {
              setName(e.target.value);
              update.reset();
            }}
          />
          {nameError ? (
            <p id={ids.nameError} className="text-xs text-danger">
              {nameError}
            </p>
          ) : null}
        </div>
        <div className="space-y-1">
          <div className="flex items-baseline justify-between gap-2">
            <label htmlFor={ids.description} className="block text-sm font-medium">
              Description <span className="font-normal text-muted">(optional)</span>
            </label>
            <span id={ids.count} className="text-xs text-muted tabular-nums">
              {formatCount(description.length)} / 2,000
            </span>
          </div>
          <textarea
            id={ids.description}
            className={cn(inputClass, "h-24 resize-y py-2")}
            value={description}
            maxLength={2000}
            aria-describedby={ids.count}
            placeholder="Where the data comes from, what a row is"
            onChange={(e) => {
              setDescription(e.target.value);
              update.reset();
            }}
          />
        </div>
        {update.error && !serverNameError ? <Alert>{errorMessage(update.error)}</Alert> : null}
        <div className="flex items-center justify-end gap-3">
          {update.isSuccess && !changed ? (
            <p className="mr-auto flex items-center gap-1.5 text-sm text-ok" role="status">
              <CheckCircle2 aria-hidden className="h-4 w-4" /> Saved.
            </p>
          ) : null}
          <Button
            variant="secondary"
            disabled={!changed || update.isPending}
            onClick={() => {
              setName(dataset.name);
              setDescription(dataset.description);
              update.reset();
            }}
          >
            Discard
          </Button>
          <Button type="submit" disabled={!changed || Boolean(localError) || update.isPending}>
            {update.isPending ? "Saving…" : "Save details"}
          </Button>
        </div>
      </form>
    </Card>
  );
}

function VisibilityCard({ dataset, version }: DatasetTabProps) {
  const group = useId();
  const invalidate = useInvalidateDataset();
  const [choice, setChoice] = useState<Visibility>(dataset.visibility);
  const update = $api.useMutation("put", "/api/v1/datasets/{dataset_id}", { onSuccess: invalidate });
  const changed = choice !== dataset.visibility;
  const hasPii = version.pii_report?.has_pii === true;

  return (
    <Card>
      <CardHeader
        title="Visibility"
        description={
          <>
            This dataset is{" "}
            <span className="font-medium text-fg">{VISIBILITY[dataset.visibility].label}</span>.
          </>
        }
      />
      <form
        className="space-y-4 px-5 py-4"
        onSubmit={(e) => {
          e.preventDefault();
          if (!changed) return;
          update.mutate({ params: { path: { dataset_id: dataset.id } }, body: { visibility: choice } });
        }}
      >
        <fieldset>
          <legend className="sr-only">Who can see this dataset</legend>
          <div className="grid gap-3 sm:grid-cols-2">
            {(["private", "public"] as const).map((v) => {
              const Icon = VISIBILITY[v].icon;
              const selected = choice === v;
              return (
                <label
                  key={v}
                  className={cn(
                    "flex cursor-pointer gap-3 rounded-lg border p-3.5 transition-colors has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-accent",
                    selected
                      ? "border-accent bg-accent-soft/50 ring-1 ring-accent"
                      : "border-border hover:bg-panel-2",
                  )}
                >
                  <input
                    type="radio"
                    name={group}
                    value={v}
                    checked={selected}
                    onChange={() => {
                      setChoice(v);
                      update.reset();
                    }}
                    className="mt-1 h-4 w-4 shrink-0 accent-[var(--accent)]"
                  />
                  <span className="min-w-0">
                    <span className="flex items-center gap-1.5 text-sm font-medium">
                      <Icon aria-hidden className="h-4 w-4 text-muted" /> {VISIBILITY[v].label}
                    </span>
                    <span className="mt-0.5 block text-xs leading-relaxed text-muted">
                      {VISIBILITY[v].description}
                    </span>
                  </span>
                </label>
              );
            })}
          </div>
        </fieldset>
        {changed && choice === "public" && hasPii ? (
          <Alert tone="warn">
            <span className="flex gap-2">
              <AlertTriangle aria-hidden className="mt-0.5 h-4 w-4 shrink-0" />
              <span>
                The PII scan found personal data in version {version.number}. Everyone signed in will be able
                to read it.
              </span>
            </span>
          </Alert>
        ) : null}
        {update.error ? <Alert>{errorMessage(update.error)}</Alert> : null}
        <div className="flex items-center justify-end gap-3">
          {update.isSuccess && !changed ? (
            <p className="mr-auto flex items-center gap-1.5 text-sm text-ok" role="status">
              <CheckCircle2 aria-hidden className="h-4 w-4" /> The dataset is now{" "}
              {VISIBILITY[dataset.visibility].label.toLowerCase()}.
            </p>
          ) : null}
          <Button type="submit" disabled={!changed || update.isPending}>
            {update.isPending
              ? "Saving…"
              : changed
                ? `Make ${VISIBILITY[choice].label.toLowerCase()}`
                : "Save visibility"}
          </Button>
        </div>
      </form>
    </Card>
  );
}
