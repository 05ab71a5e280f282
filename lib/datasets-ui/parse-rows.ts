/**
 * Parses a dataset file's text in the browser into rows of cell strings (null for a missing value),
 * in file order, so that row i here is row i of the API's explicit splits. CSV/TSV follow the dialect
 * the server sniffed; JSON Lines and plain text have one row per line.
 */

export interface Dialect {
  delimiter: string;
  quote: string | null;
  escape: string | null;
  hasHeader: boolean;
  /** Lines before the header (or the first row). */
  skipRows?: number;
}

export type Cell = string | null;

export interface ParsedRows {
  /** The header row, when the file has one. */
  header: string[] | null;
  rows: Cell[][];
}

function isBlank(row: Cell[]): boolean {
  return row.length === 1 && (row[0] === null || row[0] === "");
}

function skipLines(text: string, from: number, lines: number): number {
  let i = from;
  for (let k = 0; k < lines && i < text.length; k++) {
    const nl = text.indexOf("\n", i);
    i = nl < 0 ? text.length : nl + 1;
  }
  return i;
}

/**
 * RFC 4180-style parsing with the given delimiter, quote and escape (an escape equal to the quote
 * means doubled quotes). Unquoted empty fields are missing (null); a quoted empty field is "".
 * Blank lines are skipped.
 */
export function parseDelimited(text: string, dialect: Dialect): ParsedRows {
  const delim = dialect.delimiter || ",";
  const d0 = delim.charCodeAt(0);
  const dl = delim.length;
  const quote = dialect.quote || null;
  const esc = dialect.escape || quote;
  const q0 = quote ? quote.charCodeAt(0) : -1;
  const n = text.length;
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  if (dialect.skipRows) i = skipLines(text, i, dialect.skipRows);
  const rows: Cell[][] = [];
  let row: Cell[] = [];
  const endRow = () => {
    if (!isBlank(row)) rows.push(row);
    row = [];
  };
  const atDelimiter = (at: number) => text.charCodeAt(at) === d0 && (dl === 1 || text.startsWith(delim, at));

  while (i <= n) {
    let value: Cell;
    if (q0 >= 0 && text.charCodeAt(i) === q0) {
      i++;
      let acc = "";
      let start = i;
      for (;;) {
        if (i >= n) {
          acc += text.slice(start, n);
          break;
        }
        const c = text[i];
        if (esc !== quote && c === esc) {
          acc += text.slice(start, i) + (text[i + 1] ?? "");
          i += 2;
          start = i;
          continue;
        }
        if (c === quote) {
          if (esc === quote && text[i + 1] === quote) {
            acc += text.slice(start, i) + quote;
            i += 2;
            start = i;
            continue;
          }
          acc += text.slice(start, i);
          i++;
          break;
        }
        i++;
      }
      // Anything between the closing quote and the next delimiter is kept as it is.
      const rest = i;
      while (i < n && !atDelimiter(i) && text[i] !== "\n" && text[i] !== "\r") i++;
      value = i > rest ? acc + text.slice(rest, i) : acc;
    } else {
      const start = i;
      while (i < n && !atDelimiter(i)) {
        const c = text.charCodeAt(i);
        if (c === 10 || c === 13) break;
        i++;
      }
      value = i > start ? text.slice(start, i) : null;
    }
    row.push(value);
    if (i >= n) {
      endRow();
      break;
    }
    const c = text.charCodeAt(i);
    if (c === 10 || c === 13) {
      i += c === 13 && text.charCodeAt(i + 1) === 10 ? 2 : 1;
      endRow();
      if (i >= n) break;
      continue;
    }
    i += dl;
  }

  if (!dialect.hasHeader) return { header: null, rows };
  const [first, ...data] = rows;
  return { header: first ? first.map((c) => c ?? "") : [], rows: data };
}

/** JSON Lines: one object per non-blank line; cells in the order of `columns` (nested values as JSON). */
export function parseJsonLines(text: string, columns: readonly string[]): ParsedRows {
  const rows: Cell[][] = [];
  for (const line of text.split("\n")) {
    const trimmed = line.trim();
    if (trimmed === "") continue;
    let obj: unknown;
    try {
      obj = JSON.parse(trimmed);
    } catch {
      rows.push(columns.map(() => null));
      continue;
    }
    const record = obj && typeof obj === "object" ? (obj as Record<string, unknown>) : {};
    rows.push(
      columns.map((name) => {
        const v = record[name];
        if (v === null || v === undefined) return null;
        return typeof v === "object" ? JSON.stringify(v) : String(v);
      }),
    );
  }
  return { header: null, rows };
}

/** Plain text: every line is a row (line endings removed; a final newline does not start a row). */
export function parseTextLines(text: string): ParsedRows {
  const lines = text.split("\n");
  if (lines.length > 0 && lines[lines.length - 1] === "") lines.pop();
  return { header: null, rows: lines.map((l) => [l.endsWith("\r") ? l.slice(0, -1) : l]) };
}
