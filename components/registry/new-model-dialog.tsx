"use client";

import { useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { type FormEvent, useId, useState } from "react";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Field, inputClass } from "@/components/ui/field";
import { Modal } from "@/components/ui/modal";
import { $api } from "@/lib/api/client";
import { MODELS_PATH, registryKeys } from "@/lib/api/registry/keys";
import { LayerlineError } from "@/sdk/src/errors";

/** Task contract keys offered for a model's task (free text is accepted by the API too). */
export const TASK_OPTIONS = [
  "tabular-classification",
  "tabular-regression",
  "image-classification",
  "text-generation",
] as const;

/** "New model": name, description and task; opens the new entry. */
export function NewModelDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const router = useRouter();
  const queryClient = useQueryClient();
  const [name, setName] = useState("");
  const [description, setDescription] = useState("");
  const [task, setTask] = useState("");
  const descriptionId = useId();
  const taskId = useId();
  const create = $api.useMutation("post", MODELS_PATH, {
    onSuccess: (model) => {
      queryClient.invalidateQueries({ queryKey: registryKeys.models });
      onClose();
      router.push(`/models/${model.id}`);
    },
  });
  const error = create.error instanceof LayerlineError ? create.error : null;
  const submit = (e: FormEvent) => {
    e.preventDefault();
    create.mutate({
      body: { name: name.trim(), description: description.trim() || undefined, task: task || null },
    });
  };
  return (
    <Modal
      open={open}
      onClose={onClose}
      title="New model"
      description="A registry entry: its versions, artifacts, lineage and aliases live under it."
      size="sm"
      footer={
        <>
          <Button variant="secondary" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" form="new-model-form" disabled={create.isPending || name.trim() === ""}>
            {create.isPending ? "Creating…" : "Create model"}
          </Button>
        </>
      }
    >
      <form id="new-model-form" onSubmit={submit} className="space-y-3">
        <Field
          label="Name"
          value={name}
          maxLength={100}
          placeholder="iris-classifier"
          onChange={(e) => setName(e.target.value)}
          error={error?.fieldError("name")}
          autoFocus
        />
        <div className="space-y-1">
          <label htmlFor={descriptionId} className="block text-sm font-medium">
            Description <span className="font-normal text-muted">(optional)</span>
          </label>
          <textarea
            id={descriptionId}
            value={description}
            maxLength={5000}
            rows={3}
            onChange={(e) => setDescription(e.target.value)}
            className={`${inputClass} h-auto py-2`}
          />
        </div>
        <div className="space-y-1">
          <label htmlFor={taskId} className="block text-sm font-medium">
            Task
          </label>
          <select id={taskId} value={task} onChange={(e) => setTask(e.target.value)} className={inputClass}>
            <option value="">Not set</option>
            {TASK_OPTIONS.map((t) => (
              <option key={t} value={t}>
                {t}
              </option>
            ))}
          </select>
        </div>
        {error && !error.fieldError("name") ? <Alert>{error.message}</Alert> : null}
      </form>
    </Modal>
  );
}
