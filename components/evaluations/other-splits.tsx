"use client";

import { Database, Play } from "lucide-react";
import { useState } from "react";
import { errorMessage } from "@/components/training/error-message";
import type { TrainingJob } from "@/components/training/types";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { SPLITS, splitLabel } from "@/lib/evaluations-ui/present";
import { EvaluateDialog } from "./evaluate-dialog";
import type { Evaluation } from "./types";
import { useCreateEvaluation } from "./use-create-evaluation";
import { useHasTest } from "./use-has-test";

/**
 * "Evaluate on another split": one button per other split of the same dataset version (Test only
 * when the version has one), and "Another dataset…" for the full dialog.
 */
export function OtherSplits({ evaluation, job }: { evaluation: Evaluation; job: TrainingJob | undefined }) {
  const create = useCreateEvaluation();
  const hasTest = useHasTest(evaluation.dataset_id, evaluation.dataset_version_id);
  const [dialog, setDialog] = useState(false);
  const others = SPLITS.filter((s) => s !== evaluation.split && !(s === "test" && hasTest === false));
  return (
    <section aria-labelledby="other-splits" className="rounded-lg border border-border bg-panel px-5 py-4">
      <h2 id="other-splits" className="text-base font-semibold">
        Evaluate on another split
      </h2>
      <p className="mt-0.5 text-sm text-muted">
        The same model on another part of this dataset version: a gap between train and validation shows
        overfitting.
      </p>
      <div className="mt-3 flex flex-wrap gap-2">
        {others.map((split) => (
          <Button
            key={split}
            variant="secondary"
            size="sm"
            disabled={create.isPending}
            onClick={() =>
              create.mutate({
                body: {
                  job_id: evaluation.job_id,
                  dataset_id: evaluation.dataset_id,
                  dataset_version_id: evaluation.dataset_version_id,
                  split,
                },
              })
            }
          >
            <Play aria-hidden className="h-3.5 w-3.5" /> {splitLabel(split)}
          </Button>
        ))}
        {job ? (
          <Button variant="ghost" size="sm" onClick={() => setDialog(true)}>
            <Database aria-hidden className="h-3.5 w-3.5" /> Another dataset…
          </Button>
        ) : null}
      </div>
      {create.isError ? (
        <div className="mt-3">
          <Alert>{errorMessage(create.error)}</Alert>
        </div>
      ) : null}
      {dialog && job ? <EvaluateDialog job={job} open onClose={() => setDialog(false)} /> : null}
    </section>
  );
}
