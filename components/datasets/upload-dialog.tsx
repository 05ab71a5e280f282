"use client";

import { useQueryClient } from "@tanstack/react-query";
import { FileUp, Link2, UploadCloud } from "lucide-react";
import Link from "next/link";
import { type DragEvent, type FormEvent, useEffect, useId, useState } from "react";
import { Alert } from "@/components/ui/alert";
import { Button, buttonClass } from "@/components/ui/button";
import { cn } from "@/components/ui/cn";
import { inputClass } from "@/components/ui/field";
import { Modal } from "@/components/ui/modal";
import { datasetKeys } from "@/lib/api/datasets/keys";
import { useStorageQuota } from "@/lib/api/datasets/queries";
import { baseName, formatBytes, formatCount, formatLabel } from "@/lib/datasets-ui/format";
import { precheckFile } from "@/lib/datasets-ui/upload-errors";
import { UploadProgress } from "./upload-progress";
import { UrlImportForm } from "./url-import-form";
import { useXhrUpload } from "./use-xhr-upload";

const ACCEPT = ".csv,.tsv,.tab,.jsonl,.ndjson,.json,.parquet,.zip,.txt";

export type DatasetSource = "file" | "url";

/**
 * A new dataset, from a file (picker or drag and drop, a real progress bar, Cancel that aborts the
 * request) or from a URL the server fetches; or (with `datasetId`) a new version of one, from a file.
 */
export function UploadDialog({
  open,
  onClose,
  datasetId,
  datasetName,
  initialSource = "file",
}: {
  open: boolean;
  onClose: () => void;
  datasetId?: string;
  datasetName?: string;
  /** Which way a new dataset starts: upload a file or import from a URL. */
  initialSource?: DatasetSource;
}) {
  const [source, setSource] = useState<DatasetSource>(initialSource);
  useEffect(() => {
    if (open) setSource(initialSource);
  }, [open, initialSource]);
  const queryClient = useQueryClient();
  const upload = useXhrUpload(() => {
    queryClient.invalidateQueries({ queryKey: datasetKeys.browse });
    queryClient.invalidateQueries({ queryKey: datasetKeys.quota });
    if (datasetId) {
      queryClient.invalidateQueries({ queryKey: datasetKeys.detail });
      queryClient.invalidateQueries({ queryKey: datasetKeys.versions });
      queryClient.invalidateQueries({ queryKey: datasetKeys.preview });
    }
  });
  const busy = upload.state.phase === "uploading" || upload.state.phase === "processing";
  const close = () => {
    if (busy) return;
    upload.reset();
    onClose();
  };
  const fromUrl = !datasetId && source === "url";
  return (
    <Modal
      open={open}
      onClose={close}
      dismissable={!busy}
      title={datasetId ? "Upload a new version" : "New dataset"}
      description={
        datasetId
          ? `The file becomes the next version of “${datasetName ?? "this dataset"}”. Identical content is recognised and not stored twice.`
          : fromUrl
            ? "The server downloads the file from its address, then reads and profiles it."
            : "CSV, TSV, JSON Lines, Parquet, plain text, or a ZIP of images in one folder per class (or in train/, validation/ and test/ folders of class folders)."
      }
    >
      {open ? (
        <>
          {datasetId ? null : (
            <SourceSwitch
              value={source}
              disabled={busy}
              onChange={(s) => {
                if (upload.state.phase !== "idle") upload.reset();
                setSource(s);
              }}
            />
          )}
          {fromUrl ? (
            <UrlImportForm onClose={close} />
          ) : (
            <UploadForm datasetId={datasetId} upload={upload} onClose={close} />
          )}
        </>
      ) : null}
    </Modal>
  );
}

const SOURCES: { value: DatasetSource; label: string; icon: typeof UploadCloud }[] = [
  { value: "file", label: "Upload a file", icon: UploadCloud },
  { value: "url", label: "From URL", icon: Link2 },
];

/** Where the new dataset comes from: two options as a segmented control (native radio buttons). */
function SourceSwitch({
  value,
  onChange,
  disabled,
}: {
  value: DatasetSource;
  onChange: (source: DatasetSource) => void;
  disabled: boolean;
}) {
  const name = useId();
  return (
    <fieldset className="mb-4" disabled={disabled}>
      <legend className="sr-only">Source</legend>
      <div className="grid grid-cols-2 gap-1 rounded-md border border-border bg-panel-2 p-1">
        {SOURCES.map((s) => {
          const Icon = s.icon;
          return (
            <label
              key={s.value}
              className={cn(
                "flex cursor-pointer items-center justify-center gap-2 rounded px-2 py-1.5 text-sm has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-accent",
                value === s.value ? "bg-panel font-medium text-fg shadow-sm" : "text-muted hover:text-fg",
                disabled && "pointer-events-none opacity-60",
              )}
            >
              <input
                type="radio"
                name={name}
                value={s.value}
                checked={value === s.value}
                onChange={() => onChange(s.value)}
                className="sr-only"
              />
              <Icon aria-hidden className="h-4 w-4" />
              {s.label}
            </label>
          );
        })}
      </div>
    </fieldset>
  );
}

function UploadForm({
  datasetId,
  upload,
  onClose,
}: {
  datasetId?: string;
  upload: ReturnType<typeof useXhrUpload>;
  onClose: () => void;
}) {
  const quota = useStorageQuota();
  const [file, setFile] = useState<File | null>(null);
  const [name, setName] = useState("");
  const [nameTouched, setNameTouched] = useState(false);
  const [description, setDescription] = useState("");
  const [dragging, setDragging] = useState(false);
  const ids = { file: useId(), name: useId(), description: useId(), hint: useId() };
  const { state } = upload;
  const busy = state.phase === "uploading" || state.phase === "processing";
  const precheck = file ? precheckFile(file.size, quota.data) : null;
  const serverError = state.phase === "error" ? state.error : null;
  const error = precheck ?? serverError;

  const choose = (f: File | null) => {
    setFile(f);
    if (f && !nameTouched && !datasetId) setName(baseName(f.name).slice(0, 120));
    if (state.phase !== "idle") upload.reset();
  };
  const onDrop = (e: DragEvent) => {
    e.preventDefault();
    setDragging(false);
    if (busy) return;
    const f = e.dataTransfer.files?.[0];
    if (f) choose(f);
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!file || precheck || busy) return;
    upload.start({
      file,
      name: datasetId ? undefined : name.trim() || undefined,
      description: datasetId ? undefined : description.trim() || undefined,
      datasetId,
    });
  };

  if (state.phase === "done") {
    const { dataset, version, created } = state.result;
    return (
      <div className="space-y-4">
        <UploadProgress state={state} />
        <div className="rounded-lg border border-ok/40 bg-ok-soft px-4 py-3 text-sm" role="status">
          <p className="font-medium text-ok">
            {created
              ? datasetId
                ? `Version ${version.number} of “${dataset.name}” is ready.`
                : `“${dataset.name}” is ready.`
              : `This content is already version ${version.number}; nothing new was stored.`}
          </p>
          <p className="mt-1 text-fg">
            {formatLabel(version.schema.format)} · {formatCount(version.row_count)} rows ·{" "}
            {version.schema.columns.length} columns · {formatBytes(version.size_bytes)}
          </p>
        </div>
        <div className="flex justify-end gap-2">
          <Button variant="secondary" onClick={onClose}>
            Close
          </Button>
          {datasetId ? null : (
            <Link href={`/datasets/${dataset.id}`} className={buttonClass("primary")} onClick={onClose}>
              Open dataset
            </Link>
          )}
        </div>
      </div>
    );
  }

  return (
    <form onSubmit={submit} className="space-y-4" noValidate>
      <div>
        <label
          htmlFor={ids.file}
          onDragOver={(e) => {
            e.preventDefault();
            if (!busy) setDragging(true);
          }}
          onDragLeave={() => setDragging(false)}
          onDrop={onDrop}
          className={cn(
            "flex cursor-pointer flex-col items-center justify-center gap-2 rounded-lg border-2 border-dashed px-4 py-7 text-center transition-colors",
            "has-[:focus-visible]:border-accent has-[:focus-visible]:bg-accent-soft/40",
            dragging ? "border-accent bg-accent-soft" : "border-border bg-panel-2/50 hover:bg-panel-2",
            busy && "pointer-events-none opacity-60",
          )}
          data-testid="drop-zone"
        >
          {file ? (
            <FileUp aria-hidden className="h-7 w-7 text-accent" />
          ) : (
            <UploadCloud aria-hidden className="h-7 w-7 text-muted" />
          )}
          {file ? (
            <span className="text-sm">
              <span className="font-medium">{file.name}</span>{" "}
              <span className="text-muted">({formatBytes(file.size)})</span>
            </span>
          ) : (
            <span className="text-sm">
              <span className="font-medium text-accent">Choose a file</span>{" "}
              <span className="text-muted">or drag it here</span>
            </span>
          )}
          <span id={ids.hint} className="text-xs text-muted">
            {quota.data
              ? `Up to ${formatBytes(quota.data.per_file_limit_bytes)} per file · ${formatBytes(quota.data.remaining_bytes)} of storage left`
              : "Checking your storage…"}
          </span>
          <input
            id={ids.file}
            type="file"
            accept={ACCEPT}
            aria-label="Dataset file"
            aria-describedby={ids.hint}
            className="sr-only"
            disabled={busy}
            onChange={(e) => choose(e.target.files?.[0] ?? null)}
          />
        </label>
      </div>

      {datasetId ? null : (
        <>
          <div className="space-y-1">
            <label htmlFor={ids.name} className="block text-sm font-medium">
              Name
            </label>
            <input
              id={ids.name}
              className={cn(inputClass, serverError?.fields.name && "border-danger")}
              value={name}
              maxLength={120}
              disabled={busy}
              placeholder="Defaults to the file name"
              aria-invalid={serverError?.fields.name ? true : undefined}
              onChange={(e) => {
                setName(e.target.value);
                setNameTouched(true);
              }}
            />
            {serverError?.fields.name ? (
              <p className="text-xs text-danger">{serverError.fields.name}</p>
            ) : null}
          </div>
          <div className="space-y-1">
            <label htmlFor={ids.description} className="block text-sm font-medium">
              Description <span className="font-normal text-muted">(optional)</span>
            </label>
            <textarea
              id={ids.description}
              className={cn(inputClass, "h-20 resize-y py-2")}
              value={description}
              maxLength={2000}
              disabled={busy}
              placeholder="Where the data comes from, what a row is"
              onChange={(e) => setDescription(e.target.value)}
            />
          </div>
        </>
      )}

      <UploadProgress state={state} />
      {state.phase === "cancelled" ? <Alert tone="warn">Upload cancelled. Nothing was stored.</Alert> : null}
      {error ? (
        <Alert>
          <span className="font-medium">{error.title}.</span> {error.message}
          {error.upgrade ? (
            <>
              {" "}
              <Link href="/account" className="font-medium underline underline-offset-2">
                See your plan
              </Link>
            </>
          ) : null}
        </Alert>
      ) : null}

      {/* Stays in view at the bottom of the dialog when the form scrolls on short screens. */}
      <div className="sticky bottom-0 -mx-5 -mb-4 flex justify-end gap-2 border-t border-border bg-panel px-5 py-3">
        {busy ? (
          <Button variant="secondary" onClick={upload.cancel} disabled={state.phase === "processing"}>
            Cancel upload
          </Button>
        ) : (
          <Button variant="secondary" onClick={onClose}>
            Cancel
          </Button>
        )}
        <Button type="submit" disabled={!file || Boolean(precheck) || busy}>
          <UploadCloud aria-hidden className="h-4 w-4" />
          {busy ? "Uploading…" : "Upload"}
        </Button>
      </div>
    </form>
  );
}
