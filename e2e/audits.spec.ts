import fs from "node:fs";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { parseCallsJsonl } from "../lib/audits/parse-log";
import { groupWorkloads } from "../lib/audits/workloads";
import { apiJson, expectAccessible, screenshotBothThemes, signUpViaApi, waitForJob } from "./fixtures";

test.use({ viewport: { width: 1440, height: 900 } });

/** The shipped sample log, grouped as `layerline audit` would publish it. */
function sampleWorkloads() {
  const text = fs.readFileSync(path.join(import.meta.dirname, "../data/samples/support-calls.jsonl"), "utf8");
  return groupWorkloads(parseCallsJsonl(text).calls).map((g) => ({
    name: g.name,
    task: g.task,
    model: g.model,
    calls: g.calls.map((c) => ({ input: c.input, output: c.output, latency_ms: c.latency_ms, cost: c.cost })),
  }));
}

test("an audit published through the API: list, report with charts, share, the public page signed out", async ({
  page,
  context,
  browser,
  baseURL,
}) => {
  test.setTimeout(240_000);
  if (!baseURL) throw new Error("baseURL");
  await signUpViaApi(context, baseURL);
  const req = context.request;

  // A new user: the page says what an audit is and shows a runnable example against this server.
  await page.goto("/audits");
  await expect(page.getByRole("heading", { name: "No audits yet" })).toBeVisible();
  await expect(page.getByRole("heading", { name: "How an audit works" })).toBeVisible();
  const example = page.getByTestId("audit-example");
  await expect(example).toContainText(`curl -X POST ${baseURL}/api/v1/audits`);
  await expect(page.getByRole("button", { name: "Copy curl" })).toBeVisible();
  await page.getByRole("tab", { name: "A whole log with the CLI" }).click();
  await expect(example).toContainText(`LAYERLINE_URL=${baseURL}`);
  await expect(example).toContainText("layerline audit calls.jsonl");
  await expect(example).not.toContainText("cli/");
  await page.getByRole("tab", { name: "Try it with curl" }).click();
  await expectAccessible(page);
  await screenshotBothThemes(page, "audits-empty");

  const audit = await apiJson(req, baseURL, "POST", "/api/v1/audits", {
    name: "Support desk audit",
    source: "support-calls.jsonl",
    workloads: sampleWorkloads(),
  });
  const A = `/api/v1/audits/${audit.id}`;
  await apiJson(req, baseURL, "POST", `${A}/steps`, {
    name: "parse",
    status: "succeeded",
    message: "360 calls",
  });
  const cls = audit.workloads.find((w: { task: string }) => w.task === "classification");
  const cand = await apiJson(req, baseURL, "POST", `${A}/workloads/${cls.id}/candidates`, {
    recipe_id: "tabular-mlp-classifier",
    base_model_id: "breast-cancer-mlp",
    config: { epochs: 30 },
  });
  await waitForJob(req, baseURL, cand.run.id);
  await apiJson(req, baseURL, "POST", `${A}/candidates/${cand.id}/evaluate`);
  await apiJson(req, baseURL, "POST", `${A}/steps`, { name: "evaluate", status: "succeeded" });
  await apiJson(req, baseURL, "POST", `${A}/complete`, {
    summary: { text: "The ticket classifier can run for a fraction of today's cost." },
    outcome: "completed",
  });

  // The list.
  await page.goto("/audits");
  const row = page.getByTestId("audit-row").filter({ hasText: "Support desk audit" });
  await expect(row).toBeVisible();
  await expect(row.getByText("completed")).toBeVisible();
  await expectAccessible(page);
  await screenshotBothThemes(page, "audits-list");

  // The report.
  await row.getByRole("link", { name: "Support desk audit" }).click();
  await expect(page).toHaveURL(new RegExp(`/audits/${audit.id}$`));
  await expect(page.getByRole("heading", { level: 1, name: "Support desk audit" })).toBeVisible();
  await expect(page.getByRole("heading", { name: "gpt-4o-mini-classification" })).toBeVisible();
  await expect(page.getByTestId("candidate-row").first()).toContainText("tabular-mlp-classifier");
  await expect(page.getByTestId("candidate-row").first()).toContainText("evaluated");
  await expect(page.getByRole("link", { name: `run ${cand.run.id}` })).toHaveAttribute(
    "href",
    `/training/${cand.run.id}`,
  );
  await expect(page.getByTestId("audit-savings")).toHaveText(/%$/);
  await expect(
    page.getByRole("img", { name: /Quality against cost for gpt-4o-mini-classification/ }),
  ).toBeVisible();
  await expect(page.getByTestId("audit-steps")).toContainText("parse");
  await screenshotBothThemes(page, "audits-report");

  // Retrain dialog offers the recipes and base models of the workload's task.
  const wl = page
    .locator("section")
    .filter({ has: page.getByRole("heading", { name: "gpt-4o-mini-classification" }) });
  await wl.getByRole("button", { name: "Retrain with another recipe" }).click();
  const retrain = page.getByRole("dialog", { name: "Retrain gpt-4o-mini-classification" });
  await expect(retrain.getByLabel("Base model")).toContainText("reast");
  await retrain.getByRole("button", { name: "Cancel" }).click();

  // Share: a link anyone can open.
  await page.getByRole("button", { name: "Share" }).click();
  const shareDialog = page.getByRole("dialog", { name: "Share this report" });
  const url = shareDialog.getByTestId("share-url");
  await expect(url).toHaveValue(/\/audits\/shared\/las_\w+$/);
  const shareUrl = await url.inputValue();
  await shareDialog.getByRole("button", { name: "Done" }).click();

  const anonymous = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  const pub = await anonymous.newPage();
  await pub.goto(shareUrl);
  await expect(pub.getByRole("heading", { level: 1, name: "Support desk audit" })).toBeVisible();
  await expect(pub.getByTestId("candidate-row").first()).toContainText("tabular-mlp-classifier");
  await expect(pub.getByText(cand.run.id)).toHaveCount(0);
  await expect(pub.getByRole("button", { name: "Delete" })).toHaveCount(0);
  expect(await pub.locator('meta[property="og:title"]').getAttribute("content")).toContain(
    "Support desk audit",
  );
  await expectAccessible(pub);
  await screenshotBothThemes(pub, "audits-shared");
  await anonymous.close();

  // Delete with typed confirmation.
  await page.getByRole("button", { name: "Delete" }).click();
  const del = page.getByRole("dialog", { name: "Delete this audit?" });
  await del.getByLabel("Type “Support desk audit” to confirm").fill("Support desk audit");
  await del.getByRole("button", { name: "Delete audit" }).click();
  await expect(page).toHaveURL(/\/audits$/);
  await expect(page.getByRole("heading", { name: "No audits yet" })).toBeVisible();
});
