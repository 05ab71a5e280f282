import { randomBytes } from "node:crypto";
import AxeBuilder from "@axe-core/playwright";
import { type APIRequestContext, type BrowserContext, expect, type Page } from "@playwright/test";
import type { ArchitectureGraph } from "../lib/ml/graph-types";

export function uniqueUser() {
  const username = `e2e${randomBytes(4).toString("hex")}`;
  return { username, email: `${username}@example.com`, password: "correct horse battery" };
}

/** Signs a fresh user up through the API and puts the session cookie into the browser context. */
export async function signUpViaApi(context: BrowserContext, baseURL: string) {
  const user = uniqueUser();
  const res = await context.request.post(`${baseURL}/api/auth/signup`, {
    data: user,
    headers: { Origin: baseURL },
  });
  expect(res.status()).toBe(201);
  return user;
}

/**
 * A JSON call to the API the way the signed-in studio makes it (same-origin, session cookie),
 * failing the test with the server's answer on any error status. Returns the parsed body.
 */
export async function apiJson(
  request: APIRequestContext,
  baseURL: string,
  method: "GET" | "POST" | "PUT" | "DELETE",
  path: string,
  data?: unknown,
) {
  const res = await request.fetch(`${baseURL}${path}`, { method, data, headers: { Origin: baseURL } });
  expect(res.ok(), `${method} ${path}: ${res.status()} ${await res.text()}`).toBe(true);
  return res.json();
}

/** Waits (polling the API, as the studio would) until a training job has succeeded. */
export async function waitForJob(request: APIRequestContext, baseURL: string, id: string, timeout = 180_000) {
  await expect
    .poll(async () => (await apiJson(request, baseURL, "GET", `/api/v1/training/jobs/${id}`)).state, {
      timeout,
      intervals: [1000],
    })
    .toBe("succeeded");
}

/** The Iris MLP template as a project, trained (30 epochs) until it has succeeded; returns the job. */
export async function trainIrisJob(context: BrowserContext, baseURL: string): Promise<{ id: string }> {
  const project = await createProject(context, baseURL, { name: "Iris MLP", template: "mlp-classifier" });
  const job = await apiJson(context.request, baseURL, "POST", "/api/v1/training/jobs", {
    project_id: project.id,
    dataset_id: "builtin-iris",
    name: "Iris MLP",
    config: { epochs: 30, batch_size: 16, learning_rate: 0.02 },
  });
  await waitForJob(context.request, baseURL, job.id);
  return job;
}

/** Creates a project for the signed-in user of `context` (body as in POST /api/v1/projects). */
export function createProject(
  context: BrowserContext,
  baseURL: string,
  data: object,
): Promise<{ id: string; name: string }> {
  return apiJson(context.request, baseURL, "POST", "/api/v1/projects", data);
}

/** The project's graph as the server has it (what autosave has stored). */
export async function savedGraph(
  context: BrowserContext,
  baseURL: string,
  id: string,
): Promise<ArchitectureGraph> {
  return (await apiJson(context.request, baseURL, "GET", `/api/v1/projects/${id}`)).graph;
}

/** Colours fade on state changes: freeze transitions so a check or a shot never sees one halfway. */
async function freezeTransitions(page: Page) {
  await page.addStyleTag({ content: "*, *::before, *::after { transition: none !important; }" });
}

/** Fails on serious or critical accessibility violations (measured with transitions settled). */
export async function expectAccessible(page: Page) {
  await freezeTransitions(page);
  // A page's metadata streams in (and is re-sent on a refresh): check once its <title> is there, so a
  // title that never comes still fails below, but one on its way does not.
  await expect.poll(() => page.title(), { message: "the page has a <title>" }).not.toBe("");
  const results = await new AxeBuilder({ page }).analyze();
  const serious = results.violations.filter((v) => v.impact === "serious" || v.impact === "critical");
  expect(
    serious.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(" ")).join(", ")})`),
  ).toEqual([]);
}

/** Screenshots for people to look at (not compared): e2e/.screens/<name>-<theme>.png */
export async function screenshotBothThemes(page: Page, name: string) {
  await freezeTransitions(page);
  for (const theme of ["light", "dark"] as const) {
    await page.evaluate((t) => {
      document.documentElement.classList.toggle("dark", t === "dark");
    }, theme);
    await page.screenshot({ path: `e2e/.screens/${name}-${theme}.png`, fullPage: true });
  }
  await page.evaluate(() => document.documentElement.classList.remove("dark"));
}
