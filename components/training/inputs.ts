/**
 * A compact input/select for toolbars (the shared `inputClass` is full width and 36 px high; Tailwind
 * classes added to it would not reliably win over its `w-full` and `h-9`).
 */
export const compactInputClass =
  "h-8 rounded-md border border-border bg-panel px-2 text-xs text-fg placeholder:text-muted focus:border-accent focus:outline-none";
