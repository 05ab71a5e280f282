"use client";

import { Globe, Upload } from "lucide-react";
import Link from "next/link";
import { type FormEvent, useState } from "react";
import { Alert } from "@/components/ui/alert";
import { Button, buttonClass } from "@/components/ui/button";
import { cn } from "@/components/ui/cn";
import { Field, inputClass } from "@/components/ui/field";
import { Modal } from "@/components/ui/modal";
import { usePublishModel } from "@/lib/api/hub/mutations";
import { LayerlineError } from "@/sdk/src/errors";
import { type HubModel, LICENSE_SUGGESTIONS, modelHref } from "./hub-format";

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

/** What is published: a succeeded job or run, or a finalized registry model version. */
export type HubSource = { source_job_id: string } | { source_model_version_id: string };

/**
 * "Publish to hub" on a succeeded job's or fine-tuning run's page, or on a registry version: name,
 * description, license, tags and visibility, then POST /hub/models with the source: the hub model gets
 * the artifact files, the architecture, the metrics and a generated card, and a link leads to its page
 * (where the card is edited).
 */
export function PublishToHubButton(
  props: { jobId: string; jobName: string } | { modelVersionId: string; name: string },
) {
  const source: HubSource =
    "jobId" in props ? { source_job_id: props.jobId } : { source_model_version_id: props.modelVersionId };
  const initialName = "jobId" in props ? props.jobName : props.name;
  const [open, setOpen] = useState(false);
  const [name, setName] = useState(initialName);
  const [description, setDescription] = useState("");
  const [license, setLicense] = useState("");
  const [tags, setTags] = useState("");
  const [visibility, setVisibility] = useState<"public" | "private">("public");
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<LayerlineError | null>(null);
  const [published, setPublished] = useState<HubModel | null>(null);
  const publish = usePublishModel();

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setPending(true);
    setError(null);
    try {
      const data = await publish.mutateAsync({
        body: {
          ...source,
          name: name.trim(),
          ...(description.trim() ? { description: description.trim() } : {}),
          license: license.trim() || null,
          ...(tags.trim() ? { tags: parseTags(tags) } : {}),
          visibility,
        },
      });
      if (data) {
        setOpen(false);
        setPublished(data);
      }
    } catch (err) {
      setError(err instanceof LayerlineError ? err : new LayerlineError(0, null, null, null));
    } finally {
      setPending(false);
    }
  };
  const shown = ["name", "description", "license", "tags", "visibility"];
  const otherError = error && !shown.some((f) => error.fieldError(f)) ? error.message : null;

  return (
    <>
      <Button
        variant="secondary"
        size="sm"
        onClick={() => {
          setName(initialName);
          setError(null);
          setOpen(true);
        }}
      >
        <Upload aria-hidden className="h-4 w-4" /> Publish to hub
      </Button>
      <Modal
        open={open}
        onClose={() => setOpen(false)}
        title="Publish to the hub"
        description="Shares the trained model with its files, architecture, metrics and a generated model card you can edit afterwards."
        footer={
          <>
            <Button variant="secondary" onClick={() => setOpen(false)}>
              Cancel
            </Button>
            <Button type="submit" form="publish-hub-form" disabled={pending || name.trim() === ""}>
              <Globe aria-hidden className="h-4 w-4" /> {pending ? "Publishing…" : "Publish"}
            </Button>
          </>
        }
      >
        <form id="publish-hub-form" onSubmit={submit} className="space-y-3">
          <Field
            label="Name"
            value={name}
            maxLength={100}
            onChange={(e) => setName(e.target.value)}
            error={error?.fieldError("name")}
            autoFocus
          />
          <div className="space-y-1">
            <label htmlFor="publish-description" className="block text-sm font-medium">
              Description
            </label>
            <textarea
              id="publish-description"
              value={description}
              onChange={(e) => setDescription(e.target.value)}
              maxLength={2000}
              rows={2}
              placeholder="Left empty, it says what the model does and what it was trained on."
              className={cn(inputClass, "h-auto py-2")}
            />
            {error?.fieldError("description") ? (
              <p className="text-xs text-danger">{error.fieldError("description")}</p>
            ) : null}
          </div>
          <div className="grid gap-3 sm:grid-cols-2">
            <Field
              label="License"
              value={license}
              onChange={(e) => setLicense(e.target.value)}
              list="publish-licenses"
              placeholder="e.g. apache-2.0"
              hint="Leave empty if you have not chosen one."
              maxLength={64}
              error={error?.fieldError("license")}
            />
            <datalist id="publish-licenses">
              {LICENSE_SUGGESTIONS.map((l) => (
                <option key={l} value={l} />
              ))}
            </datalist>
            <Field
              label="Tags"
              value={tags}
              onChange={(e) => setTags(e.target.value)}
              placeholder="e.g. iris, tabular"
              hint="Comma-separated; the task and framework are added."
              error={error?.fieldError("tags")}
            />
          </div>
          <fieldset className="space-y-1.5">
            <legend className="mb-1 text-sm font-medium">Visibility</legend>
            {(
              [
                ["public", "Public", "Listed on the hub and searchable by everyone, signed in or not."],
                ["private", "Private", "Only you can see it (a paid plan's feature)."],
              ] as const
            ).map(([value, label, hint]) => (
              <label key={value} className="flex cursor-pointer items-start gap-2 text-sm">
                <input
                  type="radio"
                  name="visibility"
                  value={value}
                  checked={visibility === value}
                  onChange={() => setVisibility(value)}
                  className="mt-0.5 accent-[var(--accent)]"
                />
                <span>
                  <span className="font-medium">{label}</span> <span className="text-muted">· {hint}</span>
                </span>
              </label>
            ))}
          </fieldset>
          {otherError ? <Alert>{otherError}</Alert> : null}
        </form>
      </Modal>
      <Modal
        open={published !== null}
        onClose={() => setPublished(null)}
        title={`“${published?.name ?? ""}” is on the hub`}
        size="sm"
        footer={
          <>
            <Button variant="secondary" onClick={() => setPublished(null)}>
              Close
            </Button>
            <Link href={published ? modelHref(published.id) : "/hub"} className={buttonClass("primary")}>
              Open the model page
            </Link>
          </>
        }
      >
        <p className="text-sm">
          {published?.visibility === "private"
            ? "It is private: only you can see it."
            : "Everyone can now find it, download it, star it and open it in the studio."}{" "}
          Its model card was written from the job: open the page to read it and edit it.
        </p>
      </Modal>
    </>
  );
}
