import { Tag } from "lucide-react";

/** An alias (`champion`) as a small chip. */
export function AliasChip({ alias }: { alias: string }) {
  return (
    <span
      className="inline-flex items-center gap-1 rounded-full border border-accent/30 bg-accent-soft px-2 py-0.5 font-mono text-xs text-accent"
      data-testid="alias-chip"
    >
      <Tag aria-hidden className="h-3 w-3" />
      {alias}
    </span>
  );
}
