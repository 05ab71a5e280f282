/**
 * One CSV cell of a dataset made from logged calls. The values come from whoever produced the log, and
 * the CSV is downloaded and opened in spreadsheets: a cell starting with `=`, `+`, `-`, `@`, a tab
 * or a carriage return would run as a formula there (CSV injection). Such a cell is neutralised as
 * OWASP recommends: prefixed with a single quote and quoted. Numbers (`-1`, `+2.5`, `-3e4`) stay
 * numbers. Cells with a quote, comma or line break are quoted, quotes doubled (RFC 4180).
 */

const NUMBER = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;
const FORMULA_START = /^[=+\-@\t\r]/;

export function csvCell(value: string): string {
  const neutralised = FORMULA_START.test(value) && !NUMBER.test(value);
  const text = neutralised ? `'${value}` : value;
  return neutralised || /[",\n\r]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}
