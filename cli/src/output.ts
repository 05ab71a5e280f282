/** Printing for the CLI: results on stdout (JSON with --json), progress and messages on stderr. */

export class Output {
  private lastDraw = 0;
  private lastPercent = -1;

  constructor(
    readonly json: boolean,
    private readonly stdout: NodeJS.WriteStream = process.stdout,
    private readonly stderr: NodeJS.WriteStream = process.stderr,
  ) {}

  /** The command's result: JSON under --json, else the human text. */
  result(value: unknown, human: () => string): void {
    if (this.json) this.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
    else this.stdout.write(`${human()}\n`);
  }

  /** A line of human text on stdout (suppressed under --json). */
  line(text: string): void {
    if (!this.json) this.stdout.write(`${text}\n`);
  }

  /** A status message on stderr (suppressed under --json). */
  info(text: string): void {
    if (!this.json) this.stderr.write(`${text}\n`);
  }

  error(text: string): void {
    this.stderr.write(`${text}\n`);
  }

  /** A progress bar on stderr: redrawn in place on a terminal, every 10% otherwise. */
  progress(label: string, done: number, total: number, suffix = ""): void {
    if (this.json) return;
    const ratio = total > 0 ? Math.min(1, done / total) : 1;
    const percent = Math.floor(ratio * 100);
    if (this.stderr.isTTY) {
      const now = Date.now();
      if (percent < 100 && now - this.lastDraw < 80) return;
      this.lastDraw = now;
      const width = 28;
      const filled = Math.round(ratio * width);
      const bar = `${"█".repeat(filled)}${"░".repeat(width - filled)}`;
      this.stderr.write(`\r${label} ${bar} ${String(percent).padStart(3)}% ${suffix}\x1b[K`);
      if (percent >= 100) this.stderr.write("\n");
      return;
    }
    const step = Math.floor(percent / 10) * 10;
    if (step === this.lastPercent) return;
    this.lastPercent = step;
    this.stderr.write(`${label} ${step}% ${suffix}\n`);
  }

  resetProgress(): void {
    this.lastPercent = -1;
    this.lastDraw = 0;
  }
}

export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  const units = ["KB", "MB", "GB", "TB"];
  let v = n / 1024;
  let i = 0;
  while (v >= 1024 && i < units.length - 1) {
    v /= 1024;
    i++;
  }
  return `${v.toFixed(1)} ${units[i]}`;
}

/** A plain left-aligned table. */
export function table(headers: string[], rows: string[][]): string {
  if (rows.length === 0) return "(none)";
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? "").length)));
  const fmt = (cells: string[]) =>
    cells
      .map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i] ?? 0)))
      .join("  ")
      .trimEnd();
  return [fmt(headers), ...rows.map(fmt)].join("\n");
}
