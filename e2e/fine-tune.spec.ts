import { expect, test } from "@playwright/test";
import {
  apiJson,
  createProject,
  expectAccessible,
  screenshotBothThemes,
  signUpViaApi,
  waitForJob,
} from "./fixtures";

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
  await expect(page.getByTestId("job-base-model")).toContainText(
    "Fine-tuned from Digits CNN (pretrained on 0–4)",
  );
  await expect(page.getByTestId("job-base-model")).toHaveAttribute("href", /\?base=digits-cnn-0-4$/);
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

test("fine-tune from a registry version and from a hub model: their own weights as the base", async ({
  page,
  context,
  baseURL,
}) => {
  test.setTimeout(300_000);
  if (!baseURL) throw new Error("baseURL");
  await signUpViaApi(context, baseURL);
  const request = context.request;

  // An Iris MLP trained on PyTorch (it exports weights.pt), pushed to the registry and finalized.
  const project = await createProject(context, baseURL, { name: "Iris MLP", template: "mlp-classifier" });
  const job = await apiJson(request, baseURL, "POST", "/api/v1/training/jobs", {
    project_id: project.id,
    dataset_id: "builtin-iris",
    runtime: "pytorch",
    config: { epochs: 30, batch_size: 16, learning_rate: 0.02 },
  });
  await waitForJob(request, baseURL, job.id, 180_000);
  const model = await apiJson(request, baseURL, "POST", "/api/v1/models", { name: "iris-base" });
  const version = await apiJson(request, baseURL, "POST", `/api/v1/models/${model.id}/versions`, {
    job_id: job.id,
  });
  await apiJson(request, baseURL, "POST", `/api/v1/model-versions/${version.id}/finalize`);

  // The version's Fine-tune action opens the wizard on it, at the dataset step.
  await page.goto(`/models/${model.id}?version=${version.id}`);
  await page.getByTestId("version-panel").getByRole("link", { name: "Fine-tune" }).click();
  await expect(page).toHaveURL(new RegExp(`/training/fine-tune\\?base=${version.id}$`));
  await expect(page.getByRole("button", { name: /Dataset/ })).toHaveAttribute("aria-current", "step");
  await expect(page.getByText("Datasets whose inputs match iris-base v1")).toBeVisible();
  await page.getByRole("button", { name: /Base model/ }).click();
  const card = page.getByTestId(`base-model-${version.id}`);
  await expect(card).toContainText("iris-base v1");
  await expect(card).toContainText("Your registry");
  await expect(card.getByRole("radio")).toBeChecked();
  await expectAccessible(page);
  await screenshotBothThemes(page, "fine-tune-registry-base");
  const next = page.getByRole("button", { name: "Next" });
  await next.click();
  await page.getByRole("radio", { name: /^Iris/ }).check();
  await next.click();
  await page.getByLabel("Epochs", { exact: true }).fill("5");
  await next.click();
  await expect(page.getByRole("region", { name: "Summary" })).toContainText("iris-base v1");
  await page.getByRole("button", { name: "Start fine-tuning" }).click();
  await expect(page).toHaveURL(/\/training\/job_[A-Za-z0-9]+$/, { timeout: 30_000 });
  await expect(page.getByTestId("job-base-model")).toContainText("Fine-tuned from iris-base v1");
  await expect(page.getByText("Succeeded").first()).toBeVisible({ timeout: 120_000 });

  // Published on the hub, the model page offers the same to anyone signed in.
  const hub = await apiJson(request, baseURL, "POST", "/api/v1/hub/models", { source_job_id: job.id });
  await page.goto(`/hub/${hub.id}`);
  await page.getByRole("link", { name: "Fine-tune" }).click();
  await expect(page).toHaveURL(new RegExp(`/training/fine-tune\\?base=${hub.id}$`));
  await expect(page.getByText("Datasets whose inputs match Iris MLP")).toBeVisible();
  await page.getByRole("button", { name: /Base model/ }).click();
  await expect(page.getByTestId(`base-model-${hub.id}`)).toContainText("Hub · ");

  // A version with no PyTorch weights (trained on TF.js) says why it cannot be a base model.
  const tfjs = await apiJson(request, baseURL, "POST", "/api/v1/training/jobs", {
    project_id: project.id,
    dataset_id: "builtin-iris",
    runtime: "tfjs",
    config: { epochs: 2 },
  });
  await waitForJob(request, baseURL, tfjs.id, 120_000);
  const v2 = await apiJson(request, baseURL, "POST", `/api/v1/models/${model.id}/versions`, {
    job_id: tfjs.id,
  });
  await apiJson(request, baseURL, "POST", `/api/v1/model-versions/${v2.id}/finalize`);
  await page.goto(`/models/${model.id}?version=${v2.id}`);
  await expect(
    page.getByTestId("version-panel").getByRole("heading", { name: "iris-base v2" }),
  ).toBeVisible();
  await expect(page.getByTestId("version-panel").getByRole("link", { name: "Fine-tune" })).toHaveCount(0);
  await page.goto(`/training/fine-tune?base=${v2.id}`);
  await expect(page.getByRole("status").filter({ hasText: "iris-base" })).toContainText(
    "carries no PyTorch weights (weights.pt)",
  );

  // The base models page lists the registry versions that can be base models: v1, not the TF.js v2.
  await page.goto("/catalog");
  await page.getByRole("button", { name: "Your registry" }).click();
  const cards = page.getByTestId("base-model-card");
  await expect(cards).toHaveCount(1);
  await expect(cards).toContainText("iris-base v1");
  await expect(cards.getByRole("link", { name: "Fine-tune" })).toHaveAttribute(
    "href",
    `/training/fine-tune?base=${version.id}`,
  );
  await expectAccessible(page);
  await screenshotBothThemes(page, "catalog-registry");
  // The wizard opened without a base offers it beside the curated models.
  await page.goto("/training/fine-tune");
  await expect(page.getByTestId(`base-model-${version.id}`)).toContainText("Your registry");
  await expect(page.getByTestId(`base-model-${v2.id}`)).toHaveCount(0);
});

test("from a dataset's page: fine-tune a base model with that dataset already chosen", async ({
  page,
  context,
  baseURL,
}) => {
  if (!baseURL) throw new Error("baseURL");
  await signUpViaApi(context, baseURL);
  await page.goto("/datasets/builtin-digits");
  await expect(page.getByRole("heading", { level: 1, name: "Digits (8×8)" })).toBeVisible();
  await page.getByRole("link", { name: "Fine-tune a base model" }).click();
  await expect(page).toHaveURL(/\/training\/fine-tune\?dataset=builtin-digits$/);
  await page.getByTestId("base-model-digits-cnn-0-4").click();
  await expect(page).toHaveURL(/\?base=digits-cnn-0-4&dataset=builtin-digits$/);
  const next = page.getByRole("button", { name: "Next" });
  await next.click();
  await expect(page.getByRole("radio", { name: /^Digits/ })).toBeChecked();
  await next.click();
  await expect(page.getByLabel("Epochs", { exact: true })).toBeVisible();
});
