/**
 * A newcomer's time and clicks from signing up to a served prediction on their own CSV.
 *
 *   NEXT_DIST_DIR=… npx next build && npm start            (any running built server)
 *   BENCH_BASE_URL=http://localhost:3200 npx tsx bench/newcomer-journey.ts [runs]
 *
 * Drives Chromium (CHROMIUM_PATH, default /usr/bin/chromium) through the same journey as
 * e2e/newcomer.spec.ts (e2e/journeys/own-data-journey.ts): sign up, upload e2e/fixtures/customers.csv,
 * "Train a model on this data", train, evaluate, deploy, predict in the console. Prints the clicks,
 * the fields typed, each step's wall time and the total, per run. The machine's own pace is in the
 * figures (training is real): the baseline printed beside them is the time the same server takes to
 * answer one page (/login) to the same browser, so a busy machine shows as a slow baseline.
 */
import { fileURLToPath } from "node:url";
import { chromium } from "@playwright/test";
import { ownDataJourney } from "../e2e/journeys/own-data-journey";

const BASE = (process.env.BENCH_BASE_URL ?? "http://localhost:3200").replace(/\/$/, "");
const RUNS = Math.max(1, Number(process.argv[2] ?? 1));
const CSV = fileURLToPath(new URL("../e2e/fixtures/customers.csv", import.meta.url));

async function main() {
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-quic"],
  });
  try {
    for (let run = 1; run <= RUNS; run++) {
      const context = await browser.newContext({ baseURL: BASE, viewport: { width: 1440, height: 900 } });
      const page = await context.newPage();
      const t0 = Date.now();
      await page.goto("/login");
      await page.getByRole("button", { name: "Sign in" }).waitFor();
      const baseline = Date.now() - t0;
      const start = Date.now();
      const result = await ownDataJourney(page, {
        file: CSV,
        datasetName: "customers",
        expectedTarget: "plan",
      });
      const total = Date.now() - start;
      console.log(
        `run ${run}: ${result.clicks} clicks, ${result.fields} fields typed, ${(total / 1000).toFixed(1)} s`,
      );
      for (const s of result.steps) console.log(`  ${s.name.padEnd(20)} ${(s.ms / 1000).toFixed(1)} s`);
      console.log(`  predicted: ${result.predictedLabel}`);
      console.log(
        `  baseline: one page load ${baseline} ms; journey = ${(total / baseline).toFixed(0)} × a page load`,
      );
      await context.close();
    }
  } finally {
    await browser.close();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
