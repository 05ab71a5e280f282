"use client";

import { useQueryClient } from "@tanstack/react-query";
import { Link2, Loader2 } from "lucide-react";
import { useRouter } from "next/navigation";
import { type FormEvent, useEffect, useId, useRef, useState } from "react";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { cn } from "@/components/ui/cn";
import { inputClass } from "@/components/ui/field";
import { ProgressBar } from "@/components/ui/progress-bar";
import { $api } from "@/lib/api/client";
import { datasetKeys } from "@/lib/api/datasets/keys";
import { useDatasetTask } from "@/lib/api/datasets/queries";
import { describeFetchProgress, isFinished, nameFromUrl } from "@/lib/datasets-ui/url-import";
import { LayerlineError } from "@/sdk/src/errors";
import { errorMessage } from "./error-message";

const POLL_MS = 500;

/**
 * "From URL": the server downloads the file (POST /datasets/from-url), the dialog polls the task
 * (GET /datasets/tasks/{task_id}) with a progress bar and opens the new dataset when it is ready.
 * Refusals (a URL the server will not fetch, bad fields) and failures (404, too large, unreadable)
 * are shown with the server's own words.
 */
export function UrlImportForm({ onClose }: { onClose: () => void }) {
  const router = useRouter();
  const queryClient = useQueryClient();
  const ids = { url: useId(), urlHint: useId(), urlError: useId(), name: useId(), description: useId() };
  const [url, setUrl] = useState("");
  const [name, setName] = useState("");
  const [nameTouched, setNameTouched] = useState(false);
  const [description, setDescription] = useState("");
  const [taskId, setTaskId] = useState<string | null>(null);

  const start = $api.useMutation("post", "/api/v1/datasets/from-url", {
    onSuccess: (task) => setTaskId(task.task_id),
  });
  const task = useDatasetTask(taskId, {
    refetchInterval: (q) => (isFinished(q.state.data) ? false : POLL_MS),
    refetchIntervalInBackground: true,
    staleTime: 0,
  });
  const t = task.data;
  const running = start.isPending || (taskId !== null && !isFinished(t) && !task.error);
  const failed = t?.state === "failed" || t?.state === "cancelled";
  const datasetId = t?.state === "succeeded" ? t.dataset_id : null;

  // Ready: refresh the lists and open the new dataset (once).
  const opened = useRef<string | null>(null);
  useEffect(() => {
    if (!datasetId || opened.current === datasetId) return;
    opened.current = datasetId;
    queryClient.invalidateQueries({ queryKey: datasetKeys.browse });
    queryClient.invalidateQueries({ queryKey: datasetKeys.quota });
    router.push(`/datasets/${datasetId}`);
    onClose();
  }, [datasetId, queryClient, router, onClose]);

  const refusal = start.error instanceof LayerlineError ? start.error : null;
  const urlError = refusal?.fieldError("url");
  const nameError = refusal?.fieldError("name");
  const reset = () => {
    if (start.error) start.reset();
    if (taskId !== null && !running) setTaskId(null);
  };

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (running || url.trim() === "" || name.trim() === "") return;
    setTaskId(null);
    start.mutate({
      body: {
        url: url.trim(),
        name: name.trim(),
        ...(description.trim() ? { description: description.trim() } : {}),
      },
    });
  };

  const percent = t ? Math.round(Math.max(0, Math.min(1, t.progress)) * 100) : 0;
  const label = describeFetchProgress(t);

  return (
    <form onSubmit={submit} className="space-y-4" noValidate>
      <div className="space-y-1">
        <label htmlFor={ids.url} className="block text-sm font-medium">
          File URL
        </label>
        <div className="relative">
          <Link2 aria-hidden className="pointer-events-none absolute top-2.5 left-3 h-4 w-4 text-muted" />
          <input
            id={ids.url}
            type="url"
            inputMode="url"
            autoComplete="off"
            spellCheck={false}
            placeholder="https://example.com/data.csv"
            className={cn(inputClass, "pl-9", urlError && "border-danger")}
            value={url}
            disabled={running}
            aria-invalid={urlError ? true : undefined}
            aria-describedby={urlError ? ids.urlError : ids.urlHint}
            onChange={(e) => {
              setUrl(e.target.value);
              if (!nameTouched) setName(nameFromUrl(e.target.value));
              reset();
            }}
          />
        </div>
        <p id={ids.urlHint} className="text-xs text-muted">
          A public http(s) address of a CSV, TSV, JSON Lines, Parquet, text or ZIP file. The same size limits
          as an upload apply.
        </p>
      </div>
      <div className="space-y-1">
        <label htmlFor={ids.name} className="block text-sm font-medium">
          Name
        </label>
        <input
          id={ids.name}
          className={cn(inputClass, nameError && "border-danger")}
          value={name}
          maxLength={120}
          disabled={running}
          placeholder="Taken from the URL"
          aria-invalid={nameError ? true : undefined}
          onChange={(e) => {
            setName(e.target.value);
            setNameTouched(true);
            reset();
          }}
        />
        {nameError ? <p className="text-xs text-danger">{nameError}</p> : null}
      </div>
      <div className="space-y-1">
        <label htmlFor={ids.description} className="block text-sm font-medium">
          Description <span className="font-normal text-muted">(optional)</span>
        </label>
        <textarea
          id={ids.description}
          className={cn(inputClass, "h-16 resize-y py-2")}
          value={description}
          maxLength={2000}
          disabled={running}
          placeholder="Where the data comes from, what a row is"
          onChange={(e) => setDescription(e.target.value)}
        />
      </div>

      {taskId !== null && !failed ? (
        <div className="space-y-1.5">
          <ProgressBar
            percent={percent}
            label={datasetId ? "Ready. Opening the dataset…" : label}
            ariaLabel="Import progress"
            busy={!datasetId}
            done={Boolean(datasetId)}
            percentTestId="import-percent"
          />
          <p className="text-xs text-muted">
            You can close this dialog: the import goes on in the background.
          </p>
        </div>
      ) : null}

      {refusal ? (
        <div id={ids.urlError}>
          <Alert>
            <span className="font-medium">
              {urlError ? "The server will not fetch this URL" : (refusal.problem?.title ?? "Refused")}.
            </span>{" "}
            {refusal.message}
          </Alert>
        </div>
      ) : start.error ? (
        <Alert>{errorMessage(start.error)}</Alert>
      ) : null}
      {failed ? (
        <Alert>
          <span className="font-medium">The import failed.</span>{" "}
          {t?.error ?? "The file could not be fetched."}
        </Alert>
      ) : null}
      {task.error ? <Alert>{errorMessage(task.error)}</Alert> : null}

      {/* Stays in view at the bottom of the dialog when the form scrolls on short screens. */}
      <div className="sticky bottom-0 -mx-5 -mb-4 flex justify-end gap-2 border-t border-border bg-panel px-5 py-3">
        <Button variant="secondary" onClick={onClose}>
          {running ? "Close" : "Cancel"}
        </Button>
        <Button type="submit" disabled={running || url.trim() === "" || name.trim() === ""}>
          {running ? (
            <Loader2 aria-hidden className="h-4 w-4 animate-spin" />
          ) : (
            <Link2 aria-hidden className="h-4 w-4" />
          )}
          {running ? "Importing…" : failed ? "Try again" : "Import"}
        </Button>
      </div>
    </form>
  );
}
