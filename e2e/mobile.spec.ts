import { expect, type Page, test } from "@playwright/test";
import { screenshotBothThemes, signUpViaApi } from "./fixtures";

test.use({ viewport: { width: 390, height: 844 } });

/** The page is no wider than the phone (nothing clipped or scrolled sideways). */
async function fitsWidth(page: Page) {
  await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
}

test("on a phone the studio folds its menu and the hub fits the screen", async ({
  page,
  context,
  baseURL,
}) => {
  if (!baseURL) throw new Error("baseURL");
  // Signed out: the hub's header fits, with sign up in reach.
  await page.goto("/hub");
  await expect(page.getByRole("link", { name: "Sign up" })).toBeVisible();
  await fitsWidth(page);
  await screenshotBothThemes(page, "mobile-hub");

  await signUpViaApi(context, baseURL);
  await page.goto("/projects");
  const menu = page.getByRole("navigation", { name: "Studio" });
  await expect(menu).toBeHidden();
  await expect(page.getByRole("heading", { level: 1, name: "Projects" })).toBeVisible();
  await fitsWidth(page);
  await screenshotBothThemes(page, "mobile-projects");

  await page.getByRole("button", { name: "Open menu" }).click();
  await expect(menu).toBeVisible();
  await screenshotBothThemes(page, "mobile-menu");
  await menu.getByRole("link", { name: "Datasets" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Datasets" })).toBeVisible();
  await expect(menu).toBeHidden();
});
