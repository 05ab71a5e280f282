import { expect, test } from "@playwright/test";
import { apiJson, createProject, expectAccessible, screenshotBothThemes, signUpViaApi } from "./fixtures";

test.use({ viewport: { width: 1440, height: 900 } });

test("a long history pages in, a version is deleted after confirming, and the oldest compares with the newest", async ({
  page,
  context,
  baseURL,
}) => {
  test.setTimeout(120_000);
  if (!baseURL) throw new Error("baseURL");
  await signUpViaApi(context, baseURL);
  const project = await createProject(context, baseURL, { name: "Tuned MLP", template: "mlp-classifier" });
  for (let i = 1; i <= 105; i++) {
    await apiJson(context.request, baseURL, "POST", `/api/v1/projects/${project.id}/save`, {
      message: `Experiment ${i}`,
    });
  }

  await page.goto(`/projects/${project.id}`);
  await page.getByRole("tab", { name: "Versions" }).click();
  const rows = page.getByTestId("version-row");
  /** The row of one version, by its message ("Experiment 5" is not "Experiment 54"). */
  const row = (message: string) => rows.filter({ has: page.getByText(message, { exact: true }) });
  await expect(rows).toHaveCount(50);
  await expect(rows.first()).toContainText("Experiment 105");
  await page.getByRole("button", { name: "Show older versions (55 more)" }).click();
  await expect(rows).toHaveCount(100);
  await page.getByRole("button", { name: "Show older versions (5 more)" }).click();
  await expect(rows).toHaveCount(105);
  await expect(rows.last()).toContainText("Experiment 1");
  await expect(page.getByRole("button", { name: /Show older versions/ })).toHaveCount(0);

  // Asking first: Cancel keeps it; confirming deletes it here and on the server.
  const v54 = row("Experiment 54");
  await page.getByRole("button", { name: "Delete version 54" }).click();
  await expect(v54.getByRole("button", { name: "Delete v54" })).toBeVisible();
  await screenshotBothThemes(page, "versions-delete-confirm");
  await expectAccessible(page);
  await v54.getByRole("button", { name: "Cancel" }).click();
  await expect(rows).toHaveCount(105);
  await page.getByRole("button", { name: "Delete version 54" }).click();
  await v54.getByRole("button", { name: "Delete v54" }).click();
  await expect(rows).toHaveCount(104);
  await expect(row("Experiment 54")).toHaveCount(0);
  const list = await apiJson(
    context.request,
    baseURL,
    "GET",
    `/api/v1/projects/${project.id}/versions?limit=100`,
  );
  expect(list.total).toBe(104);
  expect(list.items.map((v: { number: number }) => v.number)).not.toContain(54);

  // The oldest against the newest: v1 is past the newest 100 the selectors list, and still shown.
  await page.getByLabel("Select version 1 for comparison").check();
  await page.getByLabel("Select version 105 for comparison").check();
  await page.getByRole("link", { name: "Compare v1 and v105" }).click();
  await expect(page.getByLabel("From").locator("option:checked")).toHaveText("v1 · Experiment 1");
  await expect(page.getByLabel("To").locator("option:checked")).toHaveText("v105 · Experiment 105");
});
