"use client";

import { Pencil, Trash2 } from "lucide-react";
import { useRouter } from "next/navigation";
import { type FormEvent, useId, useState, useTransition } from "react";
import { errorMessage } from "@/components/training/error-message";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { cn } from "@/components/ui/cn";
import { ConfirmButton } from "@/components/ui/confirm-button";
import { Field, inputClass } from "@/components/ui/field";
import { Modal } from "@/components/ui/modal";
import { useDeleteHubModel, useUpdateHubModel } from "@/lib/api/hub/mutations";
import { LayerlineError } from "@/sdk/src/errors";
import type { HubModel } from "./hub-format";
import { MarkdownBody } from "./markdown-body";
import { renderCardPreview } from "./render-card-action";

function parseTags(text: string): string[] {
  return [
    ...new Set(
      text
        .split(",")
        .map((t) => t.trim().toLowerCase())
        .filter(Boolean),
    ),
  ];
}

/** The card editor: markdown on one tab, the server-rendered (sanitised) preview on the other. */
function CardEditor({ value, onChange }: { value: string; onChange: (v: string) => void }) {
  const id = useId();
  const [tab, setTab] = useState<"write" | "preview">("write");
  const [preview, setPreview] = useState<string | null>(null);
  const [rendering, startRendering] = useTransition();
  const showPreview = () => {
    setTab("preview");
    startRendering(async () => setPreview(await renderCardPreview(value)));
  };
  const tabClass = (on: boolean) =>
    cn(
      "h-8 rounded-t-md border-b-2 px-3 text-sm font-medium",
      on ? "border-accent text-fg" : "border-transparent text-muted hover:text-fg",
    );
  return (
    <div className="space-y-2">
      <div className="flex items-end justify-between border-b border-border">
        <span id={`${id}-label`} className="pb-1.5 text-sm font-medium">
          Model card
        </span>
        <div role="tablist" aria-labelledby={`${id}-label`} className="flex">
          <button
            type="button"
            role="tab"
            aria-selected={tab === "write"}
            aria-controls={`${id}-write`}
            className={tabClass(tab === "write")}
            onClick={() => setTab("write")}
          >
            Write
          </button>
          <button
            type="button"
            role="tab"
            aria-selected={tab === "preview"}
            aria-controls={`${id}-preview`}
            className={tabClass(tab === "preview")}
            onClick={showPreview}
          >
            Preview
          </button>
        </div>
      </div>
      {tab === "write" ? (
        <div id={`${id}-write`} role="tabpanel">
          <textarea
            aria-label="Model card (markdown)"
            value={value}
            onChange={(e) => onChange(e.target.value)}
            maxLength={100_000}
            rows={18}
            spellCheck
            className={cn(inputClass, "h-auto py-2 font-mono text-xs leading-relaxed")}
          />
          <p className="mt-1 text-xs text-muted">
            Markdown with tables and code blocks; raw HTML is not rendered.
          </p>
        </div>
      ) : (
        <div
          id={`${id}-preview`}
          role="tabpanel"
          aria-busy={rendering}
          data-testid="card-preview"
          className="max-h-[28rem] min-h-40 overflow-y-auto rounded-md border border-border bg-bg px-4 py-3"
        >
          {rendering || preview === null ? (
            <p className="text-sm text-muted">Rendering…</p>
          ) : (
            <MarkdownBody html={preview} />
          )}
        </div>
      )}
    </div>
  );
}

function EditDialog({ model, open, onClose }: { model: HubModel; open: boolean; onClose: () => void }) {
  const router = useRouter();
  const [description, setDescription] = useState(model.description);
  const [license, setLicense] = useState(model.license ?? "");
  const [tags, setTags] = useState(model.tags.join(", "));
  const [card, setCard] = useState(model.card);
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<LayerlineError | Error | null>(null);
  const fieldError = (f: string) => (error instanceof LayerlineError ? error.fieldError(f) : undefined);
  const update = useUpdateHubModel();

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setPending(true);
    setError(null);
    try {
      await update.mutateAsync({
        params: { path: { model_id: model.id } },
        body: { description, license: license.trim() || null, tags: parseTags(tags), card },
      });
      onClose();
      router.refresh();
    } catch (err) {
      setError(err instanceof Error ? err : new Error(errorMessage(err)));
    } finally {
      setPending(false);
    }
  };
  const fieldKnown = ["description", "license", "card"].some((f) => fieldError(f)) || fieldError("tags");
  return (
    <Modal
      open={open}
      onClose={onClose}
      title="Edit the model card"
      description="What visitors read on the model page. The first lines of the description show in listings."
      size="lg"
      footer={
        <>
          <Button variant="secondary" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" form="hub-edit-form" disabled={pending}>
            {pending ? "Saving…" : "Save"}
          </Button>
        </>
      }
    >
      <form id="hub-edit-form" onSubmit={submit} className="space-y-4">
        <div className="space-y-1">
          <label htmlFor="hub-edit-description" className="block text-sm font-medium">
            Description
          </label>
          <textarea
            id="hub-edit-description"
            value={description}
            onChange={(e) => setDescription(e.target.value)}
            maxLength={2000}
            rows={2}
            className={cn(inputClass, "h-auto py-2")}
          />
          {fieldError("description") ? (
            <p className="text-xs text-danger">{fieldError("description")}</p>
          ) : null}
        </div>
        <div className="grid gap-3 sm:grid-cols-2">
          <Field
            label="License"
            value={license}
            onChange={(e) => setLicense(e.target.value)}
            placeholder="e.g. apache-2.0"
            maxLength={64}
            error={fieldError("license")}
          />
          <Field
            label="Tags"
            value={tags}
            onChange={(e) => setTags(e.target.value)}
            hint="Comma-separated, lowercase"
            error={fieldError("tags")}
          />
        </div>
        <CardEditor value={card} onChange={setCard} />
        {fieldError("card") ? <p className="text-xs text-danger">{fieldError("card")}</p> : null}
        {error && !fieldKnown ? <Alert>{error.message}</Alert> : null}
      </form>
    </Modal>
  );
}

/** The owner's tools on the model page: edit the card (and description, license, tags), delete. */
export function OwnerTools({ model }: { model: HubModel }) {
  const router = useRouter();
  const [editing, setEditing] = useState(false);
  /** A new form each time the dialog opens, so a cancelled edit does not come back. */
  const [openings, setOpenings] = useState(0);
  const [deleting, setDeleting] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const deleteModel = useDeleteHubModel();
  const remove = async () => {
    setDeleting(true);
    setError(null);
    try {
      await deleteModel.mutateAsync({ params: { path: { model_id: model.id } } });
      router.push(`/u/${encodeURIComponent(model.owner.username)}`);
      router.refresh();
    } catch (err) {
      setError(errorMessage(err));
      setDeleting(false);
    }
  };
  return (
    <div className="flex flex-wrap items-center gap-2">
      <Button
        variant="secondary"
        size="sm"
        onClick={() => {
          setOpenings((n) => n + 1);
          setEditing(true);
        }}
      >
        <Pencil aria-hidden className="h-4 w-4" /> Edit card
      </Button>
      <ConfirmButton label="Delete" confirmLabel="Delete this model" pending={deleting} onConfirm={remove} />
      {error ? (
        <span role="alert" className="text-xs text-danger">
          <Trash2 aria-hidden className="mr-1 inline h-3 w-3" />
          {error}
        </span>
      ) : null}
      <EditDialog key={openings} model={model} open={editing} onClose={() => setEditing(false)} />
    </div>
  );
}
