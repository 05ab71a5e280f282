import { expect, type Page, test } from "@playwright/test";
import { sequential } from "../lib/ml/graph-builder";
import {
  apiJson,
  createProject,
  expectAccessible,
  screenshotBothThemes,
  signUpViaApi,
  trainIrisJob,
  waitForJob,
} from "./fixtures";

test.use({ viewport: { width: 1440, height: 900 } });

const charLstmGraph = sequential({ shape: [16], dtype: "int64" }, [
  ["Embedding", { num_embeddings: 64, embedding_dim: 16 }],
  ["LSTM", { hidden_size: 32, num_layers: 1, return_sequences: false }],
  ["Dense", { units: 64 }],
]).graph;

async function predictInTryIt(page: Page) {
  await page.getByRole("button", { name: "Predict", exact: true }).click();
}

test("deploy the Iris model from its job page, try it, rotate the key, pause and resume, roll back, delete", async ({
  page,
  context,
  baseURL,
}) => {
  test.setTimeout(300_000);
  if (!baseURL) throw new Error("baseURL");
  await signUpViaApi(context, baseURL);

  // A new user: the list points at the training jobs.
  await page.goto("/deployments");
  await expect(page.getByRole("heading", { name: "No deployments yet" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Go to training jobs" })).toHaveAttribute("href", "/training");

  const job = await trainIrisJob(context, baseURL);

  // Deploy from the job's page: a name (prefilled), then the key, shown once.
  await page.goto(`/training/${job.id}`);
  await expect(page.getByTestId("job-state")).toHaveText("Succeeded");
  await page.getByRole("button", { name: "Deploy", exact: true }).click();
  const deployDialog = page.getByRole("dialog", { name: "Deploy this model" });
  const name = deployDialog.getByLabel("Deployment name");
  await expect(name).toHaveValue("iris-mlp");
  await name.fill("iris-e2e");
  await deployDialog.getByRole("button", { name: "Deploy", exact: true }).click();
  const keyDialog = page.getByRole("dialog", { name: "“iris-e2e” is deployed" });
  await expect(keyDialog).toBeVisible();
  await expect(keyDialog.getByTestId("deployment-key")).toHaveText(/^ldk_\S+$/);
  await expect(keyDialog.getByText("you won't see it again")).toBeVisible();
  await expect(keyDialog.getByRole("button", { name: "Copy key" })).toBeVisible();
  const firstKey = (await keyDialog.getByTestId("deployment-key").textContent()) ?? "";
  await expectAccessible(page);
  await screenshotBothThemes(page, "deployments-key-dialog");
  await keyDialog.getByRole("link", { name: "Open the console" }).click();

  // The console: status, revision, live stream.
  await expect(page).toHaveURL(/\/deployments\/dep_[\w-]+$/);
  const deploymentId = page.url().split("/").pop() ?? "";
  await expect(page.getByRole("heading", { level: 1, name: "iris-e2e" })).toBeVisible();
  await expect(page.getByTestId("deployment-state")).toHaveText("Ready");
  await expect(page.getByTestId("deployment-revision")).toHaveText("1");
  await expect(page.getByText("Live", { exact: true })).toBeVisible();
  const prefix = ((await page.getByTestId("deployment-key-prefix").textContent()) ?? "").replace("…", "");
  expect(prefix).toMatch(/^ldk_/);
  expect(firstKey.startsWith(prefix)).toBe(true);

  // Try it: a form from the schema, prefilled with the example; the answer as label + probabilities.
  const sepal = page.getByLabel("sepal_length_cm", { exact: true });
  await expect(sepal).not.toHaveValue("");
  await predictInTryIt(page);
  await expect(page.getByTestId("predicted-label")).toHaveText(/^(setosa|versicolor|virginica)$/i);
  await expect(page.getByRole("list", { name: "Class probabilities" }).getByRole("listitem")).toHaveCount(3);
  await expect(page.getByText("Answered by revision 1.")).toBeVisible();
  await expectAccessible(page);
  await screenshotBothThemes(page, "deployments-console-try-it");

  // A value that is not a number: the problem and the field's error.
  await sepal.fill("abc");
  await predictInTryIt(page);
  await expect(page.getByTestId("problem")).toContainText("422");
  await expect(page.getByText(/must be a number/).first()).toBeVisible();
  await sepal.fill("6.7");
  // The raw JSON editor holds the same request.
  await page.getByRole("button", { name: "Raw JSON" }).click();
  await expect(page.getByLabel(/Predict body/)).toHaveValue(/"sepal_length_cm": 6.7/);
  await predictInTryIt(page);
  await expect(page.getByTestId("predicted-label")).toBeVisible();
  await page.getByRole("button", { name: "Form", exact: true }).click();

  // Rotate the key: asked first, the new key shown once; the old one stops working.
  await page.getByRole("button", { name: "Rotate key" }).click();
  await page.getByRole("button", { name: "Rotate: the old key stops working" }).click();
  const rotated = page.getByRole("dialog", { name: "New deployment key" });
  await expect(rotated.getByTestId("deployment-key")).toHaveText(/^ldk_\S+$/);
  const secondKey = (await rotated.getByTestId("deployment-key").textContent()) ?? "";
  expect(secondKey).not.toBe(firstKey);
  await rotated.getByRole("button", { name: "Done" }).click();
  const old = await context.request.post(`${baseURL}/api/v1/inference/${deploymentId}/predict`, {
    headers: { Authorization: `Bearer ${firstKey}` },
    data: { inputs: [{ sepal_length_cm: 5, sepal_width_cm: 3, petal_length_cm: 1.5, petal_width_cm: 0.2 }] },
  });
  expect(old.status()).toBe(401);
  await predictInTryIt(page);
  await expect(page.getByTestId("predicted-label")).toBeVisible();

  // The key lives in this tab's memory only: after a reload the owner tries the model with their
  // session, no key pasted.
  await page.reload();
  await expect(page.getByTestId("try-it-credential")).toContainText("Calls from this page use your session");
  await predictInTryIt(page);
  await expect(page.getByTestId("predicted-label")).toHaveText(/^(setosa|versicolor|virginica)$/i);
  await screenshotBothThemes(page, "deployments-console-session");

  // A blank field: named in the form, nothing sent. Marked unknown, the model fills it in and says so.
  const petal = page.getByLabel("petal_width_cm", { exact: true });
  await petal.fill("");
  await predictInTryIt(page);
  await expect(page.getByTestId("blank-fields")).toContainText("“petal_width_cm”");
  await expect(page.getByText("Required: enter a value, or tick “unknown”")).toBeVisible();
  await expect(page.getByTestId("predicted-label")).toHaveCount(0);
  await expectAccessible(page);
  await screenshotBothThemes(page, "deployments-console-blank-field");
  await page.getByRole("checkbox", { name: "unknown petal_width_cm" }).check();
  await predictInTryIt(page);
  await expect(page.getByTestId("predicted-label")).toBeVisible();
  await expect(page.getByText("Sent with “petal_width_cm” unknown")).toBeVisible();
  await page.getByRole("checkbox", { name: "unknown petal_width_cm" }).uncheck();
  await petal.fill("1.5");

  // The key stays optional: pasted, calls are sent exactly as an app sends them.
  await page.getByRole("button", { name: "Test with the deployment key" }).click();
  await page.getByLabel("Deployment key").fill(secondKey);
  await page.getByRole("button", { name: "Use key" }).click();
  await expect(page.getByTestId("try-it-credential")).toContainText("use the deployment key");
  await predictInTryIt(page);
  await expect(page.getByTestId("predicted-label")).toBeVisible();

  // Pause: predictions are refused with the 503 problem; resume: served again.
  await page.getByRole("button", { name: "Pause" }).click();
  await expect(page.getByTestId("deployment-state")).toHaveText("Paused");
  await predictInTryIt(page);
  await expect(page.getByTestId("problem")).toContainText("503");
  await expect(page.getByTestId("problem")).toContainText("paused");
  await screenshotBothThemes(page, "deployments-console-paused");
  await page.getByRole("button", { name: "Resume" }).click();
  await expect(page.getByTestId("deployment-state")).toHaveText("Ready");
  await predictInTryIt(page);
  await expect(page.getByTestId("predicted-label")).toBeVisible();

  // Snippets: absolute URLs, the key from the environment.
  await page.getByRole("tab", { name: "Snippets" }).click();
  await expect(page.getByTestId("snippet")).toContainText(
    `${baseURL}/api/v1/inference/${deploymentId}/predict`,
  );
  await expect(page.getByTestId("snippet")).toContainText("$LAYERLINE_DEPLOYMENT_KEY");
  await page.getByRole("tab", { name: "Python" }).click();
  await expect(page.getByTestId("snippet")).toContainText("import requests");
  await expect(page.getByRole("tab", { name: "OpenAI Python" })).toHaveCount(0);
  await expectAccessible(page);
  await screenshotBothThemes(page, "deployments-console-snippets");

  // Metrics and logs: the calls made above, including the refused ones; live as more arrive.
  await page.getByRole("tab", { name: "Metrics" }).click();
  await expect
    .poll(async () => Number(await page.getByTestId("metric-requests").textContent()))
    .toBeGreaterThanOrEqual(6);
  await expect
    .poll(async () => Number(await page.getByTestId("metric-errors").textContent()))
    .toBeGreaterThanOrEqual(1);
  const before = Number(await page.getByTestId("metric-requests").textContent());
  const live = await context.request.post(`${baseURL}/api/v1/inference/${deploymentId}/predict`, {
    headers: { Authorization: `Bearer ${secondKey}` },
    data: { inputs: [{ sepal_length_cm: 6, sepal_width_cm: 3, petal_length_cm: 4.5, petal_width_cm: 1.5 }] },
  });
  expect(live.status()).toBe(200);
  await expect
    .poll(async () => Number(await page.getByTestId("metric-requests").textContent()))
    .toBeGreaterThan(before);
  await expect(page.getByTestId("requests-chart")).toBeVisible();
  await expectAccessible(page);
  await screenshotBothThemes(page, "deployments-console-metrics");
  await page.getByRole("tab", { name: "Logs" }).click();
  await expect(page.locator('[data-testid="deployment-log-entry"][data-status="503"]').first()).toBeVisible();
  await expect(page.locator('[data-testid="deployment-log-entry"][data-status="200"]').first()).toBeVisible();
  // The tail follows: a call made now appears at the top without a reload.
  const two = await context.request.post(`${baseURL}/api/v1/inference/${deploymentId}/batch`, {
    headers: { Authorization: `Bearer ${secondKey}` },
    data: {
      inputs: [
        { sepal_length_cm: 6, sepal_width_cm: 3, petal_length_cm: 4.5, petal_width_cm: 1.5 },
        { sepal_length_cm: 5, sepal_width_cm: 3.4, petal_length_cm: 1.5, petal_width_cm: 0.2 },
      ],
    },
  });
  expect(two.status()).toBe(200);
  await expect(page.getByTestId("deployment-log-entry").first()).toContainText("batch");
  await expect(page.getByTestId("deployment-log-entry").first()).toContainText("2 instances");
  await screenshotBothThemes(page, "deployments-console-logs");

  // Revisions: a change of settings makes revision 2; roll back to 1 makes revision 3.
  await apiJson(context.request, baseURL, "PUT", `/api/v1/deployments/${deploymentId}`, {
    settings: { max_batch_size: 64 },
  });
  await page.getByRole("tab", { name: "Revisions" }).click();
  await expect(page.getByTestId("deployment-revision")).toHaveText("2");
  const revisions = page.getByTestId("revision-row");
  await expect(revisions).toHaveCount(2);
  await expect(revisions.first()).toContainText("max_batch_size: default → 64");
  await expect(revisions.last()).toContainText("First revision");
  await revisions.last().getByRole("button", { name: "Roll back to this revision" }).click();
  await revisions.last().getByRole("button", { name: "Serve revision 1's model" }).click();
  await expect(page.getByTestId("deployment-revision")).toHaveText("3");
  await expect(revisions).toHaveCount(3);
  await expect(revisions.first()).toContainText("Serving");
  await expect(revisions.first()).toContainText("max_batch_size: 64 → default");
  await expectAccessible(page);
  await screenshotBothThemes(page, "deployments-console-revisions");
  await page.getByRole("tab", { name: "Try it" }).click();
  await predictInTryIt(page);
  await expect(page.getByText("Answered by revision 3.")).toBeVisible();

  // The list.
  await page.getByRole("link", { name: "Deployments", exact: true }).first().click();
  const row = page.getByTestId("deployment-row");
  await expect(row).toHaveCount(1);
  await expect(row).toContainText("iris-e2e");
  await expect(row).toContainText("Ready");
  await expect(row.getByRole("link", { name: "Iris MLP" })).toHaveAttribute("href", `/training/${job.id}`);
  await expectAccessible(page);
  await screenshotBothThemes(page, "deployments-list");

  // Delete, confirmed by typing the name.
  await row.getByRole("link", { name: "iris-e2e" }).click();
  await page.getByRole("button", { name: "Delete" }).click();
  const del = page.getByRole("dialog", { name: "Delete this deployment?" });
  const confirm = del.getByRole("button", { name: "Delete deployment" });
  await expect(confirm).toBeDisabled();
  await del.getByLabel("Type “iris-e2e” to confirm").fill("iris-e2");
  await expect(confirm).toBeDisabled();
  await del.getByLabel("Type “iris-e2e” to confirm").fill("iris-e2e");
  await confirm.click();
  await expect(page).toHaveURL(/\/deployments$/);
  await expect(page.getByRole("heading", { name: "No deployments yet" })).toBeVisible();
});

test("chat with a language-model deployment: the reply streams in token by token", async ({
  page,
  context,
  baseURL,
}) => {
  test.setTimeout(300_000);
  if (!baseURL) throw new Error("baseURL");
  await signUpViaApi(context, baseURL);
  const project = await createProject(context, baseURL, { name: "Char LSTM", graph: charLstmGraph });
  const job = await apiJson(context.request, baseURL, "POST", "/api/v1/training/jobs", {
    project_id: project.id,
    dataset_id: "builtin-declaration",
    name: "Declaration LM",
    runtime: "pytorch",
    config: { epochs: 1, batch_size: 64, learning_rate: 0.01 },
  });
  await waitForJob(context.request, baseURL, job.id);
  const deployment = await apiJson(context.request, baseURL, "POST", "/api/v1/deployments", {
    name: "declaration-lm",
    job_id: job.id,
  });

  await page.goto(`/deployments/${deployment.id}`);
  await expect(page.getByRole("heading", { level: 1, name: "declaration-lm" })).toBeVisible();
  await page.getByRole("tab", { name: "Chat" }).click();
  // A slow connection (2 KB/s, about 40 tokens a second) so that the reply is watched while it streams
  // and Stop is pressed before the end, however fast the model is on this machine.
  const cdp = await context.newCDPSession(page);
  await cdp.send("Network.enable");
  await cdp.send("Network.emulateNetworkConditions", {
    offline: false,
    latency: 0,
    downloadThroughput: 2048,
    uploadThroughput: -1,
  });
  await page.getByLabel("Max tokens").fill("200");
  await page.getByLabel("Message").fill("We hold these truths");
  await page.getByRole("button", { name: "Send" }).click();
  const reply = page.getByTestId("chat-assistant").last().getByTestId("chat-text");
  // Tokens arrive one by one: the reply is seen growing while the Stop button is shown.
  await expect
    .poll(async () => ((await reply.textContent()) ?? "").length, { intervals: [50] })
    .toBeGreaterThan(8);
  const partial = ((await reply.textContent()) ?? "").length;
  await expect
    .poll(async () => ((await reply.textContent()) ?? "").length, { intervals: [50] })
    .toBeGreaterThan(partial);
  await expect(page.getByRole("button", { name: "Send" })).toBeVisible({ timeout: 60_000 });
  await expect(page.getByTestId("chat-user")).toContainText("We hold these truths");
  await expectAccessible(page);
  await screenshotBothThemes(page, "deployments-chat");

  // Stop aborts a long reply.
  await page.getByLabel("Max tokens").fill("1024");
  await page.getByLabel("Message").fill("Governments are instituted");
  await page.getByRole("button", { name: "Send" }).click();
  const stopped = page.getByTestId("chat-assistant").last().getByTestId("chat-text");
  await expect.poll(async () => ((await stopped.textContent()) ?? "").length).toBeGreaterThan(0);
  await page.getByRole("button", { name: "Stop" }).click();
  await expect(page.getByRole("button", { name: "Send" })).toBeVisible();
  const kept = ((await stopped.textContent()) ?? "").length;
  expect(kept).toBeLessThan(1024);
  await cdp.send("Network.emulateNetworkConditions", {
    offline: false,
    latency: 0,
    downloadThroughput: -1,
    uploadThroughput: -1,
  });

  // The snippets offer the openai clients for a language model.
  await page.getByRole("tab", { name: "Snippets" }).click();
  await page.getByRole("tab", { name: "OpenAI Python" }).click();
  await expect(page.getByTestId("snippet")).toContainText(`base_url="${baseURL}/v1"`);
});
