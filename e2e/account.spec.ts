import { expect, test } from "@playwright/test";
import { expectAccessible, screenshotBothThemes, uniqueUser } from "./fixtures";

test("a new user signs up, creates a key that works, signs out and back in", async ({
  page,
  request,
  baseURL,
}) => {
  const user = uniqueUser();
  await page.goto("/signup");
  await expectAccessible(page);
  await screenshotBothThemes(page, "signup");
  await page.getByLabel("E-mail").fill(user.email);
  await page.getByLabel("Username").fill(user.username);
  await page.getByLabel("Password").fill(user.password);
  await page.getByRole("button", { name: "Create account" }).click();

  await expect(page).toHaveURL(/\/projects$/);
  await expect(page.getByTestId("shell-username")).toHaveText(user.username);
  await expect(page.getByRole("heading", { name: "No projects yet" })).toBeVisible();
  await expectAccessible(page);

  await page.getByRole("link", { name: "Account" }).click();
  await expect(page.getByRole("heading", { name: "API keys" })).toBeVisible();
  await expect(page.getByText("No API keys yet")).toBeVisible();
  await expect(page.getByTestId("credit-balance")).toContainText("100");
  await page.getByLabel("New key name").fill("laptop");
  await page.getByRole("button", { name: "Create key" }).click();
  const keyText = page.getByTestId("new-key-value");
  await expect(keyText).toHaveText(/^lk_[0-9A-Za-z]{40}$/);
  const key = (await keyText.textContent()) ?? "";
  await expect(page.getByTestId("api-key-row")).toHaveCount(1);
  await expect(page.getByTestId("api-key-row")).toContainText("laptop");
  await expectAccessible(page);
  await screenshotBothThemes(page, "account");

  // The key works for scripts.
  const ent = await request.get(`${baseURL}/api/v1/users/me/entitlements`, {
    headers: { Authorization: `Bearer ${key}` },
  });
  expect(ent.status()).toBe(200);
  expect((await ent.json()).plan.id).toBe("free");

  // Once dismissed, the key is never shown again; the list shows only its prefix.
  await page.getByRole("button", { name: "Done" }).click();
  await page.reload();
  await expect(page.getByTestId("api-key-row")).toContainText(key.slice(0, 8));
  await expect(page.getByText(key)).toHaveCount(0);

  await page.getByRole("button", { name: "Sign out" }).click();
  // Signed out, the home page offers a way on: the hub, signing in or up.
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole("link", { name: "Sign in" })).toBeVisible();
  await expect(
    page.getByRole("navigation", { name: "Public" }).getByRole("link", { name: "Hub" }),
  ).toBeVisible();
  await page.goto("/account");
  await expect(page).toHaveURL(/\/login$/);

  await page.getByLabel("E-mail or username").fill(user.username);
  await page.getByLabel("Password").fill("wrong password");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByText("Wrong e-mail/username or password.")).toBeVisible();
  await page.getByLabel("Password").fill(user.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByTestId("shell-username")).toHaveText(user.username);
});

test("revoking a key asks for confirmation and the key stops working", async ({ page, request, baseURL }) => {
  const user = uniqueUser();
  await page.goto("/signup");
  await page.getByLabel("E-mail").fill(user.email);
  await page.getByLabel("Username").fill(user.username);
  await page.getByLabel("Password").fill(user.password);
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page).toHaveURL(/\/projects$/);
  await page.goto("/account");
  await page.getByLabel("New key name").fill("ci");
  await page.getByRole("button", { name: "Create key" }).click();
  const key = (await page.getByTestId("new-key-value").textContent()) ?? "";
  await page.getByRole("button", { name: "Revoke", exact: true }).click();
  await page.getByRole("button", { name: "Revoke ci" }).click();
  await expect(page.getByText("No API keys yet")).toBeVisible();
  const res = await request.get(`${baseURL}/api/v1/users/me/credits`, {
    headers: { Authorization: `Bearer ${key}` },
  });
  expect(res.status()).toBe(401);
});

test("public pages work signed out", async ({ page }) => {
  await page.goto("/");
  await expect(page.getByRole("heading", { name: /Design a model as a diagram/ })).toBeVisible();
  await expectAccessible(page);
  await screenshotBothThemes(page, "home");
  await page.goto("/hub");
  await expect(page.getByRole("heading", { name: "Model hub" })).toBeVisible();
  await page.goto("/login");
  await expectAccessible(page);
  await page.goto("/docs/api");
  // The reference renders the whole document in the browser: on a busy machine that takes a while.
  await expect(page.getByText("Layerline API").first()).toBeVisible({ timeout: 60_000 });
  // Self-hosted and offline: no hosted AI chat or hosted API client.
  await expect(page.getByText("Ask AI")).toHaveCount(0);
  await expect(page.getByText("Open API Client")).toHaveCount(0);
});

test("signing in with a next= that leaves the site stays on the site", async ({ page, request, baseURL }) => {
  const user = uniqueUser();
  const created = await request.post(`${baseURL}/api/auth/signup`, {
    data: user,
    headers: { Origin: String(baseURL) },
  });
  expect(created.status()).toBe(201);
  const origin = new URL(String(baseURL)).origin;
  // As typed in the address bar: /\evil.example, //evil.example and https://evil.example/.
  for (const next of ["/%5Cevil.example", "//evil.example", "https%3A%2F%2Fevil.example%2F"]) {
    await page.context().clearCookies();
    await page.goto(`/login?next=${next}`);
    await page.getByLabel("E-mail or username").fill(user.username);
    await page.getByLabel("Password").fill(user.password);
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page.getByTestId("shell-username")).toHaveText(user.username);
    expect(new URL(page.url()).origin).toBe(origin);
  }
  // A same-site path is still honoured.
  await page.context().clearCookies();
  await page.goto(`/login?next=${encodeURIComponent("/account")}`);
  await page.getByLabel("E-mail or username").fill(user.username);
  await page.getByLabel("Password").fill(user.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/account$/);
});
