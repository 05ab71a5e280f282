import { expect, test } from "@playwright/test";
import { expectAccessible, screenshotBothThemes, signUpViaApi } from "./fixtures";

test.use({ viewport: { width: 1440, height: 900 } });

test("fine-tune the digits CNN: base model → dataset → recipe → estimate → the run's live page → evaluate", async ({
  page,
  context,
  baseURL,
}) => {
  test.setTimeout(240_000);
  if (!baseURL) throw new Error("baseURL");
  await signUpViaApi(context, baseURL);

  // From the training list to the wizard.
  await page.goto("/training");
  await page.getByRole("link", { name: "Fine-tune a base model" }).click();
  await expect(page).toHaveURL(/\/training\/fine-tune$/);
  await expect(page.getByRole("heading", { name: "Fine-tune a base model" })).toBeVisible();

  // 1. Base model: the catalog's models as cards; nothing can go on until one is chosen.
  const next = page.getByRole("button", { name: "Next" });
  const digits = page.getByTestId("base-model-digits-cnn-0-4");
  await expect(digits).toBeVisible();
  await expect(next).toBeDisabled();
  await expectAccessible(page);
  await screenshotBothThemes(page, "fine-tune-1-base");
  await digits.click();
  await expect(page).toHaveURL(/\?base=digits-cnn-0-4$/);
  await next.click();

  // 2. Dataset: those that fit the base model (the digits), the others disabled with the reason.
  const builtinDigits = page.getByRole("radio", { name: /^Digits/ });
  await expect(builtinDigits).toBeEnabled();
  await expect(page.getByRole("radio", { name: /^Iris/ })).toBeDisabled();
  await expect(page.getByRole("radio", { name: /^US Declaration/ })).toBeDisabled();
  await builtinDigits.check();
  await expectAccessible(page);
  await screenshotBothThemes(page, "fine-tune-2-dataset");
  await next.click();

  // 3. Recipe: the configuration (from the base model, or a recipe), the schedule and the frozen layers.
  const epochs = page.getByLabel("Epochs", { exact: true });
  await expect(epochs).toHaveValue("20");
  await page.getByLabel("Recipe").selectOption({ label: "Small images (8×8 CNN)" });
  await expect(epochs).toHaveValue("15");
  await epochs.fill("3");
  await page.getByLabel("Learning-rate schedule").selectOption("cosine");
  await page.getByLabel("Warm-up epochs").fill("0.5");
  await page.getByRole("radio", { name: /Freeze chosen layers/ }).check();
  await expect(next).toBeDisabled();
  await page.getByRole("checkbox", { name: /conv1/ }).check();
  await expect(next).toBeEnabled();
  await page.getByRole("radio", { name: /Train only the head/ }).check();
  await expectAccessible(page);
  await screenshotBothThemes(page, "fine-tune-3-recipe");
  await next.click();

  // 4. Estimate & start: a summary, the estimate, then the run's live page.
  const summary = page.getByRole("region", { name: "Summary" });
  await expect(summary).toContainText("Digits CNN");
  await expect(summary).toContainText("Only the head trains: head");
  const estimate = page.getByRole("region", { name: "Estimate" });
  await expect(estimate).toContainText("Parameters", { timeout: 60_000 });
  await expect(estimate.getByText(/^~\d+ (s|min)$/)).toBeVisible({ timeout: 60_000 });
  await expectAccessible(page);
  await screenshotBothThemes(page, "fine-tune-4-estimate");
  await page.getByRole("button", { name: "Start fine-tuning" }).click();

  await expect(page).toHaveURL(/\/training\/job_[A-Za-z0-9]+$/, { timeout: 30_000 });
  await expect(page.getByTestId("job-base-model")).toContainText("digits-cnn-0-4");
  await expect(page.getByText("Succeeded").first()).toBeVisible({ timeout: 120_000 });
  await expect(page.getByTestId("progress-percent")).toHaveText("100%");
  await screenshotBothThemes(page, "fine-tune-5-run");

  // Evaluate the fine-tuned model from its page and read the confusion matrix: ten digits.
  const card = page.getByTestId("evaluations-card");
  await card.getByRole("button", { name: "Evaluate" }).click();
  const dialog = page.getByRole("dialog", { name: "Evaluate the model" });
  await expect(dialog.getByRole("radio", { name: /^Validation/ })).toBeChecked();
  await dialog.getByRole("button", { name: "Evaluate", exact: true }).click();
  await expect(page).toHaveURL(/\/training\/evaluations\/eval_[\w-]+$/);
  const matrix = page.getByRole("table", { name: /Confusion matrix/ });
  await expect(matrix).toBeVisible({ timeout: 60_000 });
  for (const digit of ["0", "9"]) {
    await expect(matrix.getByRole("columnheader", { name: digit, exact: true })).toBeVisible();
    await expect(matrix.getByRole("rowheader", { name: digit, exact: true })).toBeVisible();
  }
  await expect(page.getByTestId("evaluation-metrics").locator('[data-metric="accuracy"]')).toHaveText(
    /^\d+(\.\d)?%$/,
  );

  // A link from the catalog (?base=) opens the wizard at the dataset step for that model.
  await page.goto("/training/fine-tune?base=char-lstm-declaration");
  await expect(page.getByRole("button", { name: /Dataset/ })).toHaveAttribute("aria-current", "step");
  await expect(page.getByRole("radio", { name: /^US Declaration/ })).toBeEnabled();
  await expect(page.getByRole("radio", { name: /^Digits/ })).toBeDisabled();
});
