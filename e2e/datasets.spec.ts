import fs from "node:fs";
import { fileURLToPath } from "node:url";
import { type APIRequestContext, expect, type Page, test } from "@playwright/test";
import { expectAccessible, screenshotBothThemes, signUpViaApi } from "./fixtures";

const CUSTOMERS = fileURLToPath(new URL("./fixtures/customers.csv", import.meta.url));

async function createProject(request: APIRequestContext, baseURL: string, name: string): Promise<string> {
  const res = await request.post(`${baseURL}/api/v1/projects`, {
    data: { name },
    headers: { Origin: baseURL },
  });
  expect(res.status()).toBe(201);
  return (await res.json()).id;
}

async function uploadViaApi(request: APIRequestContext, baseURL: string, name: string, csv: string) {
  const res = await request.post(`${baseURL}/api/v1/datasets/`, {
    headers: { Origin: baseURL },
    multipart: { name, file: { name: `${name}.csv`, mimeType: "text/csv", buffer: Buffer.from(csv) } },
  });
  expect(res.status()).toBe(201);
  return (await res.json()) as { dataset: { id: string }; version: { id: string } };
}

async function openTab(page: Page, name: string) {
  await page.getByRole("tab", { name: new RegExp(`^${name}`) }).click();
  await expect(page.getByRole("tab", { name: new RegExp(`^${name}`) })).toHaveAttribute(
    "aria-selected",
    "true",
  );
}

test("upload a CSV, profile it, set roles, scan for PII, split, link, download", async ({
  page,
  context,
  baseURL,
}) => {
  test.setTimeout(120_000);
  const base = baseURL ?? "";
  await signUpViaApi(context, base);
  const projectId = await createProject(context.request, base, "Churn model");

  // A new user: an empty state that points at upload and the built-ins.
  await page.goto("/datasets");
  await expect(page.getByRole("heading", { name: "No datasets yet" })).toBeVisible();
  const builtins = page.getByRole("table", { name: "Built-in datasets" });
  await expect(builtins.getByRole("row", { name: /Iris/ })).toContainText("Built-in");
  await expect(page.getByTestId("quota-text")).toContainText("0 B of 5 GB");
  await expectAccessible(page);
  await screenshotBothThemes(page, "datasets-empty");

  // Search and filters.
  await page.getByLabel("Search datasets").fill("penguin");
  await expect(builtins.getByTestId("dataset-row")).toHaveCount(1);
  await page.getByLabel("Search datasets").fill("");
  await page.getByLabel("Task").selectOption("regression");
  await expect(builtins.getByTestId("dataset-row")).toHaveCount(1);
  await expect(builtins).toContainText("Diabetes");
  await page.getByLabel("Task").selectOption("");

  // Upload through the dialog, watching the progress bar.
  await page.getByRole("button", { name: "Upload dataset" }).click();
  const dialog = page.getByRole("dialog", { name: "Upload a dataset" });
  await expect(dialog).toBeVisible();
  await dialog.getByLabel("Dataset file").setInputFiles(CUSTOMERS);
  await expect(dialog.getByLabel("Name", { exact: true })).toHaveValue("customers");
  await dialog
    .getByLabel("Description")
    .fill("Customers with their plan; the e-mail column is personal data.");
  await expectAccessible(page);
  await screenshotBothThemes(page, "datasets-upload-dialog");
  await dialog.getByRole("button", { name: "Upload", exact: true }).click();
  const progress = dialog.getByRole("progressbar", { name: "Upload progress" });
  await expect(progress).toHaveAttribute("aria-valuenow", "100");
  await expect(dialog.getByText("“customers” is ready.")).toBeVisible();
  await expect(dialog).toContainText("60 rows · 7 columns");
  await screenshotBothThemes(page, "datasets-upload-done");
  await dialog.getByRole("link", { name: "Open dataset" }).click();

  // The dataset page: header and every row of the data.
  await expect(page.getByRole("heading", { level: 1, name: "customers" })).toBeVisible();
  await expect(page.getByTestId("header-rows")).toHaveText("60");
  await expect(page.getByTestId("header-version")).toHaveText("v1 of 1");
  await expect(page.getByTestId("rows-note")).toHaveText("All 60 rows, read from the file.");
  await expect(page.locator('tr[data-row="1"]')).toContainText("ana.0@example.com");
  await expectAccessible(page);
  await screenshotBothThemes(page, "dataset-data");

  // Column profiles.
  await openTab(page, "Columns");
  const spend = page.getByRole("article", { name: "monthly_spend" });
  await expect(spend).toContainText("float");
  await expect(spend).toContainText("Mean");
  await expect(spend.getByRole("img", { name: /Histogram of monthly_spend/ })).toBeVisible();
  const plan = page.getByRole("article", { name: "plan" });
  await expect(plan.getByRole("list", { name: "Most frequent values of plan" })).toContainText("basic");
  await expect(page.getByRole("article", { name: "satisfaction" })).toContainText("Missing");
  await expectAccessible(page);
  await screenshotBothThemes(page, "dataset-columns");

  // Roles: the target makes it a classification dataset.
  await openTab(page, "Roles");
  await page.getByLabel("Role of customer_id").selectOption("id");
  await page.getByLabel("Role of contact_email").selectOption("ignored");
  await page.getByLabel("Role of plan").selectOption("target");
  await expect(page.getByTestId("inferred-task")).toHaveText("Classification");
  await page.getByRole("button", { name: "Fill empty roles" }).click();
  await expect(page.getByLabel("Role of age")).toHaveValue("feature");
  await page.getByRole("button", { name: "Save roles" }).click();
  await expect(page.getByText("Roles saved. Task: Classification.")).toBeVisible();
  await expect(page.getByRole("heading", { level: 1, name: "customers" })).toBeVisible();
  await expectAccessible(page);
  await screenshotBothThemes(page, "dataset-roles");

  // PII scan: the planted e-mail column is flagged.
  await openTab(page, "PII");
  await expect(page.getByText("This version has not been scanned yet.")).toBeVisible();
  await page.getByRole("button", { name: "Run scan" }).click();
  await expect(page.getByTestId("pii-summary")).toContainText("Personal data found");
  const emailRow = page.getByRole("row", { name: /contact_email/ });
  await expect(emailRow).toContainText("Flagged");
  await expect(emailRow).toContainText("E-mail address");
  await expect(emailRow).toHaveAttribute("data-flagged", "true");
  await expect(page.getByRole("row", { name: /monthly_spend/ })).toContainText("Clean");
  await expectAccessible(page);
  await screenshotBothThemes(page, "dataset-pii");

  // Stratified split by the target: each split keeps the 30/20/10 balance.
  await openTab(page, "Splits");
  await expect(page.getByRole("radio", { name: "Stratified" })).toBeChecked();
  await expect(page.getByLabel("Stratify by")).toHaveValue("plan");
  const table = page.getByTestId("balance-table");
  await expect(table.getByRole("row", { name: /basic/ })).toContainText("24 (50%)");
  await expect(table.getByRole("row", { name: /pro/ })).toContainText("16 (33%)");
  await expect(table.getByRole("row", { name: /enterprise/ })).toContainText("8 (17%)");
  await expect(page.getByTestId("balance-validation")).toContainText("6 rows · 10%");
  await page.getByLabel("Train %").fill("70");
  await expect(page.getByText("The percentages add up to 90 %, not 100 %.")).toBeVisible();
  await expect(page.getByRole("button", { name: "Save splits" })).toBeDisabled();
  await page.getByLabel("Validation %").fill("20");
  await expect(table.getByRole("row", { name: /basic/ })).toContainText("21 (50%)");
  await page.getByRole("button", { name: "Save splits" }).click();
  await expect(page.getByText("Splits saved.")).toBeVisible();
  await expect(page.getByTestId("saved-splits")).toContainText("train 42 · validation 12 · test 6");
  await expectAccessible(page);
  await screenshotBothThemes(page, "dataset-splits");

  // Link to a project (created through the API), unlink, link again.
  await openTab(page, "Projects");
  await expect(page.getByText("Not linked to any project yet.")).toBeVisible();
  await page.getByLabel("Project", { exact: true }).selectOption({ label: "Churn model" });
  await page.getByRole("button", { name: "Link to project" }).click();
  await expect(page.getByTestId("linked-project")).toContainText("Churn model");
  const linked = await context.request.get(`${base}/api/v1/projects/${projectId}/datasets`);
  expect((await linked.json()).map((d: { name: string }) => d.name)).toEqual(["customers"]);
  await page.getByRole("button", { name: "Unlink from Churn model" }).click();
  await expect(page.getByText("Not linked to any project yet.")).toBeVisible();
  await page.getByRole("button", { name: "Link to project" }).click();
  await expect(page.getByTestId("linked-project")).toContainText("Churn model");
  await expectAccessible(page);
  await screenshotBothThemes(page, "dataset-projects");

  // Versions.
  await openTab(page, "Versions");
  await expect(page.getByTestId("version-row")).toHaveCount(1);
  await expect(page.getByTestId("version-row")).toContainText("Current");
  await expectAccessible(page);
  await screenshotBothThemes(page, "dataset-versions");

  // Download through the single-use link; a second use of the same link fails.
  await openTab(page, "Download");
  const downloading = page.waitForEvent("download");
  await page.getByRole("button", { name: "Download file" }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toBe("customers.csv");
  expect(fs.readFileSync(await download.path(), "utf8")).toBe(fs.readFileSync(CUSTOMERS, "utf8"));
  const url = download.url();
  expect(url).toMatch(/\/download\?.*sig=/);
  await expect(page.getByText(/Download of customers.csv started/)).toBeVisible();
  const again = await page.request.get(url);
  expect(again.status()).toBe(410);
  await page.getByRole("button", { name: "Create single-use link" }).click();
  await expect(page.getByLabel("Link", { exact: true })).toHaveValue(/sig=/);
  await expectAccessible(page);
  await screenshotBothThemes(page, "dataset-download");

  // Back in the browser, the dataset is listed as the user's.
  await page.getByRole("link", { name: "Datasets" }).first().click();
  const mine = page.getByRole("table", { name: "Your datasets" });
  await expect(mine.getByRole("row", { name: /customers/ })).toContainText("60");
  await expectAccessible(page);
  await screenshotBothThemes(page, "datasets-browser");
});

test("a 100,000-row dataset scrolls smoothly through the data table", async ({ page, context, baseURL }) => {
  const base = baseURL ?? "";
  await signUpViaApi(context, base);
  const lines = ["id,label,value,note"];
  for (let i = 0; i < 100_000; i++)
    lines.push(`${i},${i % 4 === 0 ? "spam" : "ham"},${(i * 0.5).toFixed(1)},row ${i + 1}`);
  const { dataset } = await uploadViaApi(context.request, base, "big", `${lines.join("\n")}\n`);

  await page.goto(`/datasets/${dataset.id}`);
  await expect(page.getByTestId("rows-note")).toHaveText("All 100,000 rows, read from the file.");
  const region = page.getByRole("region", { name: "Rows of big" });
  await expect(region.locator('tr[data-row="1"]')).toContainText("row 1");
  // Only the rows in view are in the document.
  expect(await region.locator("tbody tr[data-row]").count()).toBeLessThan(80);

  // Scroll with the wheel, then jump to the end.
  await region.hover();
  await page.mouse.wheel(0, 32 * 5000);
  const visible = page.getByTestId("visible-rows");
  await expect(visible).not.toHaveText(/^Rows 1–/);
  const first = Number(
    ((await visible.textContent()) ?? "").match(/^Rows ([\d,]+)/)?.[1].replaceAll(",", ""),
  );
  expect(first).toBeGreaterThan(1000);
  await expect(region.locator(`tr[data-row="${first}"]`)).toContainText(`row ${first}`);
  await page.getByLabel("Go to row").fill("100000");
  await page.getByRole("button", { name: "Go" }).click();
  await expect(region.locator('tr[data-row="100000"]')).toContainText("row 100000");
  await expect(page.getByTestId("visible-rows")).toHaveText(/of 100,000$/);
  expect(await region.locator("tbody tr[data-row]").count()).toBeLessThan(80);
  await expectAccessible(page);
  await screenshotBothThemes(page, "dataset-data-100k");
});

test("an upload can be cancelled and unreadable files are explained", async ({ page, context, baseURL }) => {
  const base = baseURL ?? "";
  await signUpViaApi(context, base);
  await page.goto("/datasets");
  await page.getByRole("button", { name: "Upload dataset" }).click();
  const dialog = page.getByRole("dialog", { name: "Upload a dataset" });

  // Slow the upload down so that it is visibly in progress, then cancel it.
  const cdp = await context.newCDPSession(page);
  await cdp.send("Network.enable");
  await cdp.send("Network.emulateNetworkConditions", {
    offline: false,
    latency: 0,
    downloadThroughput: -1,
    uploadThroughput: 256 * 1024,
  });
  const big = Buffer.from(`a,b\n${"1,2\n".repeat(1_000_000)}`);
  await dialog
    .getByLabel("Dataset file")
    .setInputFiles({ name: "slow.csv", mimeType: "text/csv", buffer: big });
  await dialog.getByRole("button", { name: "Upload", exact: true }).click();
  const progress = dialog.getByRole("progressbar", { name: "Upload progress" });
  await expect(progress).toHaveAttribute("aria-valuenow", /^([1-9]|[1-8]\d)$/);
  await screenshotBothThemes(page, "datasets-upload-progress");
  await dialog.getByRole("button", { name: "Cancel upload" }).click();
  await expect(dialog.getByText("Upload cancelled. Nothing was stored.")).toBeVisible();
  await cdp.send("Network.emulateNetworkConditions", {
    offline: false,
    latency: 0,
    downloadThroughput: -1,
    uploadThroughput: -1,
  });
  const browse = await context.request.get(`${base}/api/v1/datasets/browse?mine=true&include_builtin=false`);
  expect(await browse.json()).toEqual([]);
  const quota = await context.request.get(`${base}/api/v1/datasets/storage/quota`);
  expect((await quota.json()).used_bytes).toBe(0);

  // A gzip file is refused with the server's reason.
  const gz = Buffer.from([0x1f, 0x8b, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x03]);
  await dialog
    .getByLabel("Dataset file")
    .setInputFiles({ name: "data.csv.gz", mimeType: "application/gzip", buffer: gz });
  await dialog.getByRole("button", { name: "Upload", exact: true }).click();
  await expect(dialog.getByRole("alert")).toContainText("The file could not be used.");
  await expect(dialog.getByRole("alert")).toContainText("gzip");
  await expectAccessible(page);
  await screenshotBothThemes(page, "datasets-upload-error");
});

test("built-in datasets can be explored but not changed", async ({ page, context, baseURL }) => {
  await signUpViaApi(context, baseURL ?? "");
  await page.goto("/datasets");
  await page.getByRole("link", { name: "Digits (8×8)" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Digits (8×8)" })).toBeVisible();
  await expect(page.getByText("Licence: BSD-3-Clause")).toBeVisible();
  await expect(page.getByRole("button", { name: "New version" })).toHaveCount(0);
  await expect(page.getByRole("img", { name: /^Row 1: / })).toBeVisible();
  await expect(page.getByTestId("rows-note")).toHaveText("All 1,797 rows, read from the file.");
  await expectAccessible(page);
  await screenshotBothThemes(page, "builtin-data");

  await openTab(page, "Roles");
  await expect(page.getByText("Built-in datasets are read-only.")).toBeVisible();
  await expect(page.getByLabel("Role of digit")).toBeDisabled();
  await expect(page.getByLabel("Role of digit")).toHaveValue("target");

  await openTab(page, "Splits");
  await expect(page.getByLabel("Stratify by")).toHaveValue("digit");
  await expect(page.getByTestId("balance-train")).toContainText(/1,4\d\d rows · 80%/);
  await expect(page.getByRole("button", { name: "Save splits" })).toHaveCount(0);
  await expectAccessible(page);
  await screenshotBothThemes(page, "builtin-splits");

  await openTab(page, "PII");
  await expect(page.getByText("Built-in datasets cannot be scanned.")).toBeVisible();
});
