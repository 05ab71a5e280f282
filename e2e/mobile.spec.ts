import { expect, type Page, test } from "@playwright/test";
import { apiJson, createProject, screenshotBothThemes, signUpViaApi, trainIrisJob } from "./fixtures";

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

test.describe("at 360 px", () => {
  test.use({ viewport: { width: 360, height: 780 }, hasTouch: true, isMobile: true });

  test("the hub model, profile and shared pages fit, and the editor shows the diagram to pan, zoom and inspect", async ({
    page,
    context,
    baseURL,
  }) => {
    test.setTimeout(240_000);
    if (!baseURL) throw new Error("baseURL");
    const user = await signUpViaApi(context, baseURL);
    const job = await trainIrisJob(context, baseURL);
    const model = await apiJson(context.request, baseURL, "POST", "/api/v1/hub/models", {
      source_job_id: job.id,
      name: "Iris on a phone",
      visibility: "public",
    });
    const project = await createProject(context, baseURL, {
      name: "Phone diagram",
      template: "mlp-classifier",
    });
    const share = await apiJson(context.request, baseURL, "POST", `/api/v1/projects/${project.id}/share`, {});

    const fits = async (path: string, heading: string | RegExp, shot: string) => {
      await page.goto(path);
      await expect(page.getByRole("heading", { level: 1, name: heading })).toBeVisible();
      await expect
        .poll(() => page.evaluate(() => document.documentElement.scrollWidth))
        .toBeLessThanOrEqual(360);
      await screenshotBothThemes(page, shot);
    };
    await fits(`/hub/${model.id}`, "Iris on a phone", "mobile-hub-model");
    await fits(`/u/${user.username}`, user.username, "mobile-profile");
    await fits(new URL(share.url, baseURL).pathname, "Phone diagram", "mobile-shared");

    // The editor on a phone: the diagram fills the screen; the palette and the side panel fold away.
    await page.goto(`/projects/${project.id}`);
    const canvas = page.getByTestId("canvas");
    await expect(page.getByTestId("layer-node").first()).toBeVisible();
    await expect
      .poll(() => page.evaluate(() => document.documentElement.scrollWidth))
      .toBeLessThanOrEqual(360);
    await expect.poll(async () => (await canvas.boundingBox())?.width ?? 0).toBeGreaterThan(340);
    await screenshotBothThemes(page, "mobile-editor");
    // Zoom with the canvas controls, then tap a layer: its parameters open over the diagram.
    const viewport = page.locator(".react-flow__viewport");
    const before = await viewport.getAttribute("style");
    await page.getByRole("button", { name: "Zoom in" }).click();
    await expect.poll(() => viewport.getAttribute("style")).not.toBe(before);
    await page.getByTestId("layer-node").filter({ hasText: "Dense" }).first().tap();
    const inspector = page.getByRole("dialog", { name: /Dense/ });
    await expect(inspector).toBeVisible();
    await expect(inspector.getByLabel("units", { exact: false }).first()).toBeVisible();
    await screenshotBothThemes(page, "mobile-editor-inspector");
    await inspector.getByRole("button", { name: "Close" }).click();
    await expect(inspector).toBeHidden();
  });
});
