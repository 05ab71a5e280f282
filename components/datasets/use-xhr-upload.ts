"use client";

import { useCallback, useEffect, useRef, useState } from "react";
import type { Schemas } from "@/lib/api/client";
import { describeUploadError, type ProblemLike, type UploadErrorView } from "@/lib/datasets-ui/upload-errors";

/**
 * Multipart upload to POST /api/v1/datasets/ with XMLHttpRequest, because fetch cannot report upload
 * progress. The browser sends the session cookie and the Origin header itself. `cancel` aborts the
 * request; the server then discards the partial file.
 */
export type UploadState =
  | { phase: "idle" }
  | { phase: "uploading"; loaded: number; total: number }
  /** Every byte is sent; the server is hashing and profiling the file. */
  | { phase: "processing"; total: number }
  | { phase: "done"; total: number; result: Schemas["DatasetUploadResult"] }
  | { phase: "error"; error: UploadErrorView }
  | { phase: "cancelled" };

export interface UploadInput {
  file: File;
  name?: string;
  description?: string;
  /** Upload as a new version of this dataset. */
  datasetId?: string;
}

const UPLOAD_URL = "/api/v1/datasets/";

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

export function useXhrUpload(onDone?: (result: Schemas["DatasetUploadResult"]) => void) {
  const [state, setState] = useState<UploadState>({ phase: "idle" });
  const xhrRef = useRef<XMLHttpRequest | null>(null);
  const onDoneRef = useRef(onDone);
  onDoneRef.current = onDone;

  // Leaving the page (or unmounting the dialog) must not leave a request running.
  useEffect(() => () => xhrRef.current?.abort(), []);

  const start = useCallback((input: UploadInput) => {
    const form = new FormData();
    if (input.name) form.set("name", input.name);
    if (input.description) form.set("description", input.description);
    if (input.datasetId) form.set("dataset_id", input.datasetId);
    form.set("file", input.file, input.file.name);

    const xhr = new XMLHttpRequest();
    xhrRef.current = xhr;
    xhr.open("POST", UPLOAD_URL);
    xhr.setRequestHeader("Accept", "application/json");
    setState({ phase: "uploading", loaded: 0, total: input.file.size });

    xhr.upload.onprogress = (e) => {
      if (xhrRef.current !== xhr) return;
      const total = e.lengthComputable ? e.total : input.file.size;
      setState({ phase: "uploading", loaded: Math.min(e.loaded, total), total });
    };
    xhr.upload.onload = () => {
      if (xhrRef.current === xhr) setState({ phase: "processing", total: input.file.size });
    };
    xhr.onload = () => {
      if (xhrRef.current !== xhr) return;
      xhrRef.current = null;
      const body = parseJson(xhr.responseText);
      if (xhr.status === 200 || xhr.status === 201) {
        const result = body as Schemas["DatasetUploadResult"];
        setState({ phase: "done", total: input.file.size, result });
        onDoneRef.current?.(result);
      } else {
        setState({ phase: "error", error: describeUploadError(xhr.status, body as ProblemLike | null) });
      }
    };
    xhr.onerror = () => {
      if (xhrRef.current !== xhr) return;
      xhrRef.current = null;
      setState({ phase: "error", error: describeUploadError(0, null) });
    };
    xhr.onabort = () => {
      if (xhrRef.current === xhr) xhrRef.current = null;
      setState({ phase: "cancelled" });
    };
    xhr.send(form);
  }, []);

  const cancel = useCallback(() => {
    xhrRef.current?.abort();
  }, []);

  const reset = useCallback(() => {
    xhrRef.current?.abort();
    xhrRef.current = null;
    setState({ phase: "idle" });
  }, []);

  return { state, start, cancel, reset };
}
