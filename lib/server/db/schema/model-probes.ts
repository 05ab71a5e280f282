import { bigint, boolean, jsonb, pgTable, text } from "drizzle-orm/pg-core";
import { createdAt } from "./columns";

/**
 * The verdict of loading an uploaded model in a limited child process (modules/serving/model-probe.ts),
 * keyed by a digest of the model files' bytes, the declared input and the limits it was probed
 * under: every server process reads it instead of probing the same bytes again.
 */
export const modelProbes = pgTable("model_probes", {
  digest: text("digest").primaryKey(),
  ok: boolean("ok").notNull(),
  /** Why the model was refused (short, no paths); null when it passed. */
  reason: text("reason"),
  /** The inputs and outputs the runtime reported: [{name, type, shape}]. */
  signature: jsonb("signature").$type<Record<string, unknown> | null>(),
  peakRssBytes: bigint("peak_rss_bytes", { mode: "number" }),
  createdAt: createdAt(),
});

export type ModelProbeRow = typeof modelProbes.$inferSelect;
