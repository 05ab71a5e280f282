/**
 * A cell of the data table as text: the API's JSON value (number, boolean, string, nested value)
 * turned into the string shown, or null for a missing value.
 */
export type Cell = string | null;

export function toCell(value: unknown): Cell {
  if (value === null || value === undefined) return null;
  if (typeof value === "object") return JSON.stringify(value);
  return String(value);
}
