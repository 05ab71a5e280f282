import { expect, test } from "@playwright/test";
import { apiJson, expectAccessible, screenshotBothThemes, signUpViaApi } from "./fixtures";

test.use({ viewport: { width: 1440, height: 900 } });

test("the base-model catalog: cards with measured figures, a task filter, the architecture, open one in the editor", async ({
  page,
  context,
  baseURL,
}) => {
  if (!baseURL) throw new Error("baseURL");
  await signUpViaApi(context, baseURL);

  // Reached from the navigation.
  await page.goto("/projects");
  await page.getByRole("link", { name: "Base models" }).click();
  await expect(page).toHaveURL(/\/catalog$/);
  await expect(page.getByRole("heading", { name: "Base models", level: 1 })).toBeVisible();

  const cards = page.getByTestId("base-model-card");
  await expect(cards).toHaveCount(4);
  const digits = page.locator('[data-model-id="digits-cnn-0-4"]');
  await expect(digits.getByRole("heading", { name: "Digits CNN (pretrained on 0–4)" })).toBeVisible();
  await expect(digits.getByText("Image classification")).toBeVisible();
  await expect(digits.getByText("13.4K params")).toBeVisible();
  await expect(digits.getByTestId("figure-accuracy")).toContainText("%");
  await expect(digits.getByText(/Alpaydin/)).toBeVisible();
  await expect(digits.getByText(/Weights: MIT/)).toBeVisible();
  await expect(digits.getByRole("link", { name: "Fine-tune" })).toHaveAttribute(
    "href",
    "/training/fine-tune?base=digits-cnn-0-4",
  );
  const lm = page.locator('[data-model-id="char-lstm-declaration"]');
  await expect(lm.getByTestId("figure-perplexity")).toBeVisible();
  await expect(lm.getByText(/public domain/i).first()).toBeVisible();

  // The figures shown are the catalog's.
  const catalog = await apiJson(context.request, baseURL, "GET", "/api/v1/foundation-catalog");
  const accuracy = catalog.items.find((m: { id: string }) => m.id === "breast-cancer-mlp").evaluation.metrics
    .accuracy as number;
  await expect(
    page.locator('[data-model-id="breast-cancer-mlp"]').getByTestId("figure-accuracy"),
  ).toContainText(`${(accuracy * 100).toFixed(1)}%`);

  // The architecture, layer by layer, with the head marked.
  await digits.getByText(/Architecture · 8 layers/).click();
  const layers = digits.getByTestId("layer-table");
  await expect(layers.getByRole("row")).toHaveCount(11); // header + Input + 8 layers + Output
  await expect(layers.getByText("head", { exact: true }).first()).toBeVisible();

  await expectAccessible(page);
  await screenshotBothThemes(page, "catalog");

  // Filter by task.
  await page.getByRole("button", { name: "Language model" }).click();
  await expect(cards).toHaveCount(1);
  await expect(lm).toBeVisible();
  await page.getByRole("button", { name: "All tasks" }).click();
  await expect(cards).toHaveCount(4);

  // Open in the editor: a new project with the model's graph.
  await digits.getByRole("button", { name: "Open in editor" }).click();
  await expect(page).toHaveURL(/\/projects\/[^/]+$/);
  await expect(page.getByTestId("layer-node")).toHaveCount(10);
  const id = page.url().split("/").at(-1) ?? "";
  const project = await apiJson(context.request, baseURL, "GET", `/api/v1/projects/${id}`);
  expect(project.name).toBe("Digits CNN (pretrained on 0–4)");
  expect(project.graph.nodes.map((n: { id: string }) => n.id)).toContain("head");
});
