import { readFile } from "node:fs/promises";
import { expect, test } from "@playwright/test";
import {
  apiJson,
  createProject,
  expectAccessible,
  savedGraph,
  screenshotBothThemes,
  signUpViaApi,
} from "./fixtures";

test.use({ viewport: { width: 1440, height: 900 } });

interface DagFile {
  format: string;
  name?: string;
  graph: { nodes: { id: string; type: string; params: Record<string, unknown> }[]; edges: unknown[] };
  training?: { epochs: number };
}

const asUpload = (name: string, dag: unknown) => ({
  name,
  mimeType: "application/json",
  buffer: Buffer.from(JSON.stringify(dag)),
});

test("a diagram goes out as a DAG file and comes back as a new project; bad files are explained", async ({
  page,
  context,
  baseURL,
}) => {
  if (!baseURL) throw new Error("baseURL");
  await signUpViaApi(context, baseURL);
  const source = await createProject(context, baseURL, { name: "LeNet for digits", template: "cnn-image" });

  // Export from the editor: a file named after the project, in the versioned format.
  await page.goto(`/projects/${source.id}`);
  await expect(page.getByTestId("layer-node")).toHaveCount(10);
  const downloading = page.waitForEvent("download");
  await page.getByRole("button", { name: "Export DAG file" }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toBe("lenet-for-digits.dag.json");
  const exported = JSON.parse(await readFile(await download.path(), "utf8")) as DagFile;
  expect(exported.format).toBe("layerline.dag/v1");
  expect(exported.name).toBe("LeNet for digits");
  expect(exported.graph.nodes).toHaveLength(10);
  expect(exported.training?.epochs).toBe(10);

  // A file with mistakes: nothing is created, and each problem says where it is.
  await page.goto("/projects");
  await page.getByRole("button", { name: "Import DAG" }).click();
  const dialog = page.getByRole("dialog", { name: "Import a DAG file" });
  const broken = structuredClone(exported);
  broken.graph.nodes[1].params.out_channels = 0;
  broken.graph.nodes[2].type = "Conv3D";
  await dialog.getByLabel("DAG file").setInputFiles(asUpload("broken.dag.json", broken));
  await expect(dialog.getByTestId("dag-file-name")).toHaveText("broken.dag.json");
  await dialog.getByRole("button", { name: "Import" }).click();
  const problems = dialog.getByTestId("dag-problems");
  await expect(problems).toContainText("graph.nodes[1].params.out_channels");
  await expect(problems).toContainText("graph.nodes[2].type");
  await expect(problems).toContainText("Conv3D");
  await expectAccessible(page);
  await screenshotBothThemes(page, "dag-import-errors");
  const before = await apiJson(context.request, baseURL, "GET", "/api/v1/projects");
  expect(before.total).toBe(1);

  // The exported file, renamed: a new project with the same diagram.
  await dialog
    .getByLabel("DAG file")
    .setInputFiles(asUpload("digits.dag.json", { ...exported, name: "Imported LeNet" }));
  await expect(problems).toHaveCount(0);
  await dialog.getByRole("button", { name: "Import" }).click();
  await expect(page).toHaveURL(/\/projects\/prj_/);
  expect(page.url()).not.toContain(source.id);
  await expect(page.getByRole("textbox", { name: "Project name" })).toHaveValue("Imported LeNet");
  await expect(page.getByTestId("layer-node")).toHaveCount(10);
  await expect(page.getByTestId("issues-toggle")).toHaveText(/No issues/);
});

test("the editor replaces its diagram from a DAG file, and Undo brings the old one back", async ({
  page,
  context,
  baseURL,
}) => {
  if (!baseURL) throw new Error("baseURL");
  await signUpViaApi(context, baseURL);
  const target = await createProject(context, baseURL, { name: "Sequence model", template: "lstm-sequence" });
  const mlp = await createProject(context, baseURL, { name: "Small MLP", template: "mlp-classifier" });
  const mlpGraph = await savedGraph(context, baseURL, mlp.id);

  await page.goto(`/projects/${target.id}`);
  await expect(page.getByTestId("layer-node")).toHaveCount(6);
  await page.getByRole("button", { name: "Replace from DAG file" }).click();
  const dialog = page.getByRole("dialog", { name: "Replace from a DAG file" });
  await expect(dialog).toContainText("Undo brings the current diagram back");
  await dialog
    .getByLabel("DAG file")
    .setInputFiles(
      asUpload("mlp.dag.json", { format: "layerline.dag/v1", graph: mlpGraph, training: { epochs: 25 } }),
    );
  await screenshotBothThemes(page, "dag-replace-dialog");
  await dialog.getByRole("button", { name: "Replace diagram" }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByText("Replaced with 4 layers from mlp.dag.json")).toBeVisible();
  await expect(page.getByTestId("layer-node")).toHaveCount(4);
  // Stored at once, with the file's configuration; the name stays.
  const replaced = await apiJson(context.request, baseURL, "GET", `/api/v1/projects/${target.id}`);
  expect(replaced.node_count).toBe(4);
  expect(replaced.training_config.epochs).toBe(25);
  expect(replaced.name).toBe("Sequence model");

  await page.locator(".react-flow__pane").click({ position: { x: 30, y: 30 } });
  await page.keyboard.press("Control+z");
  await expect(page.getByTestId("layer-node")).toHaveCount(6);
  await expect(page.getByTestId("save-status")).toHaveText(/All changes saved/);
  await expect.poll(async () => (await savedGraph(context, baseURL, target.id)).nodes.length).toBe(6);
});
