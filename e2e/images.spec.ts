import { fileURLToPath } from "node:url";
import { expect, test } from "@playwright/test";
import AdmZip from "adm-zip";
import { createProject, expectAccessible, screenshotBothThemes, signUpViaApi } from "./fixtures";

test.use({ viewport: { width: 1440, height: 900 } });

/** Ten digits drawn as 28×28 PNGs: train/<digit>/… (16 each) and validation/<digit>/… (6 each). */
const PICTURES = fileURLToPath(new URL("./fixtures/digit-pictures.zip", import.meta.url));

test("images end to end: upload pictures, train the CNN with augmentation, click a confusion cell, drop a picture into the console", async ({
  page,
  context,
  baseURL,
}) => {
  test.setTimeout(420_000);
  if (!baseURL) throw new Error("baseURL");
  await signUpViaApi(context, baseURL);
  const project = await createProject(context, baseURL, { name: "Digit pictures", template: "cnn-image" });

  // Upload the ZIP; its page shows sample pictures and the split folders.
  await page.goto("/datasets");
  await page.getByRole("button", { name: "New dataset" }).click();
  const upload = page.getByRole("dialog", { name: "New dataset" });
  await upload.getByLabel("Dataset file").setInputFiles(PICTURES);
  await expect(upload.getByLabel("Name", { exact: true })).toHaveValue("digit-pictures");
  await upload.getByRole("button", { name: "Upload", exact: true }).click();
  await expect(upload.getByText("“digit-pictures” is ready.")).toBeVisible({ timeout: 60_000 });
  await upload.getByRole("link", { name: "Open dataset" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "digit-pictures" })).toBeVisible();
  const samples = page.getByRole("region", { name: "Samples" });
  await expect(samples.getByRole("img").first()).toBeVisible();
  await screenshotBothThemes(page, "images-dataset");

  // The editor's Train dialog: the pictures fit, with the picture settings and their preview.
  await page.goto(`/projects/${project.id}`);
  await expect(page.getByTestId("layer-node").first()).toBeVisible();
  await page.getByRole("button", { name: "Train", exact: true }).click();
  const dialog = page.getByRole("dialog", { name: "Train" });
  const pictures = dialog.getByRole("radio", { name: /^digit-pictures/ });
  await expect(pictures).toBeEnabled({ timeout: 60_000 });
  await pictures.check();
  const panel = dialog.getByTestId("augmentation-panel");
  await expect(panel).toBeVisible();
  await panel.getByLabel("Rotate up to").fill("10");
  await panel.getByLabel("Crop after padding").fill("2");
  await expect(panel.getByText(/Now: crop \(pad 2\), rotate ±10°/)).toBeVisible();
  await expect(dialog.getByTestId("augmentation-preview").getByRole("listitem")).toHaveCount(7);
  await dialog.getByLabel("Epochs", { exact: true }).fill("3");
  await dialog.getByLabel("Learning rate").fill("0.003");
  await expectAccessible(page);
  await screenshotBothThemes(page, "images-train-dialog");
  await dialog.getByRole("button", { name: "Start training" }).click();

  // The job's page: the chart fills as epochs arrive.
  await expect(page).toHaveURL(/\/training\/job_[\w-]+$/);
  const jobUrl = page.url();
  const loss = page.getByRole("img", { name: /^Loss:/ });
  await expect(loss).toBeVisible({ timeout: 120_000 });
  await expect(page.getByTestId("job-state")).toHaveText("Succeeded", { timeout: 240_000 });
  await expect.poll(async () => Number((await loss.getAttribute("data-points")) ?? "0")).toBe(3);

  // Evaluate on the validation folder; a mistake's cell shows its pictures.
  const card = page.getByTestId("evaluations-card");
  await card.getByRole("button", { name: "Evaluate" }).click();
  const evaluate = page.getByRole("dialog", { name: "Evaluate the model" });
  await evaluate.getByRole("button", { name: "Evaluate", exact: true }).click();
  await expect(page).toHaveURL(/\/training\/evaluations\/eval_[\w-]+$/);
  await expect(page.getByTestId("evaluation-state")).toHaveText("Done", { timeout: 120_000 });
  const mistakes = page.getByTestId("image-mistakes");
  await expect(page.getByRole("heading", { name: "Most confident mistakes" })).toBeVisible();
  const cell = page.getByTestId("confusion-cell-button").first();
  await cell.click();
  await expect(cell).toHaveAttribute("aria-pressed", "true");
  await expect(page.getByRole("heading", { name: /predicted as/ })).toBeVisible();
  const first = mistakes.getByRole("img").first();
  await expect(first).toBeVisible();
  await expect.poll(() => first.evaluate((img) => (img as HTMLImageElement).naturalWidth)).toBeGreaterThan(0);
  await expectAccessible(page);
  await screenshotBothThemes(page, "images-evaluation");

  // Deploy, then drop a picture into the console's try-it.
  await page.goto(jobUrl);
  await page.getByRole("button", { name: "Deploy", exact: true }).click();
  const deploy = page.getByRole("dialog", { name: "Deploy this model" });
  await deploy.getByLabel("Deployment name").fill("digits-e2e");
  await deploy.getByRole("button", { name: "Deploy", exact: true }).click();
  await page
    .getByRole("dialog", { name: "“digits-e2e” is deployed" })
    .getByRole("link", { name: "Open the console" })
    .click();
  await expect(page.getByTestId("deployment-state")).toHaveText("Ready", { timeout: 60_000 });
  const zip = new AdmZip(PICTURES);
  const seven = zip.getEntries().find((e) => e.entryName.startsWith("validation/7/"));
  if (!seven) throw new Error("no validation picture of a 7");
  const dataTransfer = await page.evaluateHandle((b64) => {
    const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
    const transfer = new DataTransfer();
    transfer.items.add(new File([bytes], "seven.png", { type: "image/png" }));
    return transfer;
  }, seven.getData().toString("base64"));
  await page.getByTestId("picture-drop").dispatchEvent("drop", { dataTransfer });
  await expect(page.getByRole("img", { name: "Sent: seven.png" })).toBeVisible();
  await expect(page.getByTestId("predicted-label")).toHaveText(/^\d$/, { timeout: 60_000 });
  await expect(page.getByRole("list", { name: "Class probabilities" }).getByRole("listitem")).toHaveCount(5);
  await expectAccessible(page);
  await screenshotBothThemes(page, "images-console");
});
