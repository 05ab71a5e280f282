import { createHash } from "node:crypto";
import { expect, type Page, test } from "@playwright/test";
import { apiJson, expectAccessible, screenshotBothThemes, signUpViaApi, trainIrisJob } from "./fixtures";

test.use({ viewport: { width: 1440, height: 900 } });

/** The versions table's row of v1 (by its link, not by text: ids could contain "v1"). */
function v1Row(page: Page) {
  return page.getByTestId("version-row").filter({ has: page.getByRole("link", { name: "v1", exact: true }) });
}

async function openTab(page: Page, name: string) {
  await page.getByRole("tab", { name }).click();
  await expect(page.getByRole("tab", { name })).toHaveAttribute("aria-selected", "true");
}

test("push the Iris model to the registry, check its artifacts, follow its lineage, alias and deploy it", async ({
  page,
  context,
  baseURL,
}) => {
  test.setTimeout(300_000);
  if (!baseURL) throw new Error("baseURL");
  await signUpViaApi(context, baseURL);

  // A new user: the registry explains how versions arrive.
  await page.goto("/models");
  await expect(page.getByRole("heading", { name: "No registered models yet" })).toBeVisible();
  await expect(page.getByText("Push to registry")).toBeVisible();
  await expect(page.getByText("layerline push", { exact: true })).toBeVisible();
  await expectAccessible(page);
  await screenshotBothThemes(page, "registry-empty");

  const job = await trainIrisJob(context, baseURL);

  // Push from the job's page into a new model named after the project: pushed and finalized.
  await page.goto(`/training/${job.id}`);
  await expect(page.getByTestId("job-state")).toHaveText("Succeeded");
  await page.getByRole("button", { name: "Push to registry" }).click();
  const push = page.getByRole("dialog", { name: "Push to the model registry" });
  await expect(push.getByRole("radio", { name: "A new model" })).toBeChecked();
  await expect(push.getByLabel("Model name")).toHaveValue("iris-mlp");
  await expectAccessible(page);
  await screenshotBothThemes(page, "registry-push-dialog");
  await push.getByRole("button", { name: "Push", exact: true }).click();
  await expect(push.getByText("Pushed as iris-mlp v1, finalized.")).toBeVisible();
  await push.getByRole("link", { name: "Open the version" }).click();

  // The model page: the version, ready, from the job, with its metrics.
  await expect(page).toHaveURL(/\/models\/[\w-]+\?version=[\w-]+$/);
  const url = new URL(page.url());
  const modelId = url.pathname.split("/").pop() ?? "";
  const versionId = url.searchParams.get("version") ?? "";
  await expect(page.getByRole("heading", { level: 1, name: "iris-mlp" })).toBeVisible();
  const rows = page.getByTestId("version-row");
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText("v1");
  await expect(rows.first().getByTestId("version-state")).toHaveText("Ready");
  await expect(rows.first().getByTestId("version-source")).toHaveAttribute("href", `/training/${job.id}`);
  const panel = page.getByTestId("version-panel");
  await expect(panel.getByRole("heading", { name: "iris-mlp v1" })).toBeVisible();
  await expect(panel.getByTestId("version-metrics")).toContainText(/Accuracy/i);
  await expect(panel.getByText("Class label, one of")).toBeVisible();
  await expectAccessible(page);
  await screenshotBothThemes(page, "registry-model-overview");

  // The description is edited in place.
  await page.getByRole("button", { name: "Edit the description" }).click();
  await page.getByLabel("Description").fill("Iris species from four measurements.");
  await page.getByRole("button", { name: "Save description" }).click();
  await expect(page.getByTestId("model-description")).toHaveText("Iris species from four measurements.");

  // Artifacts with their checksums; a download has exactly the bytes the checksum names.
  await openTab(page, "Artifacts");
  const artifacts = panel.getByTestId("artifact-row");
  await expect(artifacts.first()).toBeVisible();
  const listed = (await apiJson(
    context.request,
    baseURL,
    "GET",
    `/api/v1/model-versions/${versionId}/artifacts`,
  )) as { name: string; sha256: string }[];
  await expect(artifacts).toHaveCount(listed.length);
  expect(listed.map((a) => a.name)).toContain("manifest.json");
  for (const a of listed) {
    const row = artifacts.filter({ hasText: a.name });
    await expect(row.getByTestId("artifact-sha256")).toHaveText(a.sha256);
    expect(a.sha256).toMatch(/^[0-9a-f]{64}$/);
  }
  const manifestRow = artifacts.filter({ hasText: "manifest.json" });
  const href =
    (await manifestRow.getByRole("link", { name: "Download manifest.json" }).getAttribute("href")) ?? "";
  const download = await context.request.get(`${baseURL}${href}`);
  expect(download.status()).toBe(200);
  const digest = createHash("sha256")
    .update(await download.body())
    .digest("hex");
  await expect(manifestRow.getByTestId("artifact-sha256")).toHaveText(digest);
  await expectAccessible(page);
  await screenshotBothThemes(page, "registry-artifacts");

  // Lineage: dataset → dataset version → project → job → checkpoint → this version.
  await openTab(page, "Lineage");
  const graph = page.getByTestId("lineage-graph");
  await expect(graph.getByTestId("lineage-node").first()).toBeVisible();
  for (const kind of ["dataset", "dataset_version", "job", "model_version"]) {
    await expect(graph.locator(`[data-kind="${kind}"]`)).toHaveCount(1);
  }
  await expectAccessible(page);
  await screenshotBothThemes(page, "registry-lineage");
  await graph.getByRole("link", { name: /^Dataset: Iris/ }).click();
  await expect(page).toHaveURL(/\/datasets\/builtin-iris$/);
  await page.goBack();
  await openTab(page, "Lineage");
  await page.getByTestId("lineage-graph").getByRole("link", { name: "Training job: Iris MLP" }).click();
  await expect(page).toHaveURL(new RegExp(`/training/${job.id}$`));
  await expect(page.getByRole("heading", { level: 1, name: "Iris MLP" })).toBeVisible();

  // Evaluations of the job show up on the version.
  await apiJson(context.request, baseURL, "POST", "/api/v1/training/evaluations", { job_id: job.id });
  await page.goto(`/models/${modelId}?version=${versionId}`);
  await openTab(page, "Evaluations");
  const evaluation = page.getByTestId("version-evaluation");
  await expect(evaluation).toHaveCount(1);
  await expect(evaluation.getByTestId("evaluation-state")).toHaveText("Done", { timeout: 60_000 });
  await expect(evaluation).toContainText("Accuracy");
  await expect(page.getByTestId("version-evaluation").getByRole("link")).toHaveAttribute(
    "href",
    /^\/training\/evaluations\/[\w-]+$/,
  );

  // Alias `champion` on v1.
  await openTab(page, "Aliases");
  await page.getByLabel("Set an alias").fill("champion");
  await page.getByRole("button", { name: "Set alias" }).click();
  await expect(page.getByRole("list", { name: "Aliases of this version" })).toContainText("champion");
  await expect(rows.first().getByTestId("alias-chip")).toHaveText("champion");

  // A second version from the same job, into the existing model; moving the alias asks first.
  await page.goto(`/training/${job.id}`);
  await page.getByRole("button", { name: "Push to registry" }).click();
  await push.getByRole("radio", { name: "An existing model" }).check();
  await push
    .getByRole("combobox", { name: "Existing model" })
    .selectOption({ label: "iris-mlp (latest v1)" });
  await push.getByRole("button", { name: "Push", exact: true }).click();
  await expect(push.getByText("Pushed as iris-mlp v2, finalized.")).toBeVisible();
  await push.getByRole("link", { name: "Open the version" }).click();
  await expect(page.getByTestId("version-panel").getByRole("heading", { name: "iris-mlp v2" })).toBeVisible();
  await expect(page.getByTestId("version-row")).toHaveCount(2);
  await openTab(page, "Aliases");
  await page.getByLabel("Set an alias").fill("champion");
  await page.getByRole("button", { name: "Set alias" }).click();
  const move = page.getByRole("alertdialog", { name: "Move the alias" });
  await expect(move).toContainText("champion is on v1. Move it to v2?");
  await expectAccessible(page);
  await screenshotBothThemes(page, "registry-aliases-move");
  await move.getByRole("button", { name: "Keep it on v1" }).click();
  await expect(move).toBeHidden();
  await expect(page.getByRole("list", { name: "Aliases of this version" })).toBeHidden();
  await page.getByRole("button", { name: "Set alias" }).click();
  await move.getByRole("button", { name: "Move to v2" }).click();
  await expect(page.getByRole("list", { name: "Aliases of this version" })).toContainText("champion");
  await expect(v1Row(page).getByTestId("alias-chip")).toHaveCount(0);

  // Back on v1: deploy it, see the key once, open its console.
  await v1Row(page).getByRole("link", { name: "v1", exact: true }).click();
  await expect(page.getByTestId("version-panel").getByRole("heading", { name: "iris-mlp v1" })).toBeVisible();
  await page.getByTestId("version-panel").getByRole("button", { name: "Deploy", exact: true }).click();
  const deploy = page.getByRole("dialog", { name: "Deploy iris-mlp v1" });
  await expect(deploy.getByLabel("Deployment name")).toHaveValue("iris-mlp-v1");
  await deploy.getByRole("button", { name: "Deploy", exact: true }).click();
  const keyDialog = page.getByRole("dialog", { name: "“iris-mlp-v1” is deployed" });
  await expect(keyDialog.getByTestId("deployment-key")).toHaveText(/^ldk_\S+$/);
  await expectAccessible(page);
  await screenshotBothThemes(page, "registry-deploy-key");
  await keyDialog.getByRole("button", { name: "Close", exact: true }).last().click();

  // Publish v1 to the hub from its version panel: the hub model is named after the registry model.
  await page.getByTestId("version-panel").getByRole("button", { name: "Publish to hub" }).click();
  const publish = page.getByRole("dialog", { name: "Publish to the hub" });
  await expect(publish.getByLabel("Name")).toHaveValue("iris-mlp");
  await publish.getByRole("button", { name: "Publish", exact: true }).click();
  const published = page.getByRole("dialog", { name: "“iris-mlp” is on the hub" });
  await expect(published.getByRole("link", { name: "Open the model page" })).toHaveAttribute(
    "href",
    /^\/hub\//,
  );
  await published.getByRole("button", { name: "Close", exact: true }).last().click();

  // The lineage now reaches the deployment; its node opens the console.
  await openTab(page, "Lineage");
  const served = page.getByTestId("lineage-graph");
  await expect(served.locator('[data-kind="deployment"]')).toHaveCount(1);
  await screenshotBothThemes(page, "registry-lineage-deployed");

  // Deleting the model is refused while a deployment serves one of its versions.
  await page.getByRole("button", { name: "Delete", exact: true }).click();
  const confirm = page.getByRole("dialog", { name: "Delete “iris-mlp”?" });
  await confirm.getByRole("button", { name: "Delete model" }).click();
  await expect(confirm.getByRole("alert")).toBeVisible();
  await confirm.getByRole("button", { name: "Keep it" }).click();

  await served.getByRole("link", { name: /^Deployment: iris-mlp-v1/ }).click();
  await expect(page).toHaveURL(/\/deployments\/dep_[\w-]+$/);
  await expect(page.getByRole("heading", { level: 1, name: "iris-mlp-v1" })).toBeVisible();

  // The list: the entry with its latest version and alias.
  await page.goto("/models");
  const row = page.getByTestId("model-row");
  await expect(row).toHaveCount(1);
  await expect(row).toContainText("iris-mlp");
  await expect(row).toContainText("v2");
  await expect(row.getByTestId("alias-chip")).toHaveText("champion → v2");
  await expectAccessible(page);
  await screenshotBothThemes(page, "registry-list");

  // A bare version (as the CLI starts one) is pending: Finalize refuses while it has no artifact.
  const bare = await apiJson(context.request, baseURL, "POST", `/api/v1/models/${modelId}/versions`, {});
  await page.goto(`/models/${modelId}?version=${bare.id}`);
  const pending = page.getByTestId("version-panel");
  await expect(pending.getByRole("heading", { name: "iris-mlp v3" })).toBeVisible();
  await expect(pending.getByTestId("version-state")).toHaveText("Pending");
  await pending.getByRole("button", { name: "Finalize" }).click();
  await expect(pending.getByRole("alert")).toBeVisible();
  await expect(pending.getByTestId("version-state")).toHaveText("Pending");
  await openTab(page, "Artifacts");
  await expect(pending.getByText("No artifact uploaded yet.")).toBeVisible();
  await expectAccessible(page);
  await screenshotBothThemes(page, "registry-pending");
});
