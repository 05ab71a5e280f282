import { describe, expect, it } from "vitest";
import {
  detectInCell,
  findEmails,
  MAX_SCANNED_CELL_CHARS,
  type ScanCounter,
} from "@/lib/server/modules/datasets/pii-detectors";

/**
 * The PII scan runs on the server's thread (embedded mode): a crafted CSV cell must cost time linear
 * in its length. The backtracking e-mail pattern cost ~0.1–0.3 s per 10,000-character cell.
 */

/** Cells built to make a backtracking e-mail pattern retry from every position. */
const crafted = (n: number) => [
  `${"a".repeat(n - 2)}@a`, // a long local part with no domain
  `a@${"a.".repeat(n / 2 - 1)}`, // labels without a top-level domain
  `${"a.".repeat(n / 2 - 1)}@`, // dots in the local part, no domain
  `${"a".repeat(n / 2)}@${"a".repeat(n / 2 - 1)}`,
  "a@".repeat(n / 2),
  `${"a-".repeat(n / 4)}@${"b-".repeat(n / 4)}`,
];

describe("e-mail detection in linear time", () => {
  it("the work on a crafted cell grows linearly with its length (a deterministic step count)", () => {
    for (const [i, short] of crafted(1_000).entries()) {
      const long = crafted(10_000)[i];
      const a: ScanCounter = { steps: 0 };
      const b: ScanCounter = { steps: 0 };
      findEmails(short, a);
      findEmails(long, b);
      // At most a few inspections per character, and 10× the length is at most ~10× the work.
      expect(b.steps, `case ${i}`).toBeLessThanOrEqual(4 * long.length);
      expect(b.steps, `case ${i}`).toBeLessThanOrEqual(11 * Math.max(a.steps, 1));
    }
  });

  it("500 crafted 10,000-character cells are scanned well within the test's time limit", () => {
    // Before the fix this took minutes (0.1–0.3 s a cell); the test timed out.
    const cells = Array.from({ length: 500 }, (_, i) => crafted(10_000)[i % 6]);
    let found = 0;
    for (const cell of cells) found += detectInCell(cell).length;
    expect(found).toBeGreaterThanOrEqual(0);
    expect(cells.every((c) => c.length >= 9_990)).toBe(true);
  });

  it("scans only the first MAX_SCANNED_CELL_CHARS characters of a cell", () => {
    const late = `${"x ".repeat(MAX_SCANNED_CELL_CHARS)} ada@example.com`;
    expect(detectInCell(late)).toEqual([]);
    expect(detectInCell(`ada@example.com ${"x ".repeat(MAX_SCANNED_CELL_CHARS)}`)).toEqual([
      { kind: "email", match: "ada@example.com" },
    ]);
  });

  it("finds the same addresses as the regular expression it replaces", () => {
    const OLD =
      /[A-Za-z0-9._%+-]+@[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)*\.[A-Za-z]{2,24}(?![A-Za-z0-9])/g;
    const alphabet = "ab1.-@_+ xZ9";
    let seed = 7;
    const rand = () => {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      return seed / 0x7fffffff;
    };
    const samples = [
      "jane.doe+news@example.co.uk",
      "write to alice@example.com or bob@example.org.",
      "x@foo.com-bar",
      "a@b.co.x",
      "a@b@c.com",
      "me@host-.com",
      "me@-host.com",
      "me@h.c0m",
      "me@host.com9",
      "me@host.c",
    ];
    for (let i = 0; i < 20_000; i++) {
      const len = 3 + Math.floor(rand() * 30);
      let s = "";
      for (let j = 0; j < len; j++) s += alphabet[Math.floor(rand() * alphabet.length)];
      samples.push(s);
    }
    for (const s of samples) {
      const expected = [...s.matchAll(OLD)].map((m) => ({ index: m.index, match: m[0] }));
      expect(findEmails(s), JSON.stringify(s)).toEqual(expected);
    }
  });
});

describe("the scan shares the server's thread", () => {
  it("gives the event loop a turn after every YIELD_EVERY_CHARS scanned characters", async () => {
    const { Yielder, YIELD_EVERY_CHARS } = await import("@/lib/server/modules/datasets/pii-scan");
    const turn = new Yielder();
    let dueAfter = 0;
    for (let cells = 1; cells <= 1_000; cells++) {
      // A 1 MB cell counts as the 10,000 characters that are scanned of it.
      if (turn.due(1_000_000)) {
        dueAfter = cells;
        break;
      }
    }
    expect(dueAfter).toBe(Math.ceil(YIELD_EVERY_CHARS / MAX_SCANNED_CELL_CHARS));
    expect(turn.yields).toBe(1);
  });
});
