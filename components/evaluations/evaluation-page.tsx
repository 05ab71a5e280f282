"use client";

import { Loader2, SearchX } from "lucide-react";
import Link from "next/link";
import { useMemo, useState } from "react";
import { DeployButton } from "@/components/deployments/deploy-button";
import { errorMessage } from "@/components/training/error-message";
import { Alert } from "@/components/ui/alert";
import { buttonClass } from "@/components/ui/button";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader } from "@/components/ui/page-header";
import { useDataset } from "@/lib/api/datasets/queries";
import { useEvaluation } from "@/lib/api/evaluations/queries";
import { useJob } from "@/lib/api/training/queries";
import { formatCount } from "@/lib/datasets-ui/format";
import { headlines, isFinished, splitLabel } from "@/lib/evaluations-ui/present";
import { LayerlineError } from "@/sdk/src/errors";
import { ConfusionMatrix } from "./confusion-matrix";
import { EvaluationStateBadge } from "./evaluation-state-badge";
import { cellsWithSamples, ImageMistakes } from "./image-mistakes";
import { LanguageModelCard } from "./language-model-card";
import { MetricTiles } from "./metric-tiles";
import { OtherSplits } from "./other-splits";
import { PerClassTable } from "./per-class-table";
import { RegressionChart } from "./regression-chart";
import { ResidualsChart } from "./residuals-chart";
import { RocChart } from "./roc-chart";
import type { ClassificationResult, Evaluation } from "./types";

function DatasetName({ id }: { id: string }) {
  const dataset = useDataset(id);
  return <>{dataset.data?.name ?? id}</>;
}

/** The confusion matrix; for an image model also its misclassified pictures, by cell. */
function ClassificationMatrix({
  evaluationId,
  result,
}: {
  evaluationId: string;
  result: ClassificationResult;
}) {
  const [selected, setSelected] = useState<[number, number] | null>(null);
  const samples = result.samples;
  const selectable = useMemo(
    () => (samples ? cellsWithSamples(result.labels, samples) : undefined),
    [samples, result.labels],
  );
  return (
    <>
      <ConfusionMatrix
        labels={result.labels}
        matrix={result.confusion_matrix}
        selectable={selectable}
        selected={selected}
        onSelect={setSelected}
      />
      {samples ? (
        <ImageMistakes
          evaluationId={evaluationId}
          labels={result.labels}
          samples={samples}
          selected={selected}
          onClear={() => setSelected(null)}
        />
      ) : null}
    </>
  );
}

function Results({ evaluation }: { evaluation: Evaluation }) {
  const result = evaluation.result;
  if (!result) return null;
  const metrics = evaluation.metrics;
  return (
    <div className="space-y-6">
      <MetricTiles items={headlines(result.kind, metrics)} />
      {result.kind === "classification" ? (
        <div className="grid items-start gap-6 lg:grid-cols-5">
          <div className="min-w-0 space-y-6 lg:col-span-3">
            <ClassificationMatrix evaluationId={evaluation.id} result={result} />
            <PerClassTable
              perClass={result.per_class}
              macro={{
                precision: metrics.macro_precision,
                recall: metrics.macro_recall,
                f1: metrics.macro_f1,
              }}
            />
          </div>
          <div className="min-w-0 lg:col-span-2">
            <RocChart curves={result.roc} />
          </div>
        </div>
      ) : result.kind === "regression" ? (
        <div className="grid items-start gap-6 lg:grid-cols-2">
          <RegressionChart result={result} />
          <ResidualsChart result={result} />
        </div>
      ) : (
        <LanguageModelCard result={result} />
      )}
    </div>
  );
}

/**
 * /training/evaluations/[id]: follows the evaluation until it has finished, then shows its figures:
 * headline metrics, and by kind the confusion matrix, ROC curves and per-class table, the predicted
 * against actual plot, or the language model's loss and perplexity; and "Evaluate on another split".
 */
export function EvaluationPage({ evaluationId }: { evaluationId: string }) {
  const evaluation = useEvaluation(evaluationId);
  const jobId = evaluation.data?.job_id;
  const job = useJob(jobId ?? null, { enabled: jobId !== undefined });

  if (evaluation.isPending) {
    return (
      <p className="py-16 text-center text-sm text-muted" role="status">
        Loading the evaluation…
      </p>
    );
  }
  if (evaluation.isError) {
    const missing = evaluation.error instanceof LayerlineError && evaluation.error.status === 404;
    return (
      <div className="max-w-3xl">
        <EmptyState
          icon={SearchX}
          title={missing ? "No such evaluation" : "Could not load the evaluation"}
          action={
            <Link href="/training" className={buttonClass("secondary")}>
              All training jobs
            </Link>
          }
        >
          {missing
            ? "It may have been deleted, or it belongs to another account."
            : errorMessage(evaluation.error)}
        </EmptyState>
      </div>
    );
  }
  const e = evaluation.data;
  const finished = isFinished(e.state);
  const otherVersion = job.data && e.dataset_version_id !== job.data.dataset_version_id;
  return (
    <div className="max-w-7xl space-y-6">
      <PageHeader
        title={`${splitLabel(e.split)} split`}
        crumbs={[
          { href: "/training", label: "Training" },
          { href: `/training/${encodeURIComponent(e.job_id)}`, label: job.data?.name ?? e.job_id },
        ]}
        current="Evaluation"
        badges={<EvaluationStateBadge state={e.state} />}
        actions={
          // The figures are in: the next step is to put the model behind a key.
          e.state === "succeeded" && job.data?.state === "succeeded" && job.data.artifact ? (
            <DeployButton jobId={job.data.id} jobName={job.data.name} />
          ) : null
        }
        description={
          <>
            <Link
              href={`/datasets/${encodeURIComponent(e.dataset_id)}`}
              className="text-accent underline underline-offset-2"
            >
              <DatasetName id={e.dataset_id} />
            </Link>
            {otherVersion
              ? ` · version ${e.dataset_version_id}`
              : job.data
                ? " · the version the job trained on"
                : ""}
            {e.metrics.rows !== undefined
              ? ` · ${formatCount(e.metrics.rows)} ${e.result?.kind === "language_modeling" ? "windows" : "rows"}`
              : ""}
            {job.data?.artifact
              ? ` · ${job.data.artifact.format === "onnx" ? "ONNX" : "TensorFlow.js"} model`
              : ""}
            {e.finished_at ? (
              <>
                {" · finished "}
                <time dateTime={e.finished_at}>{new Date(e.finished_at).toLocaleString()}</time>
              </>
            ) : null}
          </>
        }
      />

      {!finished ? (
        <div
          className="flex items-center gap-3 rounded-lg border border-border bg-panel px-5 py-6 text-sm"
          role="status"
          data-testid="evaluation-pending"
        >
          <Loader2 aria-hidden className="h-5 w-5 animate-spin text-accent" />
          <span>
            {e.state === "queued"
              ? "Waiting for a worker to load the model…"
              : "Running the model on the split’s rows…"}{" "}
            <span className="text-muted">This page updates by itself.</span>
          </span>
        </div>
      ) : null}
      {e.state === "failed" ? <Alert>{e.reason ?? "The evaluation failed."}</Alert> : null}
      {e.state === "succeeded" ? <Results evaluation={e} /> : null}
      {finished ? <OtherSplits evaluation={e} job={job.data} /> : null}
    </div>
  );
}
