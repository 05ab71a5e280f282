import { expect, type Page, test } from "@playwright/test";
import { createProject, expectAccessible, savedGraph, screenshotBothThemes, signUpViaApi } from "./fixtures";

test.use({ viewport: { width: 1440, height: 900 } });

/** 160 rows: three measurements and a two-class label that depends on them (learnable). */
function twoClassCsv(): string {
  let s = 11;
  const next = () => {
    s = (s * 1103515245 + 12345) % 2 ** 31;
    return s / 2 ** 31;
  };
  const lines = ["length,width,depth,kind"];
  for (let i = 0; i < 160; i++) {
    const length = 10 + next() * 10;
    const width = 5 + next() * 5;
    const depth = next() * 3;
    lines.push(
      `${length.toFixed(2)},${width.toFixed(2)},${depth.toFixed(2)},${length + width > 22.5 ? "large" : "small"}`,
    );
  }
  return `${lines.join("\n")}\n`;
}

const inputShape = (page: Page) => page.locator('[data-node-id="input"] [data-testid="node-shape"]');
const logitsShape = (page: Page) => page.locator('[data-node-id="logits"] [data-testid="node-shape"]');

test("the Iris-sized MLP meets a CSV of 3 features and 2 classes: every mismatch listed, one click fits, it trains, undo restores", async ({
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
      name: "parts",
      file: { name: "parts.csv", mimeType: "text/csv", buffer: Buffer.from(twoClassCsv()) },
    },
  });
  expect(res.status()).toBe(201);
  const { dataset } = await res.json();
  expect(dataset.roles.kind).toBe("target");
  const project = await createProject(context, baseURL, { name: "Iris MLP", template: "mlp-classifier" });

  await page.goto(`/projects/${project.id}`);
  await expect(inputShape(page)).toHaveText("[4]");
  await expect(logitsShape(page)).toHaveText("[3]");

  // The editor's "Fit to dataset": the user's CSV is offered first, with every mismatch.
  await page.getByRole("button", { name: "Fit to dataset" }).click();
  const fitDialog = page.getByRole("dialog", { name: "Fit to dataset" });
  await expect(fitDialog.getByLabel("Dataset", { exact: true })).toHaveValue(dataset.id);
  const list = fitDialog.getByTestId("mismatches");
  await expect(list.getByRole("listitem")).toHaveCount(2);
  await expect(list).toContainText("The model's Input takes 4 values per sample [4]; the dataset gives 3.");
  await expect(list).toContainText(
    "The dataset has 2 classes (“large”, “small”); the model's Output gives 3 logits.",
  );
  await expect(list).toContainText("Input → [3]");
  await expectAccessible(page);
  await screenshotBothThemes(page, "fit-dataset-editor");

  // Iris fits the diagram as it is: nothing to do.
  await fitDialog.getByLabel("Dataset", { exact: true }).selectOption({ label: "Iris" });
  await expect(fitDialog.getByText("The model already fits “Iris”: nothing to change.")).toBeVisible();
  await expect(fitDialog.getByRole("button", { name: "Fit the model" })).toBeDisabled();
  await fitDialog.getByLabel("Dataset", { exact: true }).selectOption({ label: "parts" });

  // One click fits: one step, saved; Ctrl+Z gives the Iris diagram back (and saves it).
  await fitDialog.getByRole("button", { name: "Fit the model" }).click();
  await expect(fitDialog).toBeHidden();
  await expect(inputShape(page)).toHaveText("[3]");
  await expect(logitsShape(page)).toHaveText("[2]");
  await expect(page.getByText(/^Fitted to “parts”: Input → \[3\]/)).toBeVisible();
  await expect
    .poll(
      async () =>
        (await savedGraph(context, baseURL, project.id)).nodes.find((n) => n.id === "input")?.params.shape,
    )
    .toEqual([3]);
  await page.locator('[data-testid="canvas"] .react-flow__pane').click({ position: { x: 40, y: 40 } });
  await page.keyboard.press("Control+z");
  await expect(inputShape(page)).toHaveText("[4]");
  await expect(logitsShape(page)).toHaveText("[3]");
  await expect(page.getByTestId("layer-node")).toHaveCount(4);
  await expect
    .poll(
      async () =>
        (await savedGraph(context, baseURL, project.id)).nodes.find((n) => n.id === "input")?.params.shape,
    )
    .toEqual([4]);

  // The Train dialog: the CSV does not fit; its mismatches and the button that fits the model.
  await page.getByRole("button", { name: "Train", exact: true }).click();
  const train = page.getByRole("dialog", { name: "Train" });
  const radio = train.getByRole("radio", { name: /^parts/ });
  await expect(radio).toBeDisabled({ timeout: 60_000 });
  const notFitting = train.getByTestId(`not-fitting-${dataset.id}`);
  await expect(notFitting).toContainText("Does not fit: 2 mismatches");
  await expect(notFitting.getByRole("listitem")).toHaveCount(2);
  await notFitting.scrollIntoViewIfNeeded();
  await screenshotBothThemes(page, "fit-dataset-train-dialog");
  await notFitting.getByRole("button", { name: "Fit the model to this dataset" }).click();
  await expect(radio).toBeEnabled();
  await expect(radio).toBeChecked();
  await expect(inputShape(page)).toHaveText("[3]");
  await expect(train.getByTestId("split-info")).toContainText("training and");
  await train.getByRole("button", { name: "Start training" }).click();
  await expect(page).toHaveURL(/\/training\/job_[\w-]+$/);
  await expect(page.getByTestId("job-state")).toHaveText("Succeeded", { timeout: 240_000 });
});
