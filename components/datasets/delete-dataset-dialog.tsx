"use client";

import { useQueryClient } from "@tanstack/react-query";
import { Trash2 } from "lucide-react";
import { useRouter } from "next/navigation";
import { type FormEvent, useId, useState } from "react";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { cn } from "@/components/ui/cn";
import { inputClass } from "@/components/ui/field";
import { Modal } from "@/components/ui/modal";
import { $api } from "@/lib/api/client";
import { datasetKeys } from "@/lib/api/datasets/keys";
import { projectKeys } from "@/lib/api/projects/keys";
import { formatBytes } from "@/lib/datasets-ui/format";
import { LayerlineError } from "@/sdk/src/errors";
import { errorMessage } from "./error-message";
import { setDatasetFlash } from "./flash";
import type { Dataset } from "./types";

/**
 * Deleting a dataset, confirmed by typing its name. On success the studio goes back to the browser
 * (which says what was deleted); a 409 (a training job is using the dataset) is explained in place.
 */
export function DeleteDatasetDialog({
  open,
  onClose,
  dataset,
}: {
  open: boolean;
  onClose: () => void;
  dataset: Dataset;
}) {
  const router = useRouter();
  const queryClient = useQueryClient();
  const [typed, setTyped] = useState("");
  const ids = { input: useId(), hint: useId() };
  const remove = $api.useMutation("delete", "/api/v1/datasets/{dataset_id}", {
    onSuccess: () => {
      setDatasetFlash(`“${dataset.name}” was deleted.`);
      // The lists are refreshed when next shown; this page's own queries are left alone (refetching
      // them now would flash "not found" while the browser opens).
      for (const queryKey of [datasetKeys.browse, datasetKeys.quota, projectKeys.datasets])
        queryClient.invalidateQueries({ queryKey, refetchType: "none" });
      router.push("/datasets");
    },
  });
  const matches = typed === dataset.name;
  const busy = remove.isPending || remove.isSuccess;
  const inUse = remove.error instanceof LayerlineError && remove.error.status === 409;

  const close = () => {
    if (busy) return;
    setTyped("");
    remove.reset();
    onClose();
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!matches || busy) return;
    remove.mutate({ params: { path: { dataset_id: dataset.id } } });
  };

  return (
    <Modal
      open={open}
      onClose={close}
      dismissable={!busy}
      title="Delete dataset"
      description={
        <>
          “{dataset.name}”{" "}
          {dataset.version_count === 1
            ? "and its file"
            : `with its ${dataset.version_count} versions and their files`}{" "}
          ({formatBytes(dataset.size_bytes)}) will be deleted for good, and projects lose their link to it.
        </>
      }
    >
      <form onSubmit={submit} className="space-y-4" noValidate>
        <div className="space-y-1.5">
          <label htmlFor={ids.input} className="block text-sm">
            Type{" "}
            <span className="rounded bg-panel-2 px-1.5 py-0.5 font-mono text-[13px]">{dataset.name}</span> to
            confirm
          </label>
          <input
            id={ids.input}
            className={cn(inputClass, "font-mono")}
            value={typed}
            autoComplete="off"
            spellCheck={false}
            disabled={busy}
            aria-describedby={ids.hint}
            onChange={(e) => {
              setTyped(e.target.value);
              if (remove.error) remove.reset();
            }}
          />
          <p id={ids.hint} className="text-xs text-muted">
            The name must match exactly, including capitals.
          </p>
        </div>
        {inUse ? (
          <Alert>
            <span className="font-medium">This dataset is in use.</span>{" "}
            {remove.error instanceof LayerlineError && remove.error.problem?.detail
              ? remove.error.problem.detail
              : "A job is using it; it can be deleted once the job has finished or been cancelled."}
          </Alert>
        ) : remove.error ? (
          <Alert>{errorMessage(remove.error)}</Alert>
        ) : null}
        <div className="flex justify-end gap-2 pt-1">
          <Button variant="secondary" onClick={close} disabled={busy}>
            Cancel
          </Button>
          <Button type="submit" variant="danger" className="dark:text-bg" disabled={!matches || busy}>
            <Trash2 aria-hidden className="h-4 w-4" />
            {busy ? "Deleting…" : "Delete dataset"}
          </Button>
        </div>
      </form>
    </Modal>
  );
}
