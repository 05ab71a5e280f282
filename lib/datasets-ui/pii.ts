/** The PII scan report arranged for people: per column, what was found, how often, masked examples. */

export const PII_KIND_LABELS: Record<string, string> = {
  email: "E-mail address",
  phone: "Phone number",
  payment_card: "Payment card",
  iban: "IBAN",
  national_id: "National ID (US SSN)",
  ip_address: "IP address",
  person_name: "Person name",
};

export function piiKindLabel(kind: string): string {
  return PII_KIND_LABELS[kind] ?? kind;
}

export interface PiiFinding {
  column: string;
  kind: string;
  count: number;
  examples: string[];
}

export interface PiiColumnView {
  column: string;
  flagged: boolean;
  /** Cells with any finding (the largest count of one kind, as a cell can hold several kinds). */
  cells: number;
  /** Share of scanned rows with a finding in this column, 0..1. */
  share: number;
  findings: PiiFinding[];
}

/**
 * Every column (in schema order), flagged ones with their findings, most cells first. `rowsScanned`
 * turns counts into shares.
 */
export function piiColumns(
  columns: readonly string[],
  findings: readonly PiiFinding[],
  rowsScanned: number,
): PiiColumnView[] {
  const byColumn = new Map<string, PiiFinding[]>();
  for (const f of findings) {
    const list = byColumn.get(f.column) ?? [];
    list.push(f);
    byColumn.set(f.column, list);
  }
  const names = [...columns, ...[...byColumn.keys()].filter((c) => !columns.includes(c))];
  return names.map((column) => {
    const list = (byColumn.get(column) ?? []).sort(
      (a, b) => b.count - a.count || a.kind.localeCompare(b.kind),
    );
    const cells = list.reduce((m, f) => Math.max(m, f.count), 0);
    return {
      column,
      flagged: list.length > 0,
      cells,
      share: rowsScanned > 0 ? cells / rowsScanned : 0,
      findings: list,
    };
  });
}

/** Flagged columns first (most cells first), then the clean ones in their original order. */
export function sortFlaggedFirst(views: PiiColumnView[]): PiiColumnView[] {
  const flagged = views.filter((v) => v.flagged).sort((a, b) => b.cells - a.cells);
  return [...flagged, ...views.filter((v) => !v.flagged)];
}
