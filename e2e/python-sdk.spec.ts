import { spawn } from "node:child_process";
import path from "node:path";
import { expect, type Locator, test } from "@playwright/test";
import { apiJson, createProject, signUpViaApi } from "./fixtures";

test.use({ viewport: { width: 1440, height: 900 } });

/** A PyTorch loop on the user's own hardware, reporting through the Python SDK (python/). */
const SCRIPT = `
import sys, time, torch, layerline
torch.manual_seed(0)
x = torch.randn(256, 4); y = (x.sum(dim=1) > 0).long()
model = torch.nn.Sequential(torch.nn.Linear(4, 16), torch.nn.ReLU(), torch.nn.Linear(16, 2))
opt = torch.optim.Adam(model.parameters(), lr=0.05)
run = layerline.init()
for step in range(30):
    opt.zero_grad()
    loss = torch.nn.functional.cross_entropy(model(x), y)
    loss.backward(); opt.step()
    run.log({"loss": loss.item()}, step=step)
    run.progress(epoch=step + 1, epochs=30)
    print(f"step {step}", flush=True)
    time.sleep(0.25)
run.log_text("trained on my laptop")
`;

async function points(chart: Locator): Promise<number> {
  return Number((await chart.getAttribute("data-points")) ?? "0");
}

test("a PyTorch script reporting with the Python SDK appears live on its job page", async ({
  page,
  context,
  baseURL,
}) => {
  test.setTimeout(120_000);
  if (!baseURL) throw new Error("baseURL");
  await signUpViaApi(context, baseURL);
  const project = await createProject(context, baseURL, { name: "Laptop MLP", template: "mlp-classifier" });
  const job = await apiJson(context.request, baseURL, "POST", "/api/v1/training/jobs", {
    project_id: project.id,
    dataset_id: "builtin-iris",
    runtime: "external",
    name: "PyTorch on my laptop",
  });
  const { token } = await apiJson(
    context.request,
    baseURL,
    "POST",
    `/api/v1/training/jobs/${job.id}/stream-token`,
  );

  await page.goto(`/training/${job.id}`);
  await expect(page.getByTestId("job-state")).toHaveText("Queued");

  let exited = false;
  const child = spawn("/usr/bin/python3", ["-c", SCRIPT], {
    env: {
      ...process.env,
      PYTHONPATH: path.join(process.cwd(), "python"),
      LAYERLINE_URL: baseURL,
      LAYERLINE_JOB_ID: job.id,
      LAYERLINE_UPLOAD_TOKEN: token,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stderr = "";
  child.stderr.on("data", (chunk) => {
    stderr += String(chunk);
  });
  const done = new Promise<number | null>((resolve) =>
    child.on("exit", (code) => {
      exited = true;
      resolve(code);
    }),
  );

  // Live: the chart grows while the script is still training.
  const loss = page.getByRole("img", { name: /^Loss:/ });
  await expect(page.getByTestId("job-state")).toHaveText("Running", { timeout: 30_000 });
  await expect.poll(() => points(loss), { timeout: 30_000 }).toBeGreaterThanOrEqual(5);
  expect(exited, "the chart should grow before the script ends").toBe(false);

  expect(await done, stderr).toBe(0);
  await expect(page.getByTestId("job-state")).toHaveText("Succeeded");
  await expect.poll(() => points(loss)).toBe(30);
  await expect(page.getByTestId("log-line").filter({ hasText: "trained on my laptop" })).toBeVisible();
});
