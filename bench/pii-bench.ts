/**
 * PII detection on crafted cells.
 *   npx tsx bench/pii-bench.ts
 * For each crafted 10,000-character cell (built to make a backtracking e-mail pattern retry from every
 * position) prints the median time of detectInCell, the same for the e-mail regular expression the
 * scan replaced, and both against a linear baseline: an ordinary 10,000-character cell of prose with
 * a few addresses in it. A ratio near 1 means the crafted cell costs what any cell of its length does.
 */
import { detectInCell } from "../lib/server/modules/datasets/pii-detectors";

const RUNS = 15;
const N = 10_000;

/** The e-mail pattern before the scan replaced it (kept here only to measure it). */
const OLD_EMAIL =
  /[A-Za-z0-9._%+-]+@[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)*\.[A-Za-z]{2,24}(?![A-Za-z0-9])/g;

function median(run: () => unknown): number {
  for (let i = 0; i < 2; i++) run();
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const t0 = performance.now();
    run();
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)];
}

const words = "write to ada@example.com about the 3 invoices, call +44 20 7946 0958 or visit 192.0.2.1 ";
const baseline = words.repeat(Math.ceil(N / words.length)).slice(0, N);

const cells: Record<string, string> = {
  "long local part, no domain": `${"a".repeat(N - 2)}@a`,
  "labels without a TLD": `a@${"a.".repeat(N / 2 - 1)}`,
  "dots before an @": `${"a.".repeat(N / 2 - 1)}@`,
  "half and half": `${"a".repeat(N / 2)}@${"a".repeat(N / 2 - 1)}`,
  "hyphens around @": `${"a-".repeat(N / 4)}@${"b-".repeat(N / 4)}`,
};

const base = median(() => detectInCell(baseline));
const baseOld = median(() => [...baseline.matchAll(OLD_EMAIL)]);
console.log(`baseline (prose with addresses, ${N} chars): detectInCell ${base.toFixed(3)} ms`);
console.log(
  `${"crafted cell".padEnd(28)} ${"old e-mail regex".padStart(18)} ${"× baseline".padStart(11)} ${"detectInCell now".padStart(18)} ${"× baseline".padStart(11)}`,
);
for (const [name, cell] of Object.entries(cells)) {
  const old = median(() => [...cell.matchAll(OLD_EMAIL)]);
  const now = median(() => detectInCell(cell));
  console.log(
    `${name.padEnd(28)} ${`${old.toFixed(2)} ms`.padStart(18)} ${(old / Math.max(baseOld, 1e-3)).toFixed(0).padStart(11)} ${`${now.toFixed(3)} ms`.padStart(18)} ${(now / base).toFixed(2).padStart(11)}`,
  );
}
