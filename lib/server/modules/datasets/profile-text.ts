import fs from "node:fs";
import type { DatasetProfile, SchemaColumn } from "../../db/schema/datasets";

/**
 * Plain-text corpora (language modelling): read in one streaming pass as strict UTF-8, counting
 * lines, characters, words and distinct characters, and the most frequent words.
 */
export class InvalidTextError extends Error {}

const MAX_TRACKED_WORDS = 200_000;

/**
 * Yields the lines of a UTF-8 file (without line endings); throws InvalidTextError on invalid UTF-8.
 * `start` is a byte offset where a line begins (just after a newline).
 */
export async function* readLines(file: string, start = 0): AsyncGenerator<string> {
  const decoder = new TextDecoder("utf-8", { fatal: true });
  let rest = "";
  const decode = (chunk?: Buffer) => {
    try {
      return chunk ? decoder.decode(chunk, { stream: true }) : decoder.decode();
    } catch {
      throw new InvalidTextError("The file is not valid UTF-8 text.");
    }
  };
  for await (const chunk of fs.createReadStream(file, { highWaterMark: 256 * 1024, start })) {
    rest += decode(chunk as Buffer);
    const parts = rest.split("\n");
    rest = parts.pop() ?? "";
    for (const p of parts) yield p.endsWith("\r") ? p.slice(0, -1) : p;
  }
  rest += decode();
  if (rest !== "") yield rest.endsWith("\r") ? rest.slice(0, -1) : rest;
}

export async function profileText(
  file: string,
): Promise<{ columns: SchemaColumn[]; profile: DatasetProfile }> {
  const started = performance.now();
  let lines = 0;
  let characters = 0;
  let words = 0;
  let empty = 0;
  const chars = new Set<string>();
  const distinctLines = new Set<string>();
  const counts = new Map<string, number>();
  for await (const line of readLines(file)) {
    lines += 1;
    if (line.trim() === "") empty += 1;
    else if (distinctLines.size < 1_000_000) distinctLines.add(line);
    for (const ch of line) {
      characters += 1;
      if (chars.size < 100_000) chars.add(ch);
    }
    for (const w of line.toLowerCase().match(/[\p{L}\p{N}']+/gu) ?? []) {
      words += 1;
      const n = counts.get(w);
      if (n !== undefined) counts.set(w, n + 1);
      else if (counts.size < MAX_TRACKED_WORDS) counts.set(w, 1);
    }
  }
  if (lines === 0) throw new InvalidTextError("The file is empty.");
  const top = [...counts]
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .slice(0, 10)
    .map(([value, count]) => ({ value, count }));
  return {
    columns: [{ name: "text", type: "string", source_type: "VARCHAR" }],
    profile: {
      row_count: lines,
      columns: [
        { name: "text", type: "string", count: lines - empty, missing: empty, distinct: distinctLines.size },
      ],
      text: { lines, characters, words, distinct_characters: chars.size, top_words: top },
      duration_ms: Math.round(performance.now() - started),
    },
  };
}
