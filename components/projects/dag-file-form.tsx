"use client";

import { FileJson, Upload } from "lucide-react";
import { type FormEvent, type ReactNode, useId, useState } from "react";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { cn } from "@/components/ui/cn";
import { formatBytes } from "@/lib/datasets-ui/format";
import { DAG_FORMAT, DAG_MAX_BYTES } from "@/lib/ml/dag-format";
import { LayerlineError } from "@/sdk/src/errors";

/** Why the server refused the file: its summary, then each problem with where it is in the file. */
function ImportProblems({ error }: { error: unknown }) {
  if (!(error instanceof LayerlineError)) {
    return <Alert>The file could not be sent. Check your connection and try again.</Alert>;
  }
  const problems = error.problem?.errors ?? [];
  return (
    <Alert>
      <p className="font-medium">{error.message}</p>
      {problems.length > 0 ? (
        <ul className="mt-2 max-h-48 space-y-1 overflow-auto text-xs" data-testid="dag-problems">
          {problems.map((p, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: the same path can carry several messages
            <li key={i}>
              <code className="font-mono">{p.path.replace(/^(body|form)\./, "")}</code>: {p.message}
            </li>
          ))}
        </ul>
      ) : null}
    </Alert>
  );
}

/**
 * Pick a `layerline.dag/v1` file (click or drop) and send it. `send` does the request; its errors
 * (a 422 lists every problem with its path in the file) are shown under the picker.
 */
export function DagFileForm({
  send,
  submitLabel,
  pendingLabel,
  onCancel,
  extra,
}: {
  send: (file: File) => Promise<unknown>;
  submitLabel: string;
  pendingLabel: string;
  onCancel: () => void;
  /** More fields or an explanation above the buttons. */
  extra?: ReactNode;
}) {
  const inputId = useId();
  const [file, setFile] = useState<File | null>(null);
  const [dragging, setDragging] = useState(false);
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const tooBig = file !== null && file.size > DAG_MAX_BYTES;

  const pick = (f: File | undefined) => {
    setFile(f ?? null);
    setError(null);
  };
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!file || tooBig || pending) return;
    setPending(true);
    setError(null);
    try {
      await send(file);
    } catch (err) {
      setError(err);
    } finally {
      setPending(false);
    }
  };

  return (
    <form onSubmit={submit} className="space-y-4">
      <label
        htmlFor={inputId}
        onDragOver={(e) => {
          e.preventDefault();
          setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={(e) => {
          e.preventDefault();
          setDragging(false);
          pick(e.dataTransfer.files[0]);
        }}
        className={cn(
          "flex cursor-pointer flex-col items-center gap-2 rounded-lg border-2 border-dashed px-4 py-8 text-center transition",
          dragging ? "border-accent bg-accent-soft/40" : "border-border hover:bg-panel-2",
        )}
      >
        {file ? (
          <>
            <FileJson aria-hidden className="h-7 w-7 text-accent" />
            <span className="text-sm font-medium" data-testid="dag-file-name">
              {file.name}
            </span>
            <span className="text-xs text-muted">
              {formatBytes(file.size)} · click or drop to pick another
            </span>
          </>
        ) : (
          <>
            <Upload aria-hidden className="h-7 w-7 text-muted" />
            <span className="text-sm font-medium">Choose a DAG file or drop it here</span>
            <span className="text-xs text-muted">
              JSON in the <code className="font-mono">{DAG_FORMAT}</code> format, as exported from the editor,
              at most 10 MB
            </span>
          </>
        )}
        <input
          id={inputId}
          type="file"
          accept=".json,application/json"
          aria-label="DAG file"
          className="sr-only"
          onChange={(e) => pick(e.target.files?.[0])}
        />
      </label>
      {tooBig ? <Alert>This file is {formatBytes(file.size)}; a DAG file can be at most 10 MB.</Alert> : null}
      {extra}
      {error ? <ImportProblems error={error} /> : null}
      <div className="flex justify-end gap-2 border-t border-border pt-4">
        <Button variant="ghost" onClick={onCancel}>
          Cancel
        </Button>
        <Button type="submit" disabled={!file || tooBig || pending}>
          {pending ? pendingLabel : submitLabel}
        </Button>
      </div>
    </form>
  );
}

/** The multipart body the import routes take: the file in the field `file`. */
export function dagFormData(file: File): FormData {
  const form = new FormData();
  form.append("file", file, file.name);
  return form;
}
