import { expect, test } from "@playwright/test";
import { screenshotBothThemes } from "./fixtures";

test.use({ viewport: { width: 1440, height: 900 } });

test("the API reference shows its outline at once, then the interactive reference, with nothing hosted", async ({
  page,
}) => {
  test.setTimeout(120_000);
  await page.goto("/docs/api");
  // The outline, drawn from the document before the interactive reference has loaded.
  await expect(page.getByRole("navigation").getByText("Auth", { exact: true }).first()).toBeVisible();
  await expect(page.getByRole("heading", { name: "Create an account and sign in" }).first()).toBeVisible();
  // The interactive reference replaces it (its bundle runs: served from this server, cached under its version).
  await expect(page.getByRole("button", { name: /^Test Request/ }).first()).toBeVisible({ timeout: 90_000 });
  await expect(page.locator("#outline")).toBeHidden();
  await expect(page.getByText("Ask AI")).toHaveCount(0);
  await expect(page.getByText("Open API Client")).toHaveCount(0);
  await screenshotBothThemes(page, "api-reference");
});
