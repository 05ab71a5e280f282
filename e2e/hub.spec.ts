import { expect, test } from "@playwright/test";
import { apiJson, expectAccessible, screenshotBothThemes, signUpViaApi, trainIrisJob } from "./fixtures";

test.use({ viewport: { width: 1440, height: 900 } });

/** A word no other model carries, so the search finds this test's model only. */
function uniqueWord(): string {
  return Array.from({ length: 8 }, () => String.fromCharCode(97 + Math.floor(Math.random() * 26))).join("");
}

test("publish a trained Iris model to the hub, find it signed out, download, star, review, fork and use it in the studio", async ({
  page,
  context,
  browser,
  baseURL,
}) => {
  test.setTimeout(360_000);
  if (!baseURL) throw new Error("baseURL");
  const owner = await signUpViaApi(context, baseURL);
  const word = uniqueWord();
  const modelName = `Iris ${word}`;

  // The owner trains the Iris MLP (seeded through the API).
  const job = await trainIrisJob(context, baseURL);

  // Publish to hub from the job's page: name, description, license, tags, visibility.
  await page.goto(`/training/${job.id}`);
  await expect(page.getByTestId("job-state")).toHaveText("Succeeded");
  await page.getByRole("button", { name: "Publish to hub" }).click();
  const publish = page.getByRole("dialog", { name: "Publish to the hub" });
  await expect(publish.getByLabel("Name")).toHaveValue("Iris MLP");
  await publish.getByLabel("Name").fill(modelName);
  await publish
    .getByLabel("Description")
    .fill("Classifies iris flowers from four measurements of their petals and sepals.");
  await expect(publish.getByLabel("License")).toHaveValue("");
  await publish.getByLabel("License").fill("apache-2.0");
  await publish.getByLabel("Tags").fill("iris, flowers");
  await expect(publish.getByRole("radio", { name: /^Public/ })).toBeChecked();
  await expectAccessible(page);
  await screenshotBothThemes(page, "hub-publish-dialog");
  await publish.getByRole("button", { name: "Publish", exact: true }).click();
  const done = page.getByRole("dialog", { name: `“${modelName}” is on the hub` });
  await expect(done).toBeVisible();
  await done.getByRole("link", { name: "Open the model page" }).click();

  // The model page: header, chips, the generated card (task, data, metrics, how to use it).
  await expect(page).toHaveURL(/\/hub\/hub_[\w-]+$/);
  const modelUrl = new URL(page.url()).pathname;
  const modelId = modelUrl.split("/").pop() ?? "";
  await expect(page.getByRole("heading", { level: 1, name: modelName })).toBeVisible();
  await expect(page.getByTestId("hub-owner-link")).toHaveText(owner.username);
  const chips = page.getByRole("list", { name: "Task, framework, license and tags" });
  await expect(chips.getByRole("link", { name: "Tabular classification" })).toBeVisible();
  await expect(chips.getByRole("link", { name: "License: apache-2.0" })).toBeVisible();
  await expect(chips.getByRole("link", { name: "#iris" })).toBeVisible();
  const card = page.getByTestId("model-card");
  await expect(card.getByRole("heading", { name: "Metrics" })).toBeVisible();
  await expect(card.getByRole("heading", { name: "How to use it" })).toBeVisible();
  await expect(card.getByRole("table")).toContainText("accuracy");
  await expect(page.getByTestId("hub-evaluation")).toContainText("Accuracy");
  await expect(page.getByRole("link", { name: "Sign in to star, fork or use it in the studio" })).toHaveCount(
    0,
  );

  // The owner edits the card: the preview is rendered (and sanitised) on the server.
  await page.getByRole("button", { name: "Edit card" }).click();
  const edit = page.getByRole("dialog", { name: "Edit the model card" });
  const markdown = edit.getByLabel("Model card (markdown)");
  await markdown.fill(
    `${await markdown.inputValue()}\n## Limitations\n\nTrained on 150 flowers only. <img src=x onerror="alert(1)"> [click](javascript:alert(1))\n`,
  );
  await edit.getByRole("tab", { name: "Preview" }).click();
  const preview = edit.getByTestId("card-preview");
  await expect(preview.getByRole("heading", { name: "Limitations" })).toBeVisible();
  await expect(preview.locator("img, script, [onerror]")).toHaveCount(0);
  await expect(preview.getByText("click")).toBeVisible();
  await expect(preview.locator('a[href^="javascript" i]')).toHaveCount(0);
  await edit.getByRole("button", { name: "Save" }).click();
  await expect(edit).toBeHidden();
  await expect(card.getByRole("heading", { name: "Limitations" })).toBeVisible();
  await expect(card.locator("img, script, [onerror]")).toHaveCount(0);
  await expectAccessible(page);
  await screenshotBothThemes(page, "hub-model-owner");

  // Signed out: the hub home, then search, then the model page and a file download.
  const visitor = await browser.newContext({ baseURL, viewport: { width: 1440, height: 900 } });
  const anon = await visitor.newPage();
  await anon.goto("/hub");
  await expect(anon.getByRole("heading", { level: 1, name: "Model hub" })).toBeVisible();
  await expect(
    anon.getByRole("list", { name: "Recently updated models" }).getByRole("link", { name: modelName }),
  ).toBeVisible();
  await expect(
    anon.getByRole("complementary").getByRole("link", { name: /Tabular classification/ }),
  ).toBeVisible();
  await expect(anon).toHaveTitle(/Model hub/);
  await expect(anon.locator('meta[property="og:title"]')).toHaveAttribute("content", /hub/i);
  await expectAccessible(anon);
  await screenshotBothThemes(anon, "hub-home");

  await anon.getByRole("searchbox", { name: "Search models" }).fill(word);
  await anon.getByRole("button", { name: "Search", exact: true }).click();
  await expect(anon).toHaveURL(new RegExp(`/hub/search\\?q=${word}$`));
  const results = anon.getByRole("list", { name: "Search results" });
  await expect(results.getByTestId("hub-model-card")).toHaveCount(1);
  await expect(anon.getByTestId("hub-result-count")).toHaveText("1 model");
  // Filters live in the URL; a filter nothing matches shows the empty state.
  await anon.getByLabel("License").fill("mit");
  await anon.getByRole("button", { name: "Apply filters" }).click();
  await expect(anon).toHaveURL(/license=mit/);
  await expect(anon.getByRole("heading", { name: "No model matches" })).toBeVisible();
  await anon.getByRole("link", { name: "Remove filter license: mit" }).click();
  await expect(results.getByTestId("hub-model-card")).toHaveCount(1);
  await anon.getByLabel("Sort by").selectOption("stars");
  await expect(anon).toHaveURL(/sort=stars/);
  await expect(results.getByTestId("hub-model-card")).toHaveCount(1);
  await expectAccessible(anon);
  await screenshotBothThemes(anon, "hub-search");

  await results.getByRole("link", { name: modelName }).click();
  await expect(anon).toHaveURL(new RegExp(`${modelUrl}$`));
  await expect(anon).toHaveTitle(new RegExp(`${modelName} by ${owner.username}`));
  await expect(anon.locator('meta[property="og:description"]')).toHaveAttribute("content", /iris flowers/);
  await expect(
    anon.getByRole("link", { name: "Sign in to star, fork or use it in the studio" }),
  ).toBeVisible();
  await expect(anon.getByRole("button", { name: "Edit card" })).toHaveCount(0);
  await expect(anon.getByTestId("hub-downloads")).toHaveText(/^\s*0\s*downloads$/);
  await anon.getByRole("link", { name: /^Files/ }).click();
  await expect(anon).toHaveURL(/\?tab=files$/);
  const rows = anon.getByTestId("hub-file-row");
  await expect(rows.filter({ hasText: "manifest.json" })).toHaveCount(1);
  const downloadPromise = anon.waitForEvent("download");
  await rows
    .filter({ hasText: "manifest.json" })
    .getByRole("button", { name: "Download manifest.json" })
    .click();
  const download = await downloadPromise;
  expect(download.suggestedFilename()).toBe("manifest.json");
  const manifest = JSON.parse(await streamText(await download.createReadStream()));
  expect(manifest).toHaveProperty("input_features");
  await expectAccessible(anon);
  await screenshotBothThemes(anon, "hub-model-files");
  // A real content fetch counts once; viewing the page does not.
  await anon.reload();
  await expect(anon.getByTestId("hub-downloads")).toHaveText(/^\s*1\s*downloads$/);
  await anon.reload();
  await expect(anon.getByTestId("hub-downloads")).toHaveText(/^\s*1\s*downloads$/);
  await visitor.close();

  // Another user: star (optimistic, kept after a reload), review, fork, use in the studio.
  const otherContext = await browser.newContext({ baseURL, viewport: { width: 1440, height: 900 } });
  const other = await signUpViaApi(otherContext, baseURL);
  const fan = await otherContext.newPage();
  await fan.goto(modelUrl);
  const star = fan.getByRole("button", { name: "Star", exact: true });
  await expect(star).toHaveAttribute("aria-pressed", "false");
  await star.click();
  await expect(fan.getByRole("button", { name: "Starred" })).toHaveAttribute("aria-pressed", "true");
  await expect(fan.getByTestId("star-count")).toContainText("1");
  await fan.reload();
  await expect(fan.getByRole("button", { name: "Starred" })).toBeVisible();
  await expect(fan.getByTestId("hub-stars")).toHaveText(/^\s*1\s*stars$/);

  await fan.getByRole("link", { name: /^Reviews/ }).click();
  const form = fan.getByRole("form", { name: "Write a review" });
  await expect(form.getByRole("button", { name: "Post review" })).toBeDisabled();
  await form.getByRole("radio", { name: "4 stars" }).check();
  await form.getByLabel("Review").fill("Accurate on my own iris measurements.");
  await form.getByRole("button", { name: "Post review" }).click();
  const review = fan.getByTestId("hub-review");
  await expect(review).toHaveCount(1);
  await expect(review).toContainText(other.username);
  await expect(review).toContainText("Accurate on my own iris measurements.");
  await expect(review.getByRole("img", { name: "4 out of 5 stars" })).toBeVisible();
  await expect(fan.getByText("You have reviewed this model.")).toBeVisible();
  await expect(fan.getByTestId("hub-rating")).toContainText("4.0");
  await expectAccessible(fan);
  await screenshotBothThemes(fan, "hub-model-reviews");

  await fan.getByRole("button", { name: "Fork", exact: true }).click();
  await expect(fan).toHaveURL(/\/hub\/hub_[\w-]+$/);
  expect(new URL(fan.url()).pathname).not.toBe(modelUrl);
  const tree = fan.getByTestId("fork-tree");
  await expect(tree.getByRole("link", { name: new RegExp(modelName) })).toHaveAttribute("href", modelUrl);
  await expect(fan.getByTestId("hub-owner-link")).toHaveText(other.username);
  await screenshotBothThemes(fan, "hub-model-fork");
  // The original lists the fork in its tree.
  await tree.getByRole("link", { name: new RegExp(modelName) }).click();
  await expect(fan).toHaveURL(new RegExp(`${modelUrl}$`));
  await expect(fan.getByRole("list", { name: "Forks" }).getByRole("link")).toHaveCount(1);

  await fan.getByRole("button", { name: "Use in studio" }).click();
  await expect(fan).toHaveURL(/\/projects\/[^/]+$/);
  await expect(fan.getByTestId("layer-node")).toHaveCount(4);

  // The owner's profile lists the model; signed in as someone else, no drafts are shown.
  await fan.goto(`/u/${owner.username}`);
  await expect(fan.getByRole("heading", { level: 1 })).toBeVisible();
  await expect(
    fan.getByRole("list", { name: `Models by ${owner.username}` }).getByRole("link", { name: modelName }),
  ).toBeVisible();
  await expect(fan).toHaveTitle(new RegExp(`@${owner.username}`));
  await expectAccessible(fan);
  await screenshotBothThemes(fan, "hub-profile");
  await otherContext.close();

  // The stars and downloads seen by the API agree with the pages.
  const api = await apiJson(context.request, baseURL, "GET", `/api/v1/hub/models/${modelId}`);
  expect(api.stars).toBe(1);
  expect(api.downloads).toBe(1);
  expect(api.rating).toEqual({ average: 4, count: 1 });
});

async function streamText(stream: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk));
  return Buffer.concat(chunks).toString("utf8");
}
