import { X } from "lucide-react";
import { Card, CardHeader } from "@/components/ui/card";
import { formatShare } from "@/lib/evaluations-ui/present";
import type { ClassificationResult } from "./types";

type Sample = NonNullable<ClassificationResult["samples"]>[number];

/** How many of the most confident mistakes are shown when no cell is selected. */
const MOST_CONFIDENT = 12;

/** The "i,j" cells of the confusion matrix that have pictures (labels indexed as in the result). */
export function cellsWithSamples(labels: readonly string[], samples: readonly Sample[]): Set<string> {
  const index = new Map(labels.map((l, i) => [l, i] as const));
  const cells = new Set<string>();
  for (const s of samples) {
    const i = index.get(s.actual);
    const j = index.get(s.predicted);
    if (i !== undefined && j !== undefined) cells.add(`${i},${j}`);
  }
  return cells;
}

/**
 * The misclassified pictures of an image evaluation: the pictures of the selected confusion-matrix
 * cell, or else the model's most confident mistakes. Each picture is its thumbnail from the
 * evaluated dataset (GET …/samples/{n}/image), captioned with the true and predicted class.
 */
export function ImageMistakes({
  evaluationId,
  labels,
  samples,
  selected,
  onClear,
}: {
  evaluationId: string;
  labels: readonly string[];
  samples: readonly Sample[];
  selected: readonly [number, number] | null;
  onClear: () => void;
}) {
  const numbered = samples.map((sample, n) => ({ sample, n }));
  const shown = selected
    ? numbered.filter(
        ({ sample }) => sample.actual === labels[selected[0]] && sample.predicted === labels[selected[1]],
      )
    : numbered.slice(0, MOST_CONFIDENT);
  const title = selected
    ? `“${labels[selected[0]]}” predicted as “${labels[selected[1]]}”`
    : "Most confident mistakes";
  const description = selected
    ? "The most confident of these mistakes first (at most eight per cell are kept)."
    : samples.length === 0
      ? "The model made no mistake on these pictures."
      : "Pictures the model got wrong while most sure of itself. Click a cell of the confusion matrix for its pictures.";
  return (
    <Card>
      <CardHeader
        title={title}
        description={description}
        actions={
          selected ? (
            <button
              type="button"
              onClick={onClear}
              className="inline-flex items-center gap-1 rounded-md px-2 py-1 text-sm text-muted hover:bg-fg/5 hover:text-fg"
            >
              <X className="size-4" aria-hidden /> Show most confident
            </button>
          ) : null
        }
      />
      {shown.length > 0 ? (
        <ul
          className="grid grid-cols-[repeat(auto-fill,minmax(7.5rem,1fr))] gap-3 px-5 py-4"
          data-testid="image-mistakes"
        >
          {shown.map(({ sample, n }) => (
            <li key={n} className="min-w-0">
              <figure className="space-y-1.5">
                {/* biome-ignore lint/performance/noImgElement: an API image behind the session, not a static asset */}
                <img
                  src={`/api/v1/training/evaluations/${encodeURIComponent(evaluationId)}/samples/${n}/image`}
                  alt={`${sample.path}: a ${sample.actual} predicted as ${sample.predicted}`}
                  loading="lazy"
                  width={128}
                  height={128}
                  className="aspect-square w-full rounded-md border border-border bg-panel-2 object-contain [image-rendering:pixelated]"
                />
                <figcaption className="text-xs leading-snug">
                  <span
                    className="block truncate font-medium"
                    title={`${sample.actual} → ${sample.predicted}`}
                  >
                    {sample.actual} → {sample.predicted}
                  </span>
                  <span className="block truncate text-muted" title={sample.path}>
                    {formatShare(sample.confidence)} sure · {sample.path.split("/").pop()}
                  </span>
                </figcaption>
              </figure>
            </li>
          ))}
        </ul>
      ) : null}
    </Card>
  );
}
