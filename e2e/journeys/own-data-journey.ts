import { expect as baseExpect, type Locator, type Page } from "@playwright/test";

/** Waits on what the user sees, as long as a busy machine needs (the bench runs outside the test runner). */
const expect = baseExpect.configure({ timeout: 30_000 });

/**
 * A newcomer's way from signing up to a served prediction on their own data, done as a person does
 * it in the studio: every click goes through `click`, so the journey can count them. Shared by the
 * e2e test (which checks each step) and bench/newcomer-journey.ts (which prints time and clicks).
 */
export interface JourneyResult {
  clicks: number;
  /** Fields typed into (sign-up form and the try-it form). */
  fields: number;
  /** Wall time of each step, in milliseconds. */
  steps: { name: string; ms: number }[];
  predictedLabel: string;
}

export interface JourneyOptions {
  /** The file the newcomer uploads. */
  file: string;
  /** The dataset's name as the studio derives it from the file name. */
  datasetName: string;
  /** The column the studio should guess as the target. */
  expectedTarget: string;
  /** Called after a step, e.g. to take screenshots. */
  onStep?: (name: string) => Promise<void>;
  /**
   * The try-it step in the console (counted in clicks by the caller through `countClick`); by default
   * one click on "Predict" with the form as the studio filled it.
   */
  tryIt?: (page: Page, countClick: () => void) => Promise<void>;
  /** How long to wait for training and evaluation (what the user sees, not a clock of ours). */
  trainTimeoutMs?: number;
}

export async function ownDataJourney(page: Page, options: JourneyOptions): Promise<JourneyResult> {
  const result: JourneyResult = { clicks: 0, fields: 0, steps: [], predictedLabel: "" };
  const click = async (target: Locator) => {
    result.clicks += 1;
    await target.click();
  };
  const fill = async (target: Locator, value: string) => {
    result.fields += 1;
    await target.fill(value);
  };
  let last = Date.now();
  const step = async (name: string) => {
    const now = Date.now();
    result.steps.push({ name, ms: now - last });
    last = now;
    await options.onStep?.(name);
  };
  const trainTimeout = options.trainTimeoutMs ?? 240_000;

  // Sign up.
  const suffix = Math.random().toString(36).slice(2, 10);
  await page.goto("/signup");
  await fill(page.getByLabel("E-mail"), `new${suffix}@example.com`);
  await fill(page.getByLabel("Username"), `new${suffix}`);
  await fill(page.getByLabel("Password"), "correct horse battery");
  await click(page.getByRole("button", { name: "Create account" }));
  await expect(page.getByRole("heading", { level: 1, name: "Projects" })).toBeVisible();
  await step("sign up");

  // Upload the file; the studio guesses its target.
  await click(page.getByRole("navigation", { name: "Studio" }).getByRole("link", { name: "Datasets" }));
  await click(page.getByRole("button", { name: "New dataset" }).first());
  const upload = page.getByRole("dialog", { name: "New dataset" });
  // Choosing a file in the picker is one click for a person.
  result.clicks += 1;
  await upload.getByLabel("Dataset file").setInputFiles(options.file);
  await click(upload.getByRole("button", { name: "Upload", exact: true }));
  await expect(upload.getByText(`“${options.datasetName}” is ready.`)).toBeVisible({ timeout: 60_000 });
  await click(upload.getByRole("link", { name: "Open dataset" }));
  await expect(page.getByRole("heading", { level: 1, name: options.datasetName })).toBeVisible();
  await expect(page.getByTestId("guessed-target")).toHaveText(options.expectedTarget);
  await step("upload");

  // One click: a model sized to the data, in the editor with the Train dialog open on this dataset.
  await click(page.getByRole("button", { name: "Train a model on this data" }));
  const dialog = page.getByRole("dialog", { name: "Train" });
  await expect(dialog).toBeVisible({ timeout: 60_000 });
  const radio = dialog.getByRole("radio", { name: new RegExp(`^${options.datasetName}`) });
  await expect(radio).toBeEnabled({ timeout: 60_000 });
  if (!(await radio.isChecked())) await click(radio);
  await expect(radio).toBeChecked();
  await click(dialog.getByRole("button", { name: "Start training" }));
  await expect(page).toHaveURL(/\/training\/job_[\w-]+$/);
  await expect(page.getByTestId("job-state")).toHaveText("Succeeded", { timeout: trainTimeout });
  await step("train");

  // Evaluate on the held-out rows.
  await click(page.getByTestId("evaluations-card").getByRole("button", { name: "Evaluate" }));
  const evaluate = page.getByRole("dialog", { name: "Evaluate the model" });
  await click(evaluate.getByRole("button", { name: "Evaluate", exact: true }));
  await expect(page).toHaveURL(/\/training\/evaluations\/eval_[\w-]+$/);
  await expect(page.getByTestId("evaluation-state")).toHaveText("Done", { timeout: trainTimeout });
  await step("evaluate");

  // Deploy from the evaluation's page and try it in the console.
  await click(page.getByRole("button", { name: "Deploy", exact: true }));
  const deploy = page.getByRole("dialog", { name: "Deploy this model" });
  await click(deploy.getByRole("button", { name: "Deploy", exact: true }));
  await click(page.getByRole("link", { name: "Open the console" }));
  await expect(page.getByTestId("deployment-state")).toHaveText("Ready", { timeout: 60_000 });
  if (options.tryIt) {
    await options.tryIt(page, () => {
      result.clicks += 1;
    });
  } else {
    await click(page.getByRole("button", { name: "Predict", exact: true }));
  }
  const label = page.getByTestId("predicted-label");
  await expect(label).not.toBeEmpty({ timeout: 60_000 });
  result.predictedLabel = (await label.textContent()) ?? "";
  await step("deploy and predict");
  return result;
}
