"use client";

import { SplitSquareHorizontal } from "lucide-react";
import { useDatasetVersion } from "@/lib/api/datasets/queries";
import { formatCount } from "@/lib/datasets-ui/format";
import type { DatasetFit } from "./types";

/**
 * How the chosen dataset is split for this job: the version's own split when it has one, else the
 * seeded random split of the configuration (decisions "Training").
 */
export function SplitInfo({
  dataset,
  validationSplit,
  seed,
}: {
  dataset: DatasetFit;
  validationSplit: number | null;
  seed: number | null;
}) {
  const versionId = dataset.dataset_version_id;
  const version = useDatasetVersion(dataset.dataset_id, versionId, {
    enabled: !dataset.builtin && versionId !== null,
  });
  const explicit = version.data?.splits ?? null;
  let text: string;
  if (explicit) {
    text = `The dataset's own split: ${formatCount(explicit.train)} training, ${formatCount(explicit.validation)} validation and ${formatCount(explicit.test)} test rows.`;
  } else if (validationSplit === null) {
    text = "A seeded random split (fix the configuration below to see it).";
  } else {
    const rows = dataset.rows;
    const val = rows !== null ? Math.round(rows * validationSplit) : null;
    const pct = Math.round(validationSplit * 100);
    text =
      rows !== null && val !== null
        ? `A random split with seed ${seed ?? "–"}: ${formatCount(rows - val)} training and ${formatCount(val)} validation rows (${pct}% held out).`
        : `A random split with seed ${seed ?? "–"}: ${pct}% of the rows held out for validation.`;
  }
  return (
    <p
      className="flex items-start gap-2 rounded-md bg-panel-2 px-3 py-2 text-xs text-muted"
      data-testid="split-info"
    >
      <SplitSquareHorizontal aria-hidden className="mt-0.5 h-3.5 w-3.5 shrink-0" />
      <span>{text}</span>
    </p>
  );
}
