import { expect, type Locator, type Page, test } from "@playwright/test";
import { createProject, expectAccessible, screenshotBothThemes, signUpViaApi } from "./fixtures";

test.use({ viewport: { width: 1440, height: 900 } });

/** A layer node on the canvas by its title ("Conv2D", "Dense (Linear)"…). */
function layer(scope: Page | Locator, title: string): Locator {
  const page = "goto" in scope ? scope : scope.page();
  return scope.getByTestId("layer-node").filter({
    has: page.getByTestId("node-title").getByText(title, { exact: true }),
  });
}

/** An edge's tensor-shape label. */
function edgeLabel(page: Page, text: string): Locator {
  return page.getByTestId("edge-shape").getByText(text, { exact: true });
}

/** Real HTML5 drag from the palette onto the canvas at a point of the pane. */
async function dragLayer(page: Page, type: string, at: { x: number; y: number }) {
  const before = await page.getByTestId("layer-node").count();
  await page.getByTestId(`palette-${type}`).dragTo(page.locator(".react-flow__pane"), { targetPosition: at });
  await expect(page.getByTestId("layer-node")).toHaveCount(before + 1);
}

async function centre(locator: Locator) {
  const box = await locator.boundingBox();
  if (!box) throw new Error("not visible");
  return { x: box.x + box.width / 2, y: box.y + box.height / 2 };
}

/**
 * Where a handle settles: a layer just dropped (or a view still panning) moves for a few frames, and
 * a drag aimed at where it was misses on a loaded machine.
 */
async function settledCentre(page: Page, locator: Locator) {
  let last = await centre(locator);
  for (let i = 0; i < 40; i++) {
    await page.waitForTimeout(50);
    const now = await centre(locator);
    if (now.x === last.x && now.y === last.y) return now;
    last = now;
  }
  return last;
}

/** Connects two layers by dragging from the source's output handle to the target's input port. */
async function connect(page: Page, source: Locator, target: Locator, port = 0) {
  const from = await settledCentre(page, source.getByTestId("handle-out"));
  const to = await settledCentre(page, target.getByTestId(`handle-in-${port}`));
  await page.mouse.move(from.x, from.y);
  await page.mouse.down();
  await page.mouse.move((from.x + to.x) / 2, (from.y + to.y) / 2, { steps: 8 });
  await page.mouse.move(to.x, to.y, { steps: 8 });
  await page.mouse.up();
}

test("a new user builds a CNN from the palette, versions, compares, restores, shares and it is imported", async ({
  page,
  context,
  browser,
  baseURL,
}) => {
  test.setTimeout(120_000);
  if (!baseURL) throw new Error("baseURL");
  const owner = await signUpViaApi(context, baseURL);

  // Empty state, then a blank project from the dialog.
  await page.goto("/projects");
  await expect(page.getByRole("heading", { name: "No projects yet" })).toBeVisible();
  await expectAccessible(page);
  await screenshotBothThemes(page, "projects-empty");
  await page.getByRole("button", { name: "New project" }).click();
  const dialog = page.getByRole("dialog", { name: "New project" });
  await dialog.getByLabel("Name").fill("Digits CNN");
  await expect(dialog.getByRole("radio", { name: /Blank canvas/ })).toBeChecked();
  await dialog.getByRole("button", { name: "Create project" }).click();
  await expect(page).toHaveURL(/\/projects\/prj_/);
  await expect(page.getByRole("textbox", { name: "Project name" })).toHaveValue("Digits CNN");
  await expect(page.getByText("No layer selected")).toBeVisible();
  await expect(page.getByText("Drag layers here from the palette")).toBeVisible();
  await expectAccessible(page);

  // Build Input → Conv2D → Dense → Output by dragging from the palette.
  await dragLayer(page, "Input", { x: 300, y: 70 });
  await dragLayer(page, "Conv2D", { x: 300, y: 200 });
  await dragLayer(page, "Dense", { x: 300, y: 460 });
  await dragLayer(page, "Output", { x: 300, y: 590 });
  const input = layer(page, "Input");
  const conv = layer(page, "Conv2D");
  const dense = layer(page, "Dense (Linear)");
  const output = layer(page, "Output");
  await expect(input.getByTestId("node-shape")).toHaveText("[1, 28, 28]");

  await connect(page, input, conv);
  await expect(edgeLabel(page, "[1, 28, 28]")).toBeVisible();
  await expect(conv.getByTestId("node-shape")).toHaveText("[32, 26, 26]");
  await connect(page, conv, dense);
  await expect(edgeLabel(page, "[32, 26, 26]")).toBeVisible();
  await connect(page, dense, output);
  await expect(edgeLabel(page, "[32, 26, 64]")).toBeVisible();

  // Dense after Conv2D without Flatten: the Output gets 3-D logits and says so.
  const error = output.getByTestId("node-error");
  await expect(error).toBeVisible();
  await expect(error).toHaveAccessibleName(/cross_entropy expects 1-D logits \[C\] but got \[32, 26, 64\]/);
  await expect(page.getByTestId("issues-toggle")).toHaveText(/1 error/);
  await page.getByTestId("issues-toggle").click();
  await page.getByTestId("issue").filter({ hasText: "cross_entropy expects 1-D logits" }).click();
  await expect(page.getByTestId("inspector").getByRole("heading", { name: "Output" })).toBeVisible();
  await page.getByTestId("issues-toggle").click();

  // Fix it: a Flatten between Conv2D and Dense (connecting into Dense's input replaces the old edge).
  await dragLayer(page, "Flatten", { x: 540, y: 330 });
  const flatten = layer(page, "Flatten");
  await connect(page, conv, flatten);
  await connect(page, flatten, dense);
  await expect(edgeLabel(page, "[21632]")).toBeVisible();
  await expect(edgeLabel(page, "[64]")).toBeVisible();
  await expect(page.getByTestId("node-error")).toHaveCount(0);

  // Ten classes: edit Dense's units in the generated form, validated as typed.
  await dense.click();
  const units = page.getByTestId("inspector").getByLabel("Units");
  await units.fill("0");
  await expect(page.getByTestId("inspector").getByRole("alert")).toHaveText(/Must be between 1 and/);
  await units.fill("10");
  await expect(edgeLabel(page, "[10]")).toBeVisible();
  await expect(page.getByTestId("issues-toggle")).toHaveText(/No issues/);
  await expect(page.getByTestId("total-params")).toContainText("217K");
  await expect(page.getByTestId("save-status")).toHaveText(/All changes saved/);
  await expectAccessible(page);

  // Version 1 (Ctrl+S), then fewer filters as version 2.
  await page.locator(".react-flow__pane").click({ position: { x: 40, y: 40 } });
  await page.keyboard.press("Control+s");
  const save = page.getByRole("dialog", { name: "Save version" });
  await save.getByLabel("Message").fill("First CNN");
  await save.getByRole("button", { name: "Save version" }).click();
  await expect(page.getByText("Saved version 1")).toBeVisible();
  await conv.click();
  await page.getByTestId("inspector").getByLabel("Out channels").fill("16");
  await expect(edgeLabel(page, "[16, 26, 26]")).toBeVisible();
  await page.getByRole("button", { name: "Save version" }).click();
  await save.getByLabel("Message").fill("Fewer filters");
  await save.getByRole("button", { name: "Save version" }).click();
  await expect(page.getByText("Saved version 2")).toBeVisible();
  await page.getByRole("button", { name: "Fit view" }).click();
  await expect.poll(async () => (await input.boundingBox())?.y ?? 0).toBeGreaterThan(80);
  await screenshotBothThemes(page, "editor");

  // Compare the two versions.
  await page.getByRole("tab", { name: "Versions" }).click();
  await expect(page.getByTestId("version-row")).toHaveCount(2);
  await page.getByLabel("Select version 1 for comparison").check();
  await page.getByLabel("Select version 2 for comparison").check();
  await page.getByRole("link", { name: "Compare v1 and v2" }).click();
  await expect(page).toHaveURL(/\/compare\?from=ver_.+&to=ver_/);
  const after = page.getByTestId("compare-to");
  await expect(layer(after, "Conv2D")).toHaveAttribute("data-diff", "changed");
  await expect(layer(page.getByTestId("compare-from"), "Conv2D")).toHaveAttribute("data-diff", "changed");
  const change = page.getByTestId("param-change").filter({ hasText: "out_channels" });
  await expect(change).toContainText("32");
  await expect(change).toContainText("16");
  await expectAccessible(page);
  await screenshotBothThemes(page, "compare");

  // Restore version 1, after confirming.
  await page.getByRole("link", { name: "Back to Digits CNN" }).click();
  await page.getByRole("tab", { name: "Versions" }).click();
  await page.getByRole("button", { name: "Restore version 1" }).click();
  const confirm = page.getByRole("dialog", { name: "Restore version 1?" });
  await confirm.getByRole("button", { name: "Restore version 1" }).click();
  await expect(page.getByText("Restored as version 3")).toBeVisible();
  await expect(edgeLabel(page, "[32, 26, 26]")).toBeVisible();
  await expect(page.getByTestId("version-row")).toHaveCount(3);

  // The list shows the project with its thumbnail.
  await page.getByRole("link", { name: "Projects", exact: true }).first().click();
  const card = page.getByTestId("project-card").filter({ hasText: "Digits CNN" });
  const thumbnail = card.getByRole("img", { name: "Digits CNN diagram" });
  await expect(thumbnail).toBeVisible();
  await expect.poll(() => thumbnail.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
  await card.getByRole("link", { name: "Digits CNN" }).click();

  // Share it.
  await page.getByRole("button", { name: "Share" }).click();
  const share = page.getByRole("dialog", { name: "Share this project" });
  await share.getByRole("button", { name: "Create link" }).click();
  const url = await share.getByTestId("share-url").inputValue();
  expect(url).toMatch(/\/shared\/[0-9A-Za-z]{32}$/);
  await expect(share.getByTestId("share-row")).toHaveCount(1);
  // And make it public on the owner's profile.
  await share.getByRole("checkbox", { name: /Public on my profile/ }).check();
  await expect(share.getByRole("link", { name: "your profile" })).toBeVisible();
  await screenshotBothThemes(page, "share-dialog");
  await share.getByRole("button", { name: "Close" }).click();

  // Signed out in a fresh browser: the read-only diagram, and an offer to sign in.
  const other = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  const visitor = await other.newPage();
  await visitor.goto(url);
  await expect(visitor.getByRole("heading", { name: "Digits CNN" })).toBeVisible();
  await expect(visitor.getByTestId("layer-node")).toHaveCount(5);
  await expect(visitor.getByTestId("shared-params")).toHaveText("217K");
  await expect(visitor.getByRole("link", { name: "Sign in to import" })).toBeVisible();
  await expectAccessible(visitor);
  await screenshotBothThemes(visitor, "shared");

  // The owner's profile lists it, signed out; its public page shows the same diagram.
  await visitor.goto(`/u/${owner.username}`);
  const listed = visitor.getByRole("list", { name: `Public projects by ${owner.username}` });
  await expect(listed.getByRole("link", { name: /Digits CNN/ })).toBeVisible();
  await expectAccessible(visitor);
  await screenshotBothThemes(visitor, "profile-projects");
  await listed.getByRole("link", { name: /Digits CNN/ }).click();
  await expect(visitor.getByText("Public project")).toBeVisible();
  await expect(visitor.getByTestId("layer-node")).toHaveCount(5);
  await visitor.goto(url);

  // Another user imports it.
  await signUpViaApi(other, baseURL);
  await visitor.reload();
  await visitor.getByRole("button", { name: "Import into my account" }).click();
  await expect(visitor).toHaveURL(/\/projects\/prj_/);
  await expect(visitor.getByRole("textbox", { name: "Project name" })).toHaveValue("Digits CNN");
  await expect(visitor.getByTestId("layer-node")).toHaveCount(5);
  expect(visitor.url()).not.toBe(page.url());
  await other.close();
});

test("the list searches, sorts, pages, duplicates and bulk-deletes", async ({ page, context, baseURL }) => {
  if (!baseURL) throw new Error("baseURL");
  await signUpViaApi(context, baseURL);
  const templates = ["mlp-classifier", "cnn-image", "lstm-sequence", "transformer-block"];
  for (let i = 0; i < 14; i++) {
    await createProject(context, baseURL, {
      name: `Model ${String(i).padStart(2, "0")}`,
      template: templates[i % templates.length],
    });
  }
  await page.goto("/projects");
  await expect(page.getByTestId("project-card")).toHaveCount(12);
  await expect(page.getByText("Page 1 of 2")).toBeVisible();
  // Never opened in the editor, yet each shows its diagram, drawn by the server.
  const previews = page.getByTestId("project-card").getByRole("img", { name: /diagram$/ });
  await expect(previews).toHaveCount(12);
  const firstPreview = previews.first();
  await expect(firstPreview).toHaveAttribute("src", /\/preview\?v=/);
  await expect
    .poll(() => firstPreview.evaluate((img: HTMLImageElement) => img.naturalWidth))
    .toBeGreaterThan(0);
  await expectAccessible(page);
  await screenshotBothThemes(page, "projects-list");
  await page.getByRole("button", { name: "Next", exact: true }).click();
  await expect(page.getByTestId("project-card")).toHaveCount(2);

  await page.getByLabel("Sort by").selectOption("name");
  await expect(page.getByTestId("project-card").first()).toContainText("Model 00");
  await page.getByLabel("Search projects").fill("Model 1");
  await expect(page.getByTestId("project-card")).toHaveCount(4);

  await page.getByRole("button", { name: "Duplicate Model 10" }).click();
  await expect(page.getByTestId("project-card")).toHaveCount(5);
  await expect(page.getByTestId("project-card").filter({ hasText: "Model 10 (copy)" })).toBeVisible();

  await page.getByLabel("Select Model 10 (copy)").check();
  await page.getByLabel("Select Model 11").check();
  await page.getByRole("button", { name: "Delete 2" }).click();
  const confirm = page.getByRole("dialog", { name: "Delete 2 projects?" });
  await expect(confirm).toContainText("Model 11");
  await confirm.getByRole("button", { name: "Delete 2 projects" }).click();
  await expect(page.getByTestId("project-card")).toHaveCount(3);
  await page.getByLabel("Search projects").fill("nothing like this");
  await expect(page.getByRole("heading", { name: "No matching projects" })).toBeVisible();
});

test("editing with the keyboard: undo, redo, copy, paste, delete, auto-layout, shortcuts", async ({
  page,
  context,
  baseURL,
}) => {
  if (!baseURL) throw new Error("baseURL");
  await signUpViaApi(context, baseURL);
  const project = await createProject(context, baseURL, {
    name: "Transformer",
    template: "transformer-block",
  });
  await page.goto(`/projects/${project.id}`);
  const nodes = page.getByTestId("layer-node");
  await expect(nodes).toHaveCount(12);
  // Per-port handles on the multi-input layers.
  await expect(layer(page, "Self-attention").getByTestId("handle-in-2")).toBeAttached();
  await expect(layer(page, "Add").first().getByTestId("handle-in-2")).toBeAttached();

  await layer(page, "Feed-forward").click();
  await page.keyboard.press("Control+c");
  await page.keyboard.press("Control+v");
  await expect(nodes).toHaveCount(13);
  await page.keyboard.press("Delete");
  await expect(nodes).toHaveCount(12);
  await page.keyboard.press("Control+z");
  await expect(nodes).toHaveCount(13);
  await page.keyboard.press("Control+Shift+z");
  await expect(nodes).toHaveCount(12);
  await page.keyboard.press("Control+y");
  await expect(nodes).toHaveCount(12);

  // Click to add from the palette, then undo it with the toolbar.
  await page.getByTestId("palette-Dropout").click();
  await expect(nodes).toHaveCount(13);
  await page.getByRole("button", { name: "Undo" }).click();
  await expect(nodes).toHaveCount(12);

  // Drag the first layer below everything, so one of its edges runs upwards; auto-layout (in a
  // worker) puts every edge back to running top to bottom.
  const upwardEdges = async () => {
    const res = await context.request.get(`${baseURL}/api/v1/projects/${project.id}`);
    const { graph } = (await res.json()) as {
      graph: {
        nodes: { id: string; position: { y: number } }[];
        edges: { source: string; target: string }[];
      };
    };
    const y = new Map(graph.nodes.map((n) => [n.id, n.position.y]));
    return graph.edges.filter((e) => (y.get(e.target) ?? 0) <= (y.get(e.source) ?? 0)).length;
  };
  const first = await centre(nodes.first().getByTestId("node-title"));
  await page.mouse.move(first.x, first.y);
  await page.mouse.down();
  await page.mouse.move(first.x + 40, first.y + 300, { steps: 6 });
  await page.mouse.move(first.x + 80, first.y + 700, { steps: 6 });
  await page.mouse.up();
  await expect.poll(upwardEdges).toBeGreaterThan(0);
  await page.getByRole("button", { name: "Auto-layout" }).click();
  await expect.poll(upwardEdges).toBe(0);
  await expect(page.getByTestId("save-status")).toHaveText(/All changes saved/);

  // Training configuration uses the same ranges as the API.
  await page.getByRole("tab", { name: "Training" }).click();
  const panel = page.getByRole("complementary", { name: "Properties" });
  await panel.getByLabel("Batch size").fill("4096");
  await expect(panel.getByRole("alert")).toHaveText("Must be between 1 and 1024");
  await panel.getByLabel("Batch size").fill("128");
  await expect(panel.getByRole("alert")).toHaveCount(0);
  await expect(page.getByTestId("save-status")).toHaveText(/All changes saved/);
  const saved = await context.request.get(`${baseURL}/api/v1/projects/${project.id}`);
  expect((await saved.json()).training_config.batch_size).toBe(128);

  await page.locator(".react-flow__pane").click({ position: { x: 30, y: 30 } });
  await page.keyboard.press("?");
  await expect(page.getByRole("dialog", { name: "Keyboard shortcuts" })).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(page.getByRole("dialog", { name: "Keyboard shortcuts" })).toHaveCount(0);
});
