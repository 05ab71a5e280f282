/** GET /foundation-catalog: base models as the API shows them (no file paths). */
import type { BaseModelEntry } from "../../../ml/catalog/types";
import type { Db } from "../../db/client";
import { paged } from "../../http/paging";
import { type BaseModelSource, listRegistryBaseModels, resolveBaseModel } from "./base-model-sources";
import { listBaseModels } from "./base-models";
import type { BaseModelView, CatalogQuery } from "./catalog.schemas";

export function baseModelView(
  m: BaseModelEntry,
  source: BaseModelSource = { kind: "catalog" },
): BaseModelView {
  return {
    id: m.id,
    source,
    name: m.name,
    task: m.task,
    description: m.description,
    architecture: m.graph,
    config: m.config,
    parameter_count: m.params,
    input: m.input,
    output: m.output,
    features: m.features,
    labels: m.labels,
    num_labels: m.labels?.length ?? null,
    vocab: m.vocab,
    vocab_size: m.vocab?.length ?? null,
    head: m.head,
    license: m.license,
    training_data: m.training_data,
    evaluation: {
      split: m.evaluation.split,
      rows: m.evaluation.rows,
      metrics: m.evaluation.metrics,
      best_epoch: m.evaluation.best_epoch ?? null,
      validation: m.evaluation.validation ?? null,
    },
    weights: { format: m.weights.format, bytes: m.weights.bytes, sha256: m.weights.sha256 },
    built_with: m.built_with,
  };
}

/**
 * The curated catalog (`source=catalog`, the default) or the caller's registry versions that are
 * base models (`source=registry`), filtered by task and paged.
 */
export async function listCatalog(db: Db, callerId: string, q: CatalogQuery) {
  const all =
    q.source === "registry"
      ? (await listRegistryBaseModels(db, callerId)).map((r) => baseModelView(r.entry, r.source))
      : listBaseModels().map((m) => baseModelView(m));
  const matching = all.filter((m) => q.task === undefined || m.task === q.task);
  const start = (q.page - 1) * q.limit;
  return paged(matching.slice(start, start + q.limit), matching.length, q);
}

/** A catalog entry, or the caller's registry version or a visible hub model described as a base model. */
export async function getBaseModel(db: Db, callerId: string, id: string): Promise<BaseModelView> {
  const resolved = await resolveBaseModel(db, callerId, id);
  return baseModelView(resolved.entry, resolved.source);
}
