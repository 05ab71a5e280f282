/**
 * A dataset version as "Fit to dataset" (lib/ml/fit-dataset.ts) needs it: the data shape a sized
 * model is built for (project-from-dataset.ts's dataShapeOf, the same measure), plus the target's
 * name, the class names, the picture a table of pixels makes and the one size of every picture.
 * From the schema, roles and profile only (nothing is read).
 */
import type { DatasetShape } from "../../../ml/fit-dataset";
import { DomainError } from "../../errors";
import { type DatasetFitInput, effectiveRoles, planColumns, sortLabels } from "./dataset-fit";
import { dataShapeOf } from "./project-from-dataset";

const MAX_LABELS = 20;

/** The dataset's shape, or null when no model could be sized to it (no target, too few classes…). */
export function datasetShapeOf(ds: DatasetFitInput): DatasetShape | null {
  let data: DatasetShape["data"];
  try {
    data = dataShapeOf(ds);
  } catch (err) {
    if (err instanceof DomainError) return null;
    throw err;
  }
  const { schema, profile } = ds;
  if (data.kind === "images") {
    const sizes = profile.images?.sizes.filter((s) => s.count > 0) ?? [];
    return {
      data,
      target: null,
      labels: sortLabels(profile.images?.classes.map((c) => c.name) ?? []).slice(0, MAX_LABELS),
      layout: null,
      picture_size: sizes.length === 1 ? { height: sizes[0].height, width: sizes[0].width } : null,
    };
  }
  if (data.kind === "text") return { data, target: null, labels: [], layout: null, picture_size: null };
  const planned = planColumns(schema, effectiveRoles(schema, ds.roles, ds.target));
  const target = planned.ok && planned.columns.kind === "table" ? planned.columns.target.name : null;
  const top = profile.columns.find((c) => c.name === target)?.top_values ?? [];
  // The profile keeps the most frequent values: the names are listed only when they are all there.
  const labels =
    data.target.kind === "classes" && top.length === data.target.count
      ? sortLabels(top.map((t) => t.value))
      : [];
  return {
    data,
    target,
    labels: labels.slice(0, MAX_LABELS),
    layout: ds.image ? { channels: ds.image.channels, height: ds.image.height, width: ds.image.width } : null,
    picture_size: null,
  };
}
