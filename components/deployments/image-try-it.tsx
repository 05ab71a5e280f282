"use client";

import { useMutation } from "@tanstack/react-query";
import { ImageUp, Play } from "lucide-react";
import { type DragEvent, useEffect, useId, useState } from "react";
import { Button } from "@/components/ui/button";
import { cn } from "@/components/ui/cn";
import { predictFromConsole } from "@/lib/api/deployments/predict";
import {
  firstPicture,
  MAX_PICTURE_BYTES,
  PICTURE_TYPES,
  pictureProblem,
} from "@/lib/deployments-ui/image-input";
import { PredictionOutput } from "./prediction-output";
import { ProblemAlert } from "./problem-alert";
import type { Deployment } from "./types";

interface Picture {
  name: string;
  size: number;
  /** A data: URL: shown as the preview and sent as the instance (the server reads data: URLs). */
  dataUrl: string;
}

function readAsDataUrl(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error ?? new Error("The picture could not be read."));
    reader.readAsDataURL(file);
  });
}

/** Try it for an image model: a picture by file picker, drag and drop or paste; the top 5 classes. */
export function ImageTryIt({
  deployment,
  apiKey,
  field,
}: {
  deployment: Deployment;
  apiKey: string | null;
  field: string;
}) {
  const [picture, setPicture] = useState<Picture | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [dragging, setDragging] = useState(false);
  const inputId = useId();
  const predict = useMutation({
    mutationFn: (dataUrl: string) => predictFromConsole(deployment.id, [{ [field]: dataUrl }], apiKey),
  });
  const { mutate, reset } = predict;

  const choose = async (file: File | null | undefined) => {
    if (!file) return;
    const why = pictureProblem(file);
    setProblem(why);
    if (why) return;
    try {
      const dataUrl = await readAsDataUrl(file);
      setPicture({ name: file.name || "pasted picture", size: file.size, dataUrl });
      reset();
      mutate(dataUrl);
    } catch (err) {
      setProblem(err instanceof Error ? err.message : "The picture could not be read.");
    }
  };

  // A picture pasted anywhere on the page while this panel is shown.
  // biome-ignore lint/correctness/useExhaustiveDependencies: `choose` reads only stable setters and the mutation
  useEffect(() => {
    const onPaste = (e: ClipboardEvent) => {
      const file = firstPicture(Array.from(e.clipboardData?.files ?? []));
      if (!file) return;
      e.preventDefault();
      void choose(file);
    };
    window.addEventListener("paste", onPaste);
    return () => window.removeEventListener("paste", onPaste);
  }, [field, deployment.id, apiKey]);

  const onDrop = (e: DragEvent<HTMLLabelElement>) => {
    e.preventDefault();
    setDragging(false);
    void choose(firstPicture(Array.from(e.dataTransfer.files)));
  };

  return (
    <div className="grid items-start gap-6 lg:grid-cols-2">
      <div className="min-w-0 space-y-4">
        <h3 className="text-sm font-semibold">Picture</h3>
        <label
          htmlFor={inputId}
          onDragOver={(e) => {
            e.preventDefault();
            setDragging(true);
          }}
          onDragLeave={() => setDragging(false)}
          onDrop={onDrop}
          data-testid="picture-drop"
          className={cn(
            "flex min-h-48 cursor-pointer flex-col items-center justify-center gap-2 rounded-md border border-dashed p-4 text-center text-sm text-muted",
            dragging ? "border-accent bg-accent-soft" : "border-border hover:border-accent",
          )}
        >
          {picture ? (
            // biome-ignore lint/performance/noImgElement: a data: URL of the user's own picture
            <img
              src={picture.dataUrl}
              alt={`Sent: ${picture.name}`}
              className="max-h-56 max-w-full rounded border border-border bg-white object-contain [image-rendering:pixelated]"
              style={{ minWidth: 96, minHeight: 96 }}
            />
          ) : (
            <ImageUp aria-hidden className="h-8 w-8" />
          )}
          <span>
            {picture
              ? "Drop, paste or choose another picture"
              : "Drop a picture here, paste one, or choose a file"}
          </span>
          <span className="text-xs">
            PNG, JPEG, WebP or GIF, up to {MAX_PICTURE_BYTES / 1024 / 1024} MB; resized and normalised as in
            training
          </span>
          <input
            id={inputId}
            type="file"
            accept={PICTURE_TYPES.join(",")}
            className="sr-only"
            onChange={(e) => {
              void choose(e.target.files?.[0]);
              e.target.value = "";
            }}
          />
        </label>
        {problem ? (
          <p className="text-xs text-danger" role="alert">
            {problem}
          </p>
        ) : null}
        {picture ? (
          <Button type="button" disabled={predict.isPending} onClick={() => mutate(picture.dataUrl)}>
            <Play aria-hidden className="h-4 w-4" /> {predict.isPending ? "Predicting…" : "Predict again"}
          </Button>
        ) : null}
      </div>
      <section aria-label="Response" className="min-w-0 space-y-3">
        <h3 className="text-sm font-semibold">Top classes</h3>
        {predict.isError ? (
          <ProblemAlert error={predict.error} />
        ) : predict.data ? (
          <div className="space-y-2">
            <div className="rounded-md border border-border p-4">
              <PredictionOutput output={predict.data.outputs[0]} top={5} />
            </div>
            <p className="text-xs text-muted">Answered by revision {predict.data.revision}.</p>
          </div>
        ) : (
          <p className="rounded-md border border-dashed border-border px-4 py-8 text-center text-sm text-muted">
            {predict.isPending ? "Predicting…" : "The five most likely classes appear here."}
          </p>
        )}
      </section>
    </div>
  );
}
