/** Test helpers for text/event-stream responses. */

/** Reads an SSE response until it ends (or `max` events), returning the parsed events. */
export async function readSse(res: Response, max = Number.POSITIVE_INFINITY) {
  const events: { id: number; event: string; data: Record<string, unknown> }[] = [];
  if (!res.body) throw new Error("no body");
  const reader = res.body.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  while (events.length < max) {
    const { done, value } = await reader.read();
    if (done) break;
    buffer += decoder.decode(value, { stream: true });
    let cut = buffer.indexOf("\n\n");
    while (cut >= 0) {
      const block = buffer.slice(0, cut);
      buffer = buffer.slice(cut + 2);
      const fields = Object.fromEntries(
        block
          .split("\n")
          .filter((l) => l && !l.startsWith(":"))
          .map((l) => [l.slice(0, l.indexOf(":")), l.slice(l.indexOf(":") + 1).trim()]),
      );
      if (fields.data)
        events.push({ id: Number(fields.id), event: fields.event, data: JSON.parse(fields.data) });
      cut = buffer.indexOf("\n\n");
    }
  }
  await reader.cancel().catch(() => {});
  return events;
}
