"use client";

import { useQueryClient } from "@tanstack/react-query";
import { Pencil, Trash2 } from "lucide-react";
import { useRouter } from "next/navigation";
import { useId, useState } from "react";
import { errorMessage } from "@/components/training/error-message";
import { Alert } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { inputClass } from "@/components/ui/field";
import { Modal } from "@/components/ui/modal";
import { PageHeader } from "@/components/ui/page-header";
import { $api } from "@/lib/api/client";
import { invalidateRegistry, MODEL_PATH, registryKeys } from "@/lib/api/registry/keys";
import type { RegisteredModel } from "./types";

/** The description, edited in place (Save / Cancel). */
function DescriptionEditor({ model }: { model: RegisteredModel }) {
  const queryClient = useQueryClient();
  const [editing, setEditing] = useState(false);
  const [text, setText] = useState(model.description);
  const id = useId();
  const update = $api.useMutation("patch", MODEL_PATH, {
    onSuccess: () => {
      invalidateRegistry(queryClient);
      setEditing(false);
    },
  });
  if (!editing)
    return (
      <div className="flex items-start gap-2">
        <p className="max-w-3xl text-sm whitespace-pre-line text-muted" data-testid="model-description">
          {model.description || "No description."}
        </p>
        <Button
          variant="ghost"
          size="sm"
          className="-mt-1.5 h-7 px-2"
          aria-label="Edit the description"
          onClick={() => {
            setText(model.description);
            update.reset();
            setEditing(true);
          }}
        >
          <Pencil aria-hidden className="h-3.5 w-3.5" />
        </Button>
      </div>
    );
  return (
    <form
      className="max-w-3xl space-y-2"
      onSubmit={(e) => {
        e.preventDefault();
        update.mutate({ params: { path: { model_id: model.id } }, body: { description: text } });
      }}
    >
      <label htmlFor={id} className="sr-only">
        Description
      </label>
      <textarea
        id={id}
        value={text}
        rows={3}
        maxLength={5000}
        onChange={(e) => setText(e.target.value)}
        className={`${inputClass} h-auto py-2`}
        // biome-ignore lint/a11y/noAutofocus: the user just asked to edit this field
        autoFocus
      />
      {update.error ? <Alert>{errorMessage(update.error)}</Alert> : null}
      <div className="flex gap-2">
        <Button type="submit" size="sm" disabled={update.isPending}>
          {update.isPending ? "Saving…" : "Save description"}
        </Button>
        <Button variant="ghost" size="sm" onClick={() => setEditing(false)}>
          Cancel
        </Button>
      </div>
    </form>
  );
}

function DeleteModelButton({ model, versions }: { model: RegisteredModel; versions: number }) {
  const router = useRouter();
  const queryClient = useQueryClient();
  const [open, setOpen] = useState(false);
  const remove = $api.useMutation("delete", MODEL_PATH, {
    onSuccess: () => {
      queryClient.invalidateQueries({ queryKey: registryKeys.models });
      router.push("/models");
    },
  });
  return (
    <>
      <Button
        variant="secondary"
        size="sm"
        onClick={() => {
          remove.reset();
          setOpen(true);
        }}
      >
        <Trash2 aria-hidden className="h-4 w-4" /> Delete
      </Button>
      <Modal
        open={open}
        onClose={() => setOpen(false)}
        title={`Delete “${model.name}”?`}
        size="sm"
        footer={
          <>
            <Button variant="secondary" onClick={() => setOpen(false)}>
              Keep it
            </Button>
            <Button
              variant="danger"
              disabled={remove.isPending}
              onClick={() => remove.mutate({ params: { path: { model_id: model.id } } })}
            >
              {remove.isPending ? "Deleting…" : "Delete model"}
            </Button>
          </>
        }
      >
        <div className="space-y-3 text-sm">
          <p>
            This deletes the entry with its {versions} version{versions === 1 ? "" : "s"}, their artifacts and
            aliases. The training jobs they came from are kept. It cannot be undone.
          </p>
          {remove.error ? <Alert>{errorMessage(remove.error)}</Alert> : null}
        </div>
      </Modal>
    </>
  );
}

/** Breadcrumb, name, task, editable description, delete. */
export function ModelHeader({ model, versions }: { model: RegisteredModel; versions: number }) {
  return (
    <PageHeader
      title={model.name}
      crumbs={[{ href: "/models", label: "Models" }]}
      badges={
        <>
          {model.task ? <Badge tone="accent">{model.task}</Badge> : null}
          {model.tags.map((t) => (
            <Badge key={t}>{t}</Badge>
          ))}
        </>
      }
      actions={<DeleteModelButton model={model} versions={versions} />}
    >
      <DescriptionEditor model={model} />
    </PageHeader>
  );
}
