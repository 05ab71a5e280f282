"use server";

import { z } from "zod";
import { renderModelCard } from "@/lib/server/modules/hub/model-card";

const markdownSchema = z.string().max(100_000);

/**
 * The edit dialog's preview: the card rendered on the server by the same renderer and sanitiser as
 * the model page, so the browser never turns user markdown into HTML itself.
 */
export async function renderCardPreview(markdown: unknown): Promise<string> {
  const parsed = markdownSchema.safeParse(markdown);
  if (!parsed.success) return "<p>The card is too long to preview (100,000 characters at most).</p>";
  return renderModelCard(parsed.data);
}
