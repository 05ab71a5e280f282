import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";
import { type APIRequestContext, expect, type Page, test } from "@playwright/test";
import { apiJson, expectAccessible, screenshotBothThemes, signUpViaApi } from "./fixtures";

const CUSTOMERS = fileURLToPath(new URL("./fixtures/customers.csv", import.meta.url));

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
  const { id: projectId } = await apiJson(context.request, base, "POST", "/api/v1/projects", {
    name: "Churn model",
  });

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
  await page.getByRole("button", { name: "New dataset" }).click();
  const dialog = page.getByRole("dialog", { name: "New dataset" });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole("radio", { name: "Upload a file" })).toBeChecked();
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
  await expect(page.getByTestId("rows-note")).toHaveText("All 60 rows.");
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

  // Roles: guessed on upload (the last column with few values is the target, the unique id an id,
  // the e-mails too varied to learn from, the rest features); one change, then saved.
  await openTab(page, "Roles");
  await expect(page.getByLabel("Role of plan")).toHaveValue("target");
  await expect(page.getByLabel("Role of customer_id")).toHaveValue("id");
  await expect(page.getByLabel("Role of contact_email")).toHaveValue("ignored");
  await expect(page.getByLabel("Role of age")).toHaveValue("feature");
  await expect(page.getByTestId("inferred-task")).toHaveText("Classification");
  await page.getByLabel("Role of satisfaction").selectOption("ignored");
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

/** Counts the API's row pages (and any file download) the page asks for. */
function watchRowRequests(page: Page) {
  const pages: { offset: number; limit: number; columns: string | null }[] = [];
  const downloads: string[] = [];
  page.on("request", (req) => {
    const url = new URL(req.url());
    if (/\/api\/v1\/datasets\/[^/]+\/rows$/.test(url.pathname))
      pages.push({
        offset: Number(url.searchParams.get("offset")),
        limit: Number(url.searchParams.get("limit")),
        columns: url.searchParams.get("columns"),
      });
    if (/\/download$/.test(url.pathname)) downloads.push(url.pathname);
  });
  return {
    pages,
    downloads,
    /** Rows of every column asked for so far. */
    rowsRequested: () => pages.filter((p) => p.columns === null).reduce((n, p) => n + p.limit, 0),
  };
}

test("a 100,000-row dataset scrolls smoothly through the data table, a page at a time", async ({
  page,
  context,
  baseURL,
}) => {
  const base = baseURL ?? "";
  await signUpViaApi(context, base);
  const lines = ["id,label,value,note"];
  for (let i = 0; i < 100_000; i++)
    lines.push(`${i},${i % 4 === 0 ? "spam" : "ham"},${(i * 0.5).toFixed(1)},row ${i + 1}`);
  const { dataset } = await uploadViaApi(context.request, base, "big", `${lines.join("\n")}\n`);
  await context.request.patch(`${base}/api/v1/datasets/${dataset.id}/roles`, {
    headers: { Origin: base },
    data: { roles: { label: "target" } },
  });

  const watch = watchRowRequests(page);
  await page.goto(`/datasets/${dataset.id}`);
  await expect(page.getByTestId("rows-note")).toHaveText(
    "100,000 rows, read from the server 500 at a time as you scroll.",
  );
  const region = page.getByRole("region", { name: "Rows of big" });
  await expect(region.locator('tr[data-row="1"]')).toContainText("row 1");
  // Only the rows in view are in the document, and only the first page was asked for.
  expect(await region.locator("tbody tr[data-row]").count()).toBeLessThan(80);
  expect(watch.pages).toEqual([{ offset: 0, limit: 500, columns: null }]);

  // Scroll with the wheel: the page there is fetched (the placeholders fill in), then jump to the end.
  await region.hover();
  await page.mouse.wheel(0, 32 * 5000);
  const visible = page.getByTestId("visible-rows");
  await expect(visible).not.toHaveText(/^Rows 1–/);
  const first = Number(
    ((await visible.textContent()) ?? "").match(/^Rows ([\d,]+)/)?.[1].replaceAll(",", ""),
  );
  expect(first).toBeGreaterThan(1000);
  await expect(region.locator(`tr[data-row="${first}"]`)).toContainText(`row ${first}`);
  await expect(region.locator("tr[data-loading]")).toHaveCount(0);

  // While a page is on its way, its rows show as placeholders.
  let release = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route(/\/rows\?/, async (route) => {
    await held;
    await route.continue();
  });
  await page.getByLabel("Go to row").fill("100000");
  await page.getByRole("button", { name: "Go" }).click();
  await expect(region.locator('tr[data-row="100000"][data-loading]')).toBeVisible();
  await expect(region).toHaveAttribute("aria-busy", "true");
  await expect(page.getByTestId("rows-status")).toHaveText("Loading rows…");
  await screenshotBothThemes(page, "dataset-data-loading");
  release();
  await expect(region.locator('tr[data-row="100000"]')).toContainText("row 100000");
  await page.unroute(/\/rows\?/);
  await expect(page.getByTestId("rows-status")).toHaveText("");
  await expect(region.locator('tr[data-row="99990"]')).toContainText("row 99990");
  await expect(page.getByTestId("visible-rows")).toHaveText(/of 100,000$/);
  expect(await region.locator("tbody tr[data-row]").count()).toBeLessThan(80);
  // A handful of pages, never the file.
  expect(watch.pages.length).toBeLessThanOrEqual(6);
  expect(watch.rowsRequested()).toBeLessThanOrEqual(3000);
  expect(watch.downloads).toEqual([]);
  await expectAccessible(page);
  await screenshotBothThemes(page, "dataset-data-100k");

  // Stratified splits read only the label column, in one request.
  await openTab(page, "Splits");
  await expect(page.getByRole("radio", { name: "Stratified" })).toBeChecked();
  await expect(page.getByTestId("balance-train")).toContainText("80,000 rows · 80%");
  const table = page.getByTestId("balance-table");
  await expect(table.getByRole("row", { name: /ham/ })).toContainText("60,000 (75%)");
  const labelPages = watch.pages.filter((p) => p.columns !== null);
  expect(labelPages).toEqual([{ offset: 0, limit: 100_000, columns: "label" }]);
  expect(watch.downloads).toEqual([]);
  await screenshotBothThemes(page, "dataset-splits-100k");
});

test("a 1,000,000-row dataset scrolls end to end without being downloaded", async ({
  page,
  context,
  baseURL,
}) => {
  test.setTimeout(120_000);
  const base = baseURL ?? "";
  await signUpViaApi(context, base);
  // 8.5 MB: above the size from which the server pages from a Parquet copy, below the app's 10 MB
  // request-body limit.
  const letter = (n: number) => String.fromCharCode(97 + (n % 26));
  const parts: string[] = ["n,letter\n"];
  for (let i = 0; i < 1_000_000; i++) parts.push(`${i},${letter(i)}\n`);
  const { dataset } = await uploadViaApi(context.request, base, "million", parts.join(""));
  const cells = (row: number) => `${row - 1}${letter(row - 1)}`;

  const watch = watchRowRequests(page);
  await page.goto(`/datasets/${dataset.id}`);
  await expect(page.getByTestId("header-rows")).toHaveText("1,000,000");
  const region = page.getByRole("region", { name: "Rows of million" });
  await expect(region.locator('tr[data-row="1"]')).toContainText(cells(1));

  // The middle of the scrollbar is the middle of the data (the scroll area is capped, rows map linearly).
  await region.evaluate((el) => {
    el.scrollTop = (el.scrollHeight - el.clientHeight) / 2;
  });
  const visible = page.getByTestId("visible-rows");
  await expect(visible).toHaveText(/^Rows (49\d,\d{3}|50\d,\d{3})–/);
  const mid = Number(((await visible.textContent()) ?? "").match(/^Rows ([\d,]+)/)?.[1].replaceAll(",", ""));
  await expect(region.locator(`tr[data-row="${mid}"]`)).toContainText(cells(mid));

  await page.getByLabel("Go to row").fill("1000000");
  await page.getByRole("button", { name: "Go" }).click();
  await expect(region.locator('tr[data-row="1000000"]')).toContainText(cells(1_000_000));
  await page.getByLabel("Go to row").fill("654321");
  await page.getByRole("button", { name: "Go" }).click();
  await expect(region.locator('tr[data-row="654321"]')).toContainText(cells(654_321));
  await expect(visible).toHaveText(/^Rows 654,321–/);

  expect(watch.pages.length).toBeLessThanOrEqual(8);
  expect(watch.rowsRequested()).toBeLessThanOrEqual(4000);
  expect(watch.downloads).toEqual([]);
  await screenshotBothThemes(page, "dataset-data-1m");
});

test("an upload can be cancelled and unreadable files are explained", async ({ page, context, baseURL }) => {
  const base = baseURL ?? "";
  await signUpViaApi(context, base);
  await page.goto("/datasets");
  await page.getByRole("button", { name: "New dataset" }).click();
  const dialog = page.getByRole("dialog", { name: "New dataset" });

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
  await expect(page.getByTestId("rows-note")).toHaveText(
    "1,797 rows, read from the server 500 at a time as you scroll.",
  );
  await expect(page.locator('tr[data-row="1797"]')).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Dataset settings" })).toHaveCount(0);
  await expect(page.getByRole("tab", { name: /^Settings/ })).toHaveCount(0);
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

test("owners rename, publish and delete a dataset from its settings", async ({
  page,
  context,
  browser,
  baseURL,
}) => {
  const base = baseURL ?? "";
  await signUpViaApi(context, base);
  const { dataset } = await uploadViaApi(context.request, base, "scratch", "a,b\n1,x\n2,y\n3,z\n");

  await page.goto(`/datasets/${dataset.id}`);
  await expect(page.getByTestId("visibility-badge")).toHaveText("Private");
  await page.getByRole("button", { name: "Dataset settings" }).click();
  await expect(page.getByRole("tab", { name: /^Settings/ })).toHaveAttribute("aria-selected", "true");
  await expect(page).toHaveURL(/tab=settings/);

  // Rename and describe.
  const name = page.getByLabel("Name", { exact: true });
  await expect(name).toHaveValue("scratch");
  await expect(page.getByRole("button", { name: "Save details" })).toBeDisabled();
  await name.fill("  ");
  await expect(page.getByText("A dataset needs a name.")).toBeVisible();
  await expect(page.getByRole("button", { name: "Save details" })).toBeDisabled();
  await name.fill("Scratch pad");
  await page.getByLabel("Description").fill("Three rows to try things on.");
  await page.getByRole("button", { name: "Save details" }).click();
  await expect(page.getByText("Saved.")).toBeVisible();
  await expect(page.getByRole("heading", { level: 1, name: "Scratch pad" })).toBeVisible();
  await expect(page.getByText("Three rows to try things on.").first()).toBeVisible();

  // Publish: another user can now find and read it, but has no settings.
  await expect(page.getByRole("radio", { name: /^Private/ })).toBeChecked();
  await page.getByRole("radio", { name: /^Public/ }).check();
  await expectAccessible(page);
  await screenshotBothThemes(page, "dataset-settings");
  await page.getByRole("button", { name: "Make public" }).click();
  await expect(page.getByText("The dataset is now public.")).toBeVisible();
  await expect(page.getByTestId("visibility-badge")).toHaveText("Public");

  const other = await browser.newContext({ baseURL: base });
  await signUpViaApi(other, base);
  const browse = await other.request.get(`${base}/api/v1/datasets/browse?include_builtin=false`);
  expect((await browse.json()).map((d: { name: string }) => d.name)).toContain("Scratch pad");
  const otherPage = await other.newPage();
  await otherPage.goto(`/datasets/${dataset.id}?tab=settings`);
  await expect(otherPage.getByRole("heading", { level: 1, name: "Scratch pad" })).toBeVisible();
  await expect(otherPage.getByRole("tab", { name: /^Settings/ })).toHaveCount(0);
  await expect(otherPage.getByRole("tab", { name: "Data" })).toHaveAttribute("aria-selected", "true");
  await expect(otherPage.locator('tr[data-row="3"]')).toContainText("z");

  // Back to private: the other user loses it.
  await page.getByRole("radio", { name: /^Private/ }).check();
  await page.getByRole("button", { name: "Make private" }).click();
  await expect(page.getByText("The dataset is now private.")).toBeVisible();
  expect((await other.request.get(`${base}/api/v1/datasets/${dataset.id}`)).status()).toBe(404);
  await other.close();

  // Delete: the name must be typed; a dataset in use (409) says so and stays.
  await page.getByRole("button", { name: "Delete dataset" }).click();
  const dialog = page.getByRole("dialog", { name: "Delete dataset" });
  const confirm = dialog.getByRole("button", { name: "Delete dataset" });
  await expect(confirm).toBeDisabled();
  await dialog.getByLabel(/to confirm/).fill("scratch pad");
  await expect(confirm).toBeDisabled();
  await dialog.getByLabel(/to confirm/).fill("Scratch pad");
  await expect(confirm).toBeEnabled();
  await expectAccessible(page);
  await screenshotBothThemes(page, "dataset-delete-dialog");

  await page.route(`**/api/v1/datasets/${dataset.id}`, (route) =>
    route.request().method() === "DELETE"
      ? route.fulfill({
          status: 409,
          contentType: "application/problem+json",
          body: JSON.stringify({
            type: "https://layerline.dev/problems/conflict",
            title: "Conflict",
            status: 409,
            detail:
              "The dataset is in use by job tsk_e2e (training.run); wait for it to finish or cancel it.",
            request_id: "e2e",
          }),
        })
      : route.continue(),
  );
  await confirm.click();
  const conflict = dialog.getByRole("alert");
  await expect(conflict).toContainText("This dataset is in use.");
  await expect(conflict).toContainText("in use by job tsk_e2e (training.run)");
  await expect(dialog).toBeVisible();
  await screenshotBothThemes(page, "dataset-delete-conflict");
  await page.unroute(`**/api/v1/datasets/${dataset.id}`);

  await confirm.click();
  await expect(page).toHaveURL(/\/datasets$/);
  await expect(page.getByTestId("datasets-flash")).toHaveText("“Scratch pad” was deleted.");
  await expect(page.getByRole("heading", { name: "No datasets yet" })).toBeVisible();
  await expect(page.getByTestId("quota-text")).toContainText("0 B of 5 GB");
  expect((await context.request.get(`${base}/api/v1/datasets/${dataset.id}`)).status()).toBe(404);
  await expectAccessible(page);
  await screenshotBothThemes(page, "datasets-after-delete");
  await page.goto(`/datasets/${dataset.id}`);
  await expect(page.getByRole("heading", { name: "Dataset not found" })).toBeVisible();
});

test("a dataset is imported from a URL, with progress and the server's reasons for failures", async ({
  page,
  context,
  baseURL,
}) => {
  test.setTimeout(90_000);
  const base = baseURL ?? "";
  await signUpViaApi(context, base);

  // A local server the app fetches from (the e2e server allows private addresses).
  const rows = ["city,country,population"];
  for (let i = 0; i < 40_000; i++) rows.push(`City ${i},${["NO", "PE", "IN", "UA"][i % 4]},${1000 + i}`);
  const cities = Buffer.from(`${rows.join("\n")}\n`);
  const server = http.createServer((req, res) => {
    if (req.url === "/files/world%20cities.csv") {
      // Slowly, so that the progress bar has something to show.
      res.writeHead(200, { "Content-Type": "text/csv", "Content-Length": cities.length });
      let at = 0;
      const step = Math.ceil(cities.length / 12);
      const timer = setInterval(() => {
        res.write(cities.subarray(at, at + step));
        at += step;
        if (at >= cities.length) {
          clearInterval(timer);
          res.end();
        }
      }, 250);
      req.on("close", () => clearInterval(timer));
    } else if (req.url === "/huge.csv") {
      res.writeHead(200, { "Content-Type": "text/csv", "Content-Length": String(600 * 1024 * 1024) });
      res.write("a,b\n");
    } else {
      res.writeHead(404);
      res.end("not here");
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  try {
    await page.goto("/datasets");
    await page.getByRole("button", { name: "Import from a URL" }).click();
    const dialog = page.getByRole("dialog", { name: "New dataset" });
    await expect(dialog.getByRole("radio", { name: "From URL" })).toBeChecked();
    const url = dialog.getByLabel("File URL");
    const importButton = dialog.getByRole("button", { name: "Import", exact: true });

    // Refused before anything is fetched: the problem detail is shown.
    await url.fill("file:///etc/passwd");
    await dialog.getByLabel("Name", { exact: true }).fill("Secrets");
    await importButton.click();
    await expect(dialog.getByRole("alert")).toContainText("The server will not fetch this URL.");
    await expect(dialog.getByRole("alert")).toContainText("Only http and https URLs can be fetched.");
    await expect(url).toHaveAttribute("aria-invalid", "true");
    await expectAccessible(page);
    await screenshotBothThemes(page, "datasets-url-refused");

    // Accepted, but the server answers 404: the task fails with the reason.
    await url.fill(`${origin}/missing.csv`);
    await expect(dialog.getByLabel("Name", { exact: true })).toHaveValue("Secrets");
    await importButton.click();
    await expect(dialog.getByRole("alert")).toContainText("The import failed. The server answered 404.");
    await screenshotBothThemes(page, "datasets-url-404");

    // Too large for any plan: refused from its declared size.
    await expect(dialog.getByRole("button", { name: "Try again" })).toBeEnabled();
    await url.fill(`${origin}/huge.csv`);
    await importButton.click();
    await expect(dialog.getByRole("alert")).toContainText(
      "The import failed. Your plan allows dataset files of up to 200 MB",
    );

    // A real file: progress, then the new dataset opens.
    await url.fill(`${origin}/files/world%20cities.csv`);
    await dialog.getByLabel("Name", { exact: true }).fill("World cities");
    await dialog.getByLabel("Description").fill("Fetched by the server.");
    await importButton.click();
    const progress = dialog.getByRole("progressbar", { name: "Import progress" });
    await expect(progress).toBeVisible();
    await expect(progress).toHaveAttribute("aria-valuenow", /^([1-9]|[1-8]\d)$/);
    await expect(dialog.getByTestId("import-percent")).toBeVisible();
    await screenshotBothThemes(page, "datasets-url-progress");
    await expect(page.getByRole("heading", { level: 1, name: "World cities" })).toBeVisible({
      timeout: 30_000,
    });
    await expect(page.getByTestId("header-rows")).toHaveText("40,000");
    await expect(page.locator('tr[data-row="1"]')).toContainText("City 0");
    await expect(page.getByText("Fetched by the server.")).toBeVisible();
    await expectAccessible(page);

    // Listed as the user's, with the URL's file name on its version.
    await page.getByRole("link", { name: "Datasets" }).first().click();
    await expect(
      page.getByRole("table", { name: "Your datasets" }).getByRole("row", { name: /World cities/ }),
    ).toContainText("40,000");
  } finally {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
});
