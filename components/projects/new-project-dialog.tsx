"use client";

import { useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { type FormEvent, useState } from "react";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { cn } from "@/components/ui/cn";
import { Field } from "@/components/ui/field";
import { Modal } from "@/components/ui/modal";
import { $api } from "@/lib/api/client";
import { useDatasetList } from "@/lib/api/datasets/queries";
import { projectKeys } from "@/lib/api/projects/keys";
import { formatCount } from "@/lib/editor/format";
import { LayerlineError } from "@/sdk/src/errors";
import { TEMPLATE_OPTIONS, type TemplateOption } from "./template-options";

function NewProjectForm({ onClose }: { onClose: () => void }) {
  const router = useRouter();
  const queryClient = useQueryClient();
  const [name, setName] = useState("");
  const [template, setTemplate] = useState<TemplateOption["id"] | "dataset">("blank");
  const [datasetId, setDatasetId] = useState("");
  const datasets = useDatasetList({ limit: 100 }, { enabled: template === "dataset" });
  const create = $api.useMutation("post", "/api/v1/projects", {
    onSuccess: (project) => {
      queryClient.invalidateQueries({ queryKey: projectKeys.list });
      // A project made for a dataset opens with the Train dialog: it fits as it is.
      router.push(template === "dataset" ? `/projects/${project.id}?train=1` : `/projects/${project.id}`);
    },
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (template === "dataset") {
      if (!datasetId) return;
      create.mutate({ body: { dataset_id: datasetId, ...(name.trim() ? { name: name.trim() } : {}) } });
      return;
    }
    const picked = TEMPLATE_OPTIONS.find((t) => t.id === template);
    const finalName = name.trim() || (picked && picked.id !== "blank" ? picked.name : "Untitled project");
    create.mutate({ body: { name: finalName, ...(template === "blank" ? {} : { template }) } });
  };
  const error = create.error instanceof LayerlineError ? create.error : null;
  return (
    <form id="new-project-form" onSubmit={submit} className="space-y-5">
      <Field
        label="Name"
        value={name}
        onChange={(e) => setName(e.target.value)}
        placeholder="e.g. MNIST classifier"
        maxLength={120}
        error={error?.fieldError("name")}
        autoFocus
      />
      <fieldset>
        <legend className="mb-2 text-sm font-medium">Start from</legend>
        <div className="grid gap-2 sm:grid-cols-2">
          {TEMPLATE_OPTIONS.map((t) => (
            <label
              key={t.id}
              className={cn(
                "flex cursor-pointer flex-col rounded-lg border p-3 transition",
                template === t.id
                  ? "border-accent bg-accent-soft/50 ring-1 ring-accent"
                  : "border-border hover:bg-panel-2",
              )}
            >
              <span className="flex items-center gap-2">
                <input
                  type="radio"
                  name="template"
                  value={t.id}
                  checked={template === t.id}
                  onChange={() => setTemplate(t.id)}
                  className="accent-[var(--accent)]"
                />
                <span className="text-sm font-semibold">{t.name}</span>
              </span>
              <span className="mt-1 text-xs text-muted">{t.description}</span>
              {t.layers > 0 ? (
                <span className="mt-2 font-mono text-[11px] text-muted">
                  {t.layers} layers · {formatCount(t.params)} params
                </span>
              ) : null}
            </label>
          ))}
          <label
            className={cn(
              "flex cursor-pointer flex-col rounded-lg border p-3 transition sm:col-span-2",
              template === "dataset"
                ? "border-accent bg-accent-soft/50 ring-1 ring-accent"
                : "border-border hover:bg-panel-2",
            )}
          >
            <span className="flex items-center gap-2">
              <input
                type="radio"
                name="template"
                value="dataset"
                checked={template === "dataset"}
                onChange={() => setTemplate("dataset")}
                className="accent-[var(--accent)]"
              />
              <span className="text-sm font-semibold">From a dataset</span>
            </span>
            <span className="mt-1 text-xs text-muted">
              A model sized to the data (inputs, classes or a regression head, picture shape or vocabulary),
              ready to train as it is.
            </span>
          </label>
        </div>
        {template === "dataset" ? (
          <div className="mt-3 space-y-1">
            <label htmlFor="new-project-dataset" className="block text-sm font-medium">
              Dataset
            </label>
            <select
              id="new-project-dataset"
              value={datasetId}
              onChange={(e) => setDatasetId(e.target.value)}
              className="h-9 w-full rounded-md border border-border bg-panel px-2 text-sm"
              required
            >
              <option value="" disabled>
                {datasets.isPending ? "Loading datasets…" : "Choose a dataset"}
              </option>
              {(datasets.data ?? []).map((d) => (
                <option key={d.id} value={d.id}>
                  {d.name}
                  {d.builtin ? " (built-in)" : ""}
                </option>
              ))}
            </select>
          </div>
        ) : null}
      </fieldset>
      {error && !error.fieldError("name") ? <Alert>{error.message}</Alert> : null}
      <div className="flex justify-end gap-2 border-t border-border pt-4">
        <Button variant="ghost" onClick={onClose}>
          Cancel
        </Button>
        <Button type="submit" disabled={create.isPending || create.isSuccess}>
          {create.isPending || create.isSuccess ? "Creating…" : "Create project"}
        </Button>
      </div>
    </form>
  );
}

export function NewProjectDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  return (
    <Modal
      open={open}
      onClose={onClose}
      size="lg"
      title="New project"
      description="A project holds one architecture diagram, its training configuration and its versions."
    >
      <NewProjectForm onClose={onClose} />
    </Modal>
  );
}
