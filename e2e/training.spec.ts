import { expect, type Locator, type Page, test } from "@playwright/test";
import { apiJson, createProject, expectAccessible, screenshotBothThemes, signUpViaApi } from "./fixtures";

test.use({ viewport: { width: 1440, height: 900 } });

/** How many points a chart draws (every chart says so in its accessible name and data-points). */
async function points(chart: Locator): Promise<number> {
  return Number((await chart.getAttribute("data-points")) ?? "0");
}

async function openTrainDialog(page: Page, projectId: string) {
  await page.goto(`/projects/${projectId}`);
  await expect(page.getByTestId("layer-node")).toHaveCount(4);
  await page.getByRole("button", { name: "Train", exact: true }).click();
  const dialog = page.getByRole("dialog", { name: "Train" });
  await expect(dialog).toBeVisible();
  return dialog;
}

test("train the Iris MLP live, cancel and restart a long job, compare both, delete them", async ({
  page,
  context,
  baseURL,
}) => {
  test.setTimeout(300_000);
  if (!baseURL) throw new Error("baseURL");
  await signUpViaApi(context, baseURL);
  const project = await createProject(context, baseURL, { name: "Iris MLP", template: "mlp-classifier" });

  // A new user: the training list points at the editor.
  await page.goto("/training");
  await expect(page.getByRole("heading", { name: "No training jobs yet" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Open a project" })).toHaveAttribute("href", "/projects");
  await expectAccessible(page);
  await screenshotBothThemes(page, "training-empty");

  // The Train dialog: the datasets that fit the model can be picked, the others say why not.
  let dialog = await openTrainDialog(page, project.id);
  const iris = dialog.getByRole("radio", { name: /^Iris/ });
  await expect(iris).toBeEnabled();
  await expect(dialog.getByRole("radio", { name: /^Diabetes/ })).toBeDisabled();
  await expect(dialog.getByText(/Does not fit:/).first()).toBeVisible();
  await iris.check();
  await expect(dialog.getByTestId("split-info")).toContainText("120 training and 30 validation rows");

  // The estimate: parameters, memory, and time and credits calibrated on the runner.
  const estimate = dialog.getByRole("region", { name: "Estimate" });
  await expect(estimate).toContainText("Parameters", { timeout: 60_000 });
  await expect(estimate.getByText(/^~\d+ (s|min)$/)).toBeVisible({ timeout: 60_000 });

  // A recipe fills the configuration; "None" brings the project's settings back.
  const epochs = dialog.getByLabel("Epochs", { exact: true });
  const recipe = dialog.getByLabel("Recipe");
  await recipe.selectOption({ label: "Tabular classifier (MLP)" });
  await expect(epochs).toHaveValue("60");
  await expect(dialog.getByLabel("Learning rate")).toHaveValue("0.01");
  await recipe.selectOption({ label: "None: the project's training settings" });

  // Live range checks; the start button waits for a valid configuration.
  await expect(epochs).toHaveValue("50");
  await epochs.fill("0");
  await expect(dialog.getByText("Must be between 1 and 1000")).toBeVisible();
  await expect(dialog.getByRole("button", { name: "Start training" })).toBeDisabled();
  await epochs.fill("40");
  await expect(dialog.getByText("Must be between 1 and 1000")).toBeHidden();
  await dialog.getByLabel("Learning rate").fill("2");
  await expect(dialog.getByText("Must be greater than 0 and at most 1")).toBeVisible();
  await dialog.getByLabel("Learning rate").fill("0.02");
  await dialog.getByLabel("Batch size").fill("8");
  await expect(dialog.getByRole("radio", { name: /^Auto/ })).toBeChecked();
  // Strategies the plan lacks are shown, disabled, with the reason.
  await expect(dialog.getByRole("radio", { name: /^Single process/ })).toBeChecked();
  await expect(dialog.getByRole("radio", { name: /^Data parallel/ })).toBeDisabled();
  await expect(dialog.getByText(/Not included in your plan/)).toBeVisible();
  await expectAccessible(page);
  await screenshotBothThemes(page, "training-dialog");
  await dialog.getByRole("radio", { name: /^Auto/ }).scrollIntoViewIfNeeded();
  await screenshotBothThemes(page, "training-dialog-runtime");
  await dialog.getByRole("button", { name: "Start training" }).click();

  // The job's page: the epochs arrive, then the job succeeds. (This job can finish in about a
  // second, so the chart's live growth is checked on the long job below, not here.)
  await expect(page).toHaveURL(/\/training\/job_[\w-]+$/);
  const firstUrl = page.url();
  const firstId = firstUrl.split("/").pop() ?? "";
  await expect(page.getByRole("heading", { level: 1, name: "Iris MLP on Iris" })).toBeVisible();
  const loss = page.getByRole("img", { name: /^Loss:/ });
  await expect(loss).toBeVisible({ timeout: 60_000 });
  await expect.poll(() => points(loss), { timeout: 60_000 }).toBeGreaterThan(0);
  await expect(page.getByTestId("job-state")).toHaveText("Succeeded", { timeout: 120_000 });
  await expect.poll(() => points(loss)).toBe(40);
  await expect(page.getByRole("img", { name: /^Accuracy:/ })).toBeVisible();
  await expect(page.getByRole("progressbar", { name: "Training progress" })).toHaveAttribute(
    "aria-valuenow",
    "100",
  );
  await expect(page.getByText("Epoch 40 of 40")).toBeVisible();
  await expect(page.getByTestId("log-line").first()).toBeVisible();
  await expect(page.getByTestId("checkpoint-row").first()).toBeVisible();
  await expect(page.getByText("Best", { exact: true }).first()).toBeVisible();
  await expect(page.getByRole("list", { name: "State changes" })).toContainText("Succeeded");
  await expect(page.getByTestId("job-config")).toContainText("0.02");
  await expect(page.getByTestId("job-config")).toContainText(/Batch size\s*8Learning/);
  await expect(page.getByRole("link", { name: "PyTorch code" })).toHaveAttribute(
    "href",
    `/api/v1/training/jobs/${firstId}/download-code?target=pytorch`,
  );

  // Smoothing, log scale and hover values.
  await page.getByLabel("Smoothing").fill("0.6");
  await page.getByLabel("Log scale").check();
  await loss.hover();
  await expect(page.getByText(/^Epoch \d+$/).first()).toBeVisible();
  await expectAccessible(page);
  await screenshotBothThemes(page, "training-job-succeeded");
  await page.getByLabel("Log scale").uncheck();

  // Zoom: drag across the loss chart, the charts show those steps in detail.
  const box = await loss.boundingBox();
  if (!box) throw new Error("no chart box");
  await page.mouse.move(box.x + box.width * 0.3, box.y + box.height / 2);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width * 0.6, box.y + box.height / 2, { steps: 8 });
  await page.mouse.up();
  await expect(page.getByRole("button", { name: "Reset zoom" })).toBeVisible();
  await expect(page.getByText(/^Steps [\d,]+–[\d,]+/)).toBeVisible();
  await expect.poll(() => points(loss)).toBeLessThan(40);
  await screenshotBothThemes(page, "training-job-zoomed");
  await page.getByRole("button", { name: "Reset zoom" }).click();
  await expect.poll(() => points(loss)).toBe(40);

  // The log: search on the server, level filter.
  await page.getByLabel("Search the log").fill("zzz-no-such-line");
  await expect(page.getByTestId("log-lines")).toContainText("No line matches.");
  await page.getByLabel("Search the log").fill("");
  await expect(page.getByTestId("log-line").first()).toBeVisible();

  // A long second job, with the configuration changed in the dialog.
  dialog = await openTrainDialog(page, project.id);
  await dialog.getByRole("radio", { name: /^Iris/ }).check();
  await dialog.getByLabel("Epochs", { exact: true }).fill("1000");
  await dialog.getByLabel("Batch size").fill("1");
  await dialog.getByLabel("Job name").fill("Iris long run");
  await dialog.getByRole("button", { name: "Start training" }).click();
  await expect(page).toHaveURL(/\/training\/job_[\w-]+$/);
  await expect(page).not.toHaveURL(firstUrl);
  await expect(page.getByRole("heading", { level: 1, name: "Iris long run" })).toBeVisible();
  await expect(page.getByTestId("job-state")).toHaveText("Running", { timeout: 60_000 });
  const longLoss = page.getByRole("img", { name: /^Loss:/ });
  await expect.poll(() => points(longLoss), { timeout: 60_000 }).toBeGreaterThanOrEqual(2);
  await expect(page.getByText("Live", { exact: true })).toBeVisible();
  // The chart grows as the epochs arrive over the stream, without a reload.
  const running = await points(longLoss);
  await expect.poll(() => points(longLoss), { timeout: 60_000 }).toBeGreaterThan(running);
  await expect(page.getByTestId("job-state")).toHaveText("Running");
  await screenshotBothThemes(page, "training-job-running");

  // Cancel (asks first, in place), then restart: back to running, resuming from its checkpoint.
  await page.getByRole("button", { name: "Cancel job" }).click();
  await page.getByRole("button", { name: "Yes, cancel it" }).click();
  await expect(page.getByTestId("job-state")).toHaveText("Cancelled", { timeout: 30_000 });
  await expect(page.getByRole("list", { name: "State changes" })).toContainText("Cancelled by the user.");
  const before = await points(longLoss);
  await page.getByRole("button", { name: "Restart" }).click();
  await expect(page.getByTestId("job-state")).toHaveText(/Queued|Running/);
  await expect(page.getByTestId("job-state")).toHaveText("Running", { timeout: 60_000 });
  await expect.poll(() => points(longLoss), { timeout: 60_000 }).toBeGreaterThan(before);
  await page.getByRole("button", { name: "Cancel job" }).click();
  await page.getByRole("button", { name: "Yes, cancel it" }).click();
  await expect(page.getByTestId("job-state")).toHaveText("Cancelled", { timeout: 30_000 });

  // Compare the two from the list.
  await page.goto("/training");
  const rows = page.getByTestId("job-row");
  await expect(rows).toHaveCount(2);
  await expect(rows.filter({ hasText: "Iris long run" })).toContainText("Cancelled");
  await expect(rows.filter({ hasText: "Iris MLP on Iris" })).toContainText("Succeeded");
  await page.getByLabel("State").selectOption("succeeded");
  await expect(rows).toHaveCount(1);
  await page.getByLabel("State").selectOption("");
  await expect(rows).toHaveCount(2);
  await page.getByLabel("Select every job on this page").check();
  await expect(page.getByText("2 selected")).toBeVisible();
  await expectAccessible(page);
  await screenshotBothThemes(page, "training-list");
  await page.getByRole("link", { name: "Compare 2" }).click();

  await expect(page).toHaveURL(/\/training\/compare\?ids=/);
  await expect(page.getByRole("heading", { name: "Compare jobs" })).toBeVisible();
  await expect(page.getByTestId("compare-legend")).toHaveCount(2);
  const compareChart = page.getByRole("img", { name: /of 2 jobs/ });
  await expect.poll(() => points(compareChart)).toBeGreaterThan(0);
  const table = page.getByTestId("compare-config");
  await expect(table.locator('tr[data-differs="true"]', { hasText: "Epochs" })).toBeVisible();
  await expect(table.locator('tr[data-differs="true"]', { hasText: "Batch size" })).toBeVisible();
  await expect(table.locator('tr[data-differs="false"]', { hasText: "Optimizer" })).toBeVisible();
  await page.getByLabel("Only differences").check();
  await expect(table.locator('tr[data-differs="false"]')).toHaveCount(0);
  await expectAccessible(page);
  await screenshotBothThemes(page, "training-compare");

  // Bulk delete, confirmed in place.
  await page.goto("/training");
  await expect(rows).toHaveCount(2);
  await page.getByLabel("Select every job on this page").check();
  await page.getByRole("button", { name: "Delete 2", exact: true }).click();
  await page.getByRole("button", { name: "Delete 2 jobs" }).click();
  await expect(page.getByText("2 jobs deleted.")).toBeVisible();
  await expect(page.getByRole("heading", { name: "No training jobs yet" })).toBeVisible();
});

test("an external job: a fresh upload token in the snippet, and what the program uploads drawn live", async ({
  page,
  context,
  baseURL,
}) => {
  test.setTimeout(120_000);
  if (!baseURL) throw new Error("baseURL");
  await signUpViaApi(context, baseURL);
  const project = await createProject(context, baseURL, { name: "Iris MLP", template: "mlp-classifier" });
  const job = await apiJson(context.request, baseURL, "POST", "/api/v1/training/jobs", {
    project_id: project.id,
    dataset_id: "builtin-iris",
    runtime: "external",
    name: "Iris on my laptop",
    config: { epochs: 3 },
  });

  await page.goto(`/training/${job.id}`);
  await expect(page.getByRole("heading", { level: 1, name: "Iris on my laptop" })).toBeVisible();
  await expect(page.getByTestId("job-state")).toHaveText("Queued");
  await expect(page.getByTestId("job-runtime")).toHaveText("Your hardware");
  await expect(page.getByTestId("no-metrics")).toHaveText("Waiting for the first metrics…");
  await page.getByRole("button", { name: "Create upload token" }).click();
  const snippet = page.getByTestId("external-snippet");
  await expect(snippet).toContainText(`python train.py --data-dir data --job ${job.id} --token lut_`);
  await expect(snippet).toContainText(`--api ${baseURL}`);
  const token = /--token (\S+)/.exec((await snippet.textContent()) ?? "")?.[1] ?? "";

  const upload = async (events: object[]) => {
    const res = await context.request.post(`${baseURL}/api/v1/training/jobs/${job.id}/metrics/events`, {
      headers: { Authorization: `Bearer ${token}` },
      data: { events },
    });
    expect(res.status(), await res.text()).toBe(202);
  };
  const epoch = (n: number) => [
    { kind: "progress", epoch: n, epochs: 3, step: n * 10, steps: 30 },
    { kind: "metric", name: "loss", value: 1 / (n + 1), step: n * 10, epoch: n, id: `loss-${n}` },
    { kind: "metric", name: "val_loss", value: 1.2 / (n + 1), step: n * 10, epoch: n, id: `val-${n}` },
    { kind: "log", level: "info", message: `epoch ${n}/3 done`, id: `log-${n}` },
  ];

  // The first upload starts the job; every point appears as it arrives (the stream, not a reload).
  await upload(epoch(1));
  await expect(page.getByTestId("job-state")).toHaveText("Running");
  const loss = page.getByRole("img", { name: /^Loss:/ });
  await expect.poll(() => points(loss)).toBe(1);
  await expect(page.getByTestId("log-line").filter({ hasText: "epoch 1/3 done" })).toBeVisible();
  await upload([...epoch(2), ...epoch(2)]);
  await expect.poll(() => points(loss)).toBe(2);
  await expect(page.getByText("Epoch 2 of 3")).toBeVisible();
  await screenshotBothThemes(page, "training-external");
  await upload([...epoch(3), { kind: "status", status: "succeeded", message: "Done on my laptop." }]);
  await expect(page.getByTestId("job-state")).toHaveText("Succeeded");
  await expect.poll(() => points(loss)).toBe(3);
  await expect(page.getByTestId("log-line").filter({ hasText: "epoch 2/3 done" })).toHaveCount(1);
  await expect(page.getByRole("button", { name: "Create another token" })).toBeDisabled();
  await expectAccessible(page);
});
