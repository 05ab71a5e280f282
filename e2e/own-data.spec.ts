import fs from "node:fs";
import { fileURLToPath } from "node:url";
import { expect, test } from "@playwright/test";
import { expectAccessible, screenshotBothThemes, signUpViaApi } from "./fixtures";

test.use({ viewport: { width: 1440, height: 900 } });

const CUSTOMERS = fileURLToPath(new URL("./fixtures/customers.csv", import.meta.url));

test("a user's own CSV: its target is guessed, then one click makes a sized model that trains", async ({
  page,
  context,
  baseURL,
}) => {
  test.setTimeout(300_000);
  if (!baseURL) throw new Error("baseURL");
  await signUpViaApi(context, baseURL);
  const res = await context.request.post(`${baseURL}/api/v1/datasets/`, {
    headers: { Origin: baseURL },
    multipart: {
      name: "customers",
      file: { name: "customers.csv", mimeType: "text/csv", buffer: fs.readFileSync(CUSTOMERS) },
    },
  });
  expect(res.status()).toBe(201);
  const { dataset } = await res.json();
  expect(dataset.roles.plan).toBe("target");
  expect(dataset.task).toBe("classification");

  await page.goto(`/datasets/${dataset.id}`);
  await expect(page.getByRole("heading", { level: 1, name: "customers" })).toBeVisible();
  await screenshotBothThemes(page, "own-data-dataset");
  await page.getByRole("button", { name: "Train a model on this data" }).click();

  // The new project opens in the editor with the Train dialog: the dataset fits as it is.
  await expect(page).toHaveURL(/\/projects\/prj_[\w-]+\?train=1$/);
  const dialog = page.getByRole("dialog", { name: "Train" });
  await expect(dialog).toBeVisible({ timeout: 60_000 });
  const customers = dialog.getByRole("radio", { name: /^customers/ });
  await expect(customers).toBeEnabled({ timeout: 60_000 });
  await customers.check();
  await expect(page.getByTestId("layer-node").first()).toBeVisible();
  await expectAccessible(page);
  await screenshotBothThemes(page, "own-data-train-dialog");
  await dialog.getByRole("button", { name: "Start training" }).click();
  await expect(page).toHaveURL(/\/training\/job_[\w-]+$/);
  await expect(page.getByTestId("job-state")).toHaveText("Succeeded", { timeout: 240_000 });
});

test("New project → From a dataset: a model sized to Iris opens with the Train dialog", async ({
  page,
  context,
  baseURL,
}) => {
  if (!baseURL) throw new Error("baseURL");
  await signUpViaApi(context, baseURL);
  await page.goto("/projects");
  await page.getByRole("button", { name: "New project" }).first().click();
  const dialog = page.getByRole("dialog", { name: "New project" });
  await dialog.getByRole("radio", { name: /From a dataset/ }).check();
  const select = dialog.getByLabel("Dataset", { exact: true });
  await expect(select.locator("option", { hasText: "Iris (built-in)" })).toHaveCount(1);
  await select.selectOption({ label: "Iris (built-in)" });
  await screenshotBothThemes(page, "own-data-new-project");
  await dialog.getByRole("button", { name: "Create project" }).click();
  await expect(page).toHaveURL(/\/projects\/prj_[\w-]+\?train=1$/);
  const train = page.getByRole("dialog", { name: "Train" });
  await expect(train.getByRole("radio", { name: /^Iris/ })).toBeEnabled({ timeout: 60_000 });
  await expect(page.getByTestId("layer-node")).toHaveCount(5);
});
