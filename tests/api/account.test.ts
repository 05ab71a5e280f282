import { describe, expect, it } from "vitest";
import { getDb } from "@/lib/server/db/client";
import { flushUsage } from "@/lib/server/modules/account/usage-recorder";
import { call, signUp, signUpWithKey, startTestApp } from "../helpers";

const app = await startTestApp();

describe("personal API keys", () => {
  it("creates a key shown once, lists it without the secret, and revokes it", async () => {
    const { cookie } = await signUp(app);
    const created = await call(app, "POST", "/api/v1/users/me/api-keys", {
      cookie,
      body: { name: "laptop" },
    });
    expect(created.status).toBe(201);
    expect(created.json.key).toMatch(/^lk_[0-9A-Za-z]{40}$/);
    expect(created.json.prefix).toBe(created.json.key.slice(0, 8));

    const list = await call(app, "GET", "/api/v1/users/me/api-keys", { cookie });
    expect(list.json.items).toHaveLength(1);
    expect(list.json.items[0]).toMatchObject({ name: "laptop", id: created.json.id });
    expect(JSON.stringify(list.json)).not.toContain(created.json.key);

    const ent = await call(app, "GET", "/api/v1/users/me/entitlements", { key: created.json.key });
    expect(ent.status).toBe(200);

    const del = await call(app, "DELETE", `/api/v1/users/me/api-keys/${created.json.id}`, { cookie });
    expect(del.status).toBe(204);
    const after = await call(app, "GET", "/api/v1/users/me/entitlements", { key: created.json.key });
    expect(after.status).toBe(401);
    const again = await call(app, "DELETE", `/api/v1/users/me/api-keys/${created.json.id}`, { cookie });
    expect(again.status).toBe(404);
  });

  it("stores only a hash of the key", async () => {
    const { key } = await signUpWithKey(app);
    const db = await getDb();
    const { apiKeys } = await import("@/lib/server/db/schema");
    const rows = await db.select().from(apiKeys);
    expect(rows.some((r) => r.keyHash === key || JSON.stringify(r).includes(key))).toBe(false);
  });

  it("applies the credential rules: 403 for the wrong kind, 401 for missing or unknown", async () => {
    const { key } = await signUpWithKey(app);
    const keyOnSessionRoute = await call(app, "POST", "/api/v1/users/me/api-keys", {
      key,
      body: { name: "x" },
    });
    expect(keyOnSessionRoute.status).toBe(403);
    const listWithKey = await call(app, "GET", "/api/v1/users/me/api-keys", { key });
    expect(listWithKey.status).toBe(403);
    const missing = await call(app, "GET", "/api/v1/users/me/credits");
    expect(missing.status).toBe(401);
    expect(missing.res.headers.get("www-authenticate")).toMatch(/Bearer/);
    const unknown = await call(app, "GET", "/api/v1/users/me/credits", { key: `lk_${"x".repeat(40)}` });
    expect(unknown.status).toBe(401);
    const unknownDeploymentKey = await call(app, "GET", "/api/v1/users/me/credits", {
      key: `ldk_${"x".repeat(40)}`,
    });
    expect(unknownDeploymentKey.status).toBe(401);
    const garbage = await call(app, "GET", "/api/v1/users/me/credits", {
      headers: { Authorization: "Basic abc" },
    });
    expect(garbage.status).toBe(401);
  });

  it("never lets one user revoke or read another user's key", async () => {
    const a = await signUpWithKey(app);
    const b = await signUp(app);
    const del = await call(app, "DELETE", `/api/v1/users/me/api-keys/${a.keyId}`, { cookie: b.cookie });
    expect(del.status).toBe(404);
    const usage = await call(app, "GET", `/api/v1/users/me/api-keys/${a.keyId}/usage`, { cookie: b.cookie });
    expect(usage.status).toBe(404);
  });

  it("counts requests and errors per key", async () => {
    const { key, keyId } = await signUpWithKey(app);
    for (let i = 0; i < 3; i++) await call(app, "GET", "/api/v1/users/me/credits", { key });
    await call(app, "GET", "/api/v1/users/me/api-keys/key_doesnotexist/usage", { key });
    await flushUsage(await getDb());
    const usage = await call(app, "GET", `/api/v1/users/me/api-keys/${keyId}/usage`, { key });
    expect(usage.status).toBe(200);
    // three credits calls + the 404 (the usage call itself is counted after it answers)
    expect(usage.json.total_requests).toBe(4);
    expect(usage.json.total_errors).toBe(1);
    expect(usage.json.daily[0].date).toBe(new Date().toISOString().slice(0, 10));
    expect(usage.json.last_used_at).not.toBeNull();
  });
});

describe("plan, credits and profile", () => {
  it("returns entitlements from the plan", async () => {
    const { key } = await signUpWithKey(app);
    const r = await call(app, "GET", "/api/v1/users/me/entitlements", { key });
    expect(r.json.plan).toEqual({ id: "free", name: "Free" });
    expect(r.json.limits.upload_file_bytes).toBeGreaterThan(0);
    expect(typeof r.json.features.gpu_training).toBe("boolean");
  });

  it("computes the credit balance from the ledger", async () => {
    const { key, user } = await signUpWithKey(app);
    const { grantCredits } = await import("@/lib/server/modules/account/credits");
    await grantCredits(await getDb(), user.id, -12.5, "Training job", "job_x");
    const r = await call(app, "GET", "/api/v1/users/me/credits", { key });
    expect(r.json.balance).toBe(87.5);
    expect(r.json.recent.map((e: { amount: number }) => e.amount).sort()).toEqual([-12.5, 100]);
  });

  it("serves public profiles without a credential and 404 for unknown users", async () => {
    const { username } = await signUp(app);
    const r = await call(app, "GET", `/api/v1/users/${username}/profile`);
    expect(r.status).toBe(200);
    expect(r.json.username).toBe(username);
    expect(r.json.email).toBeUndefined();
    const missing = await call(app, "GET", "/api/v1/users/nobody-here-xyz/profile");
    expect(missing.status).toBe(404);
  });
});
