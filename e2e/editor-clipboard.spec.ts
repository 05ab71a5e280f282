import { expect, type Page, test } from "@playwright/test";
import { createProject, savedGraph, signUpViaApi } from "./fixtures";

test.use({ viewport: { width: 1440, height: 900 } });

/** A layer on the canvas by its node id. */
function node(page: Page, id: string) {
  return page.locator(`[data-testid="layer-node"][data-node-id="${id}"]`);
}

test("layers copied in one project are pasted into another project's tab with their connection", async ({
  page,
  context,
  baseURL,
}) => {
  if (!baseURL) throw new Error("baseURL");
  await signUpViaApi(context, baseURL);
  // Only to put "copied elsewhere" text on the clipboard below; copy and paste themselves need no permission.
  await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: baseURL });
  const source = await createProject(context, baseURL, { name: "LeNet", template: "cnn-image" });
  const target = await createProject(context, baseURL, { name: "Scratch" });

  await page.goto(`/projects/${source.id}`);
  await expect(page.getByTestId("layer-node")).toHaveCount(10);
  await node(page, "conv1").click();
  await node(page, "pool1").click({ modifiers: ["ControlOrMeta"] });
  await expect(page.locator(".react-flow__node.selected")).toHaveCount(2);
  await page.keyboard.press("ControlOrMeta+c");

  const other = await context.newPage();
  await other.goto(`/projects/${target.id}`);
  await expect(other.getByText("Drag layers here from the palette")).toBeVisible();
  await other.locator(".react-flow__pane").click({ position: { x: 200, y: 200 } });
  await other.keyboard.press("ControlOrMeta+v");
  const pasted = other.getByTestId("layer-node");
  await expect(pasted).toHaveCount(2);
  await expect(pasted.getByTestId("node-title")).toHaveText(["Conv2D", "MaxPool2D"]);
  await expect(other.locator(".react-flow__edge")).toHaveCount(1);
  await expect(other.getByTestId("save-status")).toHaveText(/All changes saved/);
  const graph = await savedGraph(context, baseURL, target.id);
  expect(graph.nodes.map((n) => [n.id, n.type])).toEqual([
    ["conv2d_1", "Conv2D"],
    ["maxpool2d_1", "MaxPool2D"],
  ]);
  expect(graph.nodes[0].params).toMatchObject({ out_channels: 6, kernel_size: 5 });
  expect(graph.edges).toMatchObject([{ source: "conv2d_1", target: "maxpool2d_1" }]);

  // Text from elsewhere is not layers: nothing happens. Broken layer data is refused with a message.
  await other.evaluate(() => navigator.clipboard.writeText("just some notes"));
  await other.keyboard.press("ControlOrMeta+v");
  await other.evaluate(() =>
    navigator.clipboard.writeText(
      JSON.stringify({ format: "layerline.clip/v1", nodes: [{ id: "x", type: "Teleporter" }], edges: [] }),
    ),
  );
  await other.keyboard.press("ControlOrMeta+v");
  await expect(other.getByRole("status").filter({ hasText: "Nothing was pasted" })).toContainText(
    'Unknown layer type "Teleporter"',
  );
  await expect(pasted).toHaveCount(2);

  // Text fields keep their own copy and paste.
  const name = other.getByRole("textbox", { name: "Project name" });
  await name.click();
  await name.press("ControlOrMeta+a");
  await other.evaluate(() => navigator.clipboard.writeText("Pasted name"));
  await name.press("ControlOrMeta+v");
  await expect(name).toHaveValue("Pasted name");
  await expect(pasted).toHaveCount(2);
});

test("Back waits for the pending save, and if saving fails asks before leaving", async ({
  page,
  context,
  baseURL,
}) => {
  if (!baseURL) throw new Error("baseURL");
  await signUpViaApi(context, baseURL);
  const project = await createProject(context, baseURL, {
    name: "Back and forth",
    template: "mlp-classifier",
  });
  const editorUrl = new RegExp(`/projects/${project.id}$`);
  const nodes = page.getByTestId("layer-node");
  const openFromList = async () => {
    await page.getByRole("link", { name: "Back and forth" }).click();
    await expect(page).toHaveURL(editorUrl);
    await expect(page.getByTestId("save-status")).toHaveText(/All changes saved/);
  };

  await page.goto("/projects");
  await openFromList();
  await expect(nodes).toHaveCount(4);

  // Back straight after an edit, well before the autosave delay: the edit is saved on the way out.
  await page.getByTestId("palette-Dropout").click();
  await expect(nodes).toHaveCount(5);
  await page.goBack();
  await expect(page).toHaveURL(/\/projects$/);
  await expect(page.getByTestId("project-card")).toHaveCount(1);
  expect((await savedGraph(context, baseURL, project.id)).nodes).toHaveLength(5);
  await openFromList();
  await expect(nodes).toHaveCount(5);

  // Saving fails: Back asks, and "Cancel" keeps the person on the editor with their change.
  await page.route(`**/api/v1/projects/${project.id}`, (route) =>
    route.request().method() === "PUT"
      ? route.fulfill({ status: 503, json: { error: { code: "unavailable", message: "Try again later" } } })
      : route.fallback(),
  );
  await page.getByTestId("palette-Dropout").click();
  await expect(nodes).toHaveCount(6);
  const asked = new Promise<string>((resolve) => {
    page.once("dialog", (dialog) => {
      resolve(dialog.message());
      void dialog.dismiss();
    });
  });
  // The move is held, and then refused: goBack() gets no navigation to wait for.
  void page.goBack().catch(() => undefined);
  expect(await asked).toBe("Your latest changes could not be saved. Leave anyway and lose them?");
  await expect(page).toHaveURL(editorUrl);
  await expect(nodes).toHaveCount(6);
  await expect(page.getByTestId("save-status")).toContainText("Couldn't save");

  // Back online: retry, and Back leaves at once.
  await page.unroute(`**/api/v1/projects/${project.id}`);
  await page.getByRole("button", { name: "Retry" }).click();
  await expect(page.getByTestId("save-status")).toHaveText(/All changes saved/);
  await page.goBack();
  await expect(page).toHaveURL(/\/projects$/);
  expect((await savedGraph(context, baseURL, project.id)).nodes).toHaveLength(6);
});
