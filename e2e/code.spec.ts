import { expect, type Page, test } from "@playwright/test";
import yauzl from "yauzl";
import { apiJson, createProject, expectAccessible, signUpViaApi } from "./fixtures";

test.use({ viewport: { width: 1440, height: 900 } });

/**
 * Screenshots in both themes for people to look at (e2e/.screens/<name>-<theme>.png), each taken once
 * the colour transitions of the switch have ended (buttons fade between themes).
 */
async function screenshotThemes(page: Page, name: string) {
  for (const theme of ["light", "dark"] as const) {
    await page.evaluate((t) => document.documentElement.classList.toggle("dark", t === "dark"), theme);
    await page.waitForFunction(() => document.getAnimations().every((a) => !(a instanceof CSSTransition)));
    await page.screenshot({ path: `e2e/.screens/${name}-${theme}.png` });
  }
  await page.evaluate(() => document.documentElement.classList.remove("dark"));
}

/** The text Monaco shows (it renders spaces as no-break spaces). */
async function editorText(page: Page): Promise<string> {
  const text = await page.getByTestId("code-editor").locator(".view-lines").textContent();
  return (text ?? "").replace(/\u00a0/g, " ");
}

function zipEntries(path: string): Promise<string[]> {
  return new Promise((resolve, reject) => {
    yauzl.open(path, { lazyEntries: true }, (err, zip) => {
      if (err || !zip) return reject(err);
      const names: string[] = [];
      zip.on("entry", (entry: yauzl.Entry) => {
        names.push(entry.fileName);
        zip.readEntry();
      });
      zip.on("end", () => resolve(names));
      zip.on("error", reject);
      zip.readEntry();
    });
  });
}

const node = (id: string, type: string, params: Record<string, unknown>, y: number) => ({
  id,
  type,
  params,
  position: { x: 0, y },
});

test("the Code tab previews the code, switches files and targets, generates asynchronously and downloads a ZIP", async ({
  page,
  context,
  baseURL,
}) => {
  test.setTimeout(120_000);
  if (!baseURL) throw new Error("baseURL");
  await signUpViaApi(context, baseURL);
  const project = await createProject(context, baseURL, {
    name: "Iris MLP",
    template: "mlp-classifier",
  });

  // From the diagram to its code.
  await page.goto(`/projects/${project.id}`);
  await expect(page.getByTestId("layer-node")).toHaveCount(4);
  await expect(page.getByRole("link", { name: "Diagram", exact: true })).toHaveAttribute(
    "aria-current",
    "page",
  );
  await page.getByRole("link", { name: "Code", exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`/projects/${project.id}/code$`));
  await expect(page.getByRole("heading", { name: "Iris MLP" })).toBeVisible();

  // The live preview: the PyTorch project, model.py open in Monaco.
  const tree = page.getByTestId("file-tree");
  const files = tree.getByRole("button");
  await expect(files).toHaveText([/^model\.py/, /^train\.py/, /^requirements\.txt/, /^README\.md/]);
  await expect(files.first()).toHaveAttribute("aria-current", "true");
  await expect(files.first()).toContainText(/\d+ B/);
  await expect(page.getByTestId("code-source")).toHaveText("Live preview");
  await expect(page.getByTestId("open-file")).toHaveText("model.py");
  await expect.poll(() => editorText(page)).toMatch(/class \w+\(nn\.Module\):/);
  expect(await editorText(page)).toContain("self.hidden = nn.Linear(4, 16)");
  await expect(page.getByTestId("code-editor").locator(".monaco-editor")).toHaveClass(/vs(?!-dark)/);
  await expect(page.getByTestId("code-issues")).toHaveCount(0);
  await expectAccessible(page);
  await screenshotThemes(page, "code-pytorch");

  // The editor follows the app's theme.
  await page.evaluate(() => document.documentElement.classList.add("dark"));
  await expect(page.getByTestId("code-editor").locator(".monaco-editor")).toHaveClass(/vs-dark/);
  await page.evaluate(() => document.documentElement.classList.remove("dark"));
  await expect(page.getByTestId("code-editor").locator(".monaco-editor")).not.toHaveClass(/vs-dark/);

  // Another file.
  await tree.getByRole("button", { name: /train\.py/ }).click();
  await expect(tree.getByRole("button", { name: /train\.py/ })).toHaveAttribute("aria-current", "true");
  await expect(files.first()).not.toHaveAttribute("aria-current", "true");
  await expect(page.getByTestId("open-file")).toHaveText("train.py");
  await expect.poll(() => editorText(page)).toContain("import argparse");

  // TensorFlow.js: the same file of the other project stays open.
  await page.getByRole("radio", { name: "TensorFlow.js" }).check();
  await expect(page).toHaveURL(/\/code\?target=tfjs$/);
  await expect(files).toHaveText([/^model\.mjs/, /^train\.mjs/, /^package\.json/, /^README\.md/]);
  await expect(page.getByTestId("open-file")).toHaveText("train.mjs");
  await expect.poll(() => editorText(page)).toContain("@tensorflow/tfjs");
  await tree.getByRole("button", { name: /model\.mjs/ }).click();
  await expect.poll(() => editorText(page)).toContain("export function buildModel()");
  await screenshotThemes(page, "code-tfjs");

  // Asynchronous generation: a task, polled until it succeeds, whose files are then shown.
  const polls: string[] = [];
  page.on("request", (r) => {
    if (/\/code-status\/[^/]+$/.test(new URL(r.url()).pathname)) polls.push(r.url());
  });
  await page.getByRole("button", { name: "Generate", exact: true }).click();
  const bar = page.getByTestId("generation-bar");
  await expect(bar).toHaveAttribute("data-phase", "succeeded", { timeout: 30_000 });
  await expect(bar).toContainText("Generated 4 files");
  expect(polls.length).toBeGreaterThan(0);
  await expect(page.getByTestId("code-source")).toHaveText("Generated");
  await expect(files).toHaveText([/^model\.mjs/, /^train\.mjs/, /^package\.json/, /^README\.md/]);
  await expect.poll(() => editorText(page)).toContain("export function buildModel()");
  await bar.getByRole("button", { name: "Back to live preview" }).click();
  await expect(bar).toHaveCount(0);
  await expect(page.getByTestId("code-source")).toHaveText("Live preview");

  // The ZIP of the PyTorch project, downloaded by the browser with the session cookie.
  await page.getByRole("radio", { name: "PyTorch" }).check();
  await expect(page).toHaveURL(/\/code$/);
  await expect(files.first()).toHaveText(/^model\.py/);
  const downloading = page.waitForEvent("download");
  await page.getByRole("link", { name: "Download ZIP" }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toBe("iris-mlp-pytorch.zip");
  const saved = test.info().outputPath("iris-mlp-pytorch.zip");
  await download.saveAs(saved);
  const names = await zipEntries(saved);
  expect(names).toEqual(
    expect.arrayContaining([
      "iris-mlp-pytorch/model.py",
      "iris-mlp-pytorch/train.py",
      "iris-mlp-pytorch/requirements.txt",
    ]),
  );

  // Back to the diagram.
  await page.getByRole("link", { name: "Diagram", exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`/projects/${project.id}$`));
  await expect(page.getByTestId("layer-node")).toHaveCount(4);
});

test("a running generation shows its progress and can be cancelled", async ({ page, context, baseURL }) => {
  if (!baseURL) throw new Error("baseURL");
  await signUpViaApi(context, baseURL);
  const project = await createProject(context, baseURL, {
    name: "Slow one",
    template: "cnn-image",
  });
  // Hold the task at 40 % (the real one finishes in a moment), and record the cancel request.
  let cancelled = false;
  let taskId = "";
  const task = (state: string, progress: number) => ({
    task_id: taskId,
    project_id: project.id,
    target: "pytorch",
    state,
    progress,
    error: null,
    created_at: new Date().toISOString(),
    finished_at: state === "running" ? null : new Date().toISOString(),
  });
  await page.route(/\/code-status\/[^/]+\/cancel$/, async (route) => {
    cancelled = true;
    await route.fulfill({ json: task("cancelled", 0.4) });
  });
  await page.route(/\/code-status\/[^/]+$/, async (route) => {
    taskId = new URL(route.request().url()).pathname.split("/").pop() ?? "";
    await route.fulfill({ json: task(cancelled ? "cancelled" : "running", 0.4) });
  });

  await page.goto(`/projects/${project.id}/code`);
  await expect.poll(() => editorText(page)).toMatch(/class \w+\(nn\.Module\):/);
  await page.getByRole("button", { name: "Generate", exact: true }).click();
  const bar = page.getByTestId("generation-bar");
  await expect(bar).toHaveAttribute("data-phase", "running");
  await expect(bar.getByRole("progressbar", { name: "Generation progress" })).toHaveAttribute(
    "aria-valuenow",
    "40",
  );
  await expect(page.getByRole("radio", { name: "TensorFlow.js" })).toBeDisabled();
  await expectAccessible(page);
  await screenshotThemes(page, "code-generating");
  await bar.getByRole("button", { name: "Cancel" }).click();
  await expect(bar).toHaveAttribute("data-phase", "cancelled");
  expect(cancelled).toBe(true);
  await expect(bar).toContainText("Generation cancelled");
  await expect(page.getByRole("radio", { name: "TensorFlow.js" })).toBeEnabled();
});

test("issues link to their node: warnings above the code, errors instead of it", async ({
  page,
  context,
  baseURL,
}) => {
  test.setTimeout(90_000);
  if (!baseURL) throw new Error("baseURL");
  await signUpViaApi(context, baseURL);
  const project = await createProject(context, baseURL, { name: "Shapes" });
  const put = (graph: unknown) =>
    apiJson(context.request, baseURL, "PUT", `/api/v1/projects/${project.id}`, { graph });

  // A layer that feeds nothing: a warning, and the code is still there.
  await put({
    nodes: [
      node("in", "Input", { shape: [4] }, 0),
      node("head", "Dense", { units: 3 }, 120),
      node("unused", "Dense", { units: 8 }, 120),
      node("out", "Output", {}, 240),
    ],
    edges: [
      { id: "e1", source: "in", target: "head" },
      { id: "e2", source: "in", target: "unused" },
      { id: "e3", source: "head", target: "out" },
    ],
  });
  await page.goto(`/projects/${project.id}/code`);
  const warning = page.getByTestId("code-issue").filter({ hasText: "does not feed any Output" });
  await expect(warning).toHaveAttribute("data-severity", "warning");
  await expect(page.getByTestId("code-issues")).toContainText("1 warning");
  await expect.poll(() => editorText(page)).toMatch(/class \w+\(nn\.Module\):/);
  await expect(warning.getByRole("link", { name: /Show in diagram/ })).toHaveAttribute(
    "href",
    `/projects/${project.id}?focus=unused`,
  );
  await expectAccessible(page);
  await screenshotThemes(page, "code-warnings");

  // Dense straight after a 3-D input: the Output gets 3-D logits, and no code can be generated.
  await put({
    nodes: [
      node("in", "Input", { shape: [1, 28, 28] }, 0),
      node("dense", "Dense", { units: 10 }, 120),
      node("out", "Output", {}, 240),
    ],
    edges: [
      { id: "e1", source: "in", target: "dense" },
      { id: "e2", source: "dense", target: "out" },
    ],
  });
  await page.reload();
  await expect(page.getByTestId("code-invalid")).toBeVisible();
  await expect(
    page.getByRole("heading", { name: "This diagram can't be turned into PyTorch code yet" }),
  ).toBeVisible();
  const error = page.getByTestId("code-issue").filter({ hasText: "cross_entropy expects 1-D logits" });
  await expect(error).toHaveAttribute("data-severity", "error");
  await expect(error).toContainText("shape_mismatch");
  await expect(page.getByTestId("code-editor")).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Download ZIP" })).toBeDisabled();
  await expect(page.getByRole("button", { name: "Generate", exact: true })).toBeDisabled();
  await expectAccessible(page);
  await screenshotThemes(page, "code-invalid");

  // "Show in diagram": the editor opens with the Output selected and centred.
  await error.getByRole("link", { name: /Show in diagram/ }).click();
  await expect(page).toHaveURL(new RegExp(`/projects/${project.id}\\?focus=out$`));
  const output = page.locator('.react-flow__node[data-id="out"]');
  await expect(output).toHaveClass(/selected/);
  await expect(page.getByTestId("inspector").getByRole("heading", { name: "Output" })).toBeVisible();
  const canvas = await page.getByTestId("canvas").boundingBox();
  if (!canvas) throw new Error("no canvas");
  await expect
    .poll(async () => {
      const box = await output.boundingBox();
      if (!box) return Number.POSITIVE_INFINITY;
      return Math.hypot(
        box.x + box.width / 2 - (canvas.x + canvas.width / 2),
        box.y + box.height / 2 - (canvas.y + canvas.height / 2),
      );
    })
    .toBeLessThan(40);
  await screenshotThemes(page, "code-show-in-diagram");
});
