import { type APIRequestContext, expect, type Page, test } from "@playwright/test";
import { apiJson, createProject, expectAccessible, screenshotBothThemes, signUpViaApi } from "./fixtures";

test.use({ viewport: { width: 1440, height: 900 } });

const TERMINAL = ["succeeded", "failed", "cancelled", "timed_out"];

/** Starts a training job through the API and waits until it has finished (it must succeed). */
async function trainedJob(
  request: APIRequestContext,
  baseURL: string,
  projectId: string,
  body: Record<string, unknown>,
): Promise<string> {
  const job = await apiJson(request, baseURL, "POST", "/api/v1/training/jobs", {
    project_id: projectId,
    ...body,
  });
  await expect
    .poll(async () => (await apiJson(request, baseURL, "GET", `/api/v1/training/jobs/${job.id}`)).state, {
      timeout: 120_000,
    })
    .toMatch(new RegExp(`^(${TERMINAL.join("|")})$`));
  const done = await apiJson(request, baseURL, "GET", `/api/v1/training/jobs/${job.id}`);
  expect(done.state, done.reason).toBe("succeeded");
  return job.id as string;
}

async function expectDone(page: Page) {
  await expect(page.getByTestId("evaluation-state")).toHaveText("Done", { timeout: 60_000 });
}

test("evaluate a trained Iris model from its job page, read the matrix and table, then another split", async ({
  page,
  context,
  baseURL,
}) => {
  test.setTimeout(240_000);
  if (!baseURL) throw new Error("baseURL");
  await signUpViaApi(context, baseURL);
  const project = await createProject(context, baseURL, { name: "Iris MLP", template: "mlp-classifier" });
  const jobId = await trainedJob(context.request, baseURL, project.id, {
    dataset_id: "builtin-iris",
    runtime: "tfjs",
    config: { epochs: 30, learning_rate: 0.02 },
  });

  // The job page has an Evaluations card with an Evaluate action.
  await page.goto(`/training/${jobId}`);
  await expect(page.getByTestId("job-state")).toHaveText("Succeeded");
  const card = page.getByTestId("evaluations-card");
  await expect(card.getByText("No evaluation yet.")).toBeVisible();
  await card.getByRole("button", { name: "Evaluate" }).click();
  const dialog = page.getByRole("dialog", { name: "Evaluate the model" });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole("radio", { name: /^Validation/ })).toBeChecked();
  // The built-in version has no test split: offered, but disabled with the reason.
  await expect(dialog.getByRole("radio", { name: /^Test/ })).toBeDisabled();
  await expect(dialog.getByText("This version has no test split")).toBeVisible();
  await expect(dialog.getByLabel("Dataset")).toContainText("Iris (trained on)");
  await expectAccessible(page);
  await screenshotBothThemes(page, "evaluations-dialog");
  await dialog.getByRole("button", { name: "Evaluate", exact: true }).click();

  // The evaluation's page follows it until it is done, then shows its figures.
  await expect(page).toHaveURL(/\/training\/evaluations\/eval_[\w-]+$/);
  const firstUrl = page.url();
  await expect(page.getByRole("heading", { level: 1, name: "Validation split" })).toBeVisible();
  await expectDone(page);
  const metrics = page.getByTestId("evaluation-metrics");
  await expect(metrics.locator('[data-metric="accuracy"]')).toHaveText(/^\d+(\.\d)?%$/);
  await expect(metrics.locator('[data-metric="roc_auc"]')).toHaveText(/^[01]\.\d{3}$/);
  const matrix = page.getByRole("table", { name: /Confusion matrix/ });
  await expect(matrix.getByRole("columnheader", { name: "setosa" })).toBeVisible();
  await expect(matrix.getByRole("rowheader", { name: "virginica" })).toBeVisible();
  await expect(page.getByTestId("confusion-cell")).toHaveCount(9);
  const cellTotal = () =>
    page
      .getByTestId("confusion-cell")
      .evaluateAll((cells) =>
        cells.reduce((sum, c) => sum + Number(c.querySelector("span")?.textContent ?? 0), 0),
      );
  expect(await cellTotal()).toBe(30);
  const perClass = page.getByRole("table", { name: /Precision, recall, F1 and support/ });
  await expect(perClass.getByTestId("per-class-row")).toHaveCount(3);
  await expect(perClass.getByRole("row", { name: /Macro average/ })).toContainText("30");
  await expect(page.getByRole("img", { name: /^ROC curves: setosa AUC/ })).toBeVisible();
  await expect(page.getByRole("list", { name: "Area under each curve" })).toContainText("versicolor");
  await expectAccessible(page);
  await screenshotBothThemes(page, "evaluation-classification");

  // Evaluate on another split: the training rows.
  const other = page.getByRole("region", { name: "Evaluate on another split" });
  await expect(other.getByRole("button", { name: "Test", exact: true })).toHaveCount(0);
  await other.getByRole("button", { name: "Train", exact: true }).click();
  await expect(page).not.toHaveURL(firstUrl);
  await expect(page.getByRole("heading", { level: 1, name: "Train split" })).toBeVisible();
  await expectDone(page);
  await expect(page.getByText(/120 rows/)).toBeVisible();
  expect(await cellTotal()).toBe(120);

  // Back on the job page, the card lists both, newest first.
  await page
    .getByRole("navigation", { name: "Breadcrumb" })
    .getByRole("link", { name: "Iris MLP on Iris" })
    .click();
  await expect(page).toHaveURL(new RegExp(`/training/${jobId}$`));
  const rows = page.getByTestId("evaluation-row");
  await expect(rows).toHaveCount(2);
  await expect(rows.first()).toContainText("Train");
  await expect(rows.last()).toContainText("Validation");
  await expect(rows.first()).toContainText(/Accuracy\s*\d/);
  await card.scrollIntoViewIfNeeded();
  await screenshotBothThemes(page, "evaluations-card");
});

test("regression and language-model evaluations show their own figures", async ({
  page,
  context,
  baseURL,
}) => {
  test.setTimeout(240_000);
  if (!baseURL) throw new Error("baseURL");
  await signUpViaApi(context, baseURL);
  const regression = await createProject(context, baseURL, {
    name: "Diabetes MLP",
    graph: {
      nodes: [
        { id: "in", type: "Input", params: { shape: [10] }, position: { x: 0, y: 0 } },
        { id: "h", type: "Dense", params: { units: 16, activation: "relu" }, position: { x: 0, y: 110 } },
        { id: "o1", type: "Dense", params: { units: 1 }, position: { x: 0, y: 220 } },
        { id: "out", type: "Output", params: { loss: "mse" }, position: { x: 0, y: 330 } },
      ],
      edges: [
        { id: "e1", source: "in", target: "h" },
        { id: "e2", source: "h", target: "o1" },
        { id: "e3", source: "o1", target: "out" },
      ],
    },
  });
  const lm = await createProject(context, baseURL, {
    name: "Char LSTM",
    graph: {
      nodes: [
        { id: "in", type: "Input", params: { shape: [16], dtype: "int64" }, position: { x: 0, y: 0 } },
        {
          id: "emb",
          type: "Embedding",
          params: { num_embeddings: 64, embedding_dim: 16 },
          position: { x: 0, y: 110 },
        },
        {
          id: "lstm",
          type: "LSTM",
          params: { hidden_size: 32, num_layers: 1, return_sequences: false },
          position: { x: 0, y: 220 },
        },
        { id: "d", type: "Dense", params: { units: 64 }, position: { x: 0, y: 330 } },
        { id: "out", type: "Output", params: { loss: "cross_entropy" }, position: { x: 0, y: 440 } },
      ],
      edges: [
        { id: "e1", source: "in", target: "emb" },
        { id: "e2", source: "emb", target: "lstm" },
        { id: "e3", source: "lstm", target: "d" },
        { id: "e4", source: "d", target: "out" },
      ],
    },
  });
  const [regressionJob, lmJob] = await Promise.all([
    trainedJob(context.request, baseURL, regression.id, {
      dataset_id: "builtin-diabetes",
      runtime: "tfjs",
      config: { epochs: 15, batch_size: 32, learning_rate: 0.01 },
    }),
    trainedJob(context.request, baseURL, lm.id, {
      dataset_id: "builtin-declaration",
      config: { epochs: 2, batch_size: 64, learning_rate: 0.01 },
    }),
  ]);

  const r = await apiJson(context.request, baseURL, "POST", "/api/v1/training/evaluations", {
    job_id: regressionJob,
  });
  await page.goto(`/training/evaluations/${r.id}`);
  await expectDone(page);
  const metrics = page.getByTestId("evaluation-metrics");
  for (const name of ["r2", "mse", "rmse", "mae"])
    await expect(metrics.locator(`[data-metric="${name}"]`)).toHaveText(/^-?[\d,.]+(e-?\d+)?$/);
  await expect(
    page.getByRole("img", { name: /^Scatter plot of predicted against actual target/ }),
  ).toBeVisible();
  await expect(page.getByRole("table", { name: /Confusion matrix/ })).toHaveCount(0);
  await expectAccessible(page);
  await screenshotBothThemes(page, "evaluation-regression");

  const l = await apiJson(context.request, baseURL, "POST", "/api/v1/training/evaluations", {
    job_id: lmJob,
  });
  await page.goto(`/training/evaluations/${l.id}`);
  await expectDone(page);
  const loss = Number(await metrics.locator('[data-metric="loss"]').textContent());
  const perplexity = Number(await metrics.locator('[data-metric="perplexity"]').textContent());
  expect(loss).toBeGreaterThan(0);
  expect(perplexity).toBeCloseTo(Math.exp(loss), 1);
  await expect(page.getByRole("heading", { name: "Next-character prediction" })).toBeVisible();
  await expectAccessible(page);
  await screenshotBothThemes(page, "evaluation-language-model");
});
